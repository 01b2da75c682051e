// The report renderer as a browser page uses it (@vq/web): the very modules `vq report`
// renders with. None reads a file here: bundlers give node:path's basename its POSIX
// polyfill, and report-data's file reader (readReportData) is never called in a page.
export { renderReport } from "./html-report.ts";
export { comparedKey, renderComparisonReport } from "./comparison-report.ts";
export { parseReportData, primaryKey, type ReportData, type RunSettings } from "./report-data.ts";
export { bitrate, type FrameRate, type RateInputs } from "./rate-quality.ts";
export type { RunInputs } from "./run-inputs.ts";
export { renderPlot, type PlotSeries } from "./svg-plot.ts";
export { PALETTE } from "./report-sections.ts";
export { VERSION } from "../version.ts";
