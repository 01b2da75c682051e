import { parseY4mHeader, packedLayout, Y4mReader, type VideoReader } from "@vq/core";
import { memorySource } from "../memory-source.ts";
import { concat, latin1, mutateBytes, mutateText, ODD_NUMBERS } from "../mutators.ts";
import type { Prng } from "../prng.ts";
import { shrinkBytes } from "../shrink.ts";
import type { FuzzTarget } from "../target.ts";

const COLOUR_SPACES = ["420", "420jpeg", "420mpeg2", "420paldv", "422", "444", "444alpha", "mono", "420p10", "422p12", "444p16", "420p9", "mono10", "mono16", "444p14"];
const ODD_COLOUR_SPACES = ["411", "420p11", "420p8", "mono8", "mono1", "444alpha10", "", "420p", "p10", "yuv420p", "420p100000000000000000"];
/** Frame bytes above this are not read as a pipe: a pipe has no size to check a header's claim against, so the reader would allocate it. */
const PIPE_FRAME_LIMIT = 8 << 20;

/** A structurally valid Y4M file (small, a few frames), then mutated in its tags, markers, sizes or bytes. */
export function generateY4m(rng: Prng): Uint8Array {
  const width = rng.chance(0.8) ? rng.range(1, 24) : rng.range(1, 300);
  const height = rng.chance(0.8) ? rng.range(1, 24) : rng.range(1, 200);
  const colour = rng.chance(0.9) ? rng.pick(COLOUR_SPACES) : rng.pick(ODD_COLOUR_SPACES);
  const tags = [`W${width}`, `H${height}`, `F${rng.pick(["25:1", "30000:1001", "0:0", "60:1"])}`, `I${rng.pick(["p", "?", "p", "p", "p", "p", "p", "t"])}`, `A${rng.pick(["1:1", "0:0", "128:117"])}`];
  if (rng.chance(0.8)) tags.push(`C${colour}`);
  if (rng.chance(0.3)) tags.push(`X${rng.pick(["YSCSS=420JPEG", "COLORRANGE=FULL", "", "x".repeat(rng.int(5000))])}`);
  mutateTags(rng, tags);
  let header = `YUV4MPEG2${rng.chance(0.95) ? " " : rng.pick(["", "  ", "\t"])}${tags.join(rng.chance(0.95) ? " " : rng.pick(["  ", "\t", " \r"]))}`;
  if (rng.chance(0.05)) header = mutateText(rng, header);
  const parts: Uint8Array[] = [latin1(header), latin1(rng.chance(0.97) ? "\n" : rng.pick(["", "\r\n", "\r"]))];
  const frameBytes = claimedFrameBytes(header);
  const frames = rng.pick([0, 1, 1, 2, 2, 3, 5]);
  for (let f = 0; f < frames; f++) {
    parts.push(latin1(marker(rng)));
    let n = frameBytes ?? rng.int(4096);
    if (rng.chance(0.1)) n = Math.max(0, n + rng.range(-8, 8));
    parts.push(payload(rng, Math.min(n, 1 << 20)));
  }
  let bytes = concat(...parts);
  if (rng.chance(0.1)) bytes = bytes.subarray(0, rng.int(bytes.length + 1));
  if (rng.chance(0.25)) bytes = mutateBytes(rng, bytes);
  if (rng.chance(0.02)) bytes = concat(rng.chance(0.5) ? latin1("YUV4MPEG2 ") : new Uint8Array(), rng.bytes(rng.int(512)));
  return bytes;
}

function mutateTags(rng: Prng, tags: string[]): void {
  const edits = rng.chance(0.5) ? 0 : 1 + rng.int(3);
  for (let n = 0; n < edits; n++) {
    const i = rng.int(tags.length);
    switch (rng.int(7)) {
      case 0: // an odd number in a tag
        tags[i] = `${tags[i]![0]}${rng.pick(ODD_NUMBERS)}${rng.chance(0.3) ? `:${rng.pick(ODD_NUMBERS)}` : ""}`;
        break;
      case 1: // huge sizes: under, at and over vq's limits
        tags[i] = `${rng.pick(["W", "H"])}${rng.pick(["16384", "16385", "65536", "65537", "32768", "4294967296", "100000"])}`;
        break;
      case 2:
        tags.splice(i, 1);
        break;
      case 3:
        tags.push(tags[i]!);
        break;
      case 4:
        tags.push(`${rng.pick(["W", "H", "C", "F", "I", "A", "X", "Z", "w", "?"])}${rng.pick(["", "x", "1", "-5", "1:0"])}`);
        break;
      case 5:
        tags.reverse();
        break;
      default:
        tags[i] = mutateText(rng, tags[i]!);
    }
  }
}

/** The frame size the header claims, when it parses (else undefined: the payload is a guess). */
function claimedFrameBytes(header: string): number | undefined {
  try {
    const h = parseY4mHeader("x", header);
    return packedLayout(h.format).byteLength + h.extraBytesPerFrame;
  } catch {
    return undefined;
  }
}

function marker(rng: Prng): string {
  if (rng.chance(0.9)) return "FRAME\n";
  return rng.pick(["FRAME Ip\n", "FRAME Xfoo=1\n", "FRAME\r\n", "FRAM\n", "FRAMES\n", "frame\n", "", "\n", `FRAME ${"x".repeat(300)}\n`, "FRAME"]);
}

function payload(rng: Prng, n: number): Uint8Array {
  const b = new Uint8Array(n);
  b.fill(rng.int(256));
  for (let i = 0; i < Math.min(n, 16); i++) b[rng.int(n)] = rng.int(256);
  return b;
}

/** Every frame read to the end; the numbers a reader reports come back for the finiteness check. */
async function readAll(reader: VideoReader): Promise<Record<string, number>> {
  try {
    let frames = 0;
    for (;;) {
      const p = await reader.read();
      if (!p) break;
      if (p.buffer.byteLength < packedLayout(reader.format).byteLength) throw new Error(`frame ${frames}: buffer of ${p.buffer.byteLength} bytes is short`);
      reader.release(p);
      frames++;
    }
    if (reader.frameCount !== undefined && reader.frameCount !== frames) throw new Error(`read ${frames} frames, the reader promised ${reader.frameCount}`);
    return { frames, width: reader.format.width, height: reader.format.height, frameCount: reader.frameCount ?? frames };
  } finally {
    await reader.close();
  }
}

/** Frames by position (the GPU path's reads), when the reader offers them. */
async function readPositional(reader: Y4mReader): Promise<void> {
  try {
    const file = reader.frameFile;
    if (!file?.frameCount) return;
    const buffer = new Uint8Array(6 + file.frameBytes);
    for (let i = 0; i < file.frameCount; i++) {
      await file.read(i, buffer.subarray(6), true);
      await file.read(i, buffer.subarray(0, file.frameBytes), false);
    }
  } finally {
    await reader.close();
  }
}

/** A Y4M file's bytes read as a file (sequentially and by position) and as a pipe in small pieces. */
export async function readY4m(bytes: Uint8Array): Promise<unknown> {
  const result = await readAll(await Y4mReader.fromSource("fuzz.y4m", memorySource(bytes, "file")));
  await readPositional(await Y4mReader.fromSource("fuzz.y4m", memorySource(bytes, "file")));
  if ((claimedFrameBytes(headerLine(bytes)) ?? 0) <= PIPE_FRAME_LIMIT) {
    // small pieces (a pipe's reads split headers and markers anywhere), at most ~2000 of them a file
    const piece = Math.max(1 + (bytes.length % 61), Math.ceil(bytes.length / 2000));
    await readAll(await Y4mReader.fromSource("standard input", memorySource(bytes, "pipe", piece)));
  }
  return result;
}

function headerLine(bytes: Uint8Array): string {
  const end = bytes.indexOf(0x0a);
  return String.fromCharCode(...bytes.subarray(0, end < 0 ? Math.min(bytes.length, 4097) : Math.min(end, 4097)));
}

export const y4mTarget: FuzzTarget<Uint8Array> = {
  name: "y4m",
  description: "the Y4M reader: header tags (W H F A I C X), sizes under and over the limits, FRAME markers and their parameters, truncation, byte flips, random bytes; every frame read as a file, by position and as a pipe",
  weight: 40,
  generate: generateY4m,
  run: readY4m,
  save: (bytes) => ({ extension: "y4m", bytes }),
  load: (file) => file.bytes,
  shrink: shrinkBytes,
};
