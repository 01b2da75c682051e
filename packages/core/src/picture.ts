import { VqError } from "./errors.ts";

/** Chroma layouts libvmaf knows, plus 4:0:0 (luma only). */
export type PixelFormat = "420" | "422" | "444" | "400";
export const PIXEL_FORMATS: readonly PixelFormat[] = ["420", "422", "444", "400"];

export interface PictureFormat {
  readonly width: number;
  readonly height: number;
  /** Bits per sample, 8 to 16. Samples above 8 bits are stored as little-endian 16-bit words. */
  readonly bitDepth: number;
  readonly pixelFormat: PixelFormat;
}

/** Where one plane lives inside a picture's frame buffer. */
export interface PlaneLayout {
  readonly width: number;
  readonly height: number;
  /** Byte offset of the plane in the frame buffer. */
  readonly offset: number;
  /** Distance between rows, in samples. */
  readonly stride: number;
}

export type Samples = Uint8Array | Uint16Array;

export interface Plane extends PlaneLayout {
  /** The plane's samples; row y starts at `y * stride`. */
  readonly data: Samples;
}

export function bytesPerSample(bitDepth: number): 1 | 2 {
  return bitDepth > 8 ? 2 : 1;
}

/** Chroma plane size: rounded up, so odd sizes keep their last column and row (libvmaf's readers crash there). */
export function chromaSize(format: Pick<PictureFormat, "width" | "height" | "pixelFormat">): { width: number; height: number } {
  switch (format.pixelFormat) {
    case "420":
      return { width: (format.width + 1) >> 1, height: (format.height + 1) >> 1 };
    case "422":
      return { width: (format.width + 1) >> 1, height: format.height };
    case "444":
      return { width: format.width, height: format.height };
    case "400":
      return { width: 0, height: 0 };
  }
}

export function planeCount(pixelFormat: PixelFormat): 1 | 3 {
  return pixelFormat === "400" ? 1 : 3;
}

/** The packed layout of one frame: planes back to back, rows unpadded (Y4M's and raw YUV's layout). */
export function packedLayout(format: PictureFormat): { planes: PlaneLayout[]; byteLength: number } {
  validateFormat(format);
  const bps = bytesPerSample(format.bitDepth);
  const c = chromaSize(format);
  const sizes = [{ width: format.width, height: format.height }];
  if (planeCount(format.pixelFormat) === 3) sizes.push(c, c);
  const planes: PlaneLayout[] = [];
  let offset = 0;
  for (const s of sizes) {
    planes.push({ width: s.width, height: s.height, offset, stride: s.width });
    offset += s.width * s.height * bps;
  }
  return { planes, byteLength: offset };
}

export function validateFormat(format: PictureFormat): void {
  const { width, height, bitDepth, pixelFormat } = format;
  if (!Number.isInteger(width) || width < 1 || !Number.isInteger(height) || height < 1) {
    throw new VqError(`invalid picture size ${width}x${height}`);
  }
  if (!Number.isInteger(bitDepth) || bitDepth < 8 || bitDepth > 16) {
    throw new VqError(`unsupported bit depth ${bitDepth} (8 to 16)`);
  }
  if (!PIXEL_FORMATS.includes(pixelFormat)) {
    throw new VqError(`unsupported pixel format ${String(pixelFormat)} (420, 422, 444 or 400)`);
  }
}

export function sameFormat(a: PictureFormat, b: PictureFormat): boolean {
  return a.width === b.width && a.height === b.height && a.bitDepth === b.bitDepth && a.pixelFormat === b.pixelFormat;
}

export function describeFormat(f: PictureFormat): string {
  return `${f.width}x${f.height} ${f.pixelFormat} ${f.bitDepth}-bit`;
}

/**
 * One decoded picture: 1 (4:0:0) or 3 planes of 8- to 16-bit samples that live in one
 * frame buffer, so the GPU path can upload a frame with a single copy.
 */
export class Picture implements PictureFormat {
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
  readonly pixelFormat: PixelFormat;
  readonly planes: readonly Plane[];

  /**
   * @param buffer the frame buffer holding every plane
   * @param layouts where each plane sits in `buffer` (defaults to the packed layout)
   */
  constructor(format: PictureFormat, readonly buffer: Uint8Array, layouts?: readonly PlaneLayout[]) {
    validateFormat(format);
    this.width = format.width;
    this.height = format.height;
    this.bitDepth = format.bitDepth;
    this.pixelFormat = format.pixelFormat;
    const planeLayouts = layouts ?? packedLayout(format).planes;
    const bps = bytesPerSample(format.bitDepth);
    this.planes = planeLayouts.map((l) => {
      const byteLength = ((l.height - 1) * l.stride + l.width) * bps;
      if (l.height > 0 && l.offset + byteLength > buffer.byteLength) {
        throw new VqError(`plane ${l.width}x${l.height} at byte ${l.offset} does not fit the ${buffer.byteLength}-byte frame buffer`);
      }
      if (l.stride < l.width) throw new VqError(`plane stride ${l.stride} is smaller than its width ${l.width}`);
      const length = l.height > 0 ? (l.height - 1) * l.stride + l.width : 0;
      let data: Samples;
      if (bps === 1) {
        data = new Uint8Array(buffer.buffer, buffer.byteOffset + l.offset, length);
      } else {
        if ((buffer.byteOffset + l.offset) % 2 !== 0) throw new VqError("16-bit plane is not 2-byte aligned");
        data = new Uint16Array(buffer.buffer, buffer.byteOffset + l.offset, length);
      }
      return { ...l, data };
    });
  }

  /** A packed picture with every sample zero. */
  static allocate(format: PictureFormat): Picture {
    const { byteLength } = packedLayout(format);
    return new Picture(format, new Uint8Array(alignUp(byteLength, 4)));
  }

  get format(): PictureFormat {
    return { width: this.width, height: this.height, bitDepth: this.bitDepth, pixelFormat: this.pixelFormat };
  }
}

export function alignUp(n: number, a: number): number {
  return Math.ceil(n / a) * a;
}

if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
  // Y4M and raw YUV store high-bit-depth samples little-endian; Uint16Array views assume it.
  throw new Error("vq needs a little-endian platform");
}
