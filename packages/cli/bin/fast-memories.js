// Bun's JavaScriptCore gives only the process's first 8 WebAssembly memories a "fast"
// reservation (JSC's maxNumWasmFastMemories); later ones check bounds on every access, which
// made the CPU kernels 15-40 % slower. Every extractor instance has its own memory, so a run
// with 3 or more extraction threads, or a ladder of 3 or more rungs on the CPU, passes 8. The
// option is read once, when Bun starts, so bin/vq.js starts such a run in a Bun child with it
// raised (adr/0044-bun-fast-wasm-memories.md).

/** The environment variable Bun reads the option from. */
export const FAST_MEMORIES_VARIABLE = "BUN_JSC_maxNumWasmFastMemories";
/**
 * Fast memories to allow: 4 GiB of address space each, reserved only as memories are made
 * (256 threads × 4 memories a worker for VMAF; past it, memories are slower, not wrong).
 */
export const FAST_MEMORIES = 1024;

/** Subcommands that may run CPU extraction threads from their jobs' own arguments. */
const JOB_COMMANDS = new Set(["batch", "worker"]);

/**
 * Whether a vq command line may hold more than one set of CPU extractors at once: `--threads`
 * above 1 (a set a worker), two or more distorted inputs (a ladder: a set a rung), or a jobs command.
 */
export function mayHoldManyExtractors(args) {
  if (JOB_COMMANDS.has(args[0])) return true;
  let distorted = 0;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = a === "--threads" ? args[i + 1] : a.startsWith("--threads=") ? a.slice("--threads=".length) : undefined;
    if (value !== undefined && Number(value) > 1) return true;
    if (/^(-d|--distorted(=|$))/.test(a)) distorted++; // -d X, -dX, --distorted X, --distorted=X
  }
  return distorted > 1;
}

/** `env` with the option raised, unless it is set already (a user's own value wins). */
export function withFastMemories(env) {
  return env[FAST_MEMORIES_VARIABLE] ? env : { ...env, [FAST_MEMORIES_VARIABLE]: String(FAST_MEMORIES) };
}
