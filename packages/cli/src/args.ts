import { LIMITS, PIXEL_FORMATS, POOL_MODES, VqError, type PixelFormat, type PoolMode } from "@vq/core";
import { FEATURE_NAMES, parseFeatureString, parseModelArgument, SCALERS, type Backend, type FeatureRequest, type Scaler } from "@vq/score";
import { parseAlignArgument } from "./align-argument.ts";
import { parseThreshold, type Threshold } from "./thresholds/threshold-expression.ts";

export type { Backend, FeatureRequest };
export type OutputFormat = "xml" | "json" | "csv" | "sub";

export interface CliSettings {
  reference?: string;
  /** One, or several (a ladder: each scored against the one reference). */
  distorted: string[];
  width?: number;
  height?: number;
  pixelFormat?: PixelFormat;
  bitDepth?: number;
  features: FeatureRequest[];
  models: string[];
  noPrediction: boolean;
  output?: string;
  /** Also write an HTML report here. */
  report?: string;
  outputFormat?: OutputFormat;
  quiet: boolean;
  backend: Backend;
  precision: number | "max";
  frameCount?: number;
  skipRef: number;
  skipDist: number;
  subsample: number;
  threads: number;
  help: boolean;
  version: boolean;
  ffmpeg?: string;
  /** ffmpeg's -hwaccel for the inputs it decodes. */
  hwaccel?: string;
  /** ffmpeg's -threads for each input it decodes (0: its own choice). */
  decoderThreads?: number;
  scale: boolean;
  /** Convert the distorted video to the reference's format and frame rate (ffmpeg). */
  conform: boolean;
  /** swscale's algorithm for --scale and --conform. */
  scaler: Scaler;
  /** --align auto[=N]: the ±N frames searched for the inputs' offset. */
  align?: number;
  /** Different lengths are an error. */
  strictLength: boolean;
  /** Print GPU time per kernel pass (timestamp queries) to stderr. */
  gpuProfile: boolean;
  timing: boolean;
  /** `--pool extended`: the outputs' pooled metrics get median, stdev, p1, p5 and p95. */
  pool: PoolMode;
  /** `--threshold` expressions, checked against every run's pooled scores (exit code 3 when one fails). */
  thresholds: Threshold[];
}

interface Spec {
  long: string;
  short?: string;
  value: boolean;
}

const SPECS: Spec[] = [
  { long: "reference", short: "r", value: true },
  { long: "distorted", short: "d", value: true },
  { long: "width", short: "w", value: true },
  { long: "height", short: "h", value: true },
  { long: "pixel_format", short: "p", value: true },
  { long: "bitdepth", short: "b", value: true },
  { long: "model", short: "m", value: true },
  { long: "output", short: "o", value: true },
  { long: "xml", value: false },
  { long: "json", value: false },
  { long: "csv", value: false },
  { long: "sub", value: false },
  { long: "threads", value: true },
  { long: "feature", value: true },
  { long: "subsample", value: true },
  { long: "frame_cnt", value: true },
  { long: "frame_skip_ref", value: true },
  { long: "frame_skip_dist", value: true },
  { long: "no_prediction", short: "n", value: false },
  { long: "version", short: "v", value: false },
  { long: "quiet", short: "q", value: false },
  { long: "backend", value: true },
  { long: "precision", value: true },
  { long: "help", value: false },
  { long: "ffmpeg", value: true },
  { long: "hwaccel", value: true },
  { long: "decoder-threads", value: true },
  { long: "scale", value: false },
  { long: "conform", value: false },
  { long: "scaler", value: true },
  { long: "align", value: true },
  { long: "strict-length", value: false },
  { long: "gpu-profile", value: false },
  { long: "timing", value: false },
  { long: "report", value: true },
  { long: "pool", value: true },
  { long: "threshold", value: true },
];

/** `text` broken at spaces into lines of at most `width` columns, each indented by `indent`. */
function wrapped(text: string, indent: number, width: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.map((l) => " ".repeat(indent) + l).join("\n");
}

export const USAGE = `Usage: vq [options]
       vq report RESULT.json [MORE.json ...] [-o report.html]
       vq batch JOBS.jsonl [--concurrency N] [-q]
       vq submit --redis URL [--queue NAME] [--wait] JOBS.jsonl
       vq worker --redis URL [--queue NAME] [--concurrency N]
       vq doctor [--ffmpeg PATH]
       vq web [--port P]

Scores a distorted video against its reference with libvmaf's metrics, on the CPU or on WebGPU.
\`vq report\` turns --json results into one self-contained HTML page: one run's report, or
several runs compared (vq report --help). \`vq batch\` scores many jobs (one JSON object
per line) in one process, resumably (vq batch --help); \`vq submit\` puts them on a BullMQ
queue on Redis for \`vq worker\` processes on any machine (vq submit --help, vq worker --help).
\`vq doctor\` says what vq runs on and whether it works: runtime, threads, ffmpeg, the GPU and
its self-test (vq doctor --help). \`vq web\` serves the page that scores local files in a
browser, nothing uploaded (vq web --help).

  -r, --reference PATH        reference video: .y4m, .yuv, or anything ffmpeg decodes; - (standard
                              input), /dev/stdin or a FIFO is read as a Y4M stream (raw with -w -h -p -b)
  -d, --distorted PATH        distorted video, likewise; repeat it to score several (a ladder: the
                              reference is read once for all; -o then needs {name} or {n})
  -w, --width N               width (raw .yuv)
  -h, --height N              height (raw .yuv)
  -p, --pixel_format F        420, 422, 444 or 400 (raw .yuv)
  -b, --bitdepth N            8, 10, 12 or 16 (raw .yuv)
      --feature NAME[=opt=val:opt=val]
                              add a feature extractor (e.g. psnr=enable_mse=true); NAME is one of
${wrapped(FEATURE_NAMES.join(", "), 30, 90)}
  -m, --model version=NAME|path=FILE[:name=..:enable_transform=true:disable_clip=true]
  -n, --no_prediction         features only, no VMAF model
  -o, --output PATH           write results here (default: standard output; with several -d, one
                              summary line each unless -o names a file per input with {name}
                              (the distorted file's name without extension) or {n} (1, 2, ...))
      --xml | --json | --csv | --sub
                              output format (default: xml, like libvmaf)
      --report PATH           also write an HTML report (per-frame plot, worst frames with
                              the reference beside the distorted, pooled scores, bitrate,
                              settings); with several -d, one page comparing them (with a
                              bitrate-against-VMAF curve); the output above is unchanged
      --precision N|max       digits after the point (default 6); max = round-trip exact
      --pool libvmaf|extended extended: every pooled metric also gets median, stdev
                              (population), p1, p5 and p95 (as numpy computes them); in CSV as
                              rows after the frames (default libvmaf: its four statistics)
      --threshold METRIC.STAT OP VALUE
                              exit with 3 when a pooled statistic fails the test (one line each
                              on stderr; the output is still written); repeatable. For example
                              'vmaf.mean>=93' 'vmaf.p5>=80' 'psnr_y.min>30'. STAT: min, max,
                              mean, harmonic_mean, median, stdev, p1, p5, p95; OP: >=, >, <=, <
      --backend cpu|gpu|auto  where to compute (default auto: the GPU if an adapter exists); a GPU is
                              first checked against the CPU (docs/gpu-self-test.md)
      --frame_cnt N           score at most N frames
      --frame_skip_ref N      skip the first N reference frames
      --frame_skip_dist N     skip the first N distorted frames
      --subsample N           write and pool every N-th frame
      --threads N             CPU worker threads (at most 256; never more than frames)
      --scale                 scale the distorted video to the reference's size (ffmpeg)
      --conform               convert the distorted video to the reference's size, bit depth,
                              chroma subsampling and frame rate through ffmpeg (filters:
                              docs/real-world-inputs.md); without it a mismatch is an error
      --scaler bicubic|lanczos|bilinear|neighbor
                              the scaling algorithm of --scale and --conform (default bicubic)
      --align auto[=N]        find the offset between the inputs within ±N frames (default 30)
                              and skip frames as --frame_skip_ref/--frame_skip_dist would
      --strict-length         inputs of different lengths are an error (default: score the
                              common part and warn)
      --gpu-profile           print the GPU time of every kernel pass per frame (timestamp queries)
      --timing                print when the first frame was scored (from process start) and
                              the steady rate: the frames of the run's second half over their time
      --ffmpeg PATH           the ffmpeg binary for non-Y4M/YUV inputs (default: ffmpeg on PATH);
                              ffprobe beside it gives the progress line its total
      --hwaccel NAME          decode those inputs with ffmpeg's -hwaccel NAME (cuda, vaapi, qsv,
                              videotoolbox, ... as your ffmpeg has them; ffmpeg -hwaccels lists them)
      --decoder-threads N     ffmpeg's decoding threads per input (-threads N; default 0: ffmpeg's
                              own, about one a core); fewer when many vq runs decode at once
  -q, --quiet                 only errors on stderr (no progress, no notes)
  -v, --version               print the version
      --help                  this text

Exit status: 0 scored; 1 an error (with several -d: an input failed, the others are written);
3 scored and written, but a --threshold failed; 129, 130, 143 stopped by SIGHUP, SIGINT, SIGTERM
(nothing written, ffmpeg stopped).
`;

function parseUnsigned(option: string, value: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^\d+$/.test(value) || Number(value) < min) {
    throw new VqError(`invalid argument "${value}" for --${option}: expected ${min > 0 ? "a positive" : "a non-negative"} integer`);
  }
  // Checked here, before anything is sized by it (docs/limits.md).
  if (Number(value) > max) throw new VqError(`invalid argument "${value}" for --${option}: at most ${max} (vq's limit, docs/limits.md)`);
  return Number(value);
}

/** `name=opt=val:opt=val` as libvmaf's --feature takes it. */
export function parseFeatureArgument(arg: string): FeatureRequest {
  return parseFeatureString(arg, "--feature");
}

export function parseArgs(argv: readonly string[]): CliSettings {
  const s: CliSettings = { distorted: [], features: [], models: [], noPrediction: false, quiet: false, backend: "auto", precision: 6, skipRef: 0, skipDist: 0, subsample: 1, threads: 1, help: false, version: false, scale: false, conform: false, scaler: "bicubic", strictLength: false, gpuProfile: false, timing: false, pool: "libvmaf", thresholds: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let spec: Spec | undefined;
    let value: string | undefined;
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      spec = SPECS.find((x) => x.long === name);
      if (!spec) throw new VqError(`unknown option ${arg} (see vq --help)`);
      if (eq >= 0) {
        if (!spec.value) throw new VqError(`option --${spec.long} takes no value`);
        value = arg.slice(eq + 1);
      }
    } else if (arg.startsWith("-") && arg.length > 1) {
      spec = SPECS.find((x) => x.short === arg[1]);
      if (!spec) throw new VqError(`unknown option ${arg} (see vq --help)`);
      if (arg.length > 2) {
        if (!spec.value) throw new VqError(`option -${arg[1]} takes no value`);
        value = arg.slice(2);
      }
    } else {
      throw new VqError(`unexpected argument "${arg}" (see vq --help)`);
    }
    if (spec.value && value === undefined) {
      value = argv[++i];
      if (value === undefined) throw new VqError(`option --${spec.long} needs a value`);
    }
    const v = value ?? "";
    switch (spec.long) {
      case "reference":
        s.reference = v;
        break;
      case "distorted":
        s.distorted.push(v);
        break;
      case "width":
        s.width = parseUnsigned("width", v, 1, LIMITS.pictureSide);
        break;
      case "height":
        s.height = parseUnsigned("height", v, 1, LIMITS.pictureSide);
        break;
      case "pixel_format":
        if (!PIXEL_FORMATS.includes(v as PixelFormat)) throw new VqError(`invalid argument "${v}" for --pixel_format: expected 420, 422, 444 or 400`);
        s.pixelFormat = v as PixelFormat;
        break;
      case "bitdepth": {
        const b = parseUnsigned("bitdepth", v, 8);
        if (b > 16) throw new VqError(`invalid argument "${v}" for --bitdepth: expected 8 to 16`);
        s.bitDepth = b;
        break;
      }
      case "model":
        parseModelArgument(v, "--model"); // a bad one named in the command line's words
        s.models.push(v);
        break;
      case "output":
        s.output = v;
        break;
      case "xml":
      case "json":
      case "csv":
      case "sub":
        s.outputFormat = spec.long;
        break;
      case "threads":
        s.threads = parseUnsigned("threads", v, 1, LIMITS.threads);
        break;
      case "feature":
        s.features.push(parseFeatureArgument(v));
        break;
      case "subsample":
        s.subsample = parseUnsigned("subsample", v, 1);
        break;
      case "frame_cnt":
        s.frameCount = parseUnsigned("frame_cnt", v, 1);
        break;
      case "frame_skip_ref":
        s.skipRef = parseUnsigned("frame_skip_ref", v);
        break;
      case "frame_skip_dist":
        s.skipDist = parseUnsigned("frame_skip_dist", v);
        break;
      case "no_prediction":
        s.noPrediction = true;
        break;
      case "version":
        s.version = true;
        break;
      case "quiet":
        s.quiet = true;
        break;
      case "backend":
        if (v !== "cpu" && v !== "gpu" && v !== "auto") throw new VqError(`invalid argument "${v}" for --backend: expected cpu, gpu or auto`);
        s.backend = v;
        break;
      case "precision":
        if (v === "max") s.precision = "max";
        else {
          const p = parseUnsigned("precision", v);
          if (p > 17) throw new VqError(`invalid argument "${v}" for --precision: expected 0 to 17 or max`);
          s.precision = p;
        }
        break;
      case "help":
        s.help = true;
        break;
      case "ffmpeg":
        s.ffmpeg = v;
        break;
      case "hwaccel":
        if (!/^[a-z0-9_]+$/.test(v)) throw new VqError(`invalid argument "${v}" for --hwaccel: expected an ffmpeg hwaccel name such as cuda, vaapi, qsv or videotoolbox`);
        s.hwaccel = v;
        break;
      case "decoder-threads":
        s.decoderThreads = parseUnsigned("decoder-threads", v, 0, LIMITS.threads);
        break;
      case "scale":
        s.scale = true;
        break;
      case "conform":
        s.conform = true;
        break;
      case "scaler":
        if (!SCALERS.includes(v as Scaler)) throw new VqError(`invalid argument "${v}" for --scaler: expected ${SCALERS.join(", ")}`);
        s.scaler = v as Scaler;
        break;
      case "align":
        s.align = parseAlignArgument(v);
        break;
      case "strict-length":
        s.strictLength = true;
        break;
      case "gpu-profile":
        s.gpuProfile = true;
        break;
      case "timing":
        s.timing = true;
        break;
      case "report":
        s.report = v;
        break;
      case "pool":
        if (!POOL_MODES.includes(v as PoolMode)) throw new VqError(`invalid argument "${v}" for --pool: expected ${POOL_MODES.join(" or ")}`);
        s.pool = v as PoolMode;
        break;
      case "threshold":
        s.thresholds.push(parseThreshold(v));
        break;
    }
  }
  if (s.help || s.version) return s;
  if (!s.reference) throw new VqError("the reference video (-r/--reference) is required");
  if (!s.distorted.length) throw new VqError("the distorted video (-d/--distorted) is required");
  if (s.align !== undefined && (s.skipRef || s.skipDist)) throw new VqError("--align auto finds the frame skips itself: give it without --frame_skip_ref and --frame_skip_dist");
  return s;
}

export const DOCTOR_USAGE = `Usage: vq doctor [--ffmpeg PATH]

Says what vq runs on and whether it works: the runtime, vq's version, CPU threads, the cache
directory, ffmpeg (path, version, hardware decoders, ffprobe) and the WebGPU adapter vq uses
(features, limits) with a fresh GPU self-test of every kernel set: each scores a small fixed
input on the GPU and on the CPU, and they must agree (docs/gpu-self-test.md).

      --ffmpeg PATH           the ffmpeg binary to check (default: ffmpeg on PATH)
      --help                  this text

Exit status: 0 all well (no GPU or no ffmpeg is well: they are optional); 1 something vq would
use is broken (a self-test mismatch, a GPU that cannot be opened, an ffmpeg that does not run),
each problem named on stderr.
`;

/** `vq web`'s port when none is given. */
export const WEB_DEFAULT_PORT = 8747;

export const WEB_USAGE = `Usage: vq web [--port P]

Serves vq's browser page on http://127.0.0.1:P/ (building it first when its build is missing
or older than the sources) and prints the address; Ctrl-C stops it. The page scores local
files, Y4M or MP4, MOV, WebM and MKV as the browser decodes them (WebCodecs), on WebGPU or
on the CPU in a worker; nothing is uploaded (docs/web.md). Its build, packages/web/dist, is a
folder any static web server can serve as well.

      --port P                the port (default ${WEB_DEFAULT_PORT}; 0: any free port)
      --help                  this text
`;

export interface WebSettings {
  port: number;
  help: boolean;
}

/** The arguments after `vq web`. */
export function parseWebArgs(argv: readonly string[]): WebSettings {
  const w: WebSettings = { port: WEB_DEFAULT_PORT, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help") w.help = true;
    else if (arg === "--port" || arg.startsWith("--port=")) {
      const v = arg === "--port" ? argv[++i] : arg.slice("--port=".length);
      if (v === undefined || !/^\d+$/.test(v) || Number(v) > 65535) throw new VqError(`option --port needs a port number, 0 to 65535 (got ${v === undefined ? "nothing" : `"${v}"`})`);
      w.port = Number(v);
    } else throw new VqError(`unknown argument ${arg} for vq web (see vq web --help)`);
  }
  return w;
}

export const REPORT_USAGE = `Usage: vq report RESULT.json [MORE.json ...] [-o report.html]

Writes one self-contained HTML page (inline SVG, CSS, script and pictures; nothing loaded
from the network) for JSON results of vq or libvmaf (--json).
One file: VMAF and every feature per frame (a bootstrap model's confidence interval as a
band), the frames below the mean, the pooled scores and the settings the file carries.
Several files: the runs compared: VMAF per frame of every run on one chart, the
distribution of their frame scores, a table per run (pooled scores, frames below the mean).
A JSON result does not name its videos: for the worst frames' pictures (reference beside
distorted) and a bitrate-against-VMAF curve, score with --report PATH instead.

  -o, --output PATH           write the report here (default: standard output)
      --help                  this text
`;

export interface ReportSettings {
  /** The JSON result files, in the order given (one: a run's report; several: their comparison). */
  inputs: string[];
  output?: string;
  help: boolean;
}

/** The arguments after \`vq report\`. */
export function parseReportArgs(argv: readonly string[]): ReportSettings {
  const r: ReportSettings = { inputs: [], help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--help") r.help = true;
    else if (arg === "-o" || arg === "--output") {
      const v = argv[++i];
      if (v === undefined) throw new VqError(`option --output needs a value (vq report RESULT.json -o report.html)`);
      r.output = v;
    } else if (arg.startsWith("--output=")) r.output = arg.slice("--output=".length);
    else if (arg.startsWith("-o") && arg.length > 2) r.output = arg.slice(2);
    else if (arg.startsWith("-") && arg !== "-") throw new VqError(`unknown option ${arg} for vq report (see vq report --help)`);
    else r.inputs.push(arg);
  }
  if (!r.help && !r.inputs.length) throw new VqError("vq report needs a JSON result file: vq report RESULT.json -o report.html");
  return r;
}

/** A .yuv path is raw YUV and needs its format given; .y4m and other files carry theirs. */
export function rawFormatFor(s: CliSettings, path: string): { width: number; height: number; pixelFormat: PixelFormat; bitDepth: number } | undefined {
  if (!/\.yuv$/i.test(path)) return undefined;
  if (s.width === undefined || s.height === undefined || s.pixelFormat === undefined || s.bitDepth === undefined) {
    throw new VqError(`${path}: raw YUV input needs --width, --height, --pixel_format and --bitdepth`);
  }
  return { width: s.width, height: s.height, pixelFormat: s.pixelFormat, bitDepth: s.bitDepth };
}
