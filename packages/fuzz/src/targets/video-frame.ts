import { videoFrameReader, type CopyPlaneLayout, type FrameRect, type VideoFrameLike } from "@vq/core";
import { jsonCase } from "../json-case.ts";
import { ODD_VALUES } from "../mutators.ts";
import type { Prng } from "../prng.ts";
import { shrinkList } from "../shrink.ts";
import type { FuzzTarget } from "../target.ts";

/** One synthetic frame: what WebCodecs would report, and how its copyTo behaves. */
export interface FrameSpec {
  format: unknown;
  codedWidth: unknown;
  codedHeight: unknown;
  visibleRect: unknown;
  /** ok; closed (copyTo throws as a closed VideoFrame does); throws (a TypeError); rejects (asynchronously). */
  copy: "ok" | "closed" | "throws" | "rejects";
}

const FORMATS = ["I420", "I420A", "I420P10", "I420AP10", "I420P12", "I422", "I422A", "I422P10", "I422AP10", "I422P12", "I444", "I444A", "I444P10", "I444AP10", "I444P12", "NV12"];
const ODD_FORMATS = [null, "RGBA", "RGBX", "BGRA", "BGRX", "NV21", "I420P16", "", "i420", "I400", 7];
/** Planes' subsampling and bytes per sample, as WebCodecs lays them out. */
const LAYOUT: Record<string, { sub: [number, number]; bps: number; planes: number; interleaved?: boolean }> = Object.fromEntries(
  FORMATS.map((f) => [f, { sub: f.startsWith("I420") || f === "NV12" ? [2, 2] : f.startsWith("I422") ? [2, 1] : [1, 1], bps: /P1[02]/.test(f) ? 2 : 1, planes: f === "NV12" ? 2 : f.includes("A") ? 4 : 3, interleaved: f === "NV12" }]),
) as Record<string, { sub: [number, number]; bps: number; planes: number; interleaved?: boolean }>;

function frameSpec(rng: Prng, base?: FrameSpec): FrameSpec {
  const w = rng.range(1, 40);
  const h = rng.range(1, 40);
  const f: FrameSpec = base ? { ...base } : { format: rng.pick(FORMATS), codedWidth: w, codedHeight: h, visibleRect: rng.chance(0.5) ? null : { x: 0, y: 0, width: w, height: h }, copy: "ok" };
  if (rng.chance(0.5)) return f;
  switch (rng.int(7)) {
    case 0:
      f.format = rng.pick(ODD_FORMATS);
      break;
    case 1:
      f.codedWidth = rng.pick([0, -1, 1.5, NaN, Infinity, 65536, 65537, 16384, 2 ** 32, ...ODD_VALUES]);
      break;
    case 2:
      f.codedHeight = rng.pick([0, -1, 1.5, NaN, Infinity, 65536, 16385, 2 ** 32, ...ODD_VALUES]);
      break;
    case 3: {
      const r = { x: 0, y: 0, width: Number(f.codedWidth) || 1, height: Number(f.codedHeight) || 1 } as Record<string, unknown>;
      r[rng.pick(["x", "y", "width", "height"])] = rng.pick([-1, 1, 2, 0, 1.5, NaN, Infinity, 65537, 16384, 100, ...ODD_VALUES]);
      f.visibleRect = rng.chance(0.1) ? rng.pick(ODD_VALUES) : r;
      break;
    }
    case 4:
      f.copy = rng.pick(["closed", "throws", "rejects"] as const);
      break;
    case 5:
      f.format = rng.pick(FORMATS);
      break;
    default: {
      const n = rng.range(1, 40);
      f.codedWidth = n;
      f.visibleRect = { x: 0, y: 0, width: n, height: f.codedHeight };
    }
  }
  return f;
}

export function generateFrames(rng: Prng): FrameSpec[] {
  const first = frameSpec(rng);
  return Array.from({ length: rng.pick([0, 1, 1, 2, 3, 4]) }, (_, i) => (i === 0 ? first : frameSpec(rng, first)));
}

/** A VideoFrame-like object that copies as WebCodecs does, and records whether the reader closed it and asked for a layout inside its buffer. */
class SyntheticFrame implements VideoFrameLike {
  closed = false;
  constructor(readonly spec: FrameSpec, private readonly misuse: string[]) {}
  get format() {
    return this.spec.format as string | null;
  }
  get codedWidth() {
    return this.spec.codedWidth as number;
  }
  get codedHeight() {
    return this.spec.codedHeight as number;
  }
  get visibleRect() {
    return this.spec.visibleRect as FrameRect | null;
  }
  async copyTo(destination: Uint8Array, options?: { rect?: FrameRect; layout?: CopyPlaneLayout[] }): Promise<unknown> {
    if (this.closed || this.spec.copy === "closed") throw new DOMException("VideoFrame is closed", "InvalidStateError");
    if (this.spec.copy === "throws") throw new TypeError("copyTo: the destination is not large enough");
    if (this.spec.copy === "rejects") return Promise.reject(new RangeError("copyTo: rect out of bounds"));
    const l = LAYOUT[String(this.spec.format)];
    const rect = options?.rect ?? { x: 0, y: 0, width: this.codedWidth, height: this.codedHeight };
    if (!l || !options?.layout) return [];
    // A well-formed frame: a layout that does not fit the reader's own buffer is the reader's mistake.
    for (let p = 0; p < l.planes; p++) {
      const chroma = p === 1 || p === 2;
      const width = Math.ceil(rect.width / (chroma ? l.sub[0] : 1)) * l.bps * (l.interleaved && p === 1 ? 2 : 1);
      const rows = Math.ceil(rect.height / (chroma ? l.sub[1] : 1));
      const plane = options.layout[p];
      if (!plane) {
        this.misuse.push(`copyTo got ${options.layout.length} plane layouts for ${String(this.spec.format)}`);
        return [];
      }
      const end = plane.offset + (rows - 1) * plane.stride + width;
      if (plane.stride < width || end > destination.length) this.misuse.push(`copyTo plane ${p}: ${rows} rows of ${width} bytes at ${plane.offset} (stride ${plane.stride}) past a ${destination.length}-byte buffer`);
      else for (let r = 0; r < rows; r++) destination.fill(p * 40 + r, plane.offset + r * plane.stride, plane.offset + r * plane.stride + width);
    }
    return [];
  }
  close(): void {
    this.closed = true;
  }
}

/** Every frame read through videoFrameReader; the frames must come back closed and copied within their buffers. */
export async function readFrames(specs: FrameSpec[]): Promise<unknown> {
  const misuse: string[] = [];
  const frames = specs.map((s) => new SyntheticFrame(s, misuse));
  let read = 0;
  try {
    const reader = await videoFrameReader("frames", frames);
    try {
      for (let p = await reader.read(); p; p = await reader.read()) {
        reader.release(p);
        read++;
      }
    } finally {
      await reader.close();
    }
  } finally {
    // The reader owns the frames it took: each one it reached must be closed, whatever happened.
    const open = frames.findIndex((f, i) => i <= read && !f.closed);
    if (misuse.length) throw new Error(misuse[0]);
    if (open >= 0) throw new Error(`frame ${open} was left open`);
  }
  return { read };
}

export const videoFrameTarget: FuzzTarget<FrameSpec[]> = {
  name: "videoframe",
  description: "the VideoFrame reader with synthetic frames: pixel formats vq takes and others, coded sizes and visible rects (odd, non-finite, huge), frames that change format or size, closed frames, copyTo that throws or rejects",
  weight: 10,
  generate: generateFrames,
  run: readFrames,
  save: jsonCase.save,
  load: (f) => jsonCase.load<FrameSpec[]>(f),
  shrink: shrinkList,
};
