import { writeCsv, writeJson, writeSub, writeXml } from "@vq/core";
import type { ScoreSummary } from "@vq/score";
import type { CliSettings } from "../args.ts";
import { VERSION } from "../version.ts";

/** A run's result in the format the command line asks for (libvmaf's XML by default). */
export function resultText(s: Pick<CliSettings, "outputFormat" | "precision" | "subsample" | "pool">, result: ScoreSummary, fps: number): string {
  const options = { precision: s.precision, subsample: s.subsample, frameCount: result.frames, version: VERSION, fps, pool: s.pool };
  switch (s.outputFormat ?? "xml") {
    case "json":
      return writeJson(result.collector, options);
    case "csv":
      return writeCsv(result.collector, options);
    case "sub":
      return writeSub(result.collector, options);
    case "xml":
      return writeXml(result.collector, { ...options, width: result.width, height: result.height });
  }
}
