// End-to-end benchmark: the whole `vq` process (start, read Y4M, extract, model, write)
// on golden pairs, per backend. Prints fps over the whole run and the cold start (a run
// of one frame). Usage:
//   bun tools/bench.ts [--backend cpu|gpu] [--pairs a,b] [--repeat N] [-- extra vq args]
import { spawnSync } from "node:child_process";
import { goldenPairs, goldenPath } from "../packages/core/src/golden.ts";

const argv = process.argv.slice(2);
const sep = argv.indexOf("--");
const extra = sep >= 0 ? argv.slice(sep + 1) : [];
const opts = sep >= 0 ? argv.slice(0, sep) : argv;
const get = (name: string, fallback: string) => {
  const i = opts.indexOf(name);
  return i >= 0 ? opts[i + 1]! : fallback;
};
const backend = get("--backend", "cpu");
const repeat = Number(get("--repeat", "3"));
const wanted = get("--pairs", "nat_576x324.x264crf30,nat_1920x1080.x264crf35").split(",");
const cli = new URL("../packages/cli/src/cli.ts", import.meta.url).pathname;

function run(args: string[]): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [cli, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`vq failed: ${r.stderr}`);
  return ms;
}

const rows: Record<string, string>[] = [];
for (const pair of goldenPairs().filter((p) => wanted.includes(p.pair))) {
  const base = ["-r", goldenPath(pair.reference), "-d", goldenPath(pair.distorted), "--json", "-o", "/dev/null", "-q", "--backend", backend, ...extra];
  const cold = Math.min(...Array.from({ length: repeat }, () => run([...base, "--frame_cnt", "1"])));
  const whole = [...Array(repeat)].map(() => run(base)).sort((a, b) => a - b)[Math.floor(repeat / 2)]!;
  rows.push({
    pair: pair.pair,
    size: `${pair.width}x${pair.height}`,
    frames: String(pair.frame_count),
    "median ms": whole.toFixed(0),
    "fps (whole process)": ((pair.frame_count * 1000) / whole).toFixed(2),
    "fps (after the first frame)": (((pair.frame_count - 1) * 1000) / Math.max(1, whole - cold)).toFixed(2),
    "cold start ms": cold.toFixed(0),
  });
}
console.log(`vq ${backend} ${extra.join(" ")}`);
console.table(rows);
