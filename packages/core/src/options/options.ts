import { z } from "zod";
import { VqError } from "../errors.ts";
import { formatG } from "../output/printf.ts";

/** One option of a feature extractor, as libvmaf's VmafOption describes it. */
export type OptionDef =
  | {
      type: "bool";
      default: boolean;
      help: string;
      alias?: string;
      featureParam?: boolean;
      /**
       * true only adds outputs: every key written with false is written with true too, with
       * the same value (libvmaf's debug). Two runs that differ only here are one run, with true.
       */
      addsOutputs?: boolean;
    }
  | { type: "int"; default: number; min: number; max: number; help: string; alias?: string; featureParam?: boolean }
  | { type: "double"; default: number; min: number; max: number; help: string; alias?: string; featureParam?: boolean }
  | { type: "string"; default: string; choices?: readonly string[]; help: string; alias?: string; featureParam?: boolean };

type ValueOf<D extends OptionDef> = D extends { type: "bool" } ? boolean : D extends { type: "string" } ? string : number;
export type OptionValues<T extends Record<string, OptionDef>> = { [K in keyof T]: ValueOf<T[K]> };

function zodFor(name: string, def: OptionDef): z.ZodType {
  switch (def.type) {
    case "bool":
      return z.boolean();
    case "int":
      return z.number().int(`${name} must be an integer`).min(def.min).max(def.max);
    case "double":
      return z.number().refine(Number.isFinite, `${name} must be a finite number`).pipe(z.number().min(def.min).max(def.max));
    case "string":
      return def.choices ? z.enum(def.choices as [string, ...string[]]) : z.string();
  }
}

/**
 * An extractor's options: the zod schema that validates them (shared by the CPU and GPU
 * twins, the CLI and the library API) and libvmaf's rules for parsing `opt=val` strings
 * and for naming features after non-default options.
 */
export class OptionTable<T extends Record<string, OptionDef>> {
  readonly defaults: OptionValues<T>;
  private built?: z.ZodType<OptionValues<T>>;

  constructor(readonly extractor: string, readonly defs: T) {
    const defaults: Record<string, unknown> = {};
    for (const [name, def] of Object.entries(defs)) defaults[name] = def.default;
    this.defaults = defaults as OptionValues<T>;
  }

  /** The zod schema, built on first use: building every table's at start-up took ~60 ms. */
  get schema(): z.ZodType<OptionValues<T>> {
    if (!this.built) {
      const shape: Record<string, z.ZodType> = {};
      for (const [name, def] of Object.entries(this.defs)) shape[name] = zodFor(name, def).default(def.default as never);
      this.built = z.strictObject(shape) as unknown as z.ZodType<OptionValues<T>>;
    }
    return this.built;
  }

  /** Validates typed options (library API); throws a VqError naming the bad option. */
  resolve(input: Partial<OptionValues<T>> = {}): OptionValues<T> {
    const r = this.schema.safeParse(input);
    if (!r.success) throw new VqError(`feature ${this.extractor}: ${describeIssues(r.error, Object.keys(this.defs))}`);
    return r.data;
  }

  /**
   * Options resolved and validated elsewhere (the main thread, for a worker thread): taken
   * as they are. Re-validating would refuse the "not set" defaults that lie outside an
   * option's range (cambi's enc_width = 0), which libvmaf also refuses when given explicitly.
   */
  revive(values: Record<string, unknown>): OptionValues<T> {
    const keys = Object.keys(this.defs);
    if (keys.length !== Object.keys(values).length || keys.some((k) => !(k in values))) {
      throw new VqError(`feature ${this.extractor}: resolved options do not match its option table`);
    }
    return values as OptionValues<T>;
  }

  /** Parses libvmaf-style string options (`--feature psnr=enable_mse=true`). */
  parseStrings(dict: Record<string, string>): OptionValues<T> {
    const typed: Record<string, unknown> = {};
    for (const [key, raw] of Object.entries(dict)) {
      const def = this.defs[key];
      if (!def) {
        throw new VqError(`feature ${this.extractor}: unknown option "${key}" (options: ${Object.keys(this.defs).join(", ") || "none"})`);
      }
      typed[key] = parseOptionString(this.extractor, key, def, raw);
    }
    return this.resolve(typed as Partial<OptionValues<T>>);
  }

  /**
   * libvmaf's feature name for `name` under these options: the alias, then `_key` (bools)
   * or `_key_value` (%g for doubles) for every non-default feature parameter, sorted by
   * option name.
   */
  featureName(name: string, values: OptionValues<T>, alias: (n: string) => string = (n) => n): string {
    const params = Object.entries(this.defs)
      .filter(([k, d]) => d.featureParam && values[k] !== d.default)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (params.length === 0) return name;
    let out = alias(name);
    for (const [k, d] of params) {
      const key = d.alias ?? k;
      const v = values[k];
      out += d.type === "bool" ? `_${key}` : `_${key}_${d.type === "double" ? formatG(v as number) : String(v)}`;
    }
    return out;
  }
}

function parseOptionString(extractor: string, key: string, def: OptionDef, raw: string): unknown {
  const bad = (what: string) => new VqError(`feature ${extractor}: option ${key}=${raw}: ${what}`);
  switch (def.type) {
    case "bool":
      if (raw === "true") return true;
      if (raw === "false") return false;
      throw bad("expected true or false");
    case "int":
      if (!/^[+-]?\d+$/.test(raw)) throw bad("expected an integer");
      return Number(raw);
    case "double": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n)) throw bad("expected a number");
      return n;
    }
    case "string":
      return raw;
  }
}

function describeIssues(error: z.ZodError, known: string[]): string {
  return error.issues
    .map((i) => {
      if (i.code === "unrecognized_keys") return `unknown option ${i.keys.map((k) => `"${k}"`).join(", ")} (options: ${known.join(", ") || "none"})`;
      const path = i.path.join(".");
      return `option ${path}: ${i.message}`;
    })
    .join("; ");
}

export function defineOptions<T extends Record<string, OptionDef>>(extractor: string, defs: T): OptionTable<T> {
  return new OptionTable(extractor, defs);
}
