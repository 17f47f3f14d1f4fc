/**
 * Graph definition (graph-engine §2 *Node*, *Edge*, *END*, *Subgraph*): a mutable builder whose
 * `compile()` checks every §2 compile-error category and returns an immutable {@link CompiledGraph}.
 *
 * ```ts
 * const g = new GraphBuilder(State)
 *   .addNode("a", async (s) => ({ count: s.count + 1 }))
 *   .addConditionalEdge("a", (s) => (s.count < 3 ? "a" : END))
 *   .setEntry("a")
 *   .compile();
 * ```
 */
import { compileError, type CompileWarning } from "./compile-errors.ts";
import type { CompiledGraph } from "./compiled-graph.ts";
import { compileGraph } from "./compile.ts";
import { END, type RouteTarget } from "./end.ts";
import {
  isNodeKind,
  type EdgeFn,
  type InvocationHooks,
  type Middleware,
  type NodeFn,
  type NodeKind,
} from "./extension.ts";
import type { ObserverErrorHandler } from "./observers.ts";
import type { SubgraphProjection } from "./projection.ts";
import { resolveReducer, type Reducer, type ReducerSpec } from "./reducers.ts";
import type { StateSchema } from "./state-schema.ts";
import type { StateRecord } from "./state-types.ts";
import { SubgraphNode } from "./subgraph.ts";

/** Per-node registration options. */
export interface NodeOptions<S extends StateRecord, U> {
  /** Per-node middleware, outer to inner (inside the graph's `use()` middleware). */
  readonly middleware?: readonly Middleware<S, U>[];
}

/** Conditional-edge options. */
export interface ConditionalEdgeOptions {
  /**
   * The destinations the edge function can return. Optional: when given, `unreachable_node`
   * analysis follows them and returning anything else at run time is a `routing_error`. When
   * omitted, the edge is assumed able to reach every node. Like the edge function's result, a target
   * that names no declared node is not a compile error: routing to it is a run-time `routing_error`.
   */
  readonly targets?: readonly RouteTarget[];
}

/** `compile()` options. */
export interface CompileOptions {
  /** Graph name (diagnostics, `NodeEvent.graphName`). Default `"graph"`. */
  readonly name?: string;
  /** Receives each compile warning (they are also on `CompiledGraph.warnings`). Default: `process.emitWarning`. */
  readonly onWarning?: (warning: CompileWarning) => void;
  /** Default observer-error channel for invocations of this graph (else `console.warn`). */
  readonly onObserverError?: ObserverErrorHandler;
  /** Engine hooks for every invocation of this graph as the outermost graph (e.g. a checkpointer): one object or several, called in order. */
  readonly hooks?: InvocationHooks | readonly InvocationHooks[];
  /**
   * Default step limit of every invocation of this graph as the outermost graph (see
   * `InvokeOptions.maxSteps`, which overrides it). Positive integer; default: no limit.
   */
  readonly maxSteps?: number;
}

/** @internal what the builder hands to compile. */
export interface NodeDefinition {
  readonly name: string;
  readonly kind: NodeKind<StateRecord, unknown>;
  /** Set for plain function nodes (called directly). */
  readonly fn: NodeFn<StateRecord, unknown> | undefined;
  readonly middleware: readonly Middleware<StateRecord, unknown>[];
}

/** @internal */
export type EdgeDefinition =
  | { readonly kind: "static"; readonly from: string; readonly to: RouteTarget }
  | { readonly kind: "conditional"; readonly from: string; readonly fn: EdgeFn<StateRecord>; readonly targets: readonly RouteTarget[] | undefined };

/** @internal */
export interface GraphDefinition {
  readonly schema: StateSchema<StateRecord, unknown>;
  readonly nodes: ReadonlyMap<string, NodeDefinition>;
  readonly edges: readonly EdgeDefinition[];
  readonly entry: string | undefined;
  readonly middleware: readonly Middleware<StateRecord, unknown>[];
  /** Reducer declarations made on the builder (in addition to the schema's). */
  readonly reducerDeclarations: ReadonlyMap<string, readonly Reducer<unknown, unknown>[]>;
}

function checkName(what: string, name: unknown): asserts name is string {
  if (typeof name !== "string" || name.length === 0) {
    throw compileError("invalid_node", `${what} must be a non-empty string, got ${String(name)}`);
  }
}

/** Builds a graph over state schema `S` (update type `U`). */
export class GraphBuilder<S extends StateRecord = StateRecord, U = Partial<S>> {
  readonly schema: StateSchema<S, U>;
  #nodes = new Map<string, NodeDefinition>();
  #edges: EdgeDefinition[] = [];
  #entry: string | undefined;
  #middleware: Middleware<StateRecord, unknown>[] = [];
  #reducers = new Map<string, Reducer<unknown, unknown>[]>();

  constructor(schema: StateSchema<S, U>) {
    this.schema = schema;
  }

  /**
   * Add a node: an async function `(state, ctx) => partialUpdate`, or a {@link NodeKind} (composite
   * nodes: `subgraphNode(...)`, pipeline-utilities fan-out / parallel branches).
   */
  addNode(name: string, node: NodeFn<S, U> | NodeKind<S, U>, options: NodeOptions<S, U> = {}): this {
    checkName("a node name", name);
    if (this.#nodes.has(name)) throw compileError("duplicate_node", `node "${name}" is already declared`, { node: name });
    let def: NodeDefinition;
    const middleware = (options.middleware ?? []) as readonly Middleware<StateRecord, unknown>[];
    if (middleware.some((m) => typeof m !== "function")) {
      throw compileError("invalid_node", `node "${name}": middleware must be functions`, { node: name });
    }
    if (typeof node === "function") {
      const fn = node as unknown as NodeFn<StateRecord, unknown>;
      def = { name, fn, kind: { kind: "function", run: fn }, middleware };
    } else if (isNodeKind(node)) {
      def = { name, fn: undefined, kind: node as unknown as NodeKind<StateRecord, unknown>, middleware };
    } else {
      throw compileError("invalid_node", `node "${name}" must be an async function or a node kind`, { node: name });
    }
    this.#nodes.set(name, def);
    return this;
  }

  /** Add a compiled graph as a node (§2 *Subgraph*), with an optional projection. */
  addSubgraph<T extends StateRecord>(
    name: string,
    graph: CompiledGraph<T, unknown>,
    projection: SubgraphProjection = {},
    options: NodeOptions<S, U> = {},
  ): this {
    return this.addNode(name, new SubgraphNode(graph as unknown as CompiledGraph<StateRecord, unknown>, projection) as unknown as NodeKind<S, U>, options);
  }

  /** Add a static edge `from → to` (`to` may be {@link END}). */
  addEdge(from: string, to: RouteTarget): this {
    checkName("an edge source", from);
    if (to !== END) checkName("an edge target", to);
    this.#edges.push({ kind: "static", from, to });
    return this;
  }

  /** Add a conditional edge: `fn(postUpdateState)` returns the destination node name or {@link END}. */
  addConditionalEdge(from: string, fn: EdgeFn<S>, options: ConditionalEdgeOptions = {}): this {
    checkName("an edge source", from);
    if (typeof fn !== "function") throw compileError("invalid_node", `conditional edge from "${from}" needs a function`, { node: from });
    this.#edges.push({ kind: "conditional", from, fn: fn as unknown as EdgeFn<StateRecord>, targets: options.targets });
    return this;
  }

  /** Declare the entry node (required: there is no implicit first-node default). */
  setEntry(name: string): this {
    checkName("the entry", name);
    this.#entry = name;
    return this;
  }

  /** Add per-graph middleware (outer to inner), wrapping every node of this graph. */
  use(...middleware: Middleware<S, U>[]): this {
    for (const m of middleware) {
      if (typeof m !== "function") throw compileError("invalid_node", "middleware must be functions");
      this.#middleware.push(m as unknown as Middleware<StateRecord, unknown>);
    }
    return this;
  }

  /**
   * Declare a reducer for a field at the graph level (for fields whose schema declares none).
   * A field with more than one declared reducer fails compile with `conflicting_reducers`.
   */
  declareReducer(field: keyof S & string, reducer: ReducerSpec): this {
    const r = resolveReducer(reducer);
    const list = this.#reducers.get(field);
    if (list) list.push(r);
    else this.#reducers.set(field, [r]);
    return this;
  }

  /** Check the definition (every §2 compile-error category) and produce the executable graph. */
  compile(options: CompileOptions = {}): CompiledGraph<S, U> {
    return compileGraph(
      {
        schema: this.schema as unknown as StateSchema<StateRecord, unknown>,
        nodes: new Map(this.#nodes),
        edges: [...this.#edges],
        entry: this.#entry,
        middleware: [...this.#middleware],
        reducerDeclarations: new Map([...this.#reducers].map(([k, v]) => [k, [...v]])),
      },
      options,
    ) as unknown as CompiledGraph<S, U>;
  }
}

/** Shorthand for `new GraphBuilder(schema)`. */
export function graph<S extends StateRecord, U>(schema: StateSchema<S, U>): GraphBuilder<S, U> {
  return new GraphBuilder(schema);
}
