/**
 * The node-directive contract (conformance-adapter §5.1, §5.4): each key under
 * `nodes.<name>:` is a directive that contributes to the node being assembled — a body step
 * (`update`, `raises`, ...), the node's kind (`subgraph`, `fan_out`, `parallel_branches`), or a
 * modifier of that kind (`inputs`, `outputs`, ...). Steps run in document order (§8.3).
 */
import type { JsonSchema, Position, Resolved, SlotKey } from "../../src/conformance/directive.ts";
import type { ConformanceError, FixtureLocation } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { CaseSpec } from "../../src/conformance/fixture-model.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { CompiledGraph, Middleware, NodeContext, NodeKind, StateRecord, SubgraphProjection } from "../../src/graph/index.ts";
import type { HarnessObserver } from "../observers.ts";
import type { NodeDrainRecord } from "./facets.ts";

/** One body step: returns a partial update (merged over earlier steps' in document order). */
export type NodeStep = (
  state: Readonly<StateRecord>,
  ctx: NodeContext,
) => Promise<Readonly<Record<string, unknown>> | void> | Readonly<Record<string, unknown>> | void;

/** What the current call collects while it runs (per-node drain records, ...). */
export interface CallData {
  readonly index: number;
  readonly nodeDrains: Map<string, NodeDrainRecord>;
  /**
   * The call's observation: node directives record per-call data on it as facets while the call
   * runs (e.g. a failure mock's call counter), for assertions to read.
   */
  readonly observation: Observation;
  /** Fixture defects node bodies raised during the call (the case fails with the first, even if caught). */
  readonly defects: ConformanceError[];
}

/** What node directives can use while the graph is built. */
export interface BuildEnv {
  readonly caseSpec: CaseSpec;
  locate(path: KeyPath): FixtureLocation;
  /** Name of the graph the node belongs to. */
  readonly graphName: string;
  /** The compiled subgraph declared under `name` (built once per case), run by node `node`. */
  subgraph(name: string, where: KeyPath, node: string): CompiledGraph;
  /** The harness observer declared under `name` in the case's `observers:`. */
  observer(name: string, where: KeyPath): HarnessObserver;
  /** The call now running. */
  currentCall(): CallData;
  /** A case-wide slot (shared with the case's directives' `configure()`). */
  slot<T>(key: SlotKey<T>): T;
  /**
   * Resolve a mapping of directives nested inside a node directive (e.g. a callable branch's
   * body) at `position`; unknown keys raise `fixture_directive_unknown` at once.
   */
  resolve(position: Position, value: Readonly<Record<string, unknown>>, path: KeyPath): Resolved[];
  /** The declared field names of the graph this node belongs to. */
  readonly fieldNames: ReadonlySet<string>;
}

/** A node under construction. */
export class NodeAssembly {
  kind: { readonly directive: string; readonly path: KeyPath; readonly make: (projection: SubgraphProjection) => NodeKind } | undefined;
  readonly steps: NodeStep[] = [];
  readonly projection: { -readonly [K in keyof SubgraphProjection]: SubgraphProjection[K] } = {};
  readonly projectionKeys: Array<{ key: string; path: KeyPath }> = [];
  readonly middleware: Middleware[] = [];
  constructor(readonly name: string, readonly path: KeyPath) {}
}

export interface NodeDirective<V = unknown> {
  readonly schema?: JsonSchema;
  contribute(value: V, node: NodeAssembly, env: BuildEnv, at: KeyPath): void;
}

export function isNodeDirective(d: object): d is NodeDirective {
  return typeof (d as Partial<NodeDirective>).contribute === "function";
}
