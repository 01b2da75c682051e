import { alignUp, packedLayout, Picture, VqError, type FeatureCollector, type PictureFormat } from "@vq/core";
import { bufferFrom, computePipeline, planeUniforms, stageKernel, type BoundResource, type GpuContext, type GpuFrame, type GpuFrameBatch, type GpuStage, type PassRecorder, type FrameInputs, type StageKernel } from "@vq/gpu-core";
import { CambiCpu } from "../cpu/cambi-cpu.ts";
import { CAMBI_KERNELS, C_VALUES_WORKGROUP_BYTES, HIST_WORDS, MASK_TILE_WIDTH, maskTileHeight, TILE } from "./cambi-gpu-kernels.ts";
import { NUM_SCALES, planCambi, scaleSizes, type CambiGeometry, type CambiPlan } from "../numerics/cambi-plan.ts";
import { appendCambiScores, combineScales } from "../numerics/cambi-scores.ts";
import { visibleSteps } from "../cpu/c-values.ts";
import { cambiDefinition, cambiOptions, cambiScoreName, type CambiOptions } from "../definition.ts";
import { POOL_WORDS, pooledFromWords, replayedMean } from "../numerics/exact-pooling.ts";
import { libvmafStride, resampleIndices } from "../numerics/preprocess.ts";
import { RECIPROCAL } from "../numerics/reciprocal.ts";
import { maskThreshold } from "../cpu/spatial-mask.ts";
import { topkCount } from "../numerics/topk-pooling.ts";
import { maxCValue, REPLAY_WORDS, replayJobs, topkReplay } from "./topk-replay.ts";

/**
 * Result words: per picture (distorted, source) and scale the pooling words, then per
 * picture the bad-luma word, then per picture and scale the top-k replay's words.
 */
const PICTURES = 2;
const BAD_LUMA_WORD = PICTURES * NUM_SCALES * POOL_WORDS;
const REPLAY_BASE = BAD_LUMA_WORD + PICTURES;
const RESULT_WORDS = REPLAY_BASE + PICTURES * NUM_SCALES * REPLAY_WORDS;
/** Bytes between frames' result words as the frame runner lays them out; the tables of the pooling and replay are built for it. */
const RESULT_STRIDE = alignUp(RESULT_WORDS * 4, 256);
/** GPU memory the per-frame intermediates of one set of dispatches may take: frames past it go in further sets. */
const BATCH_BYTES = 512 << 20;
/** Grid-stride kernels over the c-values use at most this many workgroups. */
const MAX_POOL_GROUPS = 1024;
/** Bit set words of the c-value kernel: band codes it can track. */
const MAX_BAND = 34 * 32;

/** What a dispatch binds, by WGSL name; "ref", "dist" and "results" stand for the set's views of the frame and result buffers. */
type DispatchBindings = Record<string, BoundResource | "ref" | "dist" | "results">;

interface Dispatch {
  kernel: StageKernel;
  bindings: DispatchBindings;
  /** One frame's workgroups; the frames of a set go side by side in z, or in y (tables with a row per frame and entry). */
  workgroups: [number, number];
  frames: "z" | "y";
}

interface Pass {
  label: string;
  dispatches: Dispatch[];
}

/** A set's views of the frame buffers and results, from its first frame on. */
interface SetViews {
  ref: GPUBufferBinding;
  dist: GPUBufferBinding;
  results: GPUBufferBinding;
}

/** One picture and scale in the pooling's parameter table (PoolParams in topk-pooling.wgsl). */
interface PoolEntry {
  n: number;
  k: number;
  resultBase: number;
  histBase: number;
  valuesBase: number;
}

/** One picture cambi scores: the distorted one at the encoding size, the reference at the source size. */
interface PictureJob {
  geometry: CambiGeometry;
  useRef: boolean;
  sizes: { width: number; height: number }[];
}

/**
 * GPU twin of CambiCpu: per picture, every pass runs on the GPU (10-bit conversion and
 * anti-dithering, spatial mask, decimation, mode filter, c-values, top-k pooling) and only
 * each scale's exact pooling sums come back, in the frame's single readback; the host
 * weights the scales as the CPU does, so the scores are the same doubles. When a pooled
 * sum reaches 2^29 (libvmaf's double sum then depends on its quickselect order) the GPU
 * replays libvmaf's quickselect and double sum (topk-replay.ts); only where it cannot
 * (buffers past the device's limits, or a quickselect past its round bound) is the frame
 * read back and scored by CambiCpu. Heatmaps are CPU-only. The frames of a batch share
 * each dispatch (workgroup z, or a table row per frame): ADR 0019.
 */
export class CambiGpu implements GpuStage {
  readonly definition = cambiDefinition;
  readonly label = "cambi";
  /** Luma of the distorted picture, and of the reference for full_ref: nothing else is uploaded. */
  readonly inputs: FrameInputs;
  readonly temporal = false;
  readonly resultWords = RESULT_WORDS;
  private readonly scoreName: string;
  private device?: GPUDevice;
  private plan?: CambiPlan;
  private format?: PictureFormat;
  private jobs: PictureJob[] = [];
  private passes: Pass[] = [];
  private hist?: GPUBuffer;
  private planes?: GPUBuffer;
  private readonly owned: GPUBuffer[] = [];
  /** Frames one set of dispatches serves: its intermediates are sized for them. */
  private setFrames = 1;
  private batchUniform?: GPUBuffer;
  private readonly batchWords = new Uint32Array(8);
  private readonly inFlight = new Map<number, GpuFrame>();
  private readonly replays: Promise<void>[] = [];
  private cpu?: CambiCpu;
  private readonly perScale = new Float64Array(NUM_SCALES);
  /** Frames scored by the CPU because a pooled sum reached 2^29 and the GPU could not replay it. */
  replayedFrames = 0;
  /** Pictures and scales whose pooling the GPU replayed (its sum reached 2^29). */
  gpuReplayedScales = 0;

  /** @param setBytes GPU memory for the intermediates of one set of frames (smaller in tests: several sets a batch). */
  constructor(readonly options: CambiOptions, private readonly setBytes = BATCH_BYTES) {
    this.scoreName = cambiScoreName(options);
    this.inputs = { reference: options.full_ref ? "luma" : "none", distorted: "luma" };
  }

  init(gpu: GpuContext, format: PictureFormat, maxBatch = 1): void {
    const plan = planCambi(this.options, format);
    if (plan.heatmapsPath) {
      throw new VqError("feature cambi: heatmaps_path is supported on the CPU backend only (use --backend cpu to write heatmaps)");
    }
    this.close();
    const { device } = gpu;
    const limits = device.limits;
    if (limits.maxComputeWorkgroupStorageSize < C_VALUES_WORKGROUP_BYTES) {
      throw new VqError(`feature cambi: this GPU offers ${limits.maxComputeWorkgroupStorageSize} bytes of workgroup memory; cambi's kernels need ${C_VALUES_WORKGROUP_BYTES}`);
    }
    const pixels = plan.allocWidth * plan.allocHeight;
    if (pixels * 4 > limits.maxStorageBufferBindingSize) {
      throw new VqError(`feature cambi: a ${plan.allocWidth}x${plan.allocHeight} picture needs ${pixels * 4}-byte buffers; this GPU binds at most ${limits.maxStorageBufferBindingSize}`);
    }
    if (plan.bandSize > MAX_BAND) throw new Error(`cambi: band of ${plan.bandSize} codes exceeds the GPU kernel's ${MAX_BAND}`);
    this.device = device;
    this.plan = plan;
    this.format = format;

    const buffer = (label: string, data: ArrayBufferView<ArrayBuffer> | number, usage: number): GPUBuffer => {
      const size = typeof data === "number" ? data : data.byteLength;
      const b = device.createBuffer({ label, size: Math.max(16, alignUp(size, 4)), usage: usage | GPUBufferUsage.COPY_DST });
      if (typeof data !== "number") device.queue.writeBuffer(b, 0, data);
      this.owned.push(b);
      return b;
    };
    const storage = (label: string, data: ArrayBufferView<ArrayBuffer> | number) => ({ buffer: buffer(label, data, GPUBufferUsage.STORAGE) });
    const uniform = (label: string, words: number[]) => ({ buffer: buffer(label, Uint32Array.from(words), GPUBufferUsage.UNIFORM) });

    const planes = uniform("cambi planes", [...planeUniforms(format, packedLayout(format).planes)]);
    this.planes = planes.buffer;
    // c-values of every picture and scale side by side, so that one set of pooling and of
    // replay dispatches serves them all (one region, reused, where that would not fit)
    this.jobs = [{ geometry: plan.enc, useRef: false, sizes: [] }];
    if (plan.fullRef) this.jobs.push({ geometry: plan.src, useRef: true, sizes: [] });
    for (const job of this.jobs) job.sizes = scaleSizes(job.geometry.width, job.geometry.height, plan.highResSpeedup);
    const pixelsOf = this.jobs.map((j) => j.sizes.map(({ width, height }) => width * height));
    const replay = replayJobs(pixelsOf, this.jobs.map((j) => maxCValue(plan.diffWeights, j.geometry.windowSize)), plan.topk, {
      resultBase: (p, s) => (p * NUM_SCALES + s) * POOL_WORDS,
      out: (p, s) => REPLAY_BASE + (p * NUM_SCALES + s) * REPLAY_WORDS,
      maxBytes: Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize),
    });
    // the frames of a set side by side in every intermediate, as many as the bindings and setBytes allow
    const maxBinding = Math.min(limits.maxStorageBufferBindingSize, limits.maxBufferSize);
    const frameBytes = 3 * pixels * 4 + replay.words * 4;
    const frames = Math.max(1, Math.min(maxBatch, Math.floor(maxBinding / (pixels * 4)), Math.floor(maxBinding / (replay.words * 4)), Math.floor(this.setBytes / frameBytes)));
    if (frames > limits.maxComputeWorkgroupsPerDimension) throw new Error("cambi: more frames a set than workgroups a dimension");
    this.setFrames = frames;
    const resultWords = RESULT_STRIDE / 4;
    const batch = uniform("cambi batch", [0, 0, pixels, replay.words, resultWords, 0, 0, 0]);
    this.batchUniform = batch.buffer;
    this.batchWords.set([0, 0, pixels, replay.words, resultWords]);
    // two pictures ping-pong between scales; the mode filter writes the filtered one
    const images = [storage("cambi image a", frames * pixels * 4), storage("cambi image b", frames * pixels * 4)];
    const filtered = storage("cambi filtered", frames * pixels * 4);
    const cValues = storage("cambi c-values", frames * replay.words * 4);
    const tableWords = new Uint32Array(32 + Math.max(1, plan.bandSize));
    tableWords.set(plan.diffWeights, 0);
    tableWords.set(visibleSteps(plan), 32);
    const tables = storage("cambi weights and steps", tableWords);
    const reciprocal = storage("cambi reciprocals", RECIPROCAL as Float32Array<ArrayBuffer>);
    const histWords = PICTURES * NUM_SCALES * HIST_WORDS;
    const hist = storage("cambi select histograms", frames * histWords * 4);
    this.hist = hist.buffer;

    const k = CAMBI_KERNELS;
    // with the speed-up the mask kernel writes the decimated picture (every other sample of every other row)
    const maskStep = plan.highResSpeedup ? 2 : 1;
    const pipe = (spec: (typeof k)[keyof typeof k], constants?: Record<string, number>) => stageKernel(device, { ...spec, constants });
    const kernels = {
      lumaCheck: pipe(k.lumaCheck),
      preprocess: pipe(k.preprocess),
      mask: pipe(k.mask, { STEP: maskStep, OUT_H: maskTileHeight(maskStep) }),
      mode: pipe(k.mode),
      cValues: pipe(k.cValues),
      histogram: [0, 1, 2].map((LEVEL) => pipe(k.histogram, { LEVEL })),
      find: [0, 1, 2].map((LEVEL) => pipe(k.find, { LEVEL })),
      sumAbove: pipe(k.sumAbove),
    };
    const groups = (w: number, h: number): [number, number] => [Math.ceil(w / TILE), Math.ceil(h / TILE)];

    // top-k pooling: one set of dispatches for every picture and scale when their c-values
    // lie side by side (else one set per scale, after its c-values, which the next overwrites)
    const sideBySide = new Set(replay.offsets.flat()).size > 1;
    const poolEntries: PoolEntry[] = [];
    // the pooling's table rows: frame by frame, each frame's entries (workgroup y = row)
    const perFrame = (entries: PoolEntry[]) =>
      Array.from({ length: frames }, (_, f) =>
        entries.flatMap((e) => [e.n, e.k, e.resultBase + f * resultWords, e.histBase + f * histWords, e.valuesBase + f * replay.words]),
      ).flat();
    const pooling = (label: string, entries: PoolEntry[]): Pass => {
      const table = storage(label, Uint32Array.from(perFrame(entries)));
      const values = { buffer: cValues.buffer };
      const spread: [number, number] = [Math.min(MAX_POOL_GROUPS, Math.ceil(Math.max(...entries.map((e) => e.n)) / 256)), entries.length];
      const dispatches: Dispatch[] = [];
      for (let level = 0; level < 3; level++) {
        dispatches.push({ kernel: kernels.histogram[level]!, bindings: { pool_params: table, c_values: values, results: "results", hist }, workgroups: spread, frames: "y" });
        dispatches.push({ kernel: kernels.find[level]!, bindings: { pool_params: table, results: "results", hist }, workgroups: [1, entries.length], frames: "y" });
      }
      dispatches.push({ kernel: kernels.sumAbove, bindings: { pool_params: table, c_values: values, results: "results" }, workgroups: spread, frames: "y" });
      return { label, dispatches };
    };

    const input = format;
    const bitDepth = input.bitDepth;
    this.passes = [];
    this.jobs.forEach((job, p) => {
      const g = job.geometry;
      const name = job.useRef ? "source" : "distorted";
      const frameBindings: DispatchBindings = { ref_frame: "ref", dist_frame: "dist", planes, batch };

      // 1. luma range check, 10 bits at the scoring size, anti-dithering
      const prepare: Dispatch[] = [];
      if (bitDepth !== 8 && bitDepth !== 16) {
        const check = uniform(`cambi ${name} check`, [input.width, input.height, (1 << bitDepth) - 1, job.useRef ? 1 : 0, BAD_LUMA_WORD + p, 0, 0, 0]);
        prepare.push({ kernel: kernels.lumaCheck, bindings: { ...frameBindings, check, results: "results" }, workgroups: groups(input.width, input.height), frames: "z" });
      }
      const same = input.width === g.width && input.height === g.height;
      const strideMode = same && bitDepth === 10 && libvmafStride(input.width) !== libvmafStride(plan.allocWidth);
      const up = bitDepth <= 8 ? 10 - bitDepth : bitDepth === 9 ? 1 : 0;
      const down = bitDepth > 10 ? bitDepth - 10 : 0;
      const indices = new Uint32Array(g.width + g.height);
      indices.set(resampleIndices(input.width, g.width), 0);
      indices.set(resampleIndices(input.height, g.height), g.width);
      const pre = uniform(`cambi ${name} preprocess`, [
        g.width, g.height, job.useRef ? 1 : 0, up, down, down ? 1 << (down - 1) : 0, plan.encBitDepth < 10 ? 1 : 0, strideMode ? 1 : 0,
        libvmafStride(input.width), libvmafStride(plan.allocWidth), libvmafStride(input.width) * input.height, input.width,
      ]);
      prepare.push({
        kernel: kernels.preprocess,
        bindings: { ...frameBindings, pre, index_table: storage(`cambi ${name} indices`, indices), image_out: images[0]! },
        workgroups: groups(g.width, g.height),
        frames: "z",
      });
      this.passes.push({ label: `cambi ${name} preprocess`, dispatches: prepare });

      // 2. spatial mask (bit 16 of each word) into the other picture; with the speed-up, written at half size
      const maskParams = uniform(`cambi ${name} mask`, [g.width, g.height, maskThreshold(g.width, g.height), 0]);
      const s0 = job.sizes[0]!;
      this.passes.push({
        label: `cambi ${name} mask`,
        dispatches: [
          {
            kernel: kernels.mask,
            bindings: { mp: maskParams, image: images[0]!, masked: images[1]!, batch },
            workgroups: [Math.ceil(s0.width / MASK_TILE_WIDTH), Math.ceil(s0.height / maskTileHeight(maskStep))],
            frames: "z",
          },
        ],
      });
      let current = 1;

      // 3. per scale: mode filter (and the next scale's picture), c-values, top-k pooling
      job.sizes.forEach(({ width: w, height: h }, s) => {
        const last = s === NUM_SCALES - 1;
        const next = 1 - current;
        const modeParams = uniform(`cambi ${name} mode ${s}`, [w, h, (w + 1) >> 1, last ? 0 : 1]);
        this.passes.push({
          label: `cambi ${name} mode filter ${s}`,
          dispatches: [{ kernel: kernels.mode, bindings: { mo: modeParams, image: images[current]!, filtered, next: images[next]!, batch }, workgroups: groups(w, h), frames: "z" }],
        });
        const resultBase = (p * NUM_SCALES + s) * POOL_WORDS;
        const n = w * h;
        // from this scale's c-values of the set's first frame on; frame z's lie z * replay.words words further
        const scaleValues: GPUBufferBinding = { buffer: cValues.buffer, offset: replay.offsets[p]![s]! * 4, size: ((frames - 1) * replay.words + n) * 4 };
        const cParams = uniform(`cambi ${name} c-values ${s}`, [w, h, g.windowSize >> 1, plan.bandBase, plan.bandSize, plan.numDiffs, resultBase, 0]);
        this.passes.push({
          label: `cambi ${name} c-values ${s}`,
          dispatches: [{ kernel: kernels.cValues, bindings: { cp: cParams, filtered, c_values: scaleValues, tables, reciprocal, results: "results", batch }, workgroups: groups(w, h), frames: "z" }],
        });
        const pooled: PoolEntry = { n, k: topkCount(plan.topk, n), resultBase, histBase: (p * NUM_SCALES + s) * HIST_WORDS, valuesBase: replay.offsets[p]![s]! };
        if (sideBySide) poolEntries.push(pooled);
        else this.passes.push(pooling(`cambi ${name} pooling ${s}`, [pooled]));
        current = next;
      });
    });
    if (poolEntries.length) this.passes.push(pooling("cambi pooling", poolEntries));
    if (replay.jobs.length) {
      // every job once per frame of the set, frame by frame (workgroup y = job)
      const jobs = Array.from({ length: frames }, (_, f) =>
        replay.jobs.map((j) => ({ ...j, offset: j.offset + f * replay.words, resultBase: j.resultBase + f * resultWords, out: j.out + f * resultWords })),
      ).flat();
      const dispatches = topkReplay(device, jobs, cValues.buffer, this.owned).map((d): Dispatch => ({ ...d, workgroups: [d.workgroups[0], replay.jobs.length], frames: "y" }));
      this.passes.push({ label: "cambi top-k replay", dispatches });
    }
  }

  /**
   * Records the batch in sets of at most `setFrames` frames, one set of dispatches each
   * (workgroup z, or the table row, picks the frame). Results laid out other than the
   * tables expect (not the runner's stride) go frame by frame.
   */
  encodeBatch(encoder: GPUCommandEncoder, passes: PassRecorder, batch: GpuFrameBatch, results: GPUBuffer, resultOffset: number, resultStride: number): void {
    batch.frames.forEach((frame) => this.inFlight.set(frame.index, frame));
    this.writeStrides(batch.refStride, batch.distStride);
    const size = resultStride === RESULT_STRIDE ? this.setFrames : 1;
    for (let f = 0; f < batch.count; f += size) {
      const count = Math.min(size, batch.count - f);
      const at = batch.base + f;
      const views: SetViews = {
        ref: bufferFrom(batch.ref, at * batch.refStride),
        dist: bufferFrom(batch.dist, at * batch.distStride),
        results: bufferFrom(results, resultOffset + f * resultStride),
      };
      encoder.clearBuffer(this.hist!);
      for (const { label, dispatches } of this.passes) {
        const pass = passes.beginComputePass(label);
        for (const d of dispatches) {
          const workgroups = d.frames === "z" ? ([d.workgroups[0], d.workgroups[1], count] as const) : ([d.workgroups[0], d.workgroups[1] * count] as const);
          d.kernel.dispatchIn(pass, bound(d.bindings, views), workgroups);
        }
        pass.end();
      }
    }
  }

  collect(words: Uint32Array, index: number, collector: FeatureCollector): void {
    const plan = this.plan!;
    const frame = this.inFlight.get(index);
    this.inFlight.delete(index);
    const scores: number[] = [];
    for (let p = 0; p < this.jobs.length; p++) {
      const job = this.jobs[p]!;
      const bad = words[BAD_LUMA_WORD + p]!;
      if (bad !== 0) {
        const at = 0xffffffff - bad;
        const { width, bitDepth } = plan.input;
        throw new VqError(`feature cambi: invalid input: frame ${index}: ${job.useRef ? "reference" : "distorted"} luma sample at (${at % width}, ${Math.floor(at / width)}) exceeds ${(1 << bitDepth) - 1}, the maximum for ${bitDepth}-bit input`);
      }
      for (let s = 0; s < NUM_SCALES; s++) {
        const { width, height } = job.sizes[s]!;
        const at = REPLAY_BASE + (p * NUM_SCALES + s) * REPLAY_WORDS;
        const replayed = words[at] === 1;
        if (replayed) this.gpuReplayedScales++;
        const pooled = replayed ? replayedMean(words, at, width * height, plan.topk) : pooledFromWords(words, (p * NUM_SCALES + s) * POOL_WORDS, width * height, plan.topk);
        if (pooled === null) {
          this.replay(frame!, index, collector);
          return;
        }
        this.perScale[s] = pooled;
      }
      scores.push(combineScales(this.perScale, job.geometry.windowSize));
    }
    appendCambiScores(collector, index, this.scoreName, plan, scores[0]!, scores[1] ?? 0);
  }

  async flush(_collector: FeatureCollector): Promise<void> {
    const pending = this.replays.splice(0);
    await Promise.all(pending);
  }

  close(): void {
    for (const b of this.owned) b.destroy();
    this.owned.length = 0;
    this.passes = [];
    this.inFlight.clear();
    this.cpu?.close();
    this.cpu = undefined;
  }

  /**
   * Scores frame `index` on the CPU, where libvmaf's pooling order matters: its frame
   * buffers still hold it (the runner refills a slot only after its frame is collected),
   * so they are copied out and read back; the scores arrive by flush.
   */
  private replay(frame: GpuFrame, index: number, collector: FeatureCollector): void {
    const device = this.device!;
    const format = this.format!;
    const bytes = alignUp(packedLayout(format).byteLength, 4);
    const copied = device.createBuffer({ label: "cambi replay frames", size: 2 * bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    const staging = device.createBuffer({ label: "cambi replay", size: 2 * bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const params = device.createBuffer({ label: "cambi replay params", size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(params, 0, Uint32Array.of(bytes / 4, 0, 0, 0));
    const pipeline = computePipeline(device, CAMBI_KERNELS.frameCopy);
    const group = device.createBindGroup({
      layout: pipeline.getBindGroupLayout(0),
      entries: [frame.ref, frame.dist, { buffer: this.planes! }, { buffer: params }, { buffer: copied }].map((resource, binding) => ({ binding, resource })),
    });
    const encoder = device.createCommandEncoder({ label: `cambi replay ${index}` });
    const pass = encoder.beginComputePass({ label: "cambi frame copy" });
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.min(1024, Math.ceil(bytes / 4 / 256)));
    pass.end();
    encoder.copyBufferToBuffer(copied, 0, staging, 0, 2 * bytes);
    device.queue.submit([encoder.finish()]);
    copied.destroy();
    params.destroy();
    this.replayedFrames++;
    this.replays.push(
      staging.mapAsync(GPUMapMode.READ).then(() => {
        const data = new Uint8Array(staging.getMappedRange().slice(0));
        staging.destroy();
        if (!this.cpu) {
          this.cpu = new CambiCpu(this.options);
          this.cpu.init(format);
        }
        this.cpu.extract({ ref: new Picture(format, data.subarray(0, bytes)), dist: new Picture(format, data.subarray(bytes)) }, index, collector);
      }),
    );
  }

  /** The frame buffers' strides are fixed for a run: written (before the batch's submit) when they change. */
  private writeStrides(refStride: number, distStride: number): void {
    const words = this.batchWords;
    if (words[0] === refStride / 4 && words[1] === distStride / 4) return;
    words[0] = refStride / 4;
    words[1] = distStride / 4;
    this.device!.queue.writeBuffer(this.batchUniform!, 0, words);
  }
}

/** A dispatch's bindings with the set's views in place of "ref", "dist" and "results". */
function bound(bindings: DispatchBindings, views: SetViews): Record<string, BoundResource> {
  const out: Record<string, BoundResource> = {};
  for (const name in bindings) {
    const b = bindings[name]!;
    out[name] = b === "ref" || b === "dist" || b === "results" ? views[b] : b;
  }
  return out;
}

export function createCambiGpu(options: Partial<CambiOptions> = {}): CambiGpu {
  return new CambiGpu(cambiOptions.resolve(options));
}
