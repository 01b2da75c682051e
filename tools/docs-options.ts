// The option tables of docs/metrics/*.md come from the extractor catalogue
// (packages/score/src/catalogue.ts): each table between `<!-- options:NAME -->` and
// `<!-- /options -->` lists extractor NAME's option table (name, suffix in key names, type,
// default, range). The last column ("what") is written
// by hand and kept; a new option starts with libvmaf's help text.
// Usage: bun tools/docs-options.ts           (lists tables that differ from the code; exit 1 if any)
//        bun tools/docs-options.ts --write   (rewrites them)
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { OptionDef } from "@vq/core";
import { catalogueEntry, FEATURE_NAMES } from "../packages/score/src/catalogue.ts";

const BLOCK = /(<!-- options:([\w-]+) -->\n)([\s\S]*?)(<!-- \/options -->)/g;
const HEADER = "| option | in key names | type | default | range | what |\n|---|---|---|---|---|---|\n";

/** The columns that come from the code, for one option. */
export function optionColumns(name: string, def: OptionDef): string[] {
  const suffix = def.featureParam ? `\`${def.alias ?? name}\`` : "– (not a feature parameter)";
  let defaultText: string;
  let range: string;
  switch (def.type) {
    case "bool":
      defaultText = String(def.default);
      range = "";
      break;
    case "int":
    case "double":
      defaultText = String(def.default);
      range = def.max === Number.MAX_VALUE ? `≥ ${def.min}` : `${def.min} – ${def.max}`;
      break;
    case "string":
      defaultText = def.default === "" ? "(none)" : `\`${def.default}\``;
      range = def.choices ? def.choices.map((c) => `\`${c}\``).join(", ") : "any text";
      break;
  }
  return [`\`${name}\``, suffix, def.type, defaultText, range];
}

function cells(row: string): string[] {
  return row
    .replace(/^\s*\|/, "")
    .replace(/\|\s*$/, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());
}

/** The table for extractor `name`, keeping the hand-written "what" column of `current`. */
export function optionTable(name: string, current = ""): string {
  const entry = catalogueEntry(name);
  if (!entry) throw new Error(`no extractor "${name}" (known: ${FEATURE_NAMES.join(", ")})`);
  const what = new Map<string, string>();
  for (const row of current.split("\n").slice(2)) {
    const c = cells(row);
    if (c.length >= 6) what.set(c[0]!, c[5]!);
  }
  const defs = Object.entries(entry.options.defs as Record<string, OptionDef>);
  if (defs.length === 0) return "No options.\n";
  const rows = defs.map(([option, def]) => {
    const cols = optionColumns(option, def);
    return `| ${[...cols, what.get(cols[0]!) ?? def.help.replace(/\|/g, "\\|")].join(" | ")} |\n`;
  });
  return HEADER + rows.join("");
}

/** Rewrites every options block of a Markdown text from the code. */
export function withCurrentOptionTables(text: string): string {
  return text.replace(BLOCK, (_m, open: string, name: string, body: string, close: string) => open + optionTable(name, body) + close);
}

export function metricPages(root: string): string[] {
  const dir = join(root, "docs", "metrics");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => join(dir, f));
}

/** The pages whose option tables differ from the code (or name an unknown extractor). */
export function staleOptionTables(root: string): string[] {
  const stale: string[] = [];
  for (const page of metricPages(root)) {
    const text = readFileSync(page, "utf8");
    let fresh: string;
    try {
      fresh = withCurrentOptionTables(text);
    } catch (e) {
      stale.push(`${page}: ${(e as Error).message}`);
      continue;
    }
    if (fresh !== text) stale.push(page);
  }
  return stale;
}

/** The extractors documented with an options block, per page. */
export function documentedExtractors(text: string): string[] {
  return [...text.matchAll(BLOCK)].map((m) => m[2]!);
}

if (import.meta.main) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
  if (process.argv.includes("--write")) {
    for (const page of metricPages(root)) {
      const text = readFileSync(page, "utf8");
      const fresh = withCurrentOptionTables(text);
      if (fresh !== text) {
        writeFileSync(page, fresh);
        console.log(`rewrote ${page}`);
      }
    }
  } else {
    const stale = staleOptionTables(root);
    for (const s of stale) console.log(`${s}: option table differs from the code (bun tools/docs-options.ts --write)`);
    if (stale.length) process.exit(1);
    console.log("docs option tables match the code");
  }
}
