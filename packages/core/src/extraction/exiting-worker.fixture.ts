// Test fixture: an extraction worker that dies mid-run (as one killed or out of memory
// does): its extractor ends the worker thread at frame 3.
import { serveExtractors } from "./extraction-worker.ts";

serveExtractors(() => ({
  definition: { name: "frame_number", temporal: false } as never,
  init() {},
  extract(_pair, index, collector) {
    if (index === 3) process.exit(7);
    collector.append("frame_number", index, index);
  },
  flush() {},
  close() {},
}));
