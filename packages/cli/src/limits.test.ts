import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "./main.ts";

// Inputs that claim more than they hold, or more than vq's limits (docs/limits.md): exit 1 with
// one printable line naming the input and the limit, before anything is allocated for the claim.

const dir = mkdtempSync(join(tmpdir(), "vq-limits-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, data: string | Uint8Array): string {
  const p = join(dir, name);
  writeFileSync(p, data);
  return p;
}

async function vq(args: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), stderrIsTty: false });
  return { code, stdout, stderr };
}

/** Exit 1, one printable line of at most 300 characters (plus "vq: " and the newline) containing `parts`, no output file. */
async function expectRefused(args: string[], ...parts: string[]): Promise<string> {
  const out = join(dir, `out-${Math.random().toString(36).slice(2)}.json`);
  const r = await vq([...args, "--json", "-o", out, "--backend", "cpu"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toStartWith("vq: ");
  expect(r.stderr).toEndWith("\n");
  const line = r.stderr.slice(4, -1);
  expect(line).not.toMatch(/[\x00-\x1f\x7f]/);
  expect(line.length).toBeLessThanOrEqual(300);
  for (const p of parts) expect(line).toContain(p);
  expect(existsSync(out)).toBe(false);
  return line;
}

/** A Y4M file of `frames` frames whose samples come from `sample(k)`, 16-bit little-endian above 8 bits. */
function y4m(header: string, frameSamples: number, frames: number, bitDepth: number, sample: (k: number) => number): Uint8Array {
  const bps = bitDepth > 8 ? 2 : 1;
  const head = new TextEncoder().encode(`${header}\n`);
  const frameBytes = 6 + frameSamples * bps;
  const out = new Uint8Array(head.length + frames * frameBytes);
  out.set(head);
  const view = new DataView(out.buffer);
  for (let f = 0; f < frames; f++) {
    const at = head.length + f * frameBytes;
    out.set(new TextEncoder().encode("FRAME\n"), at);
    for (let k = 0; k < frameSamples; k++) {
      const v = sample(f * frameSamples + k);
      if (bps === 2) view.setUint16(at + 6 + 2 * k, v, true);
      else out[at + 6 + k] = v;
    }
  }
  return out;
}

const noise = (max: number) => (k: number) => (Math.imul(k + 1, 0x9e3779b1) >>> 7) % (max + 1);

describe("limits before allocation", () => {
  test("a 60-byte Y4M file whose header claims 65536x65536", async () => {
    const big = file("big.y4m", "YUV4MPEG2 W65536 H65536 F25:1 Ip A1:1 C420jpeg XYSCSS\nFRAME\n");
    expect(readFileSync(big).length).toBe(60);
    await expectRefused(["-r", big, "-d", big, "--feature", "psnr", "-n"], "big.y4m", "65536x65536", "vq's limit of 268435456 samples");
  });

  test("a Y4M file shorter than one frame of the size its header claims", async () => {
    const short = file("short.y4m", "YUV4MPEG2 W16384 H16384 F25:1 C420jpeg\nFRAME\n0123456789");
    await expectRefused(["-r", short, "-d", short, "--feature", "psnr", "-n"], "short.y4m: frame 0 is truncated: the file holds 16 bytes after its header, one 16384x16384 420 8-bit frame takes 402653190");
  });

  test("raw -w 4294967296 and a raw picture over the size limit", async () => {
    const raw = file("a.yuv", new Uint8Array(96));
    await expectRefused(["-r", raw, "-d", raw, "-w", "4294967296", "-h", "2", "-p", "420", "-b", "8", "--feature", "psnr", "-n"], 'invalid argument "4294967296" for --width: at most 65536');
    await expectRefused(["-r", raw, "-d", raw, "-w", "65536", "-h", "65536", "-p", "420", "-b", "8", "--feature", "psnr", "-n"], "a.yuv: picture size 65536x65536 is over vq's limit");
  });

  test("a model whose total_sv claims 2e9 support vectors", async () => {
    const json = JSON.parse(readFileSync(new URL("../../model/models/vmaf_v0.6.1.json", import.meta.url), "utf8"));
    json.model_dict.model = json.model_dict.model.replace("total_sv 211", "total_sv 2000000000");
    const model = file("huge-sv.json", JSON.stringify(json));
    const ref = file("tiny.y4m", y4m("YUV4MPEG2 W16 H16 F25:1 C444", 16 * 16 * 3, 2, 8, noise(255)));
    await expectRefused(["-r", ref, "-d", ref, "--model", `path=${model}`], "huge-sv.json", "total_sv 2000000000 is over vq's limit of 1000000 support vectors");
  });

  test("--threads and --decoder-threads over the cap are refused as arguments, naming the cap", async () => {
    const ref = file("c-ref.y4m", y4m("YUV4MPEG2 W16 H16 F25:1 C444", 16 * 16 * 3, 2, 8, noise(255)));
    await expectRefused(["-r", ref, "-d", ref, "--threads", "257", "--feature", "psnr", "-n"], 'invalid argument "257" for --threads: at most 256 (vq\'s limit, docs/limits.md)');
    await expectRefused(["-r", ref, "-d", ref, "--decoder-threads", "257", "--feature", "psnr", "-n"], 'invalid argument "257" for --decoder-threads: at most 256 (vq\'s limit, docs/limits.md)');
    await expectRefused(["-r", ref, "-d", ref, "--decoder-threads", "two", "--feature", "psnr", "-n"], 'invalid argument "two" for --decoder-threads: expected a non-negative integer');
  });

  test("--threads 256 on a 2-frame clip starts 2 workers, not 256, and scores as one thread does", async () => {
    const ref = file("t-ref.y4m", y4m("YUV4MPEG2 W16 H16 F25:1 C444", 16 * 16 * 3, 2, 8, noise(255)));
    const dist = file("t-dist.y4m", y4m("YUV4MPEG2 W16 H16 F25:1 C444", 16 * 16 * 3, 2, 8, (k) => noise(255)(k + 7)));
    const run = async (threads: string) => {
      const r = await vq(["-r", ref, "-d", dist, "--threads", threads, "--feature", "float_ssim", "-n", "--json", "--backend", "cpu"]);
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).frames;
    };
    const t0 = performance.now();
    const many = await run("256");
    // 256 workers took ~24 s to start and 1.9 GB; two take well under a second
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(many).toEqual(await run("1"));
  }, 60_000);
});

describe("messages", () => {
  test("a Y4M header's control bytes come out escaped, the line cut to 300 characters", async () => {
    const bad = file("esc.y4m", `YUV4MPEG2 W8 H8 C420\r\x1b[2J\0${"x".repeat(4000)}\n`);
    const line = await expectRefused(["-r", bad, "-d", bad, "--feature", "psnr", "-n"], "esc.y4m", 'unsupported colour space "C420\\r\\x1b[2J\\0xxx');
    expect(line).not.toContain("x".repeat(100));
  });
});

describe("numbers", () => {
  test("psnr_hvs on 10-bit samples beyond 1023 that overflow libvmaf's integer DCT: an error naming the frame, never null", async () => {
    // frame 1 of the reference: luma rows alternating 0 and 65535, whose DCT products overflow 32 bits
    const samples = 32 * 32 * 3;
    const rows = (k: number) => (k >= samples && k < samples + 32 * 32 && Math.floor((k - samples) / 32) % 2 ? 65535 : noise(1023)(k));
    const ref = file("hvs-ref.y4m", y4m("YUV4MPEG2 W32 H32 F25:1 C444p10", samples, 2, 10, rows));
    const dist = file("hvs-dist.y4m", y4m("YUV4MPEG2 W32 H32 F25:1 C444p10", samples, 2, 10, (k) => noise(1023)(k + 5)));
    await expectRefused(["-r", ref, "-d", dist, "--feature", "psnr_hvs", "-n"], "feature psnr_hvs: invalid input: frame 1: psnr_hvs_y has samples beyond 0..1023, the 10-bit range");
  });
});
