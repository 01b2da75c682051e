// Finds broken relative links in vq's Markdown (docs/, docs/metrics/, adr/, the package
// READMEs and the root README): a link is broken when its file or folder does not exist,
// or when its #anchor names no heading of the Markdown file it points to (GitHub's rule
// for heading ids). Web links (https:, mailto:, ...) are not checked.
// Usage: bun tools/docs-links.ts   (prints one line per broken link; exit status 1 if any)
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export interface BrokenLink {
  /** The Markdown file, relative to the root. */
  file: string;
  line: number;
  target: string;
  problem: string;
}

/** The Markdown files whose links are checked, relative to the repository root. */
export function docFiles(root: string): string[] {
  const inDir = (dir: string) =>
    existsSync(join(root, dir))
      ? readdirSync(join(root, dir))
          .filter((f) => f.endsWith(".md"))
          .sort()
          .map((f) => join(dir, f))
      : [];
  const readmes = existsSync(join(root, "packages"))
    ? readdirSync(join(root, "packages"))
        .sort()
        .map((p) => join("packages", p, "README.md"))
        .filter((f) => existsSync(join(root, f)))
    : [];
  return ["README.md", ...inDir("docs"), ...inDir("docs/metrics"), ...inDir("adr"), ...readmes].filter((f) => existsSync(join(root, f)));
}

/**
 * Blanks fenced code blocks, keeping line numbers, and (unless `keepInline`) inline code
 * spans, so that links shown as code are not checked; headings keep their code's text.
 */
function withoutCode(text: string, keepInline = false): string {
  const lines = text.split("\n");
  let fence: string | undefined;
  return lines
    .map((line) => {
      const open = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
      if (fence) {
        if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length) fence = undefined;
        return "";
      }
      if (open) {
        fence = open[1];
        return "";
      }
      return keepInline ? line : line.replace(/(`+)[^`]*?\1/g, "");
    })
    .join("\n");
}

/** GitHub's heading id: lower case, markup and punctuation other than - and _ dropped, spaces to -. */
export function headingId(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]*>/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a Markdown file offers: heading ids (duplicates numbered -1, -2, …) and HTML ids/names. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of withoutCode(text, true).split("\n")) {
    const h = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+\s*)?$/.exec(line);
    if (h) {
      const id = headingId(h[1]!);
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      anchors.add(n === 0 ? id : `${id}-${n}`);
    }
    for (const m of line.matchAll(/<a\s[^>]*(?:name|id)="([^"]+)"/g)) anchors.add(m[1]!);
  }
  return anchors;
}

/** The link targets of a Markdown text, with their line numbers: inline links, images and reference definitions. */
export function linksOf(text: string): { line: number; target: string }[] {
  const out: { line: number; target: string }[] = [];
  withoutCode(text)
    .split("\n")
    .forEach((line, i) => {
      for (const m of line.matchAll(/\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)/g)) out.push({ line: i + 1, target: m[1]!.replace(/^<|>$/g, "") });
      const def = /^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/.exec(line);
      if (def) out.push({ line: i + 1, target: def[1]!.replace(/^<|>$/g, "") });
    });
  return out;
}

/** Checks the relative links of the given Markdown files (paths relative to root). */
export function brokenLinks(root: string, files: readonly string[]): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let a = anchorCache.get(path);
    if (!a) anchorCache.set(path, (a = anchorsOf(readFileSync(path, "utf8"))));
    return a;
  };
  for (const file of files) {
    const source = resolve(root, file);
    for (const { line, target } of linksOf(readFileSync(source, "utf8"))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
      const hash = target.indexOf("#");
      const pathPart = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const path = pathPart ? resolve(dirname(source), pathPart) : source;
      const report = (problem: string) => broken.push({ file, line, target, problem });
      if (!existsSync(path)) {
        report(`${relative(root, path) || "."} does not exist`);
        continue;
      }
      if (anchor === undefined || anchor === "") continue;
      if (statSync(path).isDirectory() || !path.endsWith(".md")) {
        report(`#${anchor} points into ${relative(root, path)}, which is not a Markdown file`);
        continue;
      }
      if (!anchors(path).has(anchor)) report(`${relative(root, path)} has no heading #${anchor}`);
    }
  }
  return broken;
}

/** Every broken relative link of the project's documentation. */
export function brokenDocLinks(root: string): BrokenLink[] {
  return brokenLinks(root, docFiles(root));
}

if (import.meta.main) {
  const root = resolve(dirname(new URL(import.meta.url).pathname), "..");
  const broken = brokenDocLinks(root);
  for (const b of broken) console.log(`${b.file}:${b.line}: ${b.target}: ${b.problem}`);
  if (broken.length) process.exit(1);
  console.log(`docs links: ${docFiles(root).length} files, no broken relative link`);
}
