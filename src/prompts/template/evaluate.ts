/**
 * The evaluator: walks the syntax tree with the caller's variables and writes the output. It never
 * compiles or evaluates JS: every operation is a `switch` over node types, and the only functions it
 * calls are its own (filters, tests, whitelisted methods, `range` / `dict` / `namespace`, macros the
 * template defines). Values from the variables come in through `values.ts`'s admission checks.
 * Every node evaluated and every loop iteration spends a step of the {@link RenderBudget}; output
 * and every string built are checked against the output limit; macro calls are bounded by `maxDepth`.
 */
import type { Expr, FilterCall, Stmt } from "./ast.ts";
import { TemplateFailure } from "./failure.ts";
import { applyFilter, applyTest, contains, iterableItems, type CallContext } from "./filters.ts";
import { callGlobal, callMethod, GLOBAL_NAMES } from "./methods.ts";
import type { RenderBudget } from "./limits.ts";
import {
  compare,
  describeKind,
  equal,
  kindOf,
  listItem,
  LoopValue,
  MacroValue,
  member,
  NamespaceValue,
  newDict,
  ownData,
  toText,
  truthy,
} from "./values.ts";

/** A lexical scope: template-bound names over the caller's variables. */
class Scope {
  readonly vars = new Map<string, unknown>();
  constructor(
    readonly parent: Scope | null,
    private readonly root: Readonly<Record<string, unknown>> | null,
  ) {}
  lookup(name: string): { found: boolean; value: unknown } {
    for (let s: Scope | null = this; s !== null; s = s.parent) {
      if (s.vars.has(name)) return { found: true, value: s.vars.get(name) };
      if (s.root !== null && Object.prototype.hasOwnProperty.call(s.root, name)) return { found: true, value: ownData(s.root, name, name) };
    }
    return { found: false, value: undefined };
  }
}

/** Collects output. The top-level writer spends the render's output allowance; a nested one (macro, block set) is bounded on its own. */
class Writer {
  readonly parts: string[] = [];
  length = 0;
  constructor(
    private readonly budget: RenderBudget,
    private readonly top: boolean,
  ) {}
  write(s: string): void {
    if (s === "") return;
    this.budget.step(1 + (s.length >> 6));
    this.length += s.length;
    if (this.top) this.budget.output(s.length);
    else this.budget.checkString(this.length);
    this.parts.push(s);
  }
  text(): string {
    return this.parts.join("");
  }
}

const descriptions = new WeakMap<Expr, string>();

/** The source-like text of an expression, for messages (`user.name`, `items[0]`); memoized per node. */
export function describe(e: Expr): string {
  let d = descriptions.get(e);
  if (d === undefined) {
    d = describeNode(e);
    descriptions.set(e, d);
  }
  return d;
}

function describeNode(e: Expr): string {
  switch (e.type) {
    case "name":
      return e.name;
    case "literal":
      return typeof e.value === "string" ? `'${e.value.length > 20 ? e.value.slice(0, 20) + "..." : e.value}'` : String(e.value);
    case "getattr":
      return `${describe(e.object)}.${e.name}`;
    case "getitem":
      return `${describe(e.object)}[${describe(e.key)}]`;
    case "slice":
      return `${describe(e.object)}[...]`;
    case "call":
      return `${describe(e.callee)}(...)`;
    case "filter":
      return `(${describe(e.input)} | ${e.name})`;
    case "list":
      return "[...]";
    case "dict":
      return "{...}";
    default:
      return "expression";
  }
}

export class Evaluator {
  #macroDepth = 0;

  constructor(
    private readonly budget: RenderBudget,
    private readonly strict: boolean,
  ) {}

  render(body: readonly Stmt[], variables: Readonly<Record<string, unknown>>): string {
    const out = new Writer(this.budget, true);
    this.exec(body, new Scope(null, variables), out);
    return out.text();
  }

  private ctx(where: string): CallContext {
    return { budget: this.budget, strict: this.strict, where };
  }

  private fail(line: number, message: string): never {
    throw new TemplateFailure(`line ${line}: ${message}`);
  }

  // --- statements --------------------------------------------------------------------------------

  private exec(body: readonly Stmt[], scope: Scope, out: Writer): void {
    for (const node of body) {
      this.budget.step();
      switch (node.type) {
        case "text":
          out.write(node.value);
          break;
        case "output":
          out.write(this.print(node.expr, this.eval(node.expr, scope), node.line));
          break;
        case "if": {
          let done = false;
          for (const [test, branch] of node.branches) {
            if (truthy(this.eval(test, scope))) {
              this.exec(branch, scope, out);
              done = true;
              break;
            }
          }
          if (!done && node.otherwise) this.exec(node.otherwise, scope, out);
          break;
        }
        case "for":
          this.execFor(node, scope, out);
          break;
        case "set":
          this.execSet(node.target, this.eval(node.value, scope), scope, node.line);
          break;
        case "setblock": {
          const inner = new Writer(this.budget, false);
          this.exec(node.body, scope, inner);
          scope.vars.set(node.name, this.applyFilters(node.filters, inner.text(), node.name, scope));
          break;
        }
        case "macro":
          scope.vars.set(node.name, this.defineMacro(node, scope));
          break;
        case "with": {
          const inner = new Scope(scope, null);
          for (const [name, expr] of node.assignments) inner.vars.set(name, this.eval(expr, scope));
          this.exec(node.body, inner, out);
          break;
        }
        case "filterblock": {
          const inner = new Writer(this.budget, false);
          this.exec(node.body, scope, inner);
          const v = this.applyFilters(node.filters, inner.text(), "filter block", scope);
          out.write(this.print(null, v, node.line));
          break;
        }
      }
    }
  }

  private applyFilters(filters: readonly FilterCall[], value: unknown, where: string, scope: Scope): unknown {
    let v = value;
    for (const f of filters) {
      const { args, kwargs } = this.evalArgs(f.args, f.kwargs, scope);
      v = this.filter(f.line, f.name, v, args, kwargs, where);
    }
    return v;
  }

  private execFor(node: Extract<Stmt, { type: "for" }>, scope: Scope, out: Writer): void {
    const where = describe(node.iter);
    let items: unknown[];
    try {
      items = iterableItems(this.ctx(where), this.eval(node.iter, scope));
    } catch (e) {
      throw this.located(e, node.line);
    }
    if (node.filter) {
      const test = node.filter;
      items = items.filter((item) => {
        this.budget.step();
        const inner = new Scope(scope, null);
        this.bindTargets(inner, node.targets, item, node.line);
        return truthy(this.eval(test, inner));
      });
    }
    if (items.length === 0) {
      if (node.otherwise) this.exec(node.otherwise, scope, out);
      return;
    }
    const loop = new LoopValue(items.length, (i) => items[i]);
    for (let i = 0; i < items.length; i++) {
      this.budget.step();
      loop.index0 = i;
      const inner = new Scope(scope, null);
      inner.vars.set("loop", loop);
      this.bindTargets(inner, node.targets, items[i], node.line);
      this.exec(node.body, inner, out);
    }
  }

  private bindTargets(scope: Scope, targets: readonly string[], value: unknown, line: number): void {
    if (targets.length === 1) {
      scope.vars.set(targets[0]!, value);
      return;
    }
    if (!Array.isArray(value) || value.length !== targets.length) {
      this.fail(line, `cannot unpack ${describeKind(value)}${Array.isArray(value) ? ` of ${value.length} items` : ""} into ${targets.length} names (${targets.join(", ")})`);
    }
    targets.forEach((t, i) => scope.vars.set(t, listItem(value, i, t)));
  }

  private execSet(target: Extract<Stmt, { type: "set" }>["target"], value: unknown, scope: Scope, line: number): void {
    if (target.kind === "names") {
      this.bindTargets(scope, target.names, value, line);
      return;
    }
    const ns = this.guard(line, () => scope.lookup(target.object)).value;
    if (!(ns instanceof NamespaceValue)) this.fail(line, `cannot set '${target.object}.${target.attr}': '${target.object}' is not a namespace (create it with namespace())`);
    ns.attrs.set(target.attr, value);
  }

  private defineMacro(node: Extract<Stmt, { type: "macro" }>, closure: Scope): MacroValue {
    return new MacroValue(node.name, (args, kwargs, line) => {
      if (args.length > node.params.length) this.fail(line, `macro '${node.name}' takes ${node.params.length} argument${node.params.length === 1 ? "" : "s"}, got ${args.length}`);
      if (this.#macroDepth >= this.budget.limits.maxDepth) {
        throw new TemplateFailure(`line ${line}: macro calls nested deeper than maxDepth (${this.budget.limits.maxDepth})`, [], { limit: "maxDepth" });
      }
      const scope = new Scope(closure, null);
      const names = node.params.map(([n]) => n);
      for (const k of kwargs.keys()) {
        if (!names.includes(k)) this.fail(line, `macro '${node.name}' has no parameter '${k}'`);
        if (names.indexOf(k) < args.length) this.fail(line, `macro '${node.name}' got parameter '${k}' twice`);
      }
      this.#macroDepth++;
      try {
        node.params.forEach(([name, dflt], i) => {
          if (i < args.length) scope.vars.set(name, args[i]);
          else if (kwargs.has(name)) scope.vars.set(name, kwargs.get(name));
          else scope.vars.set(name, dflt ? this.eval(dflt, scope) : undefined);
        });
        const out = new Writer(this.budget, false);
        this.exec(node.body, scope, out);
        return out.text();
      } finally {
        this.#macroDepth--;
      }
    });
  }

  /** The text of an output value; in strict mode undefined and null are refused, naming the expression. */
  private print(expr: Expr | null, v: unknown, line: number): string {
    if (v === undefined || v === null) {
      if (this.strict) {
        const what = expr ? `'${describe(expr)}'` : "the value";
        const hint = expr?.type === "getattr" && expr.name === "length" ? "; a length is read with the filter: | length" : "";
        this.fail(line, `${what} is ${v === null ? "null" : "undefined"} (an attribute or value is undefined or null${hint})`);
      }
      return "";
    }
    try {
      return toText(v, this.budget, expr ? describe(expr) : "value");
    } catch (e) {
      throw this.located(e, line);
    }
  }

  /** Prefix a failure from a helper with the line it happened on. */
  private located(e: unknown, line: number): unknown {
    if (e instanceof TemplateFailure && !/^line \d+:/.test(e.message) && e.limit === undefined) {
      return new TemplateFailure(`line ${line}: ${e.message}`, e.missing, { cause: e.cause });
    }
    return e;
  }

  // --- expressions -------------------------------------------------------------------------------

  eval(e: Expr, scope: Scope): unknown {
    this.budget.step();
    switch (e.type) {
      case "literal":
        return e.value;
      case "name": {
        const { found, value } = this.guard(e.line, () => scope.lookup(e.name));
        return found ? value : undefined;
      }
      case "list":
        return e.items.map((x) => this.eval(x, scope));
      case "dict": {
        const entries: Array<[string, unknown]> = [];
        for (const [k, v] of e.pairs) {
          const key = this.eval(k, scope);
          if (typeof key !== "string" && typeof key !== "number") this.fail(e.line, `a mapping key must be a string or number, got ${describeKind(key)}`);
          entries.push([String(key), this.eval(v, scope)]);
        }
        return newDict(entries);
      }
      case "getattr":
        return this.guard(e.line, () => member(this.eval(e.object, scope), e.name, describe(e)));
      case "getitem": {
        const obj = this.eval(e.object, scope);
        const key = this.eval(e.key, scope);
        return this.guard(e.line, () => member(obj, key, describe(e)));
      }
      case "slice":
        return this.slice(e, scope);
      case "call":
        return this.call(e, scope);
      case "filter": {
        const input = this.eval(e.input, scope);
        const { args, kwargs } = this.evalArgs(e.args, e.kwargs, scope);
        return this.filter(e.line, e.name, input, args, kwargs, describe(e.input));
      }
      case "test": {
        const input = this.eval(e.input, scope);
        const args = e.args.map((a) => this.eval(a, scope));
        const r = this.guard(e.line, () => applyTest(this.ctx(describe(e.input)), e.name, input, args));
        return e.negated ? !r : r;
      }
      case "unary": {
        const v = this.eval(e.operand, scope);
        if (e.op === "not") return !truthy(v);
        const n = this.number(v, e.op, e.line, e.operand);
        return e.op === "-" ? -n : n;
      }
      case "binary":
        return this.binary(e, scope);
      case "compare": {
        let left = this.eval(e.first, scope);
        for (const [op, rightExpr] of e.rest) {
          const right = this.eval(rightExpr, scope);
          if (!this.guard(e.line, () => this.compareOp(op, left, right, rightExpr))) return false;
          left = right;
        }
        return true;
      }
      case "cond":
        return truthy(this.eval(e.test, scope)) ? this.eval(e.then, scope) : e.otherwise ? this.eval(e.otherwise, scope) : undefined;
    }
  }

  private guard<T>(line: number, fn: () => T): T {
    try {
      return fn();
    } catch (err) {
      throw this.located(err, line);
    }
  }

  private filter(line: number, name: string, input: unknown, args: readonly unknown[], kwargs: ReadonlyMap<string, unknown>, where: string): unknown {
    return this.guard(line, () => applyFilter(this.ctx(where), name, input, args, kwargs));
  }

  private evalArgs(args: readonly Expr[], kwargs: ReadonlyArray<readonly [string, Expr]>, scope: Scope): { args: unknown[]; kwargs: Map<string, unknown> } {
    return { args: args.map((a) => this.eval(a, scope)), kwargs: new Map(kwargs.map(([k, v]) => [k, this.eval(v, scope)])) };
  }

  private call(e: Extract<Expr, { type: "call" }>, scope: Scope): unknown {
    const callee = e.callee;
    if (callee.type === "name") {
      const { found, value } = this.guard(e.line, () => scope.lookup(callee.name));
      const { args, kwargs } = this.evalArgs(e.args, e.kwargs, scope);
      if (found) {
        if (value instanceof MacroValue) return value.invoke(args, kwargs, e.line);
        this.fail(e.line, `'${callee.name}' is ${describeKind(value)}, not a macro: it cannot be called`);
      }
      if (GLOBAL_NAMES.has(callee.name)) return this.guard(e.line, () => callGlobal(this.ctx(callee.name), callee.name, args, kwargs));
      if (this.strict) this.fail(e.line, `'${callee.name}' is not defined: the functions a template can call are its macros, ${[...GLOBAL_NAMES].join("(), ")}() and the methods of strings, lists and mappings`);
      return undefined;
    }
    if (callee.type === "getattr") {
      const obj = this.eval(callee.object, scope);
      const { args, kwargs } = this.evalArgs(e.args, e.kwargs, scope);
      if (obj instanceof LoopValue && callee.name === "cycle") {
        if (args.length === 0) this.fail(e.line, "loop.cycle() needs at least one value");
        return args[obj.index0 % args.length];
      }
      const member_ = kindOf(obj) === "namespace" ? (obj as NamespaceValue).attrs.get(callee.name) : undefined;
      if (member_ instanceof MacroValue) return member_.invoke(args, kwargs, e.line);
      return this.guard(e.line, () => callMethod(this.ctx(describe(callee.object)), obj, callee.name, args, kwargs));
    }
    return this.fail(e.line, `${describe(callee)} cannot be called: a template calls only its macros, ${[...GLOBAL_NAMES].join("(), ")}() and the methods of strings, lists and mappings`);
  }

  private slice(e: Extract<Expr, { type: "slice" }>, scope: Scope): unknown {
    const obj = this.eval(e.object, scope);
    const bound = (x: Expr | null): number | null => {
      if (x === null) return null;
      const v = this.eval(x, scope);
      if (v === null || v === undefined) return null;
      if (typeof v !== "number" || !Number.isInteger(v)) this.fail(e.line, `slice indices must be integers, got ${describeKind(v)}`);
      return v;
    };
    const start = bound(e.start);
    const stop = bound(e.stop);
    const step = bound(e.step) ?? 1;
    if (step === 0) this.fail(e.line, "slice step cannot be zero");
    const k = kindOf(obj);
    if (k === "undefined" || k === "none") {
      if (this.strict) this.fail(e.line, `'${describe(e.object)}' is undefined or null and cannot be sliced`);
      return undefined;
    }
    if (k !== "list" && k !== "string") this.fail(e.line, `'${describe(e.object)}' is ${describeKind(obj)} and cannot be sliced`);
    const len = (obj as string | unknown[]).length;
    const norm = (i: number | null, dflt: number): number => {
      if (i === null) return dflt;
      if (i < 0) i += len;
      return step > 0 ? Math.min(Math.max(i, 0), len) : Math.min(Math.max(i, -1), len - 1);
    };
    const from = norm(start, step > 0 ? 0 : len - 1);
    const to = norm(stop, step > 0 ? len : -1);
    this.budget.step(Math.max(0, Math.ceil((to - from) / step)));
    const indices: number[] = [];
    for (let i = from; step > 0 ? i < to : i > to; i += step) indices.push(i);
    if (k === "string") return indices.map((i) => (obj as string)[i]).join("");
    return indices.map((i) => listItem(obj as unknown[], i, describe(e.object)));
  }

  private number(v: unknown, op: string, line: number, expr: Expr): number {
    if (typeof v === "number") return v;
    if (typeof v === "boolean") return v ? 1 : 0;
    return this.fail(line, `'${op}' needs numbers: '${describe(expr)}' is ${describeKind(v)}`);
  }

  private binary(e: Extract<Expr, { type: "binary" }>, scope: Scope): unknown {
    if (e.op === "and") {
      const l = this.eval(e.left, scope);
      return truthy(l) ? this.eval(e.right, scope) : l;
    }
    if (e.op === "or") {
      const l = this.eval(e.left, scope);
      return truthy(l) ? l : this.eval(e.right, scope);
    }
    const l = this.eval(e.left, scope);
    const r = this.eval(e.right, scope);
    const kl = kindOf(l);
    const kr = kindOf(r);
    switch (e.op) {
      case "~": {
        const a = this.print(e.left, l, e.line);
        const b = this.print(e.right, r, e.line);
        this.budget.checkString(a.length + b.length);
        return a + b;
      }
      case "+":
        if (kl === "string" && kr === "string") {
          this.budget.checkString((l as string).length + (r as string).length);
          return (l as string) + (r as string);
        }
        if (kl === "list" && kr === "list") {
          this.budget.checkString((l as unknown[]).length + (r as unknown[]).length);
          return [...iterableItems(this.ctx(describe(e.left)), l), ...iterableItems(this.ctx(describe(e.right)), r)];
        }
        break;
      case "*":
        if ((kl === "string" || kl === "list") && (kr === "number" || kr === "bool")) return this.repeat(l as string | unknown[], r, e);
        if ((kr === "string" || kr === "list") && (kl === "number" || kl === "bool")) return this.repeat(r as string | unknown[], l, e);
        break;
    }
    const a = this.number(l, e.op, e.line, e.left);
    const b = this.number(r, e.op, e.line, e.right);
    switch (e.op) {
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      case "/":
        if (b === 0) this.fail(e.line, "division by zero");
        return a / b;
      case "//":
        if (b === 0) this.fail(e.line, "division by zero");
        return Math.floor(a / b);
      case "%":
        if (b === 0) this.fail(e.line, "modulo by zero");
        return ((a % b) + b) % b;
      case "**":
        return a ** b;
    }
  }

  private repeat(v: string | unknown[], times: unknown, e: Extract<Expr, { type: "binary" }>): unknown {
    const n = Math.max(0, Number(times));
    if (!Number.isInteger(n)) this.fail(e.line, `can only repeat a ${typeof v === "string" ? "string" : "list"} an integer number of times`);
    this.budget.checkString(v.length * n);
    if (typeof v === "string") return v.repeat(n);
    const items = iterableItems(this.ctx(describe(e.left)), v);
    const out: unknown[] = [];
    for (let i = 0; i < n; i++) out.push(...items);
    return out;
  }

  private compareOp(op: string, l: unknown, r: unknown, rightExpr: Expr): boolean {
    switch (op) {
      case "==":
        return equal(l, r, this.budget);
      case "!=":
        return !equal(l, r, this.budget);
      case "in":
        return contains(this.ctx(describe(rightExpr)), r, l);
      case "not in":
        return !contains(this.ctx(describe(rightExpr)), r, l);
      case "<":
        return compare(l, r, this.budget) < 0;
      case ">":
        return compare(l, r, this.budget) > 0;
      case "<=":
        return compare(l, r, this.budget) <= 0;
      default:
        return compare(l, r, this.budget) >= 0;
    }
  }
}

