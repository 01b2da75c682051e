import { readFileSync } from "node:fs";
import { VqError } from "@vq/core";
import { parseReportData, type ReportData } from "./report-data.ts";

// Apart from report-data.ts so that the report's modules stay free of the file system
// (the browser page renders with them: @vq/web, browser-report.ts).

/** Reads and validates a result file; an unreadable or bad file is one VqError naming it. */
export function readReportData(path: string): ReportData {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a directory" : (e as Error).message;
    throw new VqError(`${path}: cannot read the result file: ${why}`, { cause: e });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new VqError(`${path}: not a JSON result file (${(e as Error).message}); write one with --json`, { cause: e });
  }
  return parseReportData(json, path);
}
