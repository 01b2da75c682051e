// Builds the package in the current directory into dist/ (each package's `build` script;
// arguments name extra entry points under src/): ESM JavaScript for Node >= 20 and Bun
// plus .d.ts types, one file per source module, so that the published package runs
// without the monorepo. Two rewrites make that so (adr/0007-package-builds.md):
// - `import x from "<...>.wgsl" with { type: "text" }` becomes `const x = "<the kernel>"`:
//   kernels live in shaders/, outside the packages, and travel inside the JS that uses them;
// - `new URL("./worker.ts", import.meta.url)` points at the emitted `.js` (and that module
//   is built even when nothing imports it), so worker threads start from dist/.
// Imports of other @vq packages resolve through node_modules to their dist/ types (no
// tsconfig `paths`), as a consumer's would: turbo builds dependencies first.
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

const packageDir = process.cwd();
const srcDir = join(packageDir, "src");
const distDir = join(packageDir, "dist");

class BuildError extends Error {}

/** dist/x.js targets of package.json `exports` and `bin`, as src/x.ts entry points. */
function entryPoints(pkg: { name: string; exports?: unknown; bin?: unknown }): string[] {
  const targets: string[] = [];
  const collect = (v: unknown): void => {
    if (typeof v === "string") targets.push(v);
    else if (v && typeof v === "object") for (const inner of Object.values(v)) collect(inner);
  };
  collect(pkg.exports);
  collect(pkg.bin);
  const entries = targets
    .filter((t) => /^\.\/dist\/.+\.js$/.test(t))
    .map((t) => join(packageDir, t.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts")));
  for (const e of entries) if (!existsSync(e)) throw new BuildError(`${pkg.name}: package.json names ${relative(packageDir, e).replace(/^src/, "dist").replace(/\.ts$/, ".js")}, but ${relative(packageDir, e)} does not exist`);
  if (!entries.length) throw new BuildError(`${pkg.name}: package.json exports no ./dist/*.js file`);
  return [...new Set(entries)];
}

/** `new URL("./x.ts", import.meta.url)`: the relative .ts path, if `node` is one. */
function workerUrlLiteral(node: ts.Node): ts.StringLiteral | undefined {
  if (!ts.isNewExpression(node) || !ts.isIdentifier(node.expression) || node.expression.text !== "URL") return undefined;
  const [path, base] = node.arguments ?? [];
  if (!path || !base || !ts.isStringLiteral(path) || !/^\.\.?\/.*\.ts$/.test(path.text)) return undefined;
  const isImportMetaUrl = ts.isPropertyAccessExpression(base) && ts.isMetaProperty(base.expression) && base.expression.keywordToken === ts.SyntaxKind.ImportKeyword && base.name.text === "url";
  return isImportMetaUrl ? path : undefined;
}

/** Modules started by URL (workers) from the program's own sources. */
function urlModules(program: ts.Program): string[] {
  const found: string[] = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.fileName.startsWith(srcDir + "/")) continue;
    const visit = (n: ts.Node): void => {
      const lit = workerUrlLiteral(n);
      if (lit) found.push(resolve(dirname(sf.fileName), lit.text));
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

/** The kernel a `.wgsl` text import names, read from the source tree. */
function kernelSource(sf: ts.SourceFile, specifier: string): string {
  const path = resolve(dirname(sf.fileName), specifier);
  if (!existsSync(path)) throw new BuildError(`${relative(packageDir, sf.fileName)}: kernel ${specifier} does not exist`);
  return readFileSync(path, "utf8");
}

/** Inlines WGSL text imports and points worker URLs at the emitted .js. */
const inlineKernels: ts.TransformerFactory<ts.SourceFile> = (context) => (sf) => {
  const f = context.factory;
  const visit = (node: ts.Node): ts.Node => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier) && node.moduleSpecifier.text.endsWith(".wgsl")) {
      const name = node.importClause?.name;
      if (!name || node.importClause?.namedBindings) {
        throw new BuildError(`${relative(packageDir, sf.fileName)}: import a kernel as \`import name from "${node.moduleSpecifier.text}" with { type: "text" }\``);
      }
      const text = f.createStringLiteral(kernelSource(sf, node.moduleSpecifier.text));
      return f.createVariableStatement(undefined, f.createVariableDeclarationList([f.createVariableDeclaration(name.text, undefined, undefined, text)], ts.NodeFlags.Const));
    }
    const lit = workerUrlLiteral(node);
    if (lit && ts.isNewExpression(node)) {
      return f.updateNewExpression(node, node.expression, node.typeArguments, [f.createStringLiteral(lit.text.replace(/\.ts$/, ".js")), ...node.arguments!.slice(1)]);
    }
    return ts.visitEachChild(node, visit, context);
  };
  return ts.visitNode(sf, visit) as ts.SourceFile;
};

/** What dist/ refers to must ship: nothing outside the package (shaders/, other packages' sources), no .ts or .wgsl. */
function checkRelativeSpecifiers(file: string, text: string): void {
  for (const [, specifier] of text.matchAll(/(?:from |import\()"(\.\.?\/[^"]*)"/g)) {
    const target = resolve(dirname(file), specifier!);
    if (!target.startsWith(packageDir + "/") || /\.(ts|wgsl)$/.test(specifier!)) {
      throw new BuildError(`${relative(packageDir, file)} refers to ${specifier}, which the published package would not have`);
    }
  }
}

/** Each @vq dependency must name the version its package has: they are published together. */
function checkInternalVersions(pkg: { name: string; dependencies?: Record<string, string> }): void {
  for (const [name, range] of Object.entries(pkg.dependencies ?? {})) {
    if (!name.startsWith("@vq/")) continue;
    const depPackage = join(packageDir, "..", name.slice("@vq/".length), "package.json");
    if (!existsSync(depPackage)) throw new BuildError(`${pkg.name} depends on ${name}, which is not in packages/`);
    const { version } = JSON.parse(readFileSync(depPackage, "utf8"));
    if (range !== version) throw new BuildError(`${pkg.name} depends on ${name} "${range}", but ${name} is ${version}`);
  }
}

function build(): void {
  const pkg = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8"));
  checkInternalVersions(pkg);
  const parsed = ts.getParsedCommandLineOfConfigFile(join(packageDir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new BuildError(ts.flattenDiagnosticMessageText(d.messageText, "\n")); } });
  if (!parsed) throw new BuildError(`${pkg.name}: no tsconfig.json`);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: false,
    declaration: true,
    outDir: distDir,
    rootDir: srcDir,
    rewriteRelativeImportExtensions: true,
    // Dependencies as a consumer sees them: their package.json exports (dist types).
    paths: undefined,
    pathsBasePath: undefined,
    sourceMap: false,
  };
  // The ambient `*.wgsl` module declaration, and any other global declarations.
  const ambient = parsed.fileNames.filter((f) => f.endsWith(".d.ts"));
  // Extra entry points on the command line: modules run rather than imported (a bin's target).
  const extra = process.argv.slice(2).map((a) => resolve(packageDir, a));
  for (const e of extra) if (!e.startsWith(srcDir + "/") || !existsSync(e)) throw new BuildError(`${pkg.name}: entry point ${relative(packageDir, e)} is not a file under src/`);
  let roots = [...new Set([...entryPoints(pkg), ...extra])];
  let program = ts.createProgram([...roots, ...ambient], options);
  for (;;) {
    const more = urlModules(program).filter((m) => !roots.includes(m));
    if (!more.length) break;
    for (const m of more) if (!existsSync(m)) throw new BuildError(`${pkg.name}: a worker URL names ${relative(packageDir, m)}, which does not exist`);
    roots = [...roots, ...more];
    program = ts.createProgram([...roots, ...ambient], options, undefined, program);
  }
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length) throw new BuildError(ts.formatDiagnosticsWithColorAndContext(diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => packageDir, getNewLine: () => "\n" }));
  rmSync(distDir, { recursive: true, force: true });
  let written = 0;
  const result = program.emit(undefined, (file, text, bom) => {
    if (!file.startsWith(distDir + "/")) throw new BuildError(`${pkg.name}: ${file} would be written outside dist/ (a source outside src/?)`);
    // tsc keeps the sources' `./x.ts` specifiers in declarations; consumers have x.d.ts.
    if (file.endsWith(".d.ts")) text = text.replace(/((?:from |import\()"\.\.?\/[^"]*)\.ts"/g, '$1.js"');
    checkRelativeSpecifiers(file, text);
    ts.sys.writeFile(file, text, bom);
    written++;
  }, undefined, false, { before: [inlineKernels] });
  if (result.diagnostics.length) throw new BuildError(ts.formatDiagnostics(result.diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => packageDir, getNewLine: () => "\n" }));
  console.log(`${pkg.name}: ${written} files in dist/ from ${roots.length} entry point(s)`);
}

try {
  build();
} catch (e) {
  if (!(e instanceof BuildError)) throw e;
  console.error(`build failed: ${e.message}`);
  process.exit(1);
}
