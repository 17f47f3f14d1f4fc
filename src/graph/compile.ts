/**
 * Compilation (graph-engine §2 *Compiled graph*): checks every compile-error category before
 * anything runs — `no_declared_entry`, `conflicting_reducers`, `dangling_edge`,
 * `multiple_outgoing_edges`, the projection categories (`conflicting_projection_forms`,
 * `mapping_references_undeclared_field`), `unreachable_node`; collects compile warnings; and freezes the runtime representation.
 * `reducer_configuration_invalid` and `invalid_state_schema` are raised earlier, when the reducer /
 * schema is declared.
 */
import {
  CompileError,
  type CompileDiagnostic,
  type CompileErrorCategory,
  type CompileWarning,
  type CompileWarningCategory,
} from "./compile-errors.ts";
import type { CompileOptions, GraphDefinition } from "./builder.ts";
import { checkMaxSteps, CompiledGraph } from "./compiled-graph.ts";
import { END, type End } from "./end.ts";
import type { InvocationHooks, NodeBody, NodeCompileContext } from "./extension.ts";
import { INTERNALS, type CompiledEdge, type CompiledNode, type GraphRuntime } from "./internals.ts";
import { lastWriteWins, type Reducer } from "./reducers.ts";
import type { StateRecord } from "./state-types.ts";

function emitDefaultWarning(w: CompileWarning): void {
  process.emitWarning(w.message, { type: "OpenArmatureCompileWarning", code: w.category });
}

/**
 * Nodes with no path to END, in declaration order (every node is reachable here: `unreachable_node`
 * failed the compile otherwise). A node reaches END through a static edge to END, no outgoing edge
 * (terminal), or a conditional edge that may return END — one without declared targets may return
 * anything, and a declared target that is no node ends the run with a `routing_error`.
 */
function nodesThatCannotReachEnd(names: Iterable<string>, outgoing: ReadonlyMap<string, readonly GraphDefinition["edges"][number][]>): string[] {
  const into = new Map<string, string[]>();
  const reaches = new Set<string>();
  const work: string[] = [];
  const exit = (n: string): void => {
    if (!reaches.has(n)) {
      reaches.add(n);
      work.push(n);
    }
  };
  const all = [...names];
  const declared = new Set(all);
  for (const n of all) {
    const e = outgoing.get(n)?.[0];
    const targets: readonly (string | End)[] | undefined = e === undefined ? [END] : e.kind === "static" ? [e.to] : e.targets;
    if (targets === undefined) {
      exit(n);
      continue;
    }
    for (const t of targets) {
      if (t === END || !declared.has(t)) exit(n);
      else {
        const list = into.get(t);
        if (list) list.push(n);
        else into.set(t, [n]);
      }
    }
  }
  while (work.length) for (const p of into.get(work.pop()!) ?? []) exit(p);
  return all.filter((n) => !reaches.has(n));
}

/** @internal */
export function compileGraph(def: GraphDefinition, options: CompileOptions): CompiledGraph<StateRecord, unknown> {
  const name = options.name ?? "graph";
  if (options.maxSteps !== undefined) checkMaxSteps(options.maxSteps, `compile of graph "${name}"`);
  const diags: CompileDiagnostic[] = [];
  const warnings: CompileWarning[] = [];
  const fail = (category: CompileErrorCategory, message: string, extra: { node?: string; field?: string } = {}): void => {
    diags.push({ category, message, ...extra });
  };
  const schema = def.schema;
  schema.checkDefaults();

  // §2: the entry MUST be declared explicitly.
  if (def.entry === undefined) fail("no_declared_entry", `graph "${name}" declares no entry node`);

  // §2: each field has exactly one reducer.
  const reducers = new Map<string, Reducer<unknown, unknown>>();
  for (const f of schema.fields.values()) {
    const decls = [...f.declaredReducers, ...(def.reducerDeclarations.get(f.name) ?? [])];
    if (decls.length > 1) {
      fail(
        "conflicting_reducers",
        `field "${f.name}" has ${decls.length} declared reducers (${decls.map((r) => r.reducerName ?? (r.name || "custom")).join(", ")}); a field has exactly one`,
        { field: f.name },
      );
    }
    reducers.set(f.name, decls[0] ?? (lastWriteWins as Reducer<unknown, unknown>));
  }
  for (const field of def.reducerDeclarations.keys()) {
    if (!schema.has(field)) fail("invalid_state_schema", `a reducer is declared for undeclared field "${field}"`, { field });
  }

  // §2: dangling edges (and a dangling entry).
  const nodes = def.nodes;
  if (def.entry !== undefined && !nodes.has(def.entry)) {
    fail("dangling_edge", `the entry references undeclared node "${def.entry}"`, { node: def.entry });
  }
  const outgoing = new Map<string, GraphDefinition["edges"][number][]>();
  for (const e of def.edges) {
    if (!nodes.has(e.from)) fail("dangling_edge", `an edge starts at undeclared node "${e.from}"`, { node: e.from });
    if (e.kind === "static") {
      if (e.to !== END && !nodes.has(e.to)) {
        fail("dangling_edge", `edge ${e.from} → "${String(e.to)}" references an undeclared node`, { node: e.from });
      }
    }
    // A conditional edge's targets are not compile-time references: a destination that is not a
    // declared node is a run-time routing_error (§4; fixture 008), so declared targets are only
    // used for reachability.
    const list = outgoing.get(e.from);
    if (list) list.push(e);
    else outgoing.set(e.from, [e]);
  }

  // §2: exactly one outgoing edge per node.
  for (const [from, list] of outgoing) {
    if (list.length > 1 && nodes.has(from)) {
      fail("multiple_outgoing_edges", `node "${from}" has ${list.length} outgoing edges; branching is expressed with one conditional edge`, {
        node: from,
      });
    }
  }

  // Node-kind checks (subgraph projections, composite nodes).
  for (const n of nodes.values()) {
    if (!n.kind.validate) continue;
    const ctx: NodeCompileContext = {
      nodeName: n.name,
      graphName: name,
      schema,
      reducerFor: (field) => reducers.get(field) ?? (lastWriteWins as Reducer<unknown, unknown>),
      error: (category, message, extra = {}) => fail(category, message, { node: n.name, ...extra }),
      warn: (category: CompileWarningCategory, message, extra = {}) =>
        warnings.push({ category, message, node: n.name, graph: name, ...extra }),
    };
    n.kind.validate(ctx);
  }

  // §2: unreachable nodes (a conditional edge without declared targets may reach any node).
  if (def.entry !== undefined && nodes.has(def.entry)) {
    const seen = new Set<string>([def.entry]);
    const work = [def.entry];
    let everything = false;
    while (work.length && !everything) {
      const cur = work.pop()!;
      for (const e of outgoing.get(cur) ?? []) {
        const targets: readonly (string | End)[] | undefined = e.kind === "static" ? [e.to] : e.targets;
        if (targets === undefined) {
          everything = true;
          break;
        }
        for (const t of targets) {
          if (t !== END && nodes.has(t) && !seen.has(t)) {
            seen.add(t);
            work.push(t);
          }
        }
      }
    }
    if (!everything) {
      for (const n of nodes.keys()) {
        if (!seen.has(n)) fail("unreachable_node", `node "${n}" has no path from the entry "${def.entry}"`, { node: n });
      }
    }
  }

  if (diags.length) throw new CompileError(diags[0]!, diags.slice(1));

  const trapped = nodesThatCannotReachEnd(nodes.keys(), outgoing);
  if (trapped.length) {
    warnings.push({
      category: "cycle_cannot_reach_end",
      message:
        `graph "${name}": node(s) ${trapped.map((n) => `"${n}"`).join(", ")} have no path to END — a run that enters them ` +
        `loops until a node fails; give the cycle an exit, or bound runs with maxSteps`,
      node: trapped[0]!,
      graph: name,
    });
  }

  const graphMiddleware = def.middleware;
  const compiledNodes = new Map<string, CompiledNode>();
  for (const n of nodes.values()) {
    // A node with no outgoing edge is terminal (the spec corpus compiles such graphs; §2 lists no
    // category for it): reaching it ends the run as if it were routed to END.
    const e = outgoing.get(n.name)?.[0] ?? { kind: "static" as const, from: n.name, to: END };
    const edge: CompiledEdge =
      e.kind === "static"
        ? { kind: "static", to: e.to }
        : { kind: "conditional", fn: e.fn, targets: e.targets ? new Set(e.targets) : null };
    const kind = n.kind;
    const body: NodeBody = n.fn
      ? (n.fn as unknown as NodeBody)
      : (s, ctx) => (kind.run as (s: unknown, c: unknown) => unknown)(s, ctx);
    compiledNodes.set(n.name, {
      name: n.name,
      kind: kind as CompiledNode["kind"],
      body,
      emitsEvents: kind.emitsEvents !== false,
      rootNamespace: Object.freeze([n.name]),
      middleware: Object.freeze([...graphMiddleware, ...n.middleware]) as CompiledNode["middleware"],
      edge,
    });
  }

  const frozenWarnings = Object.freeze(warnings.map((w) => Object.freeze(w)));
  const onWarning = options.onWarning ?? emitDefaultWarning;
  for (const w of frozenWarnings) onWarning(w);

  const rt: GraphRuntime = {
    name,
    schema,
    entry: def.entry!,
    nodes: compiledNodes,
    reducers,
    handle: {},
    allGraphs: [],
    hooks: Object.freeze(([] as InvocationHooks[]).concat(options.hooks ?? [])),
    onObserverError: options.onObserverError,
    observers: Object.freeze([]),
    maxSteps: options.maxSteps,
  };
  const graph = new CompiledGraph<StateRecord, unknown>(rt, frozenWarnings);
  (rt as { handle: object }).handle = graph;
  const all = new Set<GraphRuntime>([rt]);
  for (const n of nodes.values()) {
    for (const g of n.kind.subgraphs ?? []) {
      const child = (g as unknown as { [INTERNALS]?: GraphRuntime })[INTERNALS];
      if (child) for (const x of child.allGraphs) all.add(x);
    }
  }
  rt.allGraphs = Object.freeze([...all]);
  return graph;
}
