/**
 * The template engine: a Jinja2-subset *interpreter* written for untrusted template text (prompt
 * text comes from remote stores and shared folders). Lexer → parser → syntax tree → tree-walking
 * evaluator, in `template/`; nothing is compiled to or evaluated as JavaScript. Jinja2's syntax —
 * `{{ var }}`, filters, tests, `{% if %}` / `{% for %}` with `loop.*`, `{% set %}`, macros — with
 * autoescaping off (prompts are not HTML) and strict undefined (prompt-management §8). The supported
 * syntax, the limits and the security guarantee are listed in src/prompts/README.md ("Templates").
 *
 * Strictness is two layers, so a missing variable is always named:
 * 1. before rendering, the parsed template's free variables (every name it reads that no `for`,
 *    `set`, `macro` or `with` binds, minus the engine's globals `range`, `dict`, `namespace` and
 *    `loop`) are checked against the supplied variables — like Jinja2's `StrictUndefined`, this
 *    also catches a name read only by `{% if %}`; a name the template tests with `is defined` /
 *    `is undefined` or passes through `| default(...)` is left to the render-time check (so
 *    `{% if x is defined %}{{ x }}{% endif %}` works, as in Jinja2);
 * 2. at render time, outputting an undefined or null value (a missing attribute `{{ user.nmae }}`,
 *    a `null` variable) fails, naming the expression, and so does iterating over one.
 *
 * `strict: false` opts out of both (§8): an undefined value renders as the empty string.
 *
 * Security: values from `variables` are read as data only — own data properties of plain objects,
 * array items, string characters — and a JS function is never called (see `template/values.ts`).
 * Every render is bounded by {@link TemplateLimits} (steps, output, source size, nesting, range).
 */
import { types } from "node:util";
import { freeVariables } from "./template/analysis.ts";
import type { Stmt } from "./template/ast.ts";
import { Evaluator } from "./template/evaluate.ts";
import { TemplateFailure } from "./template/failure.ts";
import { DEFAULT_TEMPLATE_LIMITS, RenderBudget, type TemplateLimits } from "./template/limits.ts";
import { parseTemplate } from "./template/parser.ts";

export { TemplateFailure } from "./template/failure.ts";
export { DEFAULT_TEMPLATE_LIMITS, RenderBudget, type TemplateLimitName, type TemplateLimits } from "./template/limits.ts";

export interface TemplateOptions {
  /** Strict undefined (§8). Default `true`. */
  readonly strict?: boolean;
  /** Bounds for this render (defaults: {@link DEFAULT_TEMPLATE_LIMITS}). Ignored when `budget` is given. */
  readonly limits?: Partial<TemplateLimits>;
  /** A budget shared with other renders (a chat prompt's segments share one), carrying its limits. */
  readonly budget?: RenderBudget;
}

interface Compiled {
  readonly body: readonly Stmt[];
  readonly depth: number;
  readonly free: ReadonlySet<string>;
}

/** Parsed templates by source; bounded in entries and in total source characters. */
const cache = new Map<string, Compiled>();
const CACHE_ENTRIES = 1024;
const CACHE_CHARACTERS = 16 * 1024 * 1024;
let cachedCharacters = 0;

function compile(source: string, limits: TemplateLimits): Compiled {
  if (source.length > limits.maxSourceLength) {
    throw new TemplateFailure(`template does not parse: the source is ${source.length} characters, over maxSourceLength (${limits.maxSourceLength})`, [], { limit: "maxSourceLength" });
  }
  let compiled = cache.get(source);
  if (compiled === undefined) {
    const { body, depth } = parseTemplate(source, limits.maxDepth);
    compiled = { body, depth, free: freeVariables(body) };
    if (source.length <= CACHE_CHARACTERS / 4) {
      while (cache.size >= CACHE_ENTRIES || (cache.size > 0 && cachedCharacters + source.length > CACHE_CHARACTERS)) {
        const oldest = cache.keys().next().value as string;
        cache.delete(oldest);
        cachedCharacters -= oldest.length;
      }
      cache.set(source, compiled);
      cachedCharacters += source.length;
    }
  } else if (compiled.depth > limits.maxDepth) {
    throw new TemplateFailure(`template does not parse: nested deeper than maxDepth (${limits.maxDepth})`, [], { limit: "maxDepth" });
  }
  return compiled;
}

/** Is `name` supplied: an own property whose value (if a data property) is not `undefined`. */
function supplied(variables: object, name: string): boolean {
  const d = Object.getOwnPropertyDescriptor(variables, name);
  return d !== undefined && (!("value" in d) || d.value !== undefined);
}

/** Render `source` with `variables`. Throws {@link TemplateFailure} naming what went wrong. */
export function renderTemplate(source: string, variables: Readonly<Record<string, unknown>>, options: TemplateOptions = {}): string {
  const strict = options.strict ?? true;
  const budget = options.budget ?? new RenderBudget(options.limits);
  const c = compile(source, budget.limits);
  if (types.isProxy(variables)) throw new TemplateFailure("the variables object is a Proxy: templates read plain data only (its traps would run)");
  if (strict) {
    const missing = [...c.free].filter((n) => !supplied(variables, n)).sort();
    if (missing.length > 0) {
      throw new TemplateFailure(`undefined variable${missing.length > 1 ? "s" : ""} ${missing.map((n) => `'${n}'`).join(", ")}`, missing);
    }
  }
  try {
    return new Evaluator(budget, strict).render(c.body, variables);
  } catch (e) {
    if (e instanceof TemplateFailure) {
      throw new TemplateFailure(`template failed to render: ${e.message}`, e.missing, { cause: e, ...(e.limit ? { limit: e.limit } : {}) });
    }
    // Recursive macros over deep expressions can nest past the call stack before maxDepth counts them.
    if (e instanceof RangeError && /call stack/i.test(e.message)) {
      throw new TemplateFailure(`template failed to render: macro calls and expressions nested too deeply for the call stack (lower maxDepth)`, [], { cause: e, limit: "maxDepth" });
    }
    throw e;
  }
}

/** The variable names `source` reads that it does not bind itself (strict-undefined analysis). */
export function templateVariables(source: string): string[] {
  return [...compile(source, DEFAULT_TEMPLATE_LIMITS).free].sort();
}

