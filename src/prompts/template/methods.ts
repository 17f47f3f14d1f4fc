/**
 * The whitelisted Python-style methods of strings, lists and mappings (`s.split(',')`, `d.items()`)
 * and the globals `range`, `dict`, `namespace`. No other method or function exists for a template:
 * a name not in these tables is refused, whatever the value holds.
 */
import { TemplateFailure } from "./failure.ts";
import { bind, capitalize, cost, fail, intArg, iterableItems, joinTexts, pyReplace, pySplit, pyStrip, strArg, title, type CallContext } from "./filters.ts";
import { describeKind, dictEntries, equal, kindOf, listItems, member, NamespaceValue, newDict } from "./values.ts";

const STRING_METHODS: Readonly<Record<string, (ctx: CallContext, s: string, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>) => unknown>> = {
  upper: (_c, s) => s.toUpperCase(),
  lower: (_c, s) => s.toLowerCase(),
  title: (_c, s) => title(s),
  capitalize: (_c, s) => capitalize(s),
  strip: (_c, s, a, k) => pyStrip(s, bind("strip", a, k, ["chars"])[0], true, true),
  lstrip: (_c, s, a, k) => pyStrip(s, bind("lstrip", a, k, ["chars"])[0], true, false),
  rstrip: (_c, s, a, k) => pyStrip(s, bind("rstrip", a, k, ["chars"])[0], false, true),
  split: (_c, s, a, k) => {
    const [sep, maxsplit] = bind("split", a, k, ["sep", "maxsplit"]);
    return pySplit(s, sep, maxsplit);
  },
  splitlines: (_c, s) => s.split(/\r\n|\n|\r/).filter((l, i, all) => i < all.length - 1 || l !== ""),
  join: (c, s, a, k) => joinTexts(c, iterableItems(c, bind("join", a, k, ["iterable"])[0]), s),
  startswith: (_c, s, a, k) => {
    const [prefix] = bind("startswith", a, k, ["prefix"]);
    return Array.isArray(prefix) ? prefix.some((p) => s.startsWith(strArg("startswith", "prefix", p))) : s.startsWith(strArg("startswith", "prefix", prefix));
  },
  endswith: (_c, s, a, k) => {
    const [suffix] = bind("endswith", a, k, ["suffix"]);
    return Array.isArray(suffix) ? suffix.some((p) => s.endsWith(strArg("endswith", "suffix", p))) : s.endsWith(strArg("endswith", "suffix", suffix));
  },
  replace: (c, s, a, k) => {
    const [old, repl, count] = bind("replace", a, k, ["old", "new", "count"]);
    return pyReplace(c, s, old, repl, count);
  },
  count: (_c, s, a, k) => {
    const sub = strArg("count", "sub", bind("count", a, k, ["sub"])[0]);
    return sub === "" ? s.length + 1 : s.split(sub).length - 1;
  },
  find: (_c, s, a, k) => s.indexOf(strArg("find", "sub", bind("find", a, k, ["sub"])[0])),
  isdigit: (_c, s) => s.length > 0 && /^\d+$/.test(s),
  isalpha: (_c, s) => s.length > 0 && /^\p{L}+$/u.test(s),
  format: () => {
    throw fail("str.format is not supported: use '~' or the format filter (\"%s\" | format(x))");
  },
};

const LIST_METHODS: Readonly<Record<string, (ctx: CallContext, l: readonly unknown[], args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>) => unknown>> = {
  count: (c, l, a, k) => {
    const [x] = bind("count", a, k, ["value"]);
    return listItems(l, c.budget, c.where).filter((y) => equal(x, y, c.budget)).length;
  },
  index: (c, l, a, k) => {
    const [x] = bind("index", a, k, ["value"]);
    const i = listItems(l, c.budget, c.where).findIndex((y) => equal(x, y, c.budget));
    if (i < 0) throw fail(`${c.where}.index(): the value is not in the list`);
    return i;
  },
};

const DICT_METHODS: Readonly<Record<string, (ctx: CallContext, d: object, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>) => unknown>> = {
  items: (c, d, a, k) => (bind("items", a, k, []), dictEntries(d, c.budget, c.where).map(([key, v]) => [key, v])),
  keys: (c, d, a, k) => (bind("keys", a, k, []), dictEntries(d, c.budget, c.where).map(([key]) => key)),
  values: (c, d, a, k) => (bind("values", a, k, []), dictEntries(d, c.budget, c.where).map(([, v]) => v)),
  get: (c, d, a, k) => {
    const [key, dflt] = bind("get", a, k, ["key", "default"]);
    const v = member(d, key, `${c.where}.${String(key)}`);
    return v === undefined ? (dflt === undefined ? null : dflt) : v;
  },
};

/** `obj.name(args)`: a whitelisted method of a string, list or mapping; nothing else is callable. */
export function callMethod(ctx: CallContext, obj: unknown, name: string, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>): unknown {
  ctx.budget.step(1 + cost(obj));
  const k = kindOf(obj);
  if (k === "string" && Object.hasOwn(STRING_METHODS, name)) return STRING_METHODS[name]!(ctx, obj as string, args, kwargs);
  if (k === "list" && Object.hasOwn(LIST_METHODS, name)) return LIST_METHODS[name]!(ctx, obj as unknown[], args, kwargs);
  if (k === "dict" && Object.hasOwn(DICT_METHODS, name)) return DICT_METHODS[name]!(ctx, obj as object, args, kwargs);
  if ((k === "undefined" || k === "none") && !ctx.strict) return undefined;
  const known = k === "string" ? Object.keys(STRING_METHODS) : k === "list" ? Object.keys(LIST_METHODS) : k === "dict" ? Object.keys(DICT_METHODS) : [];
  throw fail(`'${ctx.where}' is ${describeKind(obj)}: it has no method '${name}'${known.length ? ` (the template engine provides: ${known.join(", ")})` : ""}`);
}

// --- globals -------------------------------------------------------------------------------------

export const GLOBAL_NAMES: ReadonlySet<string> = new Set(["range", "dict", "namespace"]);

export function callGlobal(ctx: CallContext, name: string, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>): unknown {
  ctx.budget.step();
  switch (name) {
    case "range": {
      if (kwargs.size > 0) throw fail("range() takes no keyword arguments");
      if (args.length < 1 || args.length > 3) throw fail(`range() takes 1 to 3 arguments, got ${args.length}`);
      const ints = args.map((a, i) => intArg("range()", `argument ${i + 1}`, a));
      const [start, stop, step] = ints.length === 1 ? [0, ints[0]!, 1] : [ints[0]!, ints[1]!, ints[2] ?? 1];
      if (step === 0) throw fail("range() step must not be zero");
      const length = Math.max(0, Math.ceil((stop - start) / step));
      const max = ctx.budget.limits.maxRangeLength;
      if (length > max) throw new TemplateFailure(`range() of ${length} items exceeds maxRangeLength (${max})`, [], { limit: "maxRangeLength" });
      ctx.budget.step(length);
      const out = new Array<number>(length);
      for (let i = 0; i < length; i++) out[i] = start + i * step;
      return out;
    }
    case "dict":
      if (args.length > 0) throw fail("dict() takes keyword arguments only, as in dict(a=1)");
      return newDict(kwargs);
    case "namespace": {
      if (args.length > 0) throw fail("namespace() takes keyword arguments only, as in namespace(found=false)");
      const ns = new NamespaceValue();
      for (const [k, v] of kwargs) ns.attrs.set(k, v);
      return ns;
    }
    default:
      throw fail(`'${name}' is not a function`);
  }
}
