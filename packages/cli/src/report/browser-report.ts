// The report renderer as a browser page uses it (@vq/web): the very modules `vq report`
// renders with. None touches the file system (reading a result file is report-file.ts's
// job); their one Node import, node:path's basename, is polyfilled by the bundler.
export { renderReport } from "./html-report.ts";
export { comparedKey, renderComparisonReport } from "./comparison-report.ts";
export { parseReportData, primaryKey, type ReportData, type RunSettings } from "./report-data.ts";
export { bitrate, type FrameRate, type RateInputs } from "./rate-quality.ts";
export type { FramePair, RunInputs } from "./run-inputs.ts";
export { THUMBNAIL_ROWS } from "./report-sections.ts";
export { THUMBNAIL_WIDTH, thumbnailRgb, type RgbImage } from "./thumbnail.ts";
export { framesBelowMean } from "./worst-frames.ts";
export { renderPlot, type PlotSeries } from "./svg-plot.ts";
export { PALETTE } from "./report-sections.ts";
export { VERSION } from "../version.ts";
