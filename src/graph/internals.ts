/**
 * @internal The compiled runtime representation shared by compile, execution and the compiled
 * graph handle. Not exported from the package entry.
 */
import type { End } from "./end.ts";
import type { NodeKind, Middleware, EdgeFn, InvocationHooks, NodeBody } from "./extension.ts";
import type { ObserverErrorHandler, ObserverRegistration } from "./observers.ts";
import type { Reducer } from "./reducers.ts";
import type { StateSchema } from "./state-schema.ts";
import type { StateRecord } from "./state-types.ts";

export const INTERNALS: unique symbol = Symbol("openarmature.graph.internals");

export type CompiledEdge =
  | { readonly kind: "static"; readonly to: string | End }
  | { readonly kind: "conditional"; readonly fn: EdgeFn<StateRecord>; readonly targets: ReadonlySet<string | End> | null };

export interface CompiledNode {
  readonly name: string;
  readonly kind: NodeKind<StateRecord, StateRecord>;
  readonly body: NodeBody;
  readonly emitsEvents: boolean;
  /** The node's §6 namespace when it runs in the outermost graph (`[name]`), shared by every invocation. */
  readonly rootNamespace: readonly string[];
  readonly middleware: readonly Middleware<StateRecord, StateRecord>[];
  readonly edge: CompiledEdge;
}

export interface GraphRuntime {
  readonly name: string;
  readonly schema: StateSchema<StateRecord, unknown>;
  readonly entry: string;
  readonly nodes: ReadonlyMap<string, CompiledNode>;
  /** Effective reducer per declared field. */
  readonly reducers: ReadonlyMap<string, Reducer<unknown, unknown>>;
  /** The public CompiledGraph handle. */
  readonly handle: object;
  /** This graph and every graph reachable through its nodes' `subgraphs` (deduplicated). */
  allGraphs: readonly GraphRuntime[];
  readonly hooks: readonly InvocationHooks[];
  readonly onObserverError: ObserverErrorHandler | undefined;
  /** Graph-attached observers (copy-on-write array). */
  observers: readonly ObserverRegistration[];
  /** `compile({ maxSteps })`: the default step limit of invocations of this graph (outermost). */
  readonly maxSteps: number | undefined;
}
