/**
 * The template engine: nunjucks (Jinja2's syntax — `{{ var }}`, filters, `{% if %}` / `{% for %}`,
 * `loop.index`, `{% set %}`, macros) with autoescaping off (prompts are not HTML) and strict undefined
 * (prompt-management §8).
 *
 * Strictness is two layers, so a missing variable is always named:
 * 1. before rendering, the parsed template's free variables (every name it reads that no `for`,
 *    `set`, `macro` or import binds, minus the engine's globals such as `range` and `loop`) are
 *    checked against the supplied variables — like Jinja2's `StrictUndefined`, this also catches a
 *    name read only by `{% if %}`; a name the template tests with `is defined` / `is undefined` or
 *    passes through `| default(...)` is left to the render-time check (so
 *    `{% if x is defined %}{{ x }}{% endif %}` works, as in Jinja2);
 * 2. nunjucks' `throwOnUndefined` then rejects outputting an undefined or null value (a missing
 *    attribute `{{ user.nmae }}`, a `null` variable).
 *
 * `strict: false` opts out of both (§8): an undefined value renders as the empty string.
 */
import nunjucks from "nunjucks";

const strictEnv = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: true });
const lenientEnv = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });

/** Names every template may read without supplying them (nunjucks globals and loop helpers). */
const BUILTIN_NAMES = new Set(["range", "cycler", "joiner", "loop", "caller", "super", "true", "false", "none", "True", "False", "None"]);

/** A template that failed to parse, render, or find a variable: the message says which. */
export class TemplateFailure extends Error {
  override name = "TemplateFailure";
  constructor(
    message: string,
    /** Variable names the template reads that were not supplied (strict mode). */
    readonly missing: readonly string[] = [],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The parser nunjucks exports at runtime but its type definitions omit. */
interface NunjucksInternals {
  readonly parser: { parse(source: string, extensions: unknown[], options: object): AstNode };
}

interface Compiled {
  readonly strict: nunjucks.Template;
  readonly lenient: nunjucks.Template;
  readonly free: ReadonlySet<string>;
}

const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 1024;

function clean(message: string): string {
  return message.replace(/^\(unknown path\)\s*/, "").replace(/\s+/g, " ").trim();
}

function compile(source: string): Compiled {
  const hit = cache.get(source);
  if (hit) return hit;
  let ast: AstNode;
  try {
    ast = (nunjucks as unknown as NunjucksInternals).parser.parse(source, [], {});
  } catch (e) {
    throw new TemplateFailure(`template does not parse: ${clean(e instanceof Error ? e.message : String(e))}`, [], { cause: e });
  }
  const compiled: Compiled = {
    strict: new nunjucks.Template(source, strictEnv, undefined, true),
    lenient: new nunjucks.Template(source, lenientEnv, undefined, true),
    free: freeVariables(ast),
  };
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
  cache.set(source, compiled);
  return compiled;
}

/** Render `source` with `variables`. Throws {@link TemplateFailure} naming what went wrong. */
export function renderTemplate(source: string, variables: Readonly<Record<string, unknown>>, options: { strict?: boolean } = {}): string {
  const strict = options.strict ?? true;
  const c = compile(source);
  if (strict) {
    const missing = [...c.free].filter((n) => !Object.prototype.hasOwnProperty.call(variables, n) || variables[n] === undefined).sort();
    if (missing.length > 0) {
      throw new TemplateFailure(`undefined variable${missing.length > 1 ? "s" : ""} ${missing.map((n) => `'${n}'`).join(", ")}`, missing);
    }
  }
  try {
    return (strict ? c.strict : c.lenient).render({ ...variables });
  } catch (e) {
    const msg = clean(e instanceof Error ? e.message : String(e));
    const hint = /null or undefined/.test(msg) ? " (an attribute or value is undefined or null)" : "";
    throw new TemplateFailure(`template failed to render: ${msg}${hint}`, [], { cause: e });
  }
}

/** The variable names `source` reads that it does not bind itself (strict-undefined analysis). */
export function templateVariables(source: string): string[] {
  return [...compile(source).free].sort();
}

// --- free-variable analysis over the nunjucks AST ------------------------------------------------

interface AstNode {
  readonly typename: string;
  readonly fields?: readonly string[];
  readonly value?: unknown;
  readonly children?: readonly AstNode[];
  readonly [field: string]: unknown;
}

function isNode(v: unknown): v is AstNode {
  return typeof v === "object" && v !== null && typeof (v as { typename?: unknown }).typename === "string";
}

function symbolsIn(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) for (const x of v) symbolsIn(x, out);
  else if (isNode(v)) {
    if (v.typename === "Symbol") out.add(String(v.value));
    else if (v.typename === "Pair") symbolsIn(v["value"], out);
    else for (const c of v.children ?? []) symbolsIn(c, out);
  }
}

function freeVariables(root: AstNode): Set<string> {
  const read = new Set<string>();
  const bound = new Set<string>();
  /** Names the template tests with `is defined` or defaults: their other reads are left to the runtime check. */
  const guarded = new Set<string>();
  const visit = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) visit(x);
      return;
    }
    if (!isNode(v)) return;
    const n = v;
    switch (n.typename) {
      case "Symbol":
        read.add(String(n.value));
        return;
      case "For":
      case "AsyncEach":
      case "AsyncAll":
        symbolsIn(n["name"], bound);
        visit(n["arr"]);
        visit(n["body"]);
        visit(n["else_"]);
        return;
      case "Set":
        symbolsIn(n["targets"], bound);
        visit(n["value"]);
        visit(n["body"]);
        return;
      case "Macro":
      case "Caller":
        symbolsIn(n["name"], bound);
        symbolsIn(n["args"], bound);
        visit(n["body"]);
        return;
      case "Import":
        symbolsIn(n["target"], bound);
        return;
      case "FromImport":
        symbolsIn(n["names"], bound);
        return;
      case "Filter": {
        const name = isNode(n["name"]) ? String(n["name"].value) : "";
        const args = isNode(n["args"]) ? (n["args"].children ?? []) : [];
        // `x | default(...)` tolerates an undefined x, as in Jinja2.
        args.forEach((a, i) => {
          if (i === 0 && (name === "default" || name === "d") && isNode(a) && a.typename === "Symbol") {
            guarded.add(String(a.value));
            return;
          }
          visit(a);
        });
        return;
      }
      case "Is": {
        const test = isNode(n["right"]) ? String(n["right"].value ?? (n["right"]["name"] as AstNode | undefined)?.value ?? "") : "";
        const left = n["left"];
        if ((test === "defined" || test === "undefined") && isNode(left) && left.typename === "Symbol") {
          guarded.add(String(left.value));
          return;
        }
        visit(left);
        return;
      }
      case "Pair":
        visit(n["value"]);
        return;
      default:
        for (const f of n.fields ?? []) visit(n[f]);
        if (n.children && !(n.fields ?? []).includes("children")) visit(n.children);
    }
  };
  visit(root);
  for (const b of [...bound, ...guarded]) read.delete(b);
  for (const b of BUILTIN_NAMES) read.delete(b);
  return read;
}
