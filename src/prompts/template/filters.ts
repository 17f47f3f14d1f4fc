/**
 * The interpreter's filters (`x | upper`) and tests (`x is defined`); with the methods and globals
 * of `methods.ts`, the only functions a template can call. Each reads its
 * input through the admission helpers of `values.ts`, charges the render budget for the work it does
 * and checks any string it builds against the output limit before building it.
 */
import { TemplateFailure } from "./failure.ts";
import type { RenderBudget } from "./limits.ts";
import {
  compare,
  describeKind,
  dictEntries,
  equal,
  formatNumber,
  kindOf,
  listItems,
  MacroValue,
  member,
  toJson,
  toText,
  truthy,
} from "./values.ts";

export interface CallContext {
  readonly budget: RenderBudget;
  readonly strict: boolean;
  /** The source text of the input expression, for messages. */
  readonly where: string;
}

type Fn = (ctx: CallContext, input: unknown, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>) => unknown;

export function fail(message: string): TemplateFailure {
  return new TemplateFailure(message);
}

/** Positional and keyword arguments bound to parameter names, Python style. */
export function bind(fn: string, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>, names: readonly string[]): unknown[] {
  if (args.length > names.length) throw fail(`${fn} takes at most ${names.length} argument${names.length === 1 ? "" : "s"}, got ${args.length}`);
  const out: unknown[] = names.map((_, i) => args[i]);
  for (const [k, v] of kwargs) {
    const i = names.indexOf(k);
    if (i < 0) throw fail(`${fn} has no argument '${k}'${names.length ? ` (it takes ${names.join(", ")})` : ""}`);
    if (i < args.length) throw fail(`${fn} got argument '${k}' twice`);
    out[i] = v;
  }
  return out;
}

/** The text of a filter's input: undefined / none fail in strict mode and are "" otherwise. */
export function text(ctx: CallContext, v: unknown): string {
  const k = kindOf(v);
  if (k === "undefined" || k === "none") {
    if (ctx.strict) throw fail(`'${ctx.where}' is undefined or null`);
    return "";
  }
  return toText(v, ctx.budget, ctx.where);
}

/** An argument that must be a string. */
export function strArg(fn: string, name: string, v: unknown, dflt?: string): string {
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== "string") throw fail(`${fn}: '${name}' must be a string, got ${describeKind(v)}`);
  return v;
}

export function intArg(fn: string, name: string, v: unknown, dflt?: number): number {
  if ((v === undefined || v === null) && dflt !== undefined) return dflt;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v !== "number" || !Number.isInteger(v)) throw fail(`${fn}: '${name}' must be an integer, got ${describeKind(v)}`);
  return v;
}

function num(fn: string, v: unknown): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  throw fail(`${fn} needs a number, got ${describeKind(v)}`);
}

/** The items of anything iterable: a list's items, a mapping's keys, a string's characters. */
export function iterableItems(ctx: CallContext, v: unknown): unknown[] {
  switch (kindOf(v)) {
    case "list":
      return listItems(v as unknown[], ctx.budget, ctx.where);
    case "dict":
      return dictEntries(v as object, ctx.budget, ctx.where).map(([k]) => k);
    case "string": {
      const s = v as string;
      ctx.budget.step(1 + (s.length >> 6));
      return Array.from(s);
    }
    case "undefined":
    case "none":
      if (ctx.strict) throw fail(`'${ctx.where}' is undefined or null and cannot be iterated`);
      return [];
    default:
      throw fail(`'${ctx.where}' is ${describeKind(v)} and cannot be iterated`);
  }
}

/** `attribute='a.b'` or `attribute=0` lookups used by sort, map, sum, ... */
function attrGetter(ctx: CallContext, attribute: unknown): (v: unknown) => unknown {
  if (attribute === undefined || attribute === null) return (v) => v;
  const path = typeof attribute === "number" ? [attribute] : strArg("attribute", "attribute", attribute).split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  return (v) => {
    let cur = v;
    for (const p of path) cur = member(cur, p, `${ctx.where}.${String(p)}`);
    return cur;
  };
}

function sortKey(caseSensitive: boolean): (v: unknown) => unknown {
  return caseSensitive ? (v) => v : (v) => (typeof v === "string" ? v.toLowerCase() : v);
}

export function pyStrip(s: string, chars: unknown, left: boolean, right: boolean): string {
  const set = chars === undefined || chars === null ? null : strArg("strip", "chars", chars);
  const drop = (c: string): boolean => (set === null ? /\s/.test(c) : set.includes(c));
  let start = 0;
  let end = s.length;
  if (left) while (start < end && drop(s[start]!)) start++;
  if (right) while (end > start && drop(s[end - 1]!)) end--;
  return s.slice(start, end);
}

export function pySplit(s: string, sep: unknown, maxsplit: unknown): string[] {
  const max = intArg("split", "maxsplit", maxsplit, -1);
  if (sep === undefined || sep === null) {
    const out: string[] = [];
    let i = 0;
    while (i < s.length) {
      while (i < s.length && /\s/.test(s[i]!)) i++;
      if (i >= s.length) break;
      if (max >= 0 && out.length === max) {
        out.push(pyStrip(s.slice(i), null, false, true));
        break;
      }
      let j = i;
      while (j < s.length && !/\s/.test(s[j]!)) j++;
      out.push(s.slice(i, j));
      i = j;
    }
    return out;
  }
  const d = strArg("split", "sep", sep);
  if (d === "") throw fail("split: empty separator");
  if (max < 0) return s.split(d);
  const out: string[] = [];
  let from = 0;
  while (out.length < max) {
    const at = s.indexOf(d, from);
    if (at < 0) break;
    out.push(s.slice(from, at));
    from = at + d.length;
  }
  out.push(s.slice(from));
  return out;
}

export function pyReplace(ctx: CallContext, s: string, old: unknown, repl: unknown, count: unknown): string {
  const o = strArg("replace", "old", old);
  const r = strArg("replace", "new", repl);
  let n = intArg("replace", "count", count, -1);
  const parts: string[] = [];
  let from = 0;
  let length = 0;
  if (o === "") {
    // Python inserts `new` between every character (and at both ends).
    const chars = Array.from(s);
    if (n < 0 || n > chars.length + 1) n = chars.length + 1;
    ctx.budget.checkString(s.length + n * r.length);
    return chars.map((c, i) => (i < n ? r + c : c)).join("") + (n > chars.length ? r : "");
  }
  while (n !== 0) {
    const at = s.indexOf(o, from);
    if (at < 0) break;
    parts.push(s.slice(from, at), r);
    length += at - from + r.length;
    ctx.budget.checkString(length);
    from = at + o.length;
    n--;
  }
  ctx.budget.checkString(length + s.length - from);
  parts.push(s.slice(from));
  return parts.join("");
}

export function title(s: string): string {
  return s
    .split(/([-\s({[<]+)/)
    .filter((p) => p !== "")
    .map((p) => p.charAt(0).toUpperCase() + p.slice(1).toLowerCase())
    .join("");
}

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1).toLowerCase();
}

function itemText(ctx: CallContext, v: unknown): string {
  return kindOf(v) === "none" ? "None" : toText(v, ctx.budget, ctx.where);
}

export function joinTexts(ctx: CallContext, items: readonly unknown[], sep: string): string {
  const texts = items.map((x) => itemText(ctx, x));
  ctx.budget.checkString(texts.reduce((n, t) => n + t.length, 0) + sep.length * Math.max(0, texts.length - 1));
  return texts.join(sep);
}

function uniqueItems(ctx: CallContext, items: readonly unknown[], key: (v: unknown) => unknown): unknown[] {
  const out: unknown[] = [];
  const keys: unknown[] = [];
  const prim = new Set<unknown>();
  for (const item of items) {
    const k = key(item);
    if (typeof k !== "object" || k === null) {
      if (prim.has(k)) continue;
      prim.add(k);
    } else {
      ctx.budget.step(keys.length);
      if (keys.some((x) => equal(x, k, ctx.budget))) continue;
      keys.push(k);
    }
    out.push(item);
  }
  return out;
}

function sortItems(ctx: CallContext, items: unknown[], key: (v: unknown) => unknown, reverse: boolean): unknown[] {
  ctx.budget.step(items.length * Math.max(1, Math.ceil(Math.log2(items.length + 1))));
  const keyed = items.map((v) => [key(v), v] as const);
  keyed.sort((a, b) => compare(a[0], b[0], ctx.budget));
  if (reverse) keyed.reverse();
  return keyed.map(([, v]) => v);
}

function extreme(ctx: CallContext, input: unknown, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>, fn: string, sign: 1 | -1): unknown {
  const [cs, attribute] = bind(fn, args, kwargs, ["case_sensitive", "attribute"]);
  const items = iterableItems(ctx, input);
  const get = attrGetter(ctx, attribute);
  const key = sortKey(truthy(cs));
  let best: unknown = undefined;
  let bestKey: unknown = undefined;
  for (const item of items) {
    const k = key(get(item));
    if (best === undefined || sign * compare(k, bestKey, ctx.budget) > 0) {
      best = item;
      bestKey = k;
    }
  }
  return best;
}

function round(value: number, precision: number, method: string): number {
  const f = 10 ** precision;
  switch (method) {
    case "common":
      return (Math.sign(value) * Math.round(Math.abs(value) * f)) / f;
    case "ceil":
      return Math.ceil(value * f) / f;
    case "floor":
      return Math.floor(value * f) / f;
    default:
      throw fail(`round: method must be 'common', 'ceil' or 'floor', got '${method}'`);
  }
}

function toInt(v: unknown, dflt: unknown, base: number): unknown {
  switch (kindOf(v)) {
    case "number":
      return Number.isFinite(v) ? Math.trunc(v as number) : dflt;
    case "bool":
      return v ? 1 : 0;
    case "string": {
      const s = (v as string).trim().replaceAll("_", "");
      if (base === 10 && /^[+-]?\d+$/.test(s)) return Number(s);
      if (base !== 10) {
        const digits = s.replace(/^[+-]?0[xob]/i, (m) => m.slice(0, m.length - 2));
        const n = parseInt(digits, base);
        return Number.isNaN(n) ? dflt : n;
      }
      const f = toFloat(s, undefined);
      return f === undefined ? dflt : Math.trunc(f as number);
    }
    default:
      return dflt;
  }
}

function toFloat(v: unknown, dflt: unknown): unknown {
  switch (kindOf(v)) {
    case "number":
      return v;
    case "bool":
      return v ? 1 : 0;
    case "string": {
      const s = (v as string).trim().toLowerCase();
      if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(s)) return Number(s);
      if (/^[+-]?(inf|infinity)$/.test(s)) return s.startsWith("-") ? -Infinity : Infinity;
      if (/^[+-]?nan$/.test(s)) return NaN;
      return dflt;
    }
    default:
      return dflt;
  }
}

function indent(ctx: CallContext, s: string, width: unknown, first: boolean, blank: boolean): string {
  const pad = typeof width === "string" ? width : " ".repeat(Math.max(0, Math.min(intArg("indent", "width", width, 4), 1024)));
  const lines = (s + "\n").split(/\r\n|\n|\r/);
  lines.pop();
  ctx.budget.checkString(s.length + pad.length * (lines.length + 1));
  let out: string;
  if (blank) out = lines.join("\n" + pad);
  else {
    out = lines.shift() ?? "";
    if (lines.length > 0) out += "\n" + lines.map((l) => (l ? pad + l : l)).join("\n");
  }
  return first ? pad + out : out;
}

function truncate(s: string, length: number, killwords: boolean, end: string, leeway: number): string {
  if (s.length <= length + leeway) return s;
  if (killwords) return s.slice(0, Math.max(0, length - end.length)) + end;
  const head = s.slice(0, Math.max(0, length - end.length));
  const cut = head.lastIndexOf(" ");
  return (cut >= 0 ? head.slice(0, cut) : head) + end;
}

/** Python's `%` formatting for `"%s and %d" | format(a, b)`: %s %r %d %i %f %.Nf %x %%. */
function pyFormat(ctx: CallContext, fmt: string, args: readonly unknown[]): string {
  let i = 0;
  const out = fmt.replace(/%(\.\d+)?([srdifx%])/g, (_m, prec: string | undefined, conv: string) => {
    if (conv === "%") return "%";
    if (i >= args.length) throw fail("format: not enough arguments for the format string");
    const v = args[i++];
    switch (conv) {
      case "s":
        return itemText(ctx, v);
      case "r":
        return typeof v === "string" ? toText([v], ctx.budget, ctx.where).slice(1, -1) : itemText(ctx, v);
      case "d":
      case "i":
        return formatNumber(Math.trunc(num("format", v)));
      case "x":
        return Math.trunc(num("format", v)).toString(16);
      default:
        return num("format", v).toFixed(prec ? Math.min(Number(prec.slice(1)), 100) : 6);
    }
  });
  if (i < args.length) throw fail("format: not all arguments converted");
  ctx.budget.checkString(out.length);
  return out;
}

function htmlEscape(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&#34;").replaceAll("'", "&#39;");
}

// --- filters -------------------------------------------------------------------------------------

const FILTERS: Readonly<Record<string, Fn>> = {
  default(_ctx, v, args, kwargs) {
    const [dflt, boolean] = bind("default", args, kwargs, ["default_value", "boolean"]);
    if (v === undefined || (truthy(boolean) && !truthy(v))) return dflt === undefined ? "" : dflt;
    return v;
  },
  upper: (ctx, v) => text(ctx, v).toUpperCase(),
  lower: (ctx, v) => text(ctx, v).toLowerCase(),
  title: (ctx, v) => title(text(ctx, v)),
  capitalize: (ctx, v) => capitalize(text(ctx, v)),
  trim(ctx, v, args, kwargs) {
    const [chars] = bind("trim", args, kwargs, ["chars"]);
    return pyStrip(text(ctx, v), chars, true, true);
  },
  center(ctx, v, args, kwargs) {
    const [width] = bind("center", args, kwargs, ["width"]);
    const s = text(ctx, v);
    const w = intArg("center", "width", width, 80);
    if (w <= s.length) return s;
    ctx.budget.checkString(w);
    const left = Math.floor((w - s.length) / 2);
    return " ".repeat(left) + s + " ".repeat(w - s.length - left);
  },
  length(ctx, v) {
    switch (kindOf(v)) {
      case "string":
        return (v as string).length;
      case "list":
        return (v as unknown[]).length;
      case "dict":
        return Object.keys(v as object).length;
      case "undefined":
      case "none":
        if (ctx.strict) throw fail(`'${ctx.where}' is undefined or null and has no length`);
        return 0;
      default:
        throw fail(`'${ctx.where}' is ${describeKind(v)} and has no length`);
    }
  },
  join(ctx, v, args, kwargs) {
    const [sep, attribute] = bind("join", args, kwargs, ["d", "attribute"]);
    const get = attrGetter(ctx, attribute);
    return joinTexts(ctx, iterableItems(ctx, v).map(get), strArg("join", "d", sep, ""));
  },
  first(ctx, v) {
    return kindOf(v) === "list" ? member(v, 0, `${ctx.where}[0]`) : iterableItems(ctx, v)[0];
  },
  last(ctx, v) {
    if (kindOf(v) === "list") return member(v, -1, `${ctx.where}[-1]`);
    const items = iterableItems(ctx, v);
    return items[items.length - 1];
  },
  replace(ctx, v, args, kwargs) {
    const [old, repl, count] = bind("replace", args, kwargs, ["old", "new", "count"]);
    return pyReplace(ctx, text(ctx, v), old, repl, count);
  },
  int(_ctx, v, args, kwargs) {
    const [dflt, base] = bind("int", args, kwargs, ["default", "base"]);
    const b = intArg("int", "base", base, 10);
    if (b < 2 || b > 36) throw fail("int: 'base' must be between 2 and 36");
    return toInt(v, dflt ?? 0, b);
  },
  float(_ctx, v, args, kwargs) {
    const [dflt] = bind("float", args, kwargs, ["default"]);
    return toFloat(v, dflt ?? 0);
  },
  string: (ctx, v) => text(ctx, v),
  round(_ctx, v, args, kwargs) {
    const [precision, method] = bind("round", args, kwargs, ["precision", "method"]);
    const p = intArg("round", "precision", precision, 0);
    if (p < 0 || p > 100) throw fail("round: 'precision' must be between 0 and 100");
    return round(num("round", v), p, strArg("round", "method", method, "common"));
  },
  abs: (_ctx, v) => Math.abs(num("abs", v)),
  list: (ctx, v) => iterableItems(ctx, v),
  sort(ctx, v, args, kwargs) {
    const [reverse, cs, attribute] = bind("sort", args, kwargs, ["reverse", "case_sensitive", "attribute"]);
    const get = attrGetter(ctx, attribute);
    const key = sortKey(truthy(cs));
    return sortItems(ctx, iterableItems(ctx, v), (x) => key(get(x)), truthy(reverse));
  },
  reverse(ctx, v) {
    if (typeof v === "string") return text(ctx, Array.from(v).reverse().join(""));
    return iterableItems(ctx, v).reverse();
  },
  unique(ctx, v, args, kwargs) {
    const [cs, attribute] = bind("unique", args, kwargs, ["case_sensitive", "attribute"]);
    const get = attrGetter(ctx, attribute);
    const key = sortKey(truthy(cs));
    return uniqueItems(ctx, iterableItems(ctx, v), (x) => key(get(x)));
  },
  min: (ctx, v, args, kwargs) => extreme(ctx, v, args, kwargs, "min", -1),
  max: (ctx, v, args, kwargs) => extreme(ctx, v, args, kwargs, "max", 1),
  sum(ctx, v, args, kwargs) {
    const [attribute, start] = bind("sum", args, kwargs, ["attribute", "start"]);
    const get = attrGetter(ctx, attribute);
    let total = start === undefined ? 0 : num("sum", start);
    for (const item of iterableItems(ctx, v)) total += num("sum", get(item));
    return total;
  },
  tojson(ctx, v, args, kwargs) {
    const [ind] = bind("tojson", args, kwargs, ["indent"]);
    return toJson(v, ctx.budget, ctx.where, ind === undefined || ind === null ? null : typeof ind === "string" ? ind : intArg("tojson", "indent", ind), true);
  },
  dump(ctx, v, args, kwargs) {
    const [ind] = bind("dump", args, kwargs, ["spaces"]);
    return toJson(v, ctx.budget, ctx.where, ind === undefined || ind === null ? null : typeof ind === "string" ? ind : intArg("dump", "spaces", ind), false);
  },
  indent(ctx, v, args, kwargs) {
    const [width, first, blank] = bind("indent", args, kwargs, ["width", "first", "blank"]);
    return indent(ctx, text(ctx, v), width, truthy(first), truthy(blank));
  },
  wordcount(ctx, v) {
    const s = text(ctx, v);
    return s.match(/[\p{L}\p{N}_]+/gu)?.length ?? 0;
  },
  truncate(ctx, v, args, kwargs) {
    const [length, killwords, end, leeway] = bind("truncate", args, kwargs, ["length", "killwords", "end", "leeway"]);
    return truncate(text(ctx, v), intArg("truncate", "length", length, 255), truthy(killwords), strArg("truncate", "end", end, "..."), intArg("truncate", "leeway", leeway, 5));
  },
  wordwrap(ctx, v, args, kwargs) {
    const [width, breakLong] = bind("wordwrap", args, kwargs, ["width", "break_long_words"]);
    const w = Math.max(1, intArg("wordwrap", "width", width, 79));
    const lines: string[] = [];
    for (const para of text(ctx, v).split("\n")) {
      let line = "";
      for (let word of para.split(/\s+/).filter((x) => x !== "")) {
        while (breakLong !== false && word.length > w) {
          if (line) lines.push(line);
          lines.push(word.slice(0, w));
          word = word.slice(w);
          line = "";
        }
        if (line && line.length + 1 + word.length > w) {
          lines.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      lines.push(line);
    }
    return lines.join("\n");
  },
  batch(ctx, v, args, kwargs) {
    const [count, fill] = bind("batch", args, kwargs, ["linecount", "fill_with"]);
    const n = intArg("batch", "linecount", count);
    if (n <= 0) throw fail("batch: 'linecount' must be positive");
    const items = iterableItems(ctx, v);
    const out: unknown[][] = [];
    for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
    const lastRow = out[out.length - 1];
    if (fill !== undefined && lastRow !== undefined) {
      ctx.budget.step(n - lastRow.length);
      while (lastRow.length < n) lastRow.push(fill);
    }
    return out;
  },
  map(ctx, v, args, kwargs) {
    const items = iterableItems(ctx, v);
    if (kwargs.has("attribute")) {
      const [attribute, dflt] = bind("map", args, kwargs, ["attribute", "default"]);
      const get = attrGetter(ctx, attribute);
      return items.map((x) => {
        const r = get(x);
        return r === undefined ? dflt : r;
      });
    }
    const name = strArg("map", "filter", args[0]);
    const filter = FILTERS[name];
    if (filter === undefined) throw fail(`map: no filter named '${name}'`);
    return items.map((x) => filter(ctx, x, args.slice(1), kwargs));
  },
  select: (ctx, v, args) => selectBy(ctx, v, args, true, false),
  reject: (ctx, v, args) => selectBy(ctx, v, args, false, false),
  selectattr: (ctx, v, args) => selectBy(ctx, v, args, true, true),
  rejectattr: (ctx, v, args) => selectBy(ctx, v, args, false, true),
  attr: (ctx, v, args, kwargs) => member(v, strArg("attr", "name", bind("attr", args, kwargs, ["name"])[0]), `${ctx.where}.${String(args[0])}`),
  items(ctx, v) {
    if (kindOf(v) === "undefined" && !ctx.strict) return [];
    if (kindOf(v) !== "dict") throw fail(`'${ctx.where}' is ${describeKind(v)}, not a mapping: it has no items`);
    return dictEntries(v as object, ctx.budget, ctx.where).map(([k, x]) => [k, x]);
  },
  dictsort(ctx, v, args, kwargs) {
    const [cs, by, reverse] = bind("dictsort", args, kwargs, ["case_sensitive", "by", "reverse"]);
    if (kindOf(v) !== "dict") throw fail(`dictsort: '${ctx.where}' is ${describeKind(v)}, not a mapping`);
    const pos = strArg("dictsort", "by", by, "key") === "value" ? 1 : 0;
    const key = sortKey(truthy(cs));
    return sortItems(ctx, dictEntries(v as object, ctx.budget, ctx.where), (e) => key((e as unknown[])[pos]), truthy(reverse));
  },
  format(ctx, v, args) {
    return pyFormat(ctx, text(ctx, v), args);
  },
  escape: (ctx, v) => htmlEscape(text(ctx, v)),
  safe: (_ctx, v) => v,
};
const ALIASES: Readonly<Record<string, string>> = { d: "default", count: "length", e: "escape" };

function selectBy(ctx: CallContext, v: unknown, args: readonly unknown[], keep: boolean, byAttr: boolean): unknown[] {
  const items = iterableItems(ctx, v);
  const get = byAttr ? attrGetter(ctx, args[0]) : (x: unknown) => x;
  const rest = byAttr ? args.slice(1) : args;
  const testName = rest[0] === undefined ? null : strArg("select", "test", rest[0]);
  const test = testName === null ? null : TESTS[testName];
  if (testName !== null && test === undefined) throw fail(`no test named '${testName}'`);
  return items.filter((x) => {
    const value = get(x);
    const ok = test ? test(ctx, value, rest.slice(1)) : truthy(value);
    return ok === keep;
  });
}

export const FILTER_NAMES: ReadonlySet<string> = new Set([...Object.keys(FILTERS), ...Object.keys(ALIASES)]);

export function applyFilter(ctx: CallContext, name: string, input: unknown, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>): unknown {
  const fn = FILTERS[ALIASES[name] ?? name];
  if (fn === undefined) throw fail(`no filter named '${name}'`);
  ctx.budget.step(1 + cost(input));
  return fn(ctx, input, args, kwargs);
}

/** Work a value stands for, in steps: a string per 64 characters, a list or mapping per item. */
export function cost(v: unknown): number {
  if (typeof v === "string") return v.length >> 6;
  if (Array.isArray(v)) return v.length;
  return 0;
}

// --- tests ---------------------------------------------------------------------------------------

type Test = (ctx: CallContext, v: unknown, args: readonly unknown[]) => boolean;

const TESTS: Readonly<Record<string, Test>> = {
  defined: (_c, v) => v !== undefined,
  undefined: (_c, v) => v === undefined,
  none: (_c, v) => v === null,
  string: (_c, v) => typeof v === "string",
  number: (_c, v) => typeof v === "number" || typeof v === "bigint",
  integer: (_c, v) => (typeof v === "number" && Number.isInteger(v)) || typeof v === "bigint",
  float: (_c, v) => typeof v === "number" && !Number.isInteger(v),
  boolean: (_c, v) => typeof v === "boolean",
  true: (_c, v) => v === true,
  false: (_c, v) => v === false,
  mapping: (_c, v) => kindOf(v) === "dict",
  iterable: (_c, v) => ["list", "dict", "string"].includes(kindOf(v)),
  sequence: (_c, v) => ["list", "dict", "string"].includes(kindOf(v)),
  callable: (_c, v) => v instanceof MacroValue,
  even: (_c, v) => num("even", v) % 2 === 0,
  odd: (_c, v) => Math.abs(num("odd", v) % 2) === 1,
  divisibleby: (_c, v, a) => num("divisibleby", v) % num("divisibleby", a[0]) === 0,
  eq: (c, v, a) => equal(v, a[0], c.budget),
  ne: (c, v, a) => !equal(v, a[0], c.budget),
  lt: (c, v, a) => compare(v, a[0], c.budget) < 0,
  le: (c, v, a) => compare(v, a[0], c.budget) <= 0,
  gt: (c, v, a) => compare(v, a[0], c.budget) > 0,
  ge: (c, v, a) => compare(v, a[0], c.budget) >= 0,
  in: (c, v, a) => contains(c, a[0], v),
  lower: (_c, v) => typeof v === "string" && v === v.toLowerCase(),
  upper: (_c, v) => typeof v === "string" && v === v.toUpperCase(),
  sameas: (_c, v, a) => v === a[0],
};
const TEST_ALIASES: Readonly<Record<string, string>> = {
  equalto: "eq",
  "==": "eq",
  "!=": "ne",
  lessthan: "lt",
  "<": "lt",
  "<=": "le",
  greaterthan: "gt",
  ">": "gt",
  ">=": "ge",
};

export const TEST_NAMES: ReadonlySet<string> = new Set([...Object.keys(TESTS), ...Object.keys(TEST_ALIASES)]);

export function applyTest(ctx: CallContext, name: string, input: unknown, args: readonly unknown[]): boolean {
  const fn = TESTS[TEST_ALIASES[name] ?? name];
  if (fn === undefined) throw fail(`no test named '${name}'`);
  ctx.budget.step();
  return fn(ctx, input, args);
}

/** `needle in haystack`: substring, list member, mapping key. */
export function contains(ctx: CallContext, haystack: unknown, needle: unknown): boolean {
  switch (kindOf(haystack)) {
    case "string":
      if (typeof needle !== "string") throw fail(`'in <string>' needs a string on the left, got ${describeKind(needle)}`);
      ctx.budget.step(1 + ((haystack as string).length >> 6));
      return (haystack as string).includes(needle);
    case "list":
      return listItems(haystack as unknown[], ctx.budget, ctx.where).some((x) => equal(x, needle, ctx.budget));
    case "dict":
      return typeof needle === "string" && Object.prototype.hasOwnProperty.call(haystack, needle);
    case "undefined":
    case "none":
      return false;
    default:
      throw fail(`'${ctx.where}' is ${describeKind(haystack)}: 'in' needs a string, list or mapping`);
  }
}
