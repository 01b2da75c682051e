export { main } from "./main.ts";
export type { CliIo } from "./main.ts";
export { parseArgs, parseFeatureArgument, USAGE } from "./args.ts";
export type { CliSettings, FeatureRequest, Backend, OutputFormat } from "./args.ts";
export { renderReport } from "./report/html-report.ts";
export { parseReportData, resultJsonSchema } from "./report/report-data.ts";
export { readReportData } from "./report/report-file.ts";
export type { ReportData, RunSettings } from "./report/report-data.ts";
