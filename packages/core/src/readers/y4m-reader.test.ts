import { describe, expect, test } from "bun:test";
import { VqError } from "../errors.ts";
import { Y4mReader } from "./y4m-reader.ts";
import type { ByteSource } from "./byte-source.ts";

/** An in-memory byte source that hands out data in small, uneven chunks, like a pipe. */
function memorySource(bytes: Uint8Array, chunk = 7): ByteSource {
  let at = 0;
  return {
    async read(into) {
      const n = Math.min(into.length, chunk, bytes.length - at);
      into.set(bytes.subarray(at, at + n));
      at += n;
      return n;
    },
    async close() {},
  };
}

function y4m(header: string, frames: Uint8Array[], frameLine = "FRAME"): Uint8Array {
  const parts: Uint8Array[] = [new TextEncoder().encode(header + "\n")];
  for (const f of frames) parts.push(new TextEncoder().encode(frameLine + "\n"), f);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function ramp(n: number, seed: number): Uint8Array {
  return Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);
}

async function open(bytes: Uint8Array, name = "test.y4m") {
  return Y4mReader.fromSource(name, memorySource(bytes));
}

async function readError(bytes: Uint8Array): Promise<string> {
  try {
    const r = await open(bytes);
    while (await r.read());
  } catch (e) {
    expect(e).toBeInstanceOf(VqError);
    return (e as Error).message;
  }
  throw new Error("expected an error");
}

describe("Y4mReader", () => {
  test("the frame rate comes from F; no F, or F0:0 (the format's unknown), leaves it unknown", async () => {
    expect((await open(y4m("YUV4MPEG2 W2 H2 F24000:1001 C444", []))).frameRate).toEqual({ num: 24000, den: 1001 });
    expect((await open(y4m("YUV4MPEG2 W2 H2 C444", []))).frameRate).toBeUndefined();
    expect((await open(y4m("YUV4MPEG2 W2 H2 F0:0 C444", []))).frameRate).toBeUndefined();
  });

  test("reads odd-sized 4:2:0 frames with rounded-up chroma, frame parameters included", async () => {
    // 5x3 luma, 3x2 chroma planes
    const size = 5 * 3 + 2 * 3 * 2;
    const frames = [ramp(size, 1), ramp(size, 2)];
    const r = await open(y4m("YUV4MPEG2 W5 H3 F25:1 Ip A1:1 C420jpeg XYSCSS=420JPEG", frames, "FRAME Ixyz"));
    expect(r.format).toEqual({ width: 5, height: 3, bitDepth: 8, pixelFormat: "420" });
    expect(r.frameRate).toEqual({ num: 25, den: 1 });
    for (const f of frames) {
      const p = (await r.read())!;
      expect(p.planes.map((q) => [q.width, q.height])).toEqual([
        [5, 3],
        [3, 2],
        [3, 2],
      ]);
      expect([...p.planes[0]!.data]).toEqual([...f.subarray(0, 15)]);
      expect([...p.planes[2]!.data]).toEqual([...f.subarray(21, 27)]);
      r.release(p);
    }
    expect(await r.read()).toBeNull();
  });

  test("reads 10-bit little-endian samples and 4:0:0 (mono) input", async () => {
    const bytes = new Uint8Array([0x01, 0x02, 0xff, 0x03, 0, 0, 0x10, 0]);
    const r = await open(y4m("YUV4MPEG2 W2 H2 F30:1 Cmono10", [bytes]));
    expect(r.format.pixelFormat).toBe("400");
    const p = (await r.read())!;
    expect(p.planes.length).toBe(1);
    expect([...p.planes[0]!.data]).toEqual([0x0201, 0x03ff, 0, 16]);
  });

  test("skips the alpha plane of 444alpha", async () => {
    const frame = ramp(4 * 3, 5);
    const alpha = new Uint8Array(4).fill(9);
    const data = new Uint8Array([...frame, ...alpha]);
    const r = await open(y4m("YUV4MPEG2 W2 H2 F30:1 C444alpha", [data, data]));
    expect([...(await r.read())!.planes[2]!.data]).toEqual([...frame.subarray(8, 12)]);
    expect([...(await r.read())!.planes[0]!.data]).toEqual([...frame.subarray(0, 4)]);
    expect(await r.read()).toBeNull();
  });

  test("reuses frame buffers once released (constant memory)", async () => {
    const size = 4 * 4 * 3;
    const frames = Array.from({ length: 50 }, (_, i) => ramp(size, i));
    const r = await open(y4m("YUV4MPEG2 W4 H4 F30:1 C444", frames));
    const buffers = new Set<ArrayBufferLike>();
    for (let p = await r.read(); p; p = await r.read()) {
      buffers.add(p.buffer.buffer);
      r.release(p);
    }
    expect(buffers.size).toBe(1);
  });

  test("rejects a file that is not Y4M", async () => {
    expect(await readError(new TextEncoder().encode("RIFF....WAVEfmt "))).toContain('not a Y4M file');
  });

  test("rejects an empty file", async () => {
    expect(await readError(new Uint8Array(0))).toContain("empty file");
  });

  test("rejects an unknown colour space, naming the tag", async () => {
    expect(await readError(y4m("YUV4MPEG2 W2 H2 F30:1 C420foo", []))).toContain('"C420foo"');
  });

  test("rejects 4:1:1, which vq does not score", async () => {
    expect(await readError(y4m("YUV4MPEG2 W4 H2 F30:1 C411", []))).toContain('"C411"');
  });

  test("rejects interlaced input", async () => {
    expect(await readError(y4m("YUV4MPEG2 W2 H2 F30:1 It", []))).toContain("interlaced");
  });

  test("rejects a header without width", async () => {
    expect(await readError(y4m("YUV4MPEG2 H2 F30:1", []))).toContain("no W (width)");
  });

  test("rejects a truncated frame, naming the frame", async () => {
    const bytes = y4m("YUV4MPEG2 W4 H4 F30:1 C444", [ramp(48, 0), ramp(48, 1)]);
    const message = await readError(bytes.subarray(0, bytes.length - 5));
    expect(message).toContain("frame 1 is truncated: 43 of 48 bytes");
    expect(message).toContain("test.y4m");
  });

  test("rejects lost framing, naming the frame", async () => {
    const bytes = y4m("YUV4MPEG2 W4 H4 F30:1 C444", [ramp(48, 0), ramp(48, 1)], "FRAME");
    const broken = new Uint8Array([...bytes.subarray(0, bytes.length - 48 - 6), ...new TextEncoder().encode("FRAMX\n"), ...ramp(48, 1)]);
    expect(await readError(broken)).toContain("frame 1: expected a FRAME marker");
  });

  test("a header claiming a picture over vq's limit is refused, naming the limit", async () => {
    // 65536x65536 passes the per-side limit; its 4 Gi samples a picture do not
    expect(await readError(y4m("YUV4MPEG2 W65536 H65536 F25:1 C420jpeg", []))).toBe("test.y4m: picture size 65536x65536 is over vq's limit of 268435456 samples (16384x16384) a picture (docs/limits.md)");
    expect(await readError(y4m("YUV4MPEG2 W65537 H2 F25:1", []))).toBe('test.y4m: Y4M header: bad W (width) "65537" (1 to 65536)');
  });

  test("a file shorter than one frame of its claimed size is refused when opened, before frame buffers exist", async () => {
    const bytes = y4m("YUV4MPEG2 W16384 H16384 F25:1 C420jpeg", [new Uint8Array(10)]);
    const sized: ByteSource = { ...memorySource(bytes), size: bytes.length };
    const err = await Y4mReader.fromSource("big.y4m", sized).catch((e) => e);
    expect(err).toBeInstanceOf(VqError);
    expect(err.message).toBe("big.y4m: frame 0 is truncated: the file holds 16 bytes after its header, one 16384x16384 420 8-bit frame takes 402653190");
  });

  test("header values quoted in a message come out as one printable line: control bytes escaped, long values cut", async () => {
    const message = await readError(y4m(`YUV4MPEG2 W8 H8 C420\r\x1b[2J\0${"x".repeat(4000)}`, []));
    expect(message).toStartWith('test.y4m: Y4M header: unsupported colour space "C420\\r\\x1b[2J\\0xxxxxxxxxxxxxxxxxxxxxxx..." (supported:');
    expect(message.length).toBeLessThanOrEqual(300);
    expect(message).not.toMatch(/[\x00-\x1f\x7f]/);
  });

  test("a file with a header and no frames reads as zero frames", async () => {
    const r = await open(y4m("YUV4MPEG2 W4 H4 F30:1 C444", []));
    expect(await r.read()).toBeNull();
  });
});
