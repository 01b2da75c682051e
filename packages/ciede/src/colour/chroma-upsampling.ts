import type { PictureFormat } from "@vq/core";

/** libvmaf allocates picture rows at a multiple of 32 samples and zeroes the padding. */
const LIBVMAF_ROW_ALIGN = 32;

/**
 * Where libvmaf's ciede reads the chroma sample of each luma pixel: it upsamples Cb
 * and Cr to full size by repeating samples (scale_chroma_planes). For 4:2:0 that is
 * the chroma sample at (row / 2, column / 2); 4:4:4 is read as is. For 4:2:2 libvmaf
 * halves the row and not the column (its horizontal and vertical tests are swapped), so
 * a luma row reads a whole row's width of chroma from its aligned chroma buffer: past
 * the chroma row's end it reads that buffer's zero padding, then the next chroma row.
 * vq reproduces that reading, since libvmaf's numbers are the contract.
 */
export class ChromaUpsampling {
  /** log2 of the luma rows per chroma row libvmaf steps through. */
  readonly rowShift: number;
  private readonly columnShift: number;
  private readonly quirk422: boolean;
  private readonly chromaWidth: number;
  private readonly offsets = new Map<number, Int32Array>();

  constructor(private readonly format: PictureFormat) {
    ({ rowShift: this.rowShift, columnShift: this.columnShift, quirk422: this.quirk422, chromaWidth: this.chromaWidth } = ChromaUpsampling.describe(format));
  }

  /** libvmaf's reading rule for a format (the GPU kernel gets these as uniforms). */
  static describe(format: PictureFormat): { rowShift: number; columnShift: number; quirk422: boolean; chromaWidth: number; alignedWidth: number } {
    const ssHor = format.pixelFormat !== "444";
    const ssVer = format.pixelFormat === "420";
    const chromaWidth = ssHor ? format.width >> 1 : format.width; // libvmaf's (truncated) chroma width
    return {
      rowShift: ssHor ? 1 : 0, // libvmaf advances a chroma row every other row when ss_hor
      columnShift: ssVer ? 1 : 0, // ... and halves the column when ss_ver
      quirk422: format.pixelFormat === "422",
      chromaWidth,
      alignedWidth: Math.ceil(chromaWidth / LIBVMAF_ROW_ALIGN) * LIBVMAF_ROW_ALIGN,
    };
  }

  /**
   * The last chroma row libvmaf's 4:2:2 walk reaches. It stays inside the plane except
   * for pictures a few rows high, where libvmaf reads past its buffer.
   */
  static lastRowRead(format: PictureFormat): number {
    if (format.pixelFormat !== "422") return format.pixelFormat === "420" ? (format.height - 1) >> 1 : format.height - 1;
    return ((format.height - 1) >> 1) + Math.floor((format.width - 1) / ChromaUpsampling.describe(format).alignedWidth);
  }

  /**
   * For each luma column, the offset of its chroma sample from the start of the chroma
   * row `luma row >> rowShift`, for a plane of `stride` samples; -1 where libvmaf
   * reads its zero padding.
   */
  columnOffsets(stride: number): Int32Array {
    let out = this.offsets.get(stride);
    if (out) return out;
    out = new Int32Array(this.format.width);
    const alignedWidth = ChromaUpsampling.describe(this.format).alignedWidth;
    for (let j = 0; j < out.length; j++) {
      if (!this.quirk422) {
        out[j] = j >> this.columnShift;
        continue;
      }
      const row = Math.floor(j / alignedWidth);
      const column = j % alignedWidth;
      out[j] = column < this.chromaWidth ? row * stride + column : -1;
    }
    this.offsets.set(stride, out);
    return out;
  }
}
