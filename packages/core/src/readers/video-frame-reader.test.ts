import { describe, expect, test } from "bun:test";
import { memoryReader } from "./memory-reader.ts";
import { packedLayout, type PictureFormat } from "../picture.ts";
import { videoFrameReader, type CopyPlaneLayout, type FrameRect, type VideoFrameLike } from "./video-frame-reader.ts";

/**
 * A VideoFrame as WebCodecs defines copyTo: planes stored with the coded size and their own
 * strides; copyTo copies the requested rect (in luma samples, chroma scaled by subsampling)
 * into the caller's layout.
 */
class FakeVideoFrame implements VideoFrameLike {
  closed = false;
  constructor(
    readonly format: string | null,
    readonly codedWidth: number,
    readonly codedHeight: number,
    readonly visibleRect: FrameRect | null,
    /** Per plane: samples (bytes per sample), horizontal and vertical subsampling, interleaved components. */
    private readonly planes: { data: Uint8Array; bps: number; sx: number; sy: number; components: number }[],
  ) {}
  async copyTo(destination: Uint8Array, options?: { rect?: FrameRect; layout?: CopyPlaneLayout[] }): Promise<unknown> {
    if (this.closed) throw new Error("InvalidStateError: closed");
    const rect = options?.rect ?? this.visibleRect ?? { x: 0, y: 0, width: this.codedWidth, height: this.codedHeight };
    this.planes.forEach((p, i) => {
      const rowBytes = Math.ceil(rect.width / p.sx) * p.components * p.bps;
      const codedStride = Math.ceil(this.codedWidth / p.sx) * p.components * p.bps;
      const layout = options!.layout![i]!;
      for (let y = 0; y < Math.ceil(rect.height / p.sy); y++) {
        const from = (rect.y / p.sy + y) * codedStride + (rect.x / p.sx) * p.components * p.bps;
        destination.set(p.data.subarray(from, from + rowBytes), layout.offset + y * layout.stride);
      }
    });
    return [];
  }
  close() {
    this.closed = true;
  }
}

/** Deterministic sample values, different per plane and position. */
const sample = (plane: number, x: number, y: number, max: number) => (plane * 97 + x * 31 + y * 17 + ((x * y) % 13)) % (max + 1);

/** The same content as a packed Y4M-layout frame and as a VideoFrame with a 4-sample coded border. */
function frameOf(format: PictureFormat, wcFormat: string, seed: number): { packed: Uint8Array; frame: FakeVideoFrame } {
  const { planes, byteLength } = packedLayout(format);
  const bps = format.bitDepth > 8 ? 2 : 1;
  const max = (1 << format.bitDepth) - 1;
  const packed = new Uint8Array(byteLength);
  const packedView = new DataView(packed.buffer);
  const border = 4;
  const codedWidth = format.width + border;
  const codedHeight = format.height + border;
  const fakePlanes = planes.map((p, i) => {
    const sx = i === 0 ? 1 : format.width / p.width > 1.5 ? 2 : 1;
    const sy = i === 0 ? 1 : Math.ceil(format.height / 2) === p.height && format.pixelFormat === "420" ? 2 : 1;
    const cw = Math.ceil(codedWidth / sx);
    const ch = Math.ceil(codedHeight / sy);
    const data = new Uint8Array(cw * ch * bps).fill(0xee); // the border holds junk
    const view = new DataView(data.buffer);
    for (let y = 0; y < p.height; y++) {
      for (let x = 0; x < p.width; x++) {
        const v = sample(i + seed, x, y, max);
        const at = ((y + border / sy) * cw + x + border / sx) * bps;
        const to = p.offset + (y * p.stride + x) * bps;
        if (bps === 1) data[at] = packed[to] = v;
        else {
          view.setUint16(at, v, true);
          packedView.setUint16(to, v, true);
        }
      }
    }
    return { data, bps, sx, sy, components: 1 };
  });
  if (wcFormat === "NV12") {
    // Interleave the two chroma planes as NV12 stores them.
    const [u, v] = [fakePlanes[1]!, fakePlanes[2]!];
    const uv = new Uint8Array(u.data.length * 2);
    for (let i = 0; i < u.data.length; i++) {
      uv[2 * i] = u.data[i]!;
      uv[2 * i + 1] = v.data[i]!;
    }
    fakePlanes.splice(1, 2, { ...u, data: uv, components: 2 });
  }
  if (wcFormat.includes("A")) fakePlanes.push({ ...fakePlanes[0]!, data: new Uint8Array(fakePlanes[0]!.data.length).fill(0x55) });
  return { packed, frame: new FakeVideoFrame(wcFormat, codedWidth, codedHeight, { x: border, y: border, width: format.width, height: format.height }, fakePlanes) };
}

async function readAll(reader: { read(): Promise<{ buffer: Uint8Array } | null> }): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for (let p = await reader.read(); p; p = await reader.read()) out.push(p.buffer.slice());
  return out;
}

describe("videoFrameReader", () => {
  const cases: [string, PictureFormat][] = [
    ["I420", { width: 38, height: 22, bitDepth: 8, pixelFormat: "420" }],
    ["NV12", { width: 38, height: 22, bitDepth: 8, pixelFormat: "420" }],
    ["I420A", { width: 38, height: 22, bitDepth: 8, pixelFormat: "420" }],
    ["I420P10", { width: 38, height: 22, bitDepth: 10, pixelFormat: "420" }],
    ["I422P12", { width: 38, height: 22, bitDepth: 12, pixelFormat: "422" }],
    ["I444", { width: 37, height: 21, bitDepth: 8, pixelFormat: "444" }],
  ];
  for (const [wcFormat, format] of cases) {
    test(`${wcFormat} frames give the same pictures as the same frames in Y4M layout`, async () => {
      const made = [0, 1, 2].map((seed) => frameOf(format, wcFormat, seed));
      const fromFrames = await videoFrameReader("ref", made.map((m) => m.frame));
      expect(fromFrames.format).toEqual(format);
      const fromMemory = memoryReader("ref", format, made.map((m) => m.packed));
      expect(await readAll(fromFrames)).toEqual(await readAll(fromMemory));
      expect(made.every((m) => m.frame.closed)).toBe(true); // the reader owns the frames
    });
  }

  test("RGB and opaque frames are refused with the format named", async () => {
    const f = frameOf({ width: 8, height: 8, bitDepth: 8, pixelFormat: "420" }, "I420", 0).frame;
    const rgba = Object.assign(Object.create(Object.getPrototypeOf(f)), f, { format: "RGBA" }) as VideoFrameLike;
    await expect(videoFrameReader("dist", [rgba])).rejects.toThrow(/dist: frame 0 is RGBA; vq scores YUV frames/);
    const opaque = Object.assign(Object.create(Object.getPrototypeOf(f)), f, { format: null }) as VideoFrameLike;
    await expect(videoFrameReader("dist", [opaque])).rejects.toThrow(/frame 0 has no readable pixel format/);
    await expect(videoFrameReader("dist", [])).rejects.toThrow(/dist: no frames/);
  });

  test("a frame claiming a picture over vq's size limit is refused before its buffers are allocated", async () => {
    const f = frameOf({ width: 8, height: 8, bitDepth: 8, pixelFormat: "420" }, "I420", 0).frame;
    const huge = Object.assign(Object.create(Object.getPrototypeOf(f)), f, { codedWidth: 65536, codedHeight: 65536, visibleRect: null }) as VideoFrameLike;
    const readFirst = async () => (await videoFrameReader("dist", [huge])).read();
    await expect(readFirst()).rejects.toThrow(/^dist: frame 0: picture size 65536x65536 is over vq's limit of 268435456 samples/);
  });

  test("a first frame refused (format, size) is closed: the reader took it, and the caller gets no reader to close (fuzz corpus)", async () => {
    const f = frameOf({ width: 8, height: 8, bitDepth: 8, pixelFormat: "420" }, "I420", 0).frame;
    for (const change of [{ format: "RGBA" }, { codedHeight: 2147483648, visibleRect: null }, { codedHeight: 1.5, visibleRect: null }, { visibleRect: { x: 0, y: 0, width: 8, height: {} } }]) {
      const frame = Object.assign(Object.create(Object.getPrototypeOf(f)), f, change, { closed: false }) as VideoFrameLike & { closed: boolean };
      await expect(videoFrameReader("dist", [frame])).rejects.toThrow(/^dist: frame 0/);
      expect(frame.closed).toBe(true);
    }
  });

  test("a frame whose size or format changes mid-stream names the frame", async () => {
    const a = frameOf({ width: 16, height: 8, bitDepth: 8, pixelFormat: "420" }, "I420", 0);
    const b = frameOf({ width: 18, height: 8, bitDepth: 8, pixelFormat: "420" }, "I420", 1);
    const reader = await videoFrameReader("dist", [a.frame, b.frame]);
    expect(await reader.read()).not.toBeNull();
    await expect(reader.read()).rejects.toThrow(/dist: frame 1 is I420 18x8 .*frame 0 was I420 16x8/);
    expect(b.frame.closed).toBe(true);
  });

  test("a failing copy becomes a VqError naming the frame", async () => {
    const a = frameOf({ width: 16, height: 8, bitDepth: 8, pixelFormat: "420" }, "I420", 0);
    a.frame.copyTo = async () => {
      throw new Error("InvalidStateError: detached");
    };
    const reader = await videoFrameReader("ref", [a.frame]);
    await expect(reader.read()).rejects.toThrow(/ref: frame 0: copying the VideoFrame failed: InvalidStateError/);
  });
});
