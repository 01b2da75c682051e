import { join } from "node:path";
import { mutateText, ODD_NUMBERS } from "../mutators.ts";
import type { Prng } from "../prng.ts";

/** Where a command line's files are: the sample pair, a model file, outputs in the case dir. */
export interface CommandFiles {
  ref: string;
  dist: string;
  model: string;
  out: string;
}

/** Real, valid vq command lines (libvmaf's vmaf arguments and vq's own), the mutations' starting points. */
export function validCommandLines(f: CommandFiles): string[][] {
  return [
    ["-r", f.ref, "-d", f.dist],
    ["-r", f.ref, "-d", f.dist, "--json", "-o", join(f.out, "out.json"), "--precision", "max", "--pool", "extended"],
    ["--reference", f.ref, "--distorted", f.dist, "--model", "version=vmaf_v0.6.1:name=vmaf_a", "--model", "version=vmaf_float_v0.6.1:name=b", "--csv", "--threads", "2"],
    ["-r", "ref.yuv", "-d", "dist.yuv", "-w", "160", "-h", "90", "-p", "420", "-b", "8", "--frame_cnt", "3", "--subsample", "2"],
    ["-r", f.ref, "-d", f.dist, "-n", "--feature", "psnr=enable_mse=true", "--feature", "float_ssim", "--feature", "ciede", "--xml"],
    ["-r", f.ref, "-d", f.dist, "--threshold", "vmaf.mean>=20", "--threshold", "psnr_y.min>10", "--feature", "psnr", "--backend", "cpu"],
    ["-r", f.ref, "-d", f.dist, "--model", `path=${f.model}:enable_transform:disable_clip`, "--scale", "--scaler", "lanczos", "--align", "auto=2"],
    ["-r", f.ref, "-d", f.dist, "-d", `${f.dist.slice(0, -4)}2.y4m`, "-o", join(f.out, "{name}.json"), "--json"],
    ["report", join(f.out, "result.json"), "-o", join(f.out, "report.html")],
    ["batch", join(f.out, "jobs.jsonl"), "--concurrency", "2", "-q"],
    ["worker", "--redis", "redis://127.0.0.1:6379/0", "--queue", "vq", "--concurrency", "2", "--lock-duration", "30000", "--gpus", "0,1"],
    ["submit", "--redis", "rediss://user:secret@queue.example:6380/1", "--queue", "vq-batch", "--wait", join(f.out, "jobs.jsonl")],
    ["-r", f.ref, "-d", `${f.dist.slice(0, -4)}.mp4`, "--hwaccel", "cuda", "--conform", "--scaler", "bilinear", "--threads", "4"],
    ["-r", f.ref, "-d", f.dist, "--model", "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1:motion.motion_force_zero=true", "--frame_skip_ref", "1", "--frame_skip_dist", "2", "--strict-length", "-q", "--sub"],
    ["-r", f.ref, "-d", f.dist, "--feature", "motion=motion_force_zero=true", "--feature", "psnr_hvs", "--report", join(f.out, "report.html"), "--timing"],
    ["--help"],
    ["-v"],
  ];
}

const OPTIONS = ["--hwaccel", "--redis", "--queue", "--concurrency", "--lock-duration", "--gpus", "--wait", "-r", "-d", "-w", "-h", "-p", "-b", "-m", "-o", "-n", "-q", "-v", "--xml", "--json", "--csv", "--sub", "--threads", "--feature", "--subsample", "--frame_cnt", "--frame_skip_ref", "--frame_skip_dist", "--backend", "--precision", "--help", "--scale", "--conform", "--scaler", "--align", "--strict-length", "--gpu-profile", "--timing", "--report", "--pool", "--threshold", "--model", "--ffmpeg"];
const ODD_OPTIONS = ["--foo", "-x", "--", "-", "---r", "--REFERENCE", "--json=1", "--model=", "--threads=", "-rx.y4m", "--feature=", "-", "--no_prediction=yes", "-nq", "report", "--pixel_format", "-", "redis://", "redis://:@", "http://x", "--redis=redis://h/x", "--gpus=all", "--queue="];
const ODD_MODELS = ["version=", "path=", "version=vmaf_v9", "version=vmaf_v0.6.1:path=x", ":", "::", "version=vmaf_v0.6.1:name=", "version=vmaf_v0.6.1:enable_transform=maybe", "version=vmaf_v0.6.1:adm.=1", "version=vmaf_v0.6.1:.x=1", "version=vmaf_v0.6.1:adm.adm_enhn_gain_limit=1e999", "version=vmaf_v0.6.1:vif.vif_kernelscale=-1", "version=vmaf_v0.6.1:foo.bar=1", "version=vmaf_v0.6.1=x", "path=/nonexistent.json", "version=vmaf_b_v0.6.3:name=vmaf", "version=vmaf_v0.6.1:motion.motion_force_zero=2"];
const ODD_FEATURES = ["", "=", "psnr=", "psnr=enable_mse", "psnr=enable_mse=maybe", "psnr=x=1", "nope", "cambi=eotf=pq", "cambi=tvi_threshold=1e999", "cambi=window_size=0", "cambi=topk=-1", "float_ssim=enable_db=true:scale=0", "vif=vif_kernelscale=NaN", "adm=adm_enhn_gain_limit=0.5", "motion=motion_fps_weight=-1", "psnr=min_sse=Infinity", "speed_chroma=speed_kernelscale=99", "float_ms_ssim=enable_lcs=true", "psnr::enable_mse=true", "ciede=x"];
const ODD_THRESHOLDS = ["vmaf.mean", "vmaf.mean>=", ">=93", "vmaf.mean>=NaN", "vmaf.mean>=1e999", "vmaf.mean=>93", "vmaf.p101>=1", "vmaf.median>=-Infinity", "nope.mean>1", "vmaf..mean>1", "vmaf.mean>=93>=1", "vmaf.stdev<0x10", "psnr_cb.min>1"];

/** A valid command line with one to three structure-aware edits: options unknown, doubled or cut from their values, odd numbers and strings. */
export function mutateCommandLine(rng: Prng, valid: readonly string[], edits = 1 + rng.int(3)): string[] {
  const a = [...valid];
  for (let n = edits; n > 0; n--) {
    const i = rng.int(a.length + 1);
    const valueAt = () => {
      const options = a.map((x, k) => (x.startsWith("-") && k + 1 < a.length && !a[k + 1]!.startsWith("-") ? k + 1 : -1)).filter((k) => k >= 0);
      return options.length ? rng.pick(options) : -1;
    };
    switch (rng.int(11)) {
      case 0:
        a.splice(i, 0, rng.pick(ODD_OPTIONS));
        break;
      case 1:
        a.splice(Math.min(i, a.length - 1), 1);
        break;
      case 2: {
        // an option repeated with its value
        const k = a.findIndex((x, j) => j >= i && x.startsWith("-"));
        if (k >= 0) a.push(...a.slice(k, k + 2));
        break;
      }
      case 3: {
        const k = valueAt();
        if (k >= 0) a[k] = rng.pick(ODD_NUMBERS);
        break;
      }
      case 4: {
        const k = a.findIndex((x) => x === "--model" || x === "-m");
        if (k >= 0 && k + 1 < a.length) a[k + 1] = rng.chance(0.5) ? rng.pick(ODD_MODELS) : mutateText(rng, a[k + 1]!);
        else a.push("--model", rng.pick(ODD_MODELS));
        break;
      }
      case 5: {
        const k = a.indexOf("--feature");
        if (k >= 0 && k + 1 < a.length) a[k + 1] = rng.chance(0.6) ? rng.pick(ODD_FEATURES) : mutateText(rng, a[k + 1]!);
        else a.push("--feature", rng.pick(ODD_FEATURES));
        break;
      }
      case 6:
        a.push("--threshold", rng.chance(0.7) ? rng.pick(ODD_THRESHOLDS) : mutateText(rng, "vmaf.mean>=93"));
        break;
      case 7: // an option with a value in another spelling: --opt=value, -wVALUE
        a.splice(i, 0, rng.chance(0.5) ? `${rng.pick(OPTIONS)}=${rng.pick(ODD_NUMBERS)}` : `${rng.pick(["-w", "-h", "-b", "-p", "-m", "-o"])}${rng.pick(ODD_NUMBERS)}`);
        break;
      case 8:
        a.splice(i, 0, rng.pick(OPTIONS), ...(rng.chance(0.7) ? [rng.pick([...ODD_NUMBERS, "cpu", "gpu", "max", "auto", "extended", "lanczos"])] : []));
        break;
      case 9: {
        const k = rng.int(a.length);
        if (a.length) a[k] = mutateText(rng, a[k]!);
        break;
      }
      default: {
        const k = rng.int(a.length);
        const j = rng.int(a.length);
        if (a.length) [a[k], a[j]] = [a[j]!, a[k]!];
      }
    }
  }
  return a;
}
