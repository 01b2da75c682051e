// Test fixture: an extraction worker whose extractors refuse to be built, as a worker
// does when its options or its format are refused.
import { VqError } from "../errors.ts";
import { serveExtractors } from "./extraction-worker.ts";

serveExtractors((spec) => {
  throw new VqError(`feature ${spec.name}: refused in the worker`);
});
