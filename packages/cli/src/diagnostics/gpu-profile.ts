/** `--gpu-profile`: GPU time per kernel pass, per frame, from the frame runner's timestamps. */
export function gpuProfileTable(timesNs: Record<string, number> | undefined, frames: number, spanNs?: number): string {
  if (!timesNs) return "vq: --gpu-profile: nothing ran on the GPU\n";
  const rows = Object.entries(timesNs);
  if (!rows.length) return "vq: --gpu-profile: the adapter has no timestamp queries\n";
  const total = rows.reduce((a, [, ns]) => a + ns, 0);
  const width = Math.max(...rows.map(([label]) => label.length), 5);
  const line = (label: string, ns: number) => `${label.padEnd(width)}  ${(ns / frames / 1000).toFixed(1).padStart(9)} µs/frame  ${((100 * ns) / total).toFixed(1).padStart(5)} %\n`;
  const span = spanNs ? `${"first pass start to last pass end (gaps between passes included)".padEnd(width)}  ${(spanNs / frames / 1000).toFixed(1).padStart(9)} µs/frame\n` : "";
  return `GPU time per frame over ${frames} frames (timestamp queries):\n${rows.map(([l, ns]) => line(l, ns)).join("")}${line("total", total)}${span}`;
}
