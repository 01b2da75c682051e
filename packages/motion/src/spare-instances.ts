/**
 * Module instances given back by closed extractors, per module, at most SPARE_INSTANCES:
 * a threaded run starts motion afresh for every span (ADR 0041), and a new instance's
 * memory (~20 MB at 1080p, zeroed by the system) cost about as much as a frame's motion.
 * An extractor's init lays out and overwrites what it uses, so a reused instance scores as
 * a new one.
 */
const spareInstances = new WeakMap<WebAssembly.Module, unknown[]>();
const SPARE_INSTANCES = 2;

/** An instance of the module's kernels: a spare one, or a new one. */
export function takeInstance<Kernels>(module: WebAssembly.Module): Kernels {
  return (spareInstances.get(module)?.pop() ?? new WebAssembly.Instance(module).exports) as Kernels;
}

/** Keeps a closed extractor's instance for the next one, up to SPARE_INSTANCES. */
export function giveBackInstance(module: WebAssembly.Module, kernels: unknown): void {
  let spare = spareInstances.get(module);
  if (!spare) spareInstances.set(module, (spare = []));
  if (spare.length < SPARE_INSTANCES) spare.push(kernels);
}
