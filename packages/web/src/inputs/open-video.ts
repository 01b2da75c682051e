import { VqError, Y4mReader, type VideoReader } from "@vq/core";
import { containerReader } from "./container-reader.ts";
import { fileSource } from "./file-source.ts";

const Y4M_MAGIC = "YUV4MPEG2";

/** A dropped or picked file as frames: Y4M read directly, anything else demuxed and decoded (container-reader). */
export async function openVideo(file: File): Promise<VideoReader> {
  if (file.size === 0) throw new VqError(`${file.name}: empty file, not a video`);
  const head = new TextDecoder().decode(await file.slice(0, Y4M_MAGIC.length).arrayBuffer());
  if (head === Y4M_MAGIC) return Y4mReader.fromSource(file.name, fileSource(file));
  return containerReader(file);
}
