/** A bench tool's command line: its own options before `--`, and extra vq arguments after it. */
export function benchArgs(argv: readonly string[]): { get: (name: string, fallback: string) => string; extra: string[] } {
  const sep = argv.indexOf("--");
  const extra = sep >= 0 ? argv.slice(sep + 1) : [];
  const opts = sep >= 0 ? argv.slice(0, sep) : argv;
  const get = (name: string, fallback: string) => {
    const i = opts.indexOf(name);
    return i >= 0 ? opts[i + 1]! : fallback;
  };
  return { get, extra };
}
