// The page: file inputs and drop zones, the model and feature choices, the run in the
// scoring worker with live progress and plot, then the report and the downloads. Scripts
// drive it through #reference, #distorted and #score, and read window.vqResult/vqBackend.
import type { ScoredFile, ScoreJob } from "../worker/protocol.ts";
import { probeBackend, type BackendProbe } from "./backend-probe.ts";
import { dropZone } from "./drop-zone.ts";
import { LivePlot } from "./live-plot.ts";
import { reportHtml, reportRuns } from "./report-view.ts";
import { ScoringWorker } from "./scoring-worker.ts";

declare global {
  interface Window {
    /** The finished run's libvmaf JSON (round-trip precision): one object, or an array for several distorted files. */
    vqResult?: unknown;
    /** Where it was computed. */
    vqBackend?: "gpu" | "cpu";
    /** The message shown when a run failed (cleared when the next one starts). */
    vqError?: string;
  }
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const reference = $<HTMLInputElement>("reference");
const distorted = $<HTMLInputElement>("distorted");
const scoreButton = $<HTMLButtonElement>("score");
const cancelButton = $<HTMLButtonElement>("cancel");
const backendSelect = $<HTMLSelectElement>("backend");
const modelSelect = $<HTMLSelectElement>("models");
const noPrediction = $<HTMLInputElement>("no-prediction");
const featureBox = $<HTMLDivElement>("features");
const backendLine = $<HTMLSpanElement>("backend-line");
const errorBox = $<HTMLDivElement>("error");
const notes = $<HTMLDivElement>("notes");
const progressBox = $<HTMLDivElement>("progress-box");
const progressText = $<HTMLDivElement>("progress-text");
const progress = $<HTMLProgressElement>("progress");
const results = $<HTMLElement>("results");
const downloads = $<HTMLDivElement>("downloads");
const report = $<HTMLIFrameElement>("report");
const plotHost = $<HTMLDivElement>("live-plot");
const plot = new LivePlot(plotHost);

const DEFAULT_MODEL = "vmaf_v0.6.1";
/** The features a model run computes anyway (their keys are in every VMAF result). */
const MODEL_FEATURES = new Set(["vif", "adm", "motion"]);

function showError(message: string): void {
  window.vqError = message;
  errorBox.textContent = message;
  errorBox.classList.add("shown");
}

function clearMessages(): void {
  window.vqError = undefined;
  errorBox.textContent = "";
  errorBox.classList.remove("shown");
  notes.replaceChildren();
}

function note(message: string): void {
  const p = document.createElement("p");
  p.textContent = message;
  notes.append(p);
}

function listFiles(input: HTMLInputElement, target: string): void {
  const files = [...(input.files ?? [])];
  $(target).textContent = files.length ? files.map((f) => `${f.name} (${(f.size / 1e6).toFixed(1)} MB)`).join(", ") : "";
  updateButton();
}

let running = false;
function updateButton(): void {
  scoreButton.disabled = running || !ready || !reference.files?.length || !distorted.files?.length;
  cancelButton.disabled = !running;
}

let ready = false;
let probe: BackendProbe = { backend: "cpu", software: false };

function chosenBackend(): "gpu" | "cpu" {
  const v = backendSelect.value;
  return v === "gpu" || v === "cpu" ? v : probe.backend;
}

function describeBackend(): void {
  const b = chosenBackend();
  if (b === "gpu") {
    backendLine.textContent = probe.adapter ? `Computing on the GPU with WebGPU (${probe.adapter}${probe.software ? ", a software renderer: slower than the CPU" : ""}).` : "Computing on the GPU: this browser gives no WebGPU adapter, the run will fail.";
    return;
  }
  const why = !probe.adapter ? " (this browser gives no WebGPU adapter)" : probe.software ? ` (the WebGPU adapter, ${probe.adapter}, is a software renderer, slower than the CPU; choose GPU to use it anyway)` : "";
  backendLine.textContent = `Computing on the CPU, in a worker${why}.`;
}

function download(name: string, text: string, type: string): HTMLAnchorElement {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.textContent = name;
  return a;
}

/** The report with the worst frames' pictures (read again from the files); without them, and saying why, when that fails. */
async function showResults(worker: ScoringWorker, job: ScoreJob, scored: readonly ScoredFile[]): Promise<void> {
  const runs = reportRuns(job, scored);
  let html: string;
  try {
    html = reportHtml(runs, await worker.thumbnails({ type: "thumbnails", reference: job.reference, distorted: job.distorted, frames: runs.thumbnailFrames }));
  } catch (e) {
    html = reportHtml(runs, undefined, `no pictures of the worst frames: ${(e as Error).message}`);
  }
  for (const a of downloads.querySelectorAll("a")) URL.revokeObjectURL(a.href);
  const links: HTMLAnchorElement[] = [];
  for (const r of scored) {
    // the whole name: dist.mp4 and dist.webm side by side in a ladder keep their results apart
    links.push(download(`${r.name}.vmaf.json`, r.json, "application/json"), download(`${r.name}.vmaf.csv`, r.csv, "text/csv"), download(`${r.name}.vmaf.xml`, r.xml, "application/xml"));
  }
  links.push(download("vmaf-report.html", html, "text/html"));
  downloads.replaceChildren(...links);
  delete document.documentElement.dataset.report;
  report.addEventListener("load", () => (document.documentElement.dataset.report = "shown"), { once: true });
  report.srcdoc = html;
  results.classList.add("shown");
}

async function run(worker: ScoringWorker): Promise<void> {
  const ref = reference.files?.[0];
  const dists = [...(distorted.files ?? [])];
  if (!ref || !dists.length) return;
  clearMessages();
  window.vqResult = undefined;
  window.vqBackend = undefined;
  results.classList.remove("shown");
  const backend = chosenBackend();
  const chosen = noPrediction.checked ? [] : [...modelSelect.selectedOptions].map((o) => o.value);
  // One model writes libvmaf's "vmaf"; several would all write it, so each is named after its version.
  const models = chosen.map((m) => (chosen.length > 1 ? `version=${m}:name=${m}` : `version=${m}`));
  const features = [...featureBox.querySelectorAll<HTMLInputElement>("input:checked")].map((i) => i.value);
  const job: ScoreJob = { type: "score", reference: ref, distorted: dists, backend, models, noPrediction: noPrediction.checked, features };
  running = true;
  updateButton();
  plot.reset();
  plotHost.hidden = false;
  progressBox.classList.add("shown");
  progress.removeAttribute("value");
  progressText.textContent = `Opening ${ref.name}…`;
  const started = performance.now();
  try {
    const scored = await worker.run(job, {
      onStart(index, name, total) {
        plot.start(index, name);
        progressText.textContent = `${name} (${index + 1} of ${dists.length}): starting`;
        if (total) progress.max = total;
      },
      onProgress(index, done, total) {
        const name = dists[index]?.name ?? "";
        if (total) {
          progress.max = total;
          progress.value = done;
        }
        const seconds = (performance.now() - started) / 1000;
        progressText.textContent = `${name} (${index + 1} of ${dists.length}): frame ${done}${total ? ` of ${total}` : ""} · ${seconds.toFixed(1)} s`;
      },
      onFrame: (index, frameNum, metrics) => plot.add(index, frameNum, metrics),
      onNote: note,
    });
    plot.draw();
    const exact = scored.map((r) => JSON.parse(r.exactJson) as unknown);
    window.vqBackend = scored.every((r) => r.backend.split("+").includes("gpu")) ? "gpu" : "cpu";
    const fps = scored.reduce((n, r) => n + r.frames, 0) / ((performance.now() - started) / 1000);
    progressText.textContent = `Done: ${scored.map((r) => `${r.name} ${r.frames} frames on ${r.backend}`).join("; ")} · ${fps.toFixed(1)} frames/s`;
    await showResults(worker, job, scored);
    // the report's own chart takes over
    plotHost.hidden = true;
    window.vqResult = exact.length === 1 ? exact[0] : exact;
  } catch (e) {
    progressBox.classList.remove("shown");
    showError((e as Error).message);
  } finally {
    running = false;
    updateButton();
  }
}

async function start(): Promise<void> {
  dropZone($("drop-reference"), reference);
  dropZone($("drop-distorted"), distorted);
  reference.addEventListener("change", () => listFiles(reference, "reference-files"));
  distorted.addEventListener("change", () => listFiles(distorted, "distorted-files"));
  noPrediction.addEventListener("change", () => (modelSelect.disabled = noPrediction.checked));
  backendSelect.addEventListener("change", describeBackend);
  const [worker, probed] = await Promise.all([ScoringWorker.load(new URL("./score-worker.js", import.meta.url).href), probeBackend()]);
  probe = probed;
  describeBackend();
  const catalogue = await worker.catalogue;
  modelSelect.replaceChildren(...catalogue.models.map((m) => new Option(m, m, m === DEFAULT_MODEL, m === DEFAULT_MODEL)));
  featureBox.replaceChildren(
    ...catalogue.features
      .filter((f) => !MODEL_FEATURES.has(f))
      .map((f) => {
        const label = document.createElement("label");
        const box = Object.assign(document.createElement("input"), { type: "checkbox", value: f });
        label.append(box, ` ${f}`);
        return label;
      }),
  );
  scoreButton.addEventListener("click", () => void run(worker));
  cancelButton.addEventListener("click", () => worker.cancel("cancelled: the run was stopped"));
  ready = true;
  document.documentElement.dataset.ready = "true";
  updateButton();
}

start().catch((e: unknown) => showError(`the page could not start: ${(e as Error).message}`));
