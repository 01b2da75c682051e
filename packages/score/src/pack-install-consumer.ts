// A library user's code, as pack-install.test.ts installs it beside the packed @vq/score:
// typechecked there by a strict tsc with no `types` setting (so the published declarations
// must stand alone: no @webgpu/types, Bun or Node types to add), then run by Node, Bun and Deno.
import { score } from "@vq/score";

/** VMAF v0.6.1's pooled mean over the pair, or the one-line error the run ended with. */
export async function vmafMean(reference: string, distorted: string, backend: "cpu" | "gpu" | "auto"): Promise<{ vmaf: number } | { error: string }> {
  try {
    const summary = await score({ reference, distorted, threads: 2, backend }).result;
    const vmaf = summary.pooled["vmaf"];
    return vmaf ? { vmaf: vmaf.mean } : { error: "no vmaf in the pooled scores" };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}
