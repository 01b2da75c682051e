// Test fixture: an extraction worker whose one extractor writes each frame's number.
import { serveExtractors } from "./extraction-worker.ts";

serveExtractors(() => ({
  definition: { name: "frame_number" } as never,
  init() {},
  extract(_pair, index, collector) {
    collector.append("frame_number", index, index);
  },
  flush() {},
  close() {},
}));
