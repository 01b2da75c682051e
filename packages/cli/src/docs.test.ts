// The documentation's checks live in tools/ (not a package); they run here so that `npm test` runs them.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { brokenDocLinks, brokenLinks, docFiles, headingId } from "../../../tools/docs-links.ts";
import { documentedExtractors, metricPages, optionTable, staleOptionTables } from "../../../tools/docs-options.ts";

const root = resolve(import.meta.dir, "../../..");

describe("docs links", () => {
  test("every relative link in docs/, docs/metrics/, adr/ and the package READMEs resolves", () => {
    const files = docFiles(root);
    for (const dir of ["docs/", "docs/metrics/", "adr/", "packages/"]) expect(files.some((f) => f.startsWith(dir)), dir).toBe(true);
    expect(brokenDocLinks(root).map((b) => `${b.file}:${b.line}: ${b.target}: ${b.problem}`)).toEqual([]);
  });

  test("the checker finds a missing file, a missing heading and a link into a folder's anchor, and skips code and web links", () => {
    const dir = mkdtempSync(join(tmpdir(), "vq-docs-"));
    try {
      mkdirSync(join(dir, "sub"));
      writeFileSync(join(dir, "sub", "b.md"), "# Title\n## On the GPU (`VifGpu`)\n## Parity (libvmaf 3.2, `../shared/golden`)\n## Parity (libvmaf 3.2, `../shared/golden`)\n");
      writeFileSync(
        join(dir, "a.md"),
        [
          "[ok](sub/b.md) [ok](sub/b.md#on-the-gpu-vifgpu) [ok](sub/b.md#parity-libvmaf-32-sharedgolden-1) [ok](sub) [ok](#here)",
          "# Here",
          "[web](https://example.com/nothing.md) `[code](missing.md)`",
          "```",
          "[fenced](missing.md)",
          "```",
          "[gone](sub/c.md) [bad anchor](sub/b.md#nope) [folder anchor](sub#x)",
          "[ref]: missing-ref.md",
        ].join("\n"),
      );
      const found = brokenLinks(dir, ["a.md"]).map((b) => `${b.line}:${b.target}`);
      expect(found).toEqual(["7:sub/c.md", "7:sub/b.md#nope", "7:sub#x", "8:missing-ref.md"]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("heading ids follow GitHub's rule", () => {
    expect(headingId("Parity with libvmaf 3.2 (`../shared/golden`, `bun test`)")).toBe("parity-with-libvmaf-32-sharedgolden-bun-test");
    expect(headingId("Options (libvmaf's names, types, defaults and ranges)")).toBe("options-libvmafs-names-types-defaults-and-ranges");
  });

  test("every package README links its decisions (adr/)", () => {
    const readmes = docFiles(root).filter((f) => f.startsWith("packages/"));
    expect(readmes.length).toBeGreaterThan(0);
    const without = readmes.filter((f) => !/\]\(\.\.\/\.\.\/adr\/\d{4}-[\w-]+\.md\)/.test(readFileSync(join(root, f), "utf8")));
    expect(without).toEqual([]);
  });

  test("every metric page is linked from docs/README.md", () => {
    const index = readFileSync(join(root, "docs", "README.md"), "utf8");
    for (const page of metricPages(root)) expect(index, basename(page)).toContain(`(metrics/${basename(page)})`);
  });
});

describe("docs option tables", () => {
  test("the option tables of docs/metrics/*.md match the code (bun tools/docs-options.ts --write)", () => {
    const documented = metricPages(root).flatMap((p) => documentedExtractors(readFileSync(p, "utf8")));
    expect(documented.length).toBeGreaterThan(0);
    expect(staleOptionTables(root)).toEqual([]);
  });

  test("a table that drifts from the code is found; the hand-written column is kept", () => {
    const fresh = optionTable("psnr");
    expect(fresh).toContain("| `min_sse` | – (not a feature parameter) | double | 0 | ≥ 0 |");
    const edited = fresh.replace("constrain the minimum possible sse", "my words");
    expect(optionTable("psnr", edited)).toContain("| ≥ 0 | my words |");
    const drifted = edited.replace("| bool | true |", "| bool | false |");
    expect(optionTable("psnr", drifted)).not.toBe(drifted);
    expect(() => optionTable("no_such_extractor")).toThrow("no extractor");
  });
});
