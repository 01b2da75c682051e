import { VqError } from "@vq/core";
import { DEFAULT_ALIGN_SEARCH } from "@vq/score";

/** `--align auto` or `auto=N`: the ±N frames searched (default 30). */
export function parseAlignArgument(value: string): number {
  const m = /^auto(?:=(\d+))?$/.exec(value);
  if (!m) throw new VqError(`invalid argument "${value}" for --align: expected auto or auto=N (N: the frames searched either way, default ${DEFAULT_ALIGN_SEARCH})`);
  const search = m[1] === undefined ? DEFAULT_ALIGN_SEARCH : Number(m[1]);
  if (search < 1 || search > 10000) throw new VqError(`invalid argument "${value}" for --align: N must be 1 to 10000`);
  return search;
}
