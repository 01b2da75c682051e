import type { PassRecorder } from "./gpu-stage.ts";
import { computePipeline, computePipelines, type KernelSpec } from "./pipeline-cache.ts";

/** What a binding takes: a whole buffer, or a range of one (a frame's view, a stage's result slice). */
export type BoundResource = GPUBuffer | GPUBufferBinding;

/** A kernel's resources by the names its WGSL declares them under (`var<...> name`). */
export type Bindings = Readonly<Record<string, BoundResource>>;

/** Workgroups of a dispatch: x, or [x, y, z] (y and z default to 1). */
export type Workgroups = number | readonly [number, number?, number?];

export interface StageKernelSpec extends KernelSpec {
  /**
   * The bindings its entry point uses, when a stage hands it more (one set of resources
   * for several kernels): an `auto` layout has exactly the bindings the entry point uses,
   * so only these are bound. Without it, every resource given is bound.
   */
  readonly uses?: readonly string[];
}

/** Bind groups a kernel keeps; a stage meets a handful per ring slot, so this is only a guard against a leak. */
const MAX_CACHED_GROUPS = 1024;

/** Cache trie of a kernel's bind groups: per binding its buffer, then its offset and size. */
type GroupNode = Map<unknown, GroupNode | GPUBindGroup>;
/** Trie keys that no resource can be: a binding left out, a whole buffer, the bind group itself. */
const ABSENT = Symbol("absent");
const WHOLE = Symbol("whole buffer");
const GROUP = Symbol("bind group");

/** The child of `node` at `key`, made on a miss. */
function child(node: GroupNode, key: unknown): GroupNode {
  let next = node.get(key) as GroupNode | undefined;
  if (!next) node.set(key, (next = new Map()));
  return next;
}

/** Bind groups are the only resources a stage passes that are not buffers or buffer ranges. */
function isBindGroup(b: Bindings | GPUBindGroup): b is GPUBindGroup {
  return groupsMade.has(b as GPUBindGroup);
}

/** Every bind group a StageKernel made (Dawn's objects are told apart from plain records by this). */
const groupsMade = new WeakSet<GPUBindGroup>();

function isBinding(r: BoundResource): r is GPUBufferBinding {
  return "buffer" in r;
}

/** `@group(0) @binding(N) var<...> name` declarations of WGSL code: name → N. */
export function wgslBindings(code: string): Map<string, number> {
  const table = new Map<string, number>();
  for (const m of code.matchAll(/@group\(\s*0\s*\)\s*@binding\(\s*(\d+)\s*\)\s*var(?:<[^>]*>)?\s+([A-Za-z_]\w*)/g)) {
    table.set(m[2]!, Number(m[1]));
  }
  return table;
}

/**
 * A compute kernel as a stage dispatches it: its pipeline, its bindings by their WGSL names,
 * and its bind groups, built the first time a set of resources is met and reused after.
 * Frame and result buffers rotate with the runner's ring, so a stage meets each ring slot's
 * set once and then only reuses it: no bind group, and no other GPU object, per frame.
 */
export class StageKernel {
  readonly label: string;
  private readonly slots: ReadonlyMap<string, number>;
  private readonly uses?: readonly string[];
  /** The names a bind-group key is made of, in a fixed order. */
  private readonly keyed: readonly string[];
  private readonly groups: GroupNode = new Map();
  private groupCount = 0;

  constructor(
    private readonly device: GPUDevice,
    spec: StageKernelSpec,
    readonly pipeline: GPUComputePipeline,
  ) {
    this.label = spec.label;
    this.slots = wgslBindings(spec.code);
    this.uses = spec.uses;
    this.keyed = spec.uses ?? [...this.slots.keys()];
    for (const name of spec.uses ?? []) if (!this.slots.has(name)) throw new Error(`${spec.label}: its WGSL declares no binding "${name}"`);
  }

  /** The bind group of these resources (cached by their buffers, offsets and sizes). */
  bindGroup(bindings: Bindings): GPUBindGroup {
    const node = this.walk(bindings);
    const known = node.get(GROUP) as GPUBindGroup | undefined;
    if (known) return known;
    const group = this.createGroup(bindings);
    if (this.groupCount >= MAX_CACHED_GROUPS) {
      this.groups.clear();
      this.groupCount = 0;
      this.walk(bindings).set(GROUP, group);
    } else node.set(GROUP, group);
    this.groupCount++;
    return group;
  }

  /** The trie node of these resources: per binding the WGSL declares (or the kernel uses), no string and, once built, no allocation. */
  private walk(bindings: Bindings): GroupNode {
    let node = this.groups;
    for (const name of this.keyed) {
      const r = bindings[name];
      if (r === undefined) node = child(node, ABSENT);
      else if (isBinding(r)) node = child(child(child(node, r.buffer), r.offset ?? 0), r.size ?? WHOLE);
      else node = child(child(node, r), WHOLE);
    }
    return node;
  }

  private createGroup(bindings: Bindings): GPUBindGroup {
    const entries = (this.uses ?? Object.keys(bindings)).map((name): GPUBindGroupEntry => {
      const binding = this.slots.get(name);
      if (binding === undefined) throw new Error(`${this.label}: its WGSL declares no binding "${name}" (it has ${[...this.slots.keys()].join(", ")})`);
      const r = bindings[name];
      if (r === undefined) throw new Error(`${this.label}: no resource for its binding "${name}"`);
      return { binding, resource: isBinding(r) ? r : { buffer: r } };
    });
    const group = this.device.createBindGroup({ label: this.label, layout: this.pipeline.getBindGroupLayout(0), entries });
    groupsMade.add(group);
    return group;
  }

  /**
   * Records one dispatch into an open pass (for passes of several dispatches). `bindings`
   * may be a bind group from `bindGroup`, for resources that never change (no lookup then).
   */
  dispatchIn(pass: GPUComputePassEncoder, bindings: Bindings | GPUBindGroup, workgroups: Workgroups): void {
    pass.setPipeline(this.pipeline);
    pass.setBindGroup(0, isBindGroup(bindings) ? bindings : this.bindGroup(bindings));
    if (typeof workgroups === "number") pass.dispatchWorkgroups(workgroups);
    else pass.dispatchWorkgroups(workgroups[0], workgroups[1] ?? 1, workgroups[2] ?? 1);
  }

  /** Records a pass of one dispatch, timed under `label` (the kernel's label by default) when profiling. */
  dispatch(passes: PassRecorder, bindings: Bindings | GPUBindGroup, workgroups: Workgroups, label = this.label): void {
    const pass = passes.beginComputePass(label);
    this.dispatchIn(pass, bindings, workgroups);
    pass.end();
  }
}

/** One kernel, built now (or taken from the pipeline cache). */
export function stageKernel(device: GPUDevice, spec: StageKernelSpec): StageKernel {
  return new StageKernel(device, spec, computePipeline(device, spec));
}

/** A stage's kernels, built at once on Dawn's threads (adr/0020-cold-start.md). */
export async function stageKernels<K extends string>(device: GPUDevice, specs: Readonly<Record<K, StageKernelSpec>>): Promise<Record<K, StageKernel>> {
  const names = Object.keys(specs) as K[];
  const pipelines = await computePipelines(device, names.map((k) => specs[k]));
  return Object.fromEntries(names.map((k, i) => [k, new StageKernel(device, specs[k], pipelines[i]!)])) as Record<K, StageKernel>;
}

/** A buffer from `offset` to its end (or `size` bytes): how batched kernels bind a batch from its first frame on. */
export function bufferFrom(buffer: GPUBuffer, offset: number, size = buffer.size - offset): GPUBufferBinding {
  return { buffer, offset, size };
}
