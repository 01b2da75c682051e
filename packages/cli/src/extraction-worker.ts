// A CPU extraction worker for `--threads`: builds the extractors it is asked for from
// the same registry the CLI uses.
import { serveExtractors, VqError } from "@vq/core";
import { FEATURES } from "./features.ts";

serveExtractors((spec) => {
  const entry = FEATURES.get(spec.name);
  if (!entry) throw new VqError(`unknown feature "${spec.name}"`);
  return entry.cpu(entry.definition.options.revive(spec.options));
});
