/**
 * Template values and the one door between caller data and the evaluator.
 *
 * Security by construction: a value from the variables enters the evaluator only through
 * {@link admit}, and a member only through {@link member} / {@link listItem} / {@link dictEntries}.
 * They accept strings, numbers, booleans, null, bigints, dates, arrays and plain objects (prototype
 * `null` or `Object.prototype`) and read only *own data* properties — never an inherited property,
 * an accessor (its getter is not run), a prototype, `constructor` (unless it is the object's own data),
 * nor a Proxy (its traps are code). A function, a class instance, a Map, a symbol is refused with a
 * {@link TemplateFailure} naming where it was read. The evaluator has no path from a value to a JS
 * function: it calls only its own filters, tests and whitelisted methods.
 */
import { types } from "node:util";
import { TemplateFailure } from "./failure.ts";
import type { RenderBudget } from "./limits.ts";

/** A macro defined by the template (callable only by the evaluator). */
export class MacroValue {
  constructor(
    readonly name: string,
    readonly invoke: (args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>, line: number) => string,
  ) {}
}

/** `namespace(...)`: the one object a template may assign attributes on (`{% set ns.x = 1 %}`). */
export class NamespaceValue {
  readonly attrs = new Map<string, unknown>();
}

/** The `loop` variable inside a `{% for %}`. */
export class LoopValue {
  index0 = 0;
  constructor(
    readonly length: number,
    readonly itemAt: (i: number) => unknown,
  ) {}
  /** The attributes a template may read. */
  attr(name: string): unknown {
    const i = this.index0;
    switch (name) {
      case "index":
        return i + 1;
      case "index0":
        return i;
      case "revindex":
        return this.length - i;
      case "revindex0":
        return this.length - i - 1;
      case "first":
        return i === 0;
      case "last":
        return i === this.length - 1;
      case "length":
        return this.length;
      case "previtem":
        return i > 0 ? this.itemAt(i - 1) : undefined;
      case "nextitem":
        return i < this.length - 1 ? this.itemAt(i + 1) : undefined;
      default:
        return undefined;
    }
  }
}

export type Kind = "undefined" | "none" | "bool" | "number" | "bigint" | "string" | "list" | "dict" | "date" | "macro" | "loop" | "namespace";

/** The kind of an admitted value (anything else was refused on the way in). */
export function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case "undefined":
      return "undefined";
    case "boolean":
      return "bool";
    case "number":
      return "number";
    case "bigint":
      return "bigint";
    case "string":
      return "string";
  }
  if (v === null) return "none";
  if (Array.isArray(v)) return "list";
  if (v instanceof MacroValue) return "macro";
  if (v instanceof LoopValue) return "loop";
  if (v instanceof NamespaceValue) return "namespace";
  if (v instanceof Date) return "date";
  return "dict";
}

const KIND_NAMES: Readonly<Record<Kind, string>> = {
  undefined: "undefined",
  none: "none",
  bool: "a boolean",
  number: "a number",
  bigint: "an integer",
  string: "a string",
  list: "a list",
  dict: "a mapping",
  date: "a date",
  macro: "a macro",
  loop: "the loop variable",
  namespace: "a namespace",
};

export function describeKind(v: unknown): string {
  return KIND_NAMES[kindOf(v)];
}

/**
 * Let a value from the caller's data into the evaluator, or refuse it naming `where`. Shallow:
 * members are admitted when read.
 */
export function admit(v: unknown, where: string): unknown {
  switch (typeof v) {
    case "undefined":
    case "boolean":
    case "number":
    case "bigint":
    case "string":
      return v;
    case "function":
      throw new TemplateFailure(`'${where}' is a function: templates read data only and never call JS functions`);
    case "symbol":
      throw new TemplateFailure(`'${where}' is a symbol: templates read strings, numbers, booleans, null, dates, arrays and plain objects`);
  }
  if (v === null) return v;
  if (types.isProxy(v)) throw new TemplateFailure(`'${where}' is a Proxy: templates read plain data only`);
  if (Array.isArray(v)) return v;
  const proto: unknown = Object.getPrototypeOf(v);
  if (proto === null || proto === Object.prototype) return v;
  if (proto === Date.prototype) return v;
  if (v instanceof MacroValue || v instanceof LoopValue || v instanceof NamespaceValue) return v;
  throw new TemplateFailure(`'${where}' is an object that is not plain data (a class instance, Map, Set or similar): pass plain objects, arrays and primitives`);
}

/** An own data property of `obj`, admitted; `undefined` when there is none. Never runs a getter. */
export function ownData(obj: object, key: string, where: string): unknown {
  const d = Object.getOwnPropertyDescriptor(obj, key);
  if (d === undefined) return undefined;
  if (!("value" in d)) throw new TemplateFailure(`'${where}' is an accessor (getter/setter) property: templates read only plain data properties`);
  return admit(d.value, where);
}

/** `obj.name` / `obj[key]`: own data of plain objects, list and string indices, loop / namespace attributes. */
export function member(obj: unknown, key: unknown, where: string): unknown {
  switch (kindOf(obj)) {
    case "dict":
      if (typeof key === "string") return ownData(obj as object, key, where);
      if (typeof key === "number" && Number.isInteger(key)) return ownData(obj as object, String(key), where);
      return undefined;
    case "list": {
      if (typeof key !== "number" || !Number.isInteger(key)) return undefined;
      const list = obj as readonly unknown[];
      const i = key < 0 ? list.length + key : key;
      return i >= 0 && i < list.length ? ownData(list, String(i), where) : undefined;
    }
    case "string": {
      if (typeof key !== "number" || !Number.isInteger(key)) return undefined;
      const s = obj as string;
      const i = key < 0 ? s.length + key : key;
      return i >= 0 && i < s.length ? s[i] : undefined;
    }
    case "loop":
      return typeof key === "string" ? (obj as LoopValue).attr(key) : undefined;
    case "namespace":
      return typeof key === "string" ? (obj as NamespaceValue).attrs.get(key) : undefined;
    default:
      return undefined;
  }
}

/** The `i`th item of an admitted list. */
export function listItem(list: readonly unknown[], i: number, where: string): unknown {
  return ownData(list, String(i), `${where}[${i}]`);
}

/** A list's items, admitted (charges one step per item). */
export function listItems(list: readonly unknown[], budget: RenderBudget, where: string): unknown[] {
  budget.step(list.length);
  const out = new Array<unknown>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = listItem(list, i, where);
  return out;
}

/** A plain object's own enumerable string keys with their values, admitted. */
export function dictEntries(obj: object, budget: RenderBudget, where: string): Array<[string, unknown]> {
  const keys = Object.keys(obj);
  budget.step(keys.length);
  return keys.map((k) => [k, ownData(obj, k, `${where}.${k}`)]);
}

/** A new mapping (null prototype, so a `__proto__` key is just a key). */
export function newDict(entries: Iterable<readonly [string, unknown]>): Record<string, unknown> {
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

/** Python truthiness: empty strings, lists and mappings, zero, none and undefined are false. */
export function truthy(v: unknown): boolean {
  switch (kindOf(v)) {
    case "undefined":
    case "none":
      return false;
    case "bool":
      return v as boolean;
    case "number":
      return v !== 0 && !Number.isNaN(v);
    case "bigint":
      return v !== 0n;
    case "string":
      return (v as string).length > 0;
    case "list":
      return (v as unknown[]).length > 0;
    case "dict":
      return Object.keys(v as object).length > 0;
    default:
      return true;
  }
}

export function formatNumber(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (n === Infinity) return "inf";
  if (n === -Infinity) return "-inf";
  return String(n);
}

/** Python `repr` of a string: single quotes unless it holds a single quote and no double quote. */
export function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (ch < " " || ch === "\x7f") out += "\\x" + ch.charCodeAt(0).toString(16).padStart(2, "0");
    else out += ch;
  }
  return out + quote;
}

/**
 * The text of a value, as Jinja2 prints it: `True` / `False`, lists and mappings in Python's
 * notation (`['a', 1]`, `{'k': None}`), dates in ISO 8601. `undefined` and `null` are the caller's
 * business (strict mode refuses to print them); inside a container they print as `None`.
 */
export function toText(v: unknown, budget: RenderBudget, where: string, depth = 0): string {
  switch (kindOf(v)) {
    case "undefined":
    case "none":
      return depth === 0 ? "" : "None";
    case "bool":
      return v ? "True" : "False";
    case "number":
      return formatNumber(v as number);
    case "bigint":
      return String(v);
    case "string":
      return depth === 0 ? (v as string) : reprString(v as string);
    case "date":
      return dateText(v as Date);
    case "list":
    case "dict":
      return reprContainer(v, budget, where, depth);
    case "macro":
      throw new TemplateFailure(`'${where}' is a macro: call it, as in ${where}(...)`);
    case "loop":
      throw new TemplateFailure(`'${where}' is the loop variable: print one of its attributes (loop.index, loop.first, ...)`);
    case "namespace":
      throw new TemplateFailure(`'${where}' is a namespace: print one of its attributes`);
  }
}

function dateText(d: Date): string {
  const t = Date.prototype.getTime.call(d);
  return Number.isNaN(t) ? "Invalid Date" : Date.prototype.toISOString.call(d);
}

function reprContainer(v: unknown, budget: RenderBudget, where: string, depth: number): string {
  if (depth >= budget.limits.maxDepth) throw new TemplateFailure(`'${where}' is nested deeper than maxDepth (${budget.limits.maxDepth}) (or contains itself)`, [], { limit: "maxDepth" });
  const parts: string[] = [];
  let length = 2;
  const add = (s: string): void => {
    length += s.length + 2;
    budget.checkString(length);
    parts.push(s);
  };
  if (Array.isArray(v)) {
    for (const item of listItems(v, budget, where)) add(toText(item, budget, where, depth + 1));
    return `[${parts.join(", ")}]`;
  }
  for (const [k, item] of dictEntries(v as object, budget, where)) add(`${reprString(k)}: ${toText(item, budget, where, depth + 1)}`);
  return `{${parts.join(", ")}}`;
}

/** Python-style equality: deep for lists and mappings, by value for dates. */
export function equal(a: unknown, b: unknown, budget: RenderBudget, depth = 0): boolean {
  if (a === b) return true;
  const ka = kindOf(a);
  const kb = kindOf(b);
  if ((ka === "number" || ka === "bool") && (kb === "number" || kb === "bool")) return Number(a) === Number(b);
  if (ka !== kb) return false;
  if (depth >= budget.limits.maxDepth) throw new TemplateFailure(`a compared value is nested deeper than maxDepth (${budget.limits.maxDepth}) (or contains itself)`, [], { limit: "maxDepth" });
  budget.step();
  switch (ka) {
    case "list": {
      const x = a as unknown[];
      const y = b as unknown[];
      if (x.length !== y.length) return false;
      for (let i = 0; i < x.length; i++) if (!equal(listItem(x, i, "value"), listItem(y, i, "value"), budget, depth + 1)) return false;
      return true;
    }
    case "dict": {
      const x = dictEntries(a as object, budget, "value");
      const y = b as object;
      if (x.length !== Object.keys(y).length) return false;
      for (const [k, v] of x) {
        if (!Object.prototype.hasOwnProperty.call(y, k) || !equal(v, ownData(y, k, k), budget, depth + 1)) return false;
      }
      return true;
    }
    case "date":
      return Date.prototype.getTime.call(a) === Date.prototype.getTime.call(b);
    default:
      return false;
  }
}

/** Ordering for `<`, `sort`, `min`, `max`: numbers with numbers, strings with strings, lists item by item. */
export function compare(a: unknown, b: unknown, budget: RenderBudget, depth = 0): number {
  const ka = kindOf(a);
  const kb = kindOf(b);
  if ((ka === "number" || ka === "bool") && (kb === "number" || kb === "bool")) return Number(a) - Number(b);
  if (ka === "bigint" && kb === "bigint") return a! < b! ? -1 : a! > b! ? 1 : 0;
  if (ka === "string" && kb === "string") {
    budget.step(1 + (Math.min((a as string).length, (b as string).length) >> 6));
    return a! < b! ? -1 : a! > b! ? 1 : 0;
  }
  if (ka === "date" && kb === "date") return Date.prototype.getTime.call(a) - Date.prototype.getTime.call(b);
  if (ka === "list" && kb === "list") {
    if (depth >= budget.limits.maxDepth) throw new TemplateFailure(`a compared value is nested deeper than maxDepth (${budget.limits.maxDepth})`, [], { limit: "maxDepth" });
    const x = a as unknown[];
    const y = b as unknown[];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      budget.step();
      const c = compare(listItem(x, i, "value"), listItem(y, i, "value"), budget, depth + 1);
      if (c !== 0) return c;
    }
    return x.length - y.length;
  }
  throw new TemplateFailure(`cannot order ${describeKind(a)} and ${describeKind(b)}`);
}

/** JSON text (sorted keys, `", "` / `": "` separators as Python's `json.dumps`; `indent` as there). */
export function toJson(v: unknown, budget: RenderBudget, where: string, indent: number | string | null, sortKeys: boolean, depth = 0): string {
  if (typeof indent === "string" && indent.length > 64) throw new TemplateFailure("tojson: an indent string is at most 64 characters");
  const pad = indent === null ? null : typeof indent === "number" ? " ".repeat(Math.max(0, Math.min(indent, 64))) : indent;
  switch (kindOf(v)) {
    case "undefined":
    case "none":
      return "null";
    case "bool":
      return v ? "true" : "false";
    case "number":
      return Number.isFinite(v) ? String(v) : Number.isNaN(v) ? "NaN" : (v as number) > 0 ? "Infinity" : "-Infinity";
    case "bigint":
      return String(v);
    case "string":
      budget.checkString((v as string).length);
      return JSON.stringify(v);
    case "date":
      return JSON.stringify(dateText(v as Date));
    case "list":
    case "dict": {
      if (depth >= budget.limits.maxDepth) throw new TemplateFailure(`'${where}' is nested deeper than maxDepth (${budget.limits.maxDepth}) (or contains itself)`, [], { limit: "maxDepth" });
      const isList = Array.isArray(v);
      let entries: Array<[string | null, unknown]> = isList ? listItems(v as unknown[], budget, where).map((x) => [null, x]) : dictEntries(v as object, budget, where);
      if (sortKeys && !isList) entries = entries.sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
      let length = 2;
      const parts = entries.map(([k, x]) => {
        const text = (k === null ? "" : `${JSON.stringify(k)}: `) + toJson(x, budget, where, indent, sortKeys, depth + 1);
        length += text.length + 2;
        budget.checkString(length);
        return text;
      });
      const [open, close] = isList ? ["[", "]"] : ["{", "}"];
      if (parts.length === 0) return open + close;
      if (pad === null) return open + parts.join(", ") + close;
      const inner = "\n" + pad.repeat(depth + 1);
      const text = open + inner + parts.join("," + inner) + "\n" + pad.repeat(depth) + close;
      budget.checkString(text.length);
      return text;
    }
    default:
      throw new TemplateFailure(`'${where}' is ${describeKind(v)} and has no JSON form`);
  }
}
