/** The template syntax tree: what the parser builds and the evaluator walks. Plain data, no code. */

export type Expr =
  | { readonly type: "literal"; readonly line: number; readonly value: string | number | boolean | null }
  | { readonly type: "name"; readonly line: number; readonly name: string }
  | { readonly type: "list"; readonly line: number; readonly items: readonly Expr[] }
  | { readonly type: "dict"; readonly line: number; readonly pairs: ReadonlyArray<readonly [Expr, Expr]> }
  | { readonly type: "getattr"; readonly line: number; readonly object: Expr; readonly name: string }
  | { readonly type: "getitem"; readonly line: number; readonly object: Expr; readonly key: Expr }
  | { readonly type: "slice"; readonly line: number; readonly object: Expr; readonly start: Expr | null; readonly stop: Expr | null; readonly step: Expr | null }
  | { readonly type: "call"; readonly line: number; readonly callee: Expr; readonly args: readonly Expr[]; readonly kwargs: ReadonlyArray<readonly [string, Expr]> }
  | { readonly type: "filter"; readonly line: number; readonly input: Expr; readonly name: string; readonly args: readonly Expr[]; readonly kwargs: ReadonlyArray<readonly [string, Expr]> }
  | { readonly type: "test"; readonly line: number; readonly input: Expr; readonly name: string; readonly args: readonly Expr[]; readonly negated: boolean }
  | { readonly type: "unary"; readonly line: number; readonly op: "not" | "-" | "+"; readonly operand: Expr }
  | { readonly type: "binary"; readonly line: number; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly type: "compare"; readonly line: number; readonly first: Expr; readonly rest: ReadonlyArray<readonly [CompareOp, Expr]> }
  | { readonly type: "cond"; readonly line: number; readonly test: Expr; readonly then: Expr; readonly otherwise: Expr | null };

export type BinaryOp = "and" | "or" | "+" | "-" | "*" | "/" | "//" | "%" | "**" | "~";
export type CompareOp = "==" | "!=" | "<" | ">" | "<=" | ">=" | "in" | "not in";

/** A `{% set %}` target: names (several unpack a sequence), or a namespace attribute. */
export type SetTarget = { readonly kind: "names"; readonly names: readonly string[] } | { readonly kind: "attr"; readonly object: string; readonly attr: string };

export interface FilterCall {
  readonly name: string;
  readonly args: readonly Expr[];
  readonly kwargs: ReadonlyArray<readonly [string, Expr]>;
  readonly line: number;
}

export type Stmt =
  | { readonly type: "text"; readonly line: number; readonly value: string }
  | { readonly type: "output"; readonly line: number; readonly expr: Expr }
  | { readonly type: "if"; readonly line: number; readonly branches: ReadonlyArray<readonly [Expr, readonly Stmt[]]>; readonly otherwise: readonly Stmt[] | null }
  | { readonly type: "for"; readonly line: number; readonly targets: readonly string[]; readonly iter: Expr; readonly filter: Expr | null; readonly body: readonly Stmt[]; readonly otherwise: readonly Stmt[] | null }
  | { readonly type: "set"; readonly line: number; readonly target: SetTarget; readonly value: Expr }
  | { readonly type: "setblock"; readonly line: number; readonly name: string; readonly filters: readonly FilterCall[]; readonly body: readonly Stmt[] }
  | { readonly type: "macro"; readonly line: number; readonly name: string; readonly params: ReadonlyArray<readonly [string, Expr | null]>; readonly body: readonly Stmt[] }
  | { readonly type: "with"; readonly line: number; readonly assignments: ReadonlyArray<readonly [string, Expr]>; readonly body: readonly Stmt[] }
  | { readonly type: "filterblock"; readonly line: number; readonly filters: readonly FilterCall[]; readonly body: readonly Stmt[] };

export type Node = Expr | Stmt;

/** The direct children of a node, in source order (for the depth check and the free-variable analysis). */
export function childrenOf(n: Node): Node[] {
  switch (n.type) {
    case "literal":
    case "name":
    case "text":
      return [];
    case "list":
      return [...n.items];
    case "dict":
      return n.pairs.flatMap(([k, v]) => [k, v]);
    case "getattr":
      return [n.object];
    case "getitem":
      return [n.object, n.key];
    case "slice":
      return [n.object, ...[n.start, n.stop, n.step].filter((x): x is Expr => x !== null)];
    case "call":
      return [n.callee, ...n.args, ...n.kwargs.map(([, v]) => v)];
    case "filter":
      return [n.input, ...n.args, ...n.kwargs.map(([, v]) => v)];
    case "test":
      return [n.input, ...n.args];
    case "unary":
      return [n.operand];
    case "binary":
      return [n.left, n.right];
    case "compare":
      return [n.first, ...n.rest.map(([, e]) => e)];
    case "cond":
      return n.otherwise === null ? [n.test, n.then] : [n.test, n.then, n.otherwise];
    case "output":
      return [n.expr];
    case "if":
      return [...n.branches.flatMap(([t, body]) => [t, ...body]), ...(n.otherwise ?? [])];
    case "for":
      return [n.iter, ...(n.filter ? [n.filter] : []), ...n.body, ...(n.otherwise ?? [])];
    case "set":
      return [n.value];
    case "setblock":
      return [...n.filters.flatMap(filterArgs), ...n.body];
    case "macro":
      return [...n.params.flatMap(([, d]) => (d ? [d] : [])), ...n.body];
    case "with":
      return [...n.assignments.map(([, e]) => e), ...n.body];
    case "filterblock":
      return [...n.filters.flatMap(filterArgs), ...n.body];
  }
}

function filterArgs(f: FilterCall): Expr[] {
  return [...f.args, ...f.kwargs.map(([, v]) => v)];
}
