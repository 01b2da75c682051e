/**
 * The page in headless Chromium (Debian's, driven by puppeteer-core): built, served by
 * `vq web`'s server on 127.0.0.1, fed a golden pair's first frames as Y4M and as lossless
 * H.264 MP4 through its file inputs, on the CPU worker and on WebGPU (Chromium's
 * SwiftShader adapter). Its window.vqResult must be what @vq/score gives for the same Y4M
 * in Bun: per frame and pooled, every key, bit for bit (expectSameScores says why no
 * tolerance is needed). Bad inputs must each end in a message naming
 * the file, with the page usable after; nothing may be requested once the page is loaded
 * (counted at the page, at vq web's server, and at a proxy that everything bound elsewhere
 * goes through).
 * A screenshot of the report view is kept in packages/web/test-output/ for people to look at.
 * Without Chromium (or ffmpeg, which makes the inputs) the tests skip, unless CI=true or
 * VQ_REQUIRE_CHROMIUM=1 (then they fail).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeCsv, writeJson, writeXml } from "@vq/core";
import { VERSION } from "@vq/cli/report";
import { goldenPath } from "@vq/core/golden";
import { score } from "@vq/score";
import { ALL_FORMATS, BufferSource, EncodedPacketSink, Input } from "mediabunny";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { chromium, chromiumRequired } from "../../cli/src/testing/headless-chromium.ts";
import { serveWebPage } from "../../cli/src/web-command.ts";
import { buildWeb } from "./build.ts";

const OUTPUT_DIR = resolve(import.meta.dir, "../test-output");
/** Few frames: SwiftShader runs WebGPU on the CPU, and CI has two cores. Motion needs more than two. */
const FRAMES = 3;
const ffmpeg = Bun.which("ffmpeg");
const required = chromiumRequired;
const work = mkdtempSync(join(tmpdir(), "vq-web-test-"));

/** The flags that give headless Chromium WebGPU on SwiftShader, and keep it from calling home. */
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--enable-unsafe-webgpu",
  "--enable-features=Vulkan",
  "--use-vulkan=native",
  "--use-angle=vulkan",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

function run(cmd: string[]): void {
  const r = Bun.spawnSync({ cmd, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString().slice(-500)}`);
}

/** The first FRAMES frames of a golden vector, samples unchanged (ffmpeg's Y4M muxer copies them). */
function cut(vector: string, out: string, filter?: string): string {
  const path = join(work, out);
  run([ffmpeg!, "-v", "error", "-y", "-i", goldenPath(`vectors/${vector}`), "-frames:v", String(FRAMES), ...(filter ? ["-vf", filter] : []), "-f", "yuv4mpegpipe", path]);
  return path;
}

/** Y4M to a lossless H.264 MP4 (x264 -qp 0: the High 4:4:4 Predictive profile, which Chromium's decoder takes). */
function losslessMp4(y4m: string, out: string): string {
  const path = join(work, out);
  run([ffmpeg!, "-v", "error", "-y", "-i", y4m, "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", path]);
  return path;
}

/** Y4M to lossless VP9 in WebM (whole-millisecond timestamps: the frame rate read from them is only an estimate). */
function losslessWebm(y4m: string, out: string): string {
  const path = join(work, out);
  run([ffmpeg!, "-v", "error", "-y", "-i", y4m, "-c:v", "libvpx-vp9", "-lossless", "1", path]);
  return path;
}

/** A copy of `mp4` whose packet `at` (decode order) is broken: its first NAL unit claims more bytes than the packet has. */
async function brokenMp4(mp4: string, at: number, out: string): Promise<string> {
  const bytes = new Uint8Array(readFileSync(mp4));
  const input = new Input({ source: new BufferSource(bytes), formats: ALL_FORMATS });
  let i = 0;
  for await (const packet of new EncodedPacketSink((await input.getPrimaryVideoTrack())!).packets()) {
    if (i++ < at) continue;
    const offset = Buffer.from(bytes).indexOf(Buffer.from(packet.data));
    expect(offset).toBeGreaterThan(0);
    bytes.set([0x7f, 0xff, 0xff, 0xff], offset);
    break;
  }
  input.dispose();
  const path = join(work, out);
  writeFileSync(path, bytes);
  return path;
}

interface LibvmafJson {
  frames: { frameNum: number; metrics: Record<string, number | null> }[];
  pooled_metrics: Record<string, Record<string, number | null>>;
}

/** What `vq` writes for the pair with --json, --csv and --xml (libvmaf's 6 digits). */
const cliOutputs = new Map<string, { json: string; csv: string; xml: string }>();

/** What the library gives for the pair in Bun, written as the page writes window.vqResult (round-trip precision). */
async function expected(reference: string, distorted: string, options: { models?: string[]; features?: string[] } = {}): Promise<LibvmafJson> {
  const r = score({ reference, distorted, backend: "cpu", ...options });
  const summary = await r.result;
  const o = { subsample: 1, frameCount: summary.frames, version: VERSION, fps: 0, precision: 6 };
  if (!options.models && !options.features) cliOutputs.set(distorted, { json: writeJson(summary.collector, o), csv: writeCsv(summary.collector, o), xml: writeXml(summary.collector, { ...o, width: summary.width, height: summary.height }) });
  return JSON.parse(writeJson(summary.collector, { ...o, precision: "max" }));
}

/**
 * Every key in the same order and every value identical, per frame and pooled. No tolerance
 * is needed: the only transcendental function of a VMAF run, the SVM kernel's exp, is vq's
 * port of glibc's (adr/0023), so V8 and JavaScriptCore give the same bits.
 */
function expectSameScores(got: LibvmafJson, want: LibvmafJson, label: string): void {
  expect(got.frames.map((f) => f.frameNum), label).toEqual(want.frames.map((f) => f.frameNum));
  want.frames.forEach((f, i) => expect(Object.keys(got.frames[i]!.metrics), `${label} frame ${i}`).toEqual(Object.keys(f.metrics)));
  expect(got.frames, label).toEqual(want.frames);
  expect(Object.keys(got.pooled_metrics), label).toEqual(Object.keys(want.pooled_metrics));
  expect(got.pooled_metrics, label).toEqual(want.pooled_metrics);
}

/**
 * Every request Chromium makes to anything but 127.0.0.1 goes through a proxy (loopback
 * bypasses proxies by default): this listener, which counts the connections (HTTP and HTTPS
 * CONNECT alike, from pages, workers or the browser itself) and closes them.
 */
const trapped: string[] = [];
/**
 * Chromium's own calls, not the page's: its network clock (clients2.google.com/time) and
 * component updater (update.googleapis.com) call home whatever flags say.
 */
const BROWSER_SERVICES = /^(GET|POST|CONNECT) (http:\/\/)?[\w.-]*\.(google\.com|googleapis\.com)[:/]/;
const outside = () => trapped.filter((line) => !BROWSER_SERVICES.test(line));
const trap = Bun.listen({
  hostname: "127.0.0.1",
  port: 0,
  socket: {
    data(socket, data) {
      trapped.push(data.toString("latin1").split("\r\n")[0]!);
      socket.end();
    },
  },
});

let browser: Browser;
let server: { url: string; stop(): void };
const served: string[] = [];
const files: Record<string, string> = {};
let want: LibvmafJson;

async function openPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1900 });
  await page.goto(server.url, { waitUntil: "load" });
  await page.waitForSelector("html[data-ready]", { timeout: 60_000 });
  return page;
}

type Outcome = { result?: unknown; backend?: string; error?: string };

/** Picks the files, presses Score and waits for the result or the error (a hang fails the test on the timeout). */
async function scoreOn(page: Page, reference: string, distorted: string[], backend: "gpu" | "cpu" | "auto"): Promise<Outcome> {
  await page.select("#backend", backend);
  await (await page.$("input#reference"))!.uploadFile(reference);
  await (await page.$("input#distorted"))!.uploadFile(...distorted);
  await page.waitForFunction(() => !(document.getElementById("score") as HTMLButtonElement).disabled, { timeout: 10_000 });
  await page.click("#score");
  await page.waitForFunction(() => window.vqResult !== undefined || window.vqError !== undefined, { timeout: 240_000, polling: 200 });
  return page.evaluate(() => ({ result: window.vqResult, backend: window.vqBackend, error: window.vqError }));
}

describe.skipIf((!chromium || !ffmpeg) && !required)("the web page in headless Chromium", () => {
  beforeAll(async () => {
    expect(chromium, "no chromium on PATH (Debian: apt-get install chromium; or set VQ_CHROMIUM)").toBeDefined();
    expect(ffmpeg, "no ffmpeg on PATH").toBeDefined();
    const dist = join(work, "dist");
    await buildWeb(dist);
    server = await serveWebPage(dist, 0, (path) => served.push(path));
    files.ref = cut("nat_576x324.ref.y4m", "ref.y4m");
    files.dist = cut("nat_576x324.x264crf30.y4m", "dist.y4m");
    files.refMp4 = losslessMp4(files.ref, "ref.mp4");
    files.distMp4 = losslessMp4(files.dist, "dist.mp4");
    files.distWebm = losslessWebm(files.dist, "dist.webm");
    want = await expected(files.ref, files.dist);
    browser = await puppeteer.launch({ executablePath: chromium!, headless: true, userDataDir: join(work, "profile"), args: [...CHROMIUM_FLAGS, `--proxy-server=http://127.0.0.1:${trap.port}`] });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    server?.stop();
    trap.stop(true);
    rmSync(work, { recursive: true, force: true });
  });

  test("on the CPU worker: Y4M, lossless H.264 MP4 and lossless VP9 WebM distorted files (a ladder) score as @vq/score does", async () => {
    const page = await openPage();
    const out = await scoreOn(page, files.ref!, [files.dist!, files.distMp4!, files.distWebm!], "cpu");
    expect(out.error).toBeUndefined();
    expect(out.backend).toBe("cpu");
    const [y4m, mp4, webm] = out.result as LibvmafJson[];
    expect(want.frames.length).toBe(FRAMES);
    expect(Object.keys(want.pooled_metrics)).toContain("vmaf");
    expectSameScores(y4m!, want, "dist.y4m");
    expectSameScores(mp4!, want, "dist.mp4");
    expectSameScores(webm!, want, "dist.webm");
    // the ladder's comparison report, as vq report draws it
    await page.waitForSelector("html[data-report]", { timeout: 30_000 });
    const report = page.frames().find((f) => f.url() === "about:srcdoc")!;
    expect(await report.evaluate(() => document.title)).toBe("VMAF comparison: dist.y4m, dist.mp4, dist.webm");
    // each run's frame below the mean pictured, reference beside distorted, 224 pixels wide
    const pictures = await report.evaluate(() => [...document.querySelectorAll("img")].map((i) => [i.src.slice(0, 22), i.complete, i.naturalWidth]));
    expect(pictures).toEqual(Array(6).fill(["data:image/png;base64,", true, 224]));
    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: join(OUTPUT_DIR, "report-ladder.png"), fullPage: true });
    await page.close();
  }, 300_000);

  test("on WebGPU: a lossless H.264 MP4 reference against Y4M and MP4 scores as @vq/score does", async () => {
    const page = await openPage();
    const adapter = await page.evaluate(async () => Boolean(await (navigator as Navigator & { gpu?: GPU }).gpu?.requestAdapter()));
    // SwiftShader ships inside Chromium: in CI there is always an adapter to test
    if (!adapter && !required) return;
    expect(adapter, "Chromium gave no WebGPU adapter").toBe(true);
    const out = await scoreOn(page, files.refMp4!, [files.distMp4!, files.dist!], "gpu");
    expect(out.error).toBeUndefined();
    expect(out.backend).toBe("gpu");
    const [mp4, y4m] = out.result as LibvmafJson[];
    expectSameScores(mp4!, want, "dist.mp4 on the GPU");
    expectSameScores(y4m!, want, "dist.y4m on the GPU");
    await page.close();
  }, 300_000);

  test("files dropped on the boxes become the inputs' files", async () => {
    const page = await openPage();
    const names = await page.evaluate(() => {
      const drop = (zone: string, names: string[]) => {
        const data = new DataTransfer();
        for (const n of names) data.items.add(new File(["YUV4MPEG2 W2 H2\n"], n));
        document.getElementById(zone)!.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
      };
      drop("drop-reference", ["a.y4m", "ignored.y4m"]);
      drop("drop-distorted", ["b.y4m", "c.y4m"]);
      const files = (id: string) => [...(document.getElementById(id) as HTMLInputElement).files!].map((f) => f.name);
      return { reference: files("reference"), distorted: files("distorted"), listed: document.getElementById("distorted-files")!.textContent, score: (document.getElementById("score") as HTMLButtonElement).disabled };
    });
    expect(names).toEqual({ reference: ["a.y4m"], distorted: ["b.y4m", "c.y4m"], listed: "b.y4m (0.0 MB), c.y4m (0.0 MB)", score: false });
    await page.close();
  }, 60_000);

  test("models and features chosen in the page are the run's (several models: each named after its version)", async () => {
    const page = await openPage();
    await page.select("#models", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1");
    await page.click('#features input[value="psnr"]');
    await page.click('#features input[value="float_ssim"]');
    const out = await scoreOn(page, files.ref!, [files.dist!], "cpu");
    expect(out.error).toBeUndefined();
    const chosen = await expected(files.ref!, files.dist!, { models: ["version=vmaf_v0.6.1neg:name=vmaf_v0.6.1neg", "version=vmaf_4k_v0.6.1:name=vmaf_4k_v0.6.1"], features: ["float_ssim", "psnr"] });
    expect(Object.keys(chosen.pooled_metrics)).toEqual(expect.arrayContaining(["vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "psnr_y", "float_ssim"]));
    expectSameScores(out.result as LibvmafJson, chosen, "chosen models and features");
    await page.close();
  }, 120_000);

  test("best available: a software WebGPU adapter (SwiftShader, lavapipe) is passed over for the CPU worker, as vq --backend auto does, and the page says so", async () => {
    const page = await openPage();
    const adapter = await page.evaluate(async () => {
      const a = await (navigator as Navigator & { gpu?: GPU }).gpu?.requestAdapter();
      return a ? [a.info.vendor, a.info.architecture, a.info.description].filter(Boolean).join(" ") : undefined;
    });
    const line = await page.$eval("#backend-line", (e) => e.textContent);
    if (adapter && !/swiftshader|lavapipe|llvmpipe|software/i.test(adapter)) {
      expect(line).toBe(`Computing on the GPU with WebGPU (${adapter}).`);
      return; // a hardware GPU: the GPU test covers it
    }
    expect(line).toBe(adapter ? `Computing on the CPU, in a worker (the WebGPU adapter, ${adapter}, is a software renderer, slower than the CPU; choose GPU to use it anyway).` : "Computing on the CPU, in a worker (this browser gives no WebGPU adapter).");
    const out = await scoreOn(page, files.ref!, [files.dist!], "auto");
    expect(out.error).toBeUndefined();
    expect(out.backend).toBe("cpu");
    expectSameScores(out.result as LibvmafJson, want, "auto");
    await page.close();
  }, 300_000);

  test("bad inputs: one message naming the file each, nothing hangs, and the page still scores after", async () => {
    const page = await openPage();
    const hevc = join(work, "hevc.mp4");
    // Debian's Chromium has no HEVC decoder: WebCodecs' isConfigSupported says no
    run([ffmpeg!, "-v", "error", "-y", "-i", files.dist!, "-c:v", "libx265", "-x265-params", "log-level=error", "-pix_fmt", "yuv420p", hevc]);
    const text = join(work, "notes.txt");
    writeFileSync(text, "just some text, not a video\n");
    const small = cut("nat_576x324.x264crf30.y4m", "small.y4m", "scale=320:180");
    const broken = await brokenMp4(files.distMp4!, 2, "broken.mp4");
    const cases: [string, RegExp][] = [
      [hevc, /^hevc\.mp4: this browser cannot decode its hevc video \(hev1\.[^)]*\): WebCodecs' isConfigSupported says no/],
      [text, /^notes\.txt: not a video file this page can read/],
      [small, /small\.y4m \(320x180 .*do not match: sizes differ: 576x324 vs 320x180/],
      [broken, /^broken\.mp4: the video decoder failed after [0-9] frames?: /],
    ];
    for (const [file, message] of cases) {
      const out = await scoreOn(page, files.ref!, [file], "cpu");
      expect(out.result).toBeUndefined();
      expect(out.error).toMatch(message);
      expect(await page.$eval("#error", (e) => e.textContent)).toBe(out.error!);
      expect(await page.$eval("#score", (b) => (b as HTMLButtonElement).disabled)).toBe(false);
    }
    // a run stopped halfway (the GPU one: slow enough on SwiftShader to be caught running)
    if (await page.evaluate(async () => Boolean(await (navigator as Navigator & { gpu?: GPU }).gpu?.requestAdapter()))) {
      await page.select("#backend", "gpu");
      await (await page.$("input#distorted"))!.uploadFile(files.dist!);
      await page.click("#score");
      await page.waitForFunction(() => !(document.getElementById("cancel") as HTMLButtonElement).disabled, { timeout: 10_000 });
      await page.click("#cancel");
      await page.waitForFunction(() => window.vqError !== undefined, { timeout: 10_000 });
      expect(await page.evaluate(() => window.vqError)).toBe("cancelled: the run was stopped");
    }
    const good = await scoreOn(page, files.ref!, [files.dist!], "cpu");
    expect(good.error).toBeUndefined();
    expectSameScores(good.result as LibvmafJson, want, "after the bad inputs");
    expect(await page.$eval("#error", (e) => e.textContent)).toBe("");
    await page.waitForSelector("html[data-report]", { timeout: 30_000 });
    await page.evaluate(() => document.getElementById("results")!.scrollIntoView());
    await page.screenshot({ path: join(OUTPUT_DIR, "report.png") });
    await page.close();
  }, 300_000);

  test("private: no request leaves the page once it is loaded, and the downloads are made in the page", async () => {
    // The trap works: a request to elsewhere from a blank page (no CSP there) reaches it.
    const blank = await browser.newPage();
    trapped.length = 0;
    await blank.evaluate(() => fetch("http://vq-web-test.invalid/probe").then(() => {}, () => {}));
    await blank.close();
    expect(outside()).toEqual(["GET http://vq-web-test.invalid/probe HTTP/1.1"]);
    const page = await openPage();
    trapped.length = 0;
    const requested: string[] = [];
    page.on("request", (r) => requested.push(r.url()));
    served.length = 0;
    const out = await scoreOn(page, files.ref!, [files.distMp4!], "cpu");
    expect(out.error).toBeUndefined();
    await page.waitForSelector("html[data-report]", { timeout: 30_000 });
    const downloads = await page.$$eval("#downloads a", (links) =>
      Promise.all(links.map(async (a) => ({ name: (a as HTMLAnchorElement).download, href: (a as HTMLAnchorElement).href, text: await (await fetch((a as HTMLAnchorElement).href)).text() }))),
    );
    expect(downloads.map((d) => d.name)).toEqual(["dist.mp4.vmaf.json", "dist.mp4.vmaf.csv", "dist.mp4.vmaf.xml", "vmaf-report.html"]);
    for (const d of downloads) expect(d.href).toStartWith("blob:");
    // the files vq writes for the same pair (--json, --csv, --xml), but for the fps (a timing)
    const withoutFps = (t: string) => t.replace(/"fps": [0-9.]+/, "").replace(/<fyi fps="[0-9.]+" \/>/, "");
    const cli = cliOutputs.get(files.dist!)!;
    expect(withoutFps(downloads[0]!.text)).toBe(withoutFps(cli.json));
    expect(downloads[1]!.text).toBe(cli.csv);
    expect(withoutFps(downloads[2]!.text)).toBe(withoutFps(cli.xml));
    expect(downloads[3]!.text).toContain("<title>VMAF report: ref.y4m vs dist.mp4</title>");
    // nothing but blob: URLs (the worker, the downloads) asked for, and nothing reached the server
    expect(requested.filter((u) => !u.startsWith("blob:") && !u.startsWith("data:") && u !== "about:srcdoc")).toEqual([]);
    expect(served).toEqual([]);
    expect(outside()).toEqual([]);
    await page.close();
  }, 300_000);
});
