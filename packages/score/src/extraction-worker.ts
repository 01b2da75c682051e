// A CPU extraction worker for `threads`: builds the extractors it is asked for from the
// catalogue score() uses (loading each metric package on first use). The handler
// is installed at once: a message that came before it would be lost.
import { serveExtractors, VqError } from "@vq/core";
import { featureEntry } from "./features.ts";

serveExtractors(async (spec) => {
  const entry = await featureEntry(spec.name);
  if (!entry) throw new VqError(`unknown feature "${spec.name}"`);
  return entry.cpu(entry.definition.options.revive(spec.options));
});
