import { THUMBNAIL_WIDTH, thumbnailRgb, type FramePair, type RgbImage } from "@vq/cli/report";
import { openVideo } from "../inputs/open-video.ts";

/** An RGB thumbnail as a PNG data URI, encoded by the browser (OffscreenCanvas) rather than vq's node:zlib writer. */
async function pngDataUri({ width, height, rgb }: RgbImage): Promise<string> {
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = 0; i < rgb.length; i += 3, j += 4) {
    rgba[j] = rgb[i]!;
    rgba[j + 1] = rgb[i + 1]!;
    rgba[j + 2] = rgb[i + 2]!;
    rgba[j + 3] = 255;
  }
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext("2d")!.putImageData(new ImageData(rgba, width, height), 0, 0);
  const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: "image/png" })).arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(binary)}`;
}

/** The frames of `file` at the indices in `wanted`, read again up to the last one, as thumbnails. */
async function thumbnails(file: File, wanted: ReadonlySet<number>): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (!wanted.size) return out;
  const reader = await openVideo(file);
  try {
    const last = Math.max(...wanted);
    for (let i = 0; i <= last; i++) {
      const picture = await reader.read();
      if (!picture) break;
      if (wanted.has(i)) out.set(i, await pngDataUri(thumbnailRgb(picture, THUMBNAIL_WIDTH)));
      reader.release(picture);
    }
  } finally {
    await reader.close();
  }
  return out;
}

/** The report's worst-frame pictures: reference beside distorted at each frame number (no skips in the page's runs). */
export async function thumbnailPairs(reference: File, distorted: File, frames: readonly number[]): Promise<Map<number, FramePair>> {
  const wanted = new Set(frames);
  const [ref, dist] = [await thumbnails(reference, wanted), await thumbnails(distorted, wanted)];
  const pairs = new Map<number, FramePair>();
  for (const f of frames) {
    const r = ref.get(f);
    const d = dist.get(f);
    if (r && d) pairs.set(f, { reference: r, distorted: d });
  }
  return pairs;
}
