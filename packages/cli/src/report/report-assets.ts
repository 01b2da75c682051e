/** The report's inline style: system fonts only, so it needs nothing from the network. */
export const REPORT_CSS = `
:root { color-scheme: light; --fg: #1d2430; --muted: #5f6b7a; --line: #d9dee5; --bg: #ffffff; --panel: #f6f8fa; --accent: #1f6feb; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 22px; margin: 0 0 4px; overflow-wrap: anywhere; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
.summary { font-size: 16px; margin: 4px 0 2px; }
.summary strong { font-size: 20px; }
.sub { color: var(--muted); margin: 0; }
nav { margin: 10px 0 0; color: var(--muted); }
nav a { color: var(--accent); text-decoration: none; margin-right: 14px; }
code, .num, td.key { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", monospace; font-size: 12.5px; }
table { border-collapse: collapse; margin: 4px 0; }
th, td { padding: 3px 12px 3px 0; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12.5px; }
td.num, th.num { text-align: right; padding-left: 14px; }
td.null { color: #b35900; }
.settings td:first-child { color: var(--muted); white-space: nowrap; }
.settings td { overflow-wrap: anywhere; }
.chart { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px; }
svg.plot { width: 100%; height: auto; display: block; font: 11px system-ui, sans-serif; }
svg.plot .grid line { stroke: #e3e7ec; stroke-width: 1; }
svg.plot .axis text { fill: var(--muted); }
svg.plot .axis-title { font-style: italic; }
svg.plot path.series { fill: none; stroke-width: 1.8; stroke-linejoin: round; stroke-linecap: round; }
svg.plot path.series.minor { stroke-width: 1; stroke-opacity: 0.45; }
svg.plot path.band { fill-opacity: 0.2; stroke: none; }
svg.plot .markers circle { stroke: #fff; stroke-width: 1.5; }
svg.plot .point-label { fill: var(--fg); font-size: 12px; }
svg.plot .worst circle { fill: none; stroke: #d1242f; stroke-width: 1.6; }
svg.plot .cursor { stroke: #6e7781; stroke-dasharray: 3 3; }
svg.plot .empty { fill: var(--muted); font-size: 13px; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 14px; margin: 6px 0; }
.legend label { display: inline-flex; align-items: center; gap: 5px; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
.legend input { display: none; margin: 0; }
.js .legend input { display: inline; }
.swatch { display: inline-block; width: 14px; height: 3px; border-radius: 2px; vertical-align: middle; }
.swatch.band { height: 9px; opacity: 0.35; }
h2 .swatch { width: 18px; height: 5px; }
.min-mark { display: inline-block; margin-left: 6px; padding: 0 5px; border-radius: 8px; background: #d1242f; color: #fff; font: 600 10.5px system-ui, sans-serif; vertical-align: 1px; }
tr.minimum td { background: #fff4f2; }
td.thumbs { white-space: nowrap; padding-left: 14px; }
figure.thumb { display: inline-block; margin: 2px 8px 2px 0; padding: 0; background: none; border: 0; }
td.frame, th.num { white-space: nowrap; }
figure.thumb img { display: block; max-width: 176px; height: auto; border: 1px solid var(--line); }
figure.thumb figcaption { display: block; color: var(--muted); font-size: 11px; }
details { margin: 10px 0; }
details summary { cursor: pointer; color: var(--accent); }
ul.note { margin: 4px 0; padding-left: 20px; }
.readout { min-height: 1.5em; color: var(--muted); font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; margin-top: 4px; }
.note { color: #8a4b00; margin: 4px 0; }
.features { display: grid; grid-template-columns: repeat(auto-fill, minmax(380px, 1fr)); gap: 12px; }
figure { margin: 0; background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 8px; }
figcaption { display: flex; justify-content: space-between; gap: 8px; font-size: 12.5px; }
figcaption .key { font-family: ui-monospace, Menlo, Consolas, monospace; font-weight: 600; overflow-wrap: anywhere; }
figcaption .stat { color: var(--muted); white-space: nowrap; }
figure .note { font-size: 12px; }
footer { margin-top: 32px; color: var(--muted); font-size: 12px; }
@media print { nav, .readout { display: none; } body { padding: 8px; } }
`;

/**
 * Progressive extras once scripts run: series toggles and a per-frame readout on the
 * VMAF chart. The report reads fully without them. Marks the page `data-ready`.
 */
export const REPORT_SCRIPT = `
(function () {
  var root = document.documentElement;
  root.classList.add("js");
  var embedded = document.getElementById("report-data");
  var data = embedded ? JSON.parse(embedded.textContent) : { frames: [], series: {} };
  var svg = document.querySelector("#vmaf-chart svg.plot");
  var readout = document.getElementById("readout");
  document.querySelectorAll(".legend input[data-key]").forEach(function (box) {
    box.addEventListener("change", function () {
      var key = box.getAttribute("data-key");
      // every chart: a run hidden on the per-frame chart leaves the distribution too
      document.querySelectorAll("svg.plot [data-key]").forEach(function (el) {
        if (el.getAttribute("data-key") === key) el.style.display = box.checked ? "" : "none";
      });
    });
  });
  if (svg && readout && data.frames.length) {
    var cursor = svg.querySelector(".cursor");
    var left = +svg.dataset.left, right = +svg.dataset.right, x0 = +svg.dataset.x0, x1 = +svg.dataset.x1;
    var visible = function (key) {
      var box = document.querySelector('.legend input[data-key="' + CSS.escape(key) + '"]');
      return !box || box.checked;
    };
    svg.addEventListener("mousemove", function (ev) {
      var box = svg.getBoundingClientRect();
      var vx = ((ev.clientX - box.left) / box.width) * svg.viewBox.baseVal.width;
      var frame = x0 + ((vx - left) / (right - left)) * (x1 - x0);
      var best = 0;
      data.frames.forEach(function (f, i) { if (Math.abs(f - frame) < Math.abs(data.frames[best] - frame)) best = i; });
      var x = left + ((data.frames[best] - x0) / (x1 - x0)) * (right - left);
      cursor.setAttribute("x1", x); cursor.setAttribute("x2", x); cursor.setAttribute("visibility", "visible");
      var parts = ["frame " + data.frames[best]];
      Object.keys(data.series).forEach(function (key) {
        if (!visible(key)) return;
        var v = data.series[key][best];
        parts.push(key + " " + (v === null ? "null" : v === undefined ? "-" : v));
      });
      readout.textContent = parts.join("   ");
    });
    svg.addEventListener("mouseleave", function () { cursor.setAttribute("visibility", "hidden"); });
  }
  // Pictures are inline PNGs: once the page has loaded, each says whether it decoded.
  window.addEventListener("load", function () {
    document.querySelectorAll("img").forEach(function (img) { img.setAttribute("data-decoded", img.naturalWidth > 0 ? "true" : "false"); });
  });
  root.setAttribute("data-ready", "true");
})();
`;
