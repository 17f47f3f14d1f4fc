/**
 * Compile-time diagnostics (graph-engine §2 *Compiled graph*, *Reducer round-trip warning*).
 *
 * Every compile failure is a {@link CompileError} whose `category` is one of the canonical
 * identifiers §2 lists. Non-fatal diagnostics are {@link CompileWarning}s, collected on
 * `CompiledGraph.warnings` and delivered to the `onWarning` compile option.
 */

/**
 * Registry of compile-error categories. The keys are the canonical §2 identifiers plus a few
 * implementation-defined ones (marked below). Later capabilities (e.g. pipeline-utilities fan-out:
 * `fan_out_field_not_list`) add their own by declaration merging:
 *
 * ```ts
 * declare module "../graph/compile-errors.ts" {
 *   interface CompileErrorCategories { fan_out_field_not_list: true }
 * }
 * ```
 */
export interface CompileErrorCategories {
  /** §2: no entry node was declared. */
  no_declared_entry: true;
  /** §2: a declared node has no path from the entry. */
  unreachable_node: true;
  /** §2: an edge (or the entry) references a node name that is not declared. */
  dangling_edge: true;
  /** §2: a node has more than one outgoing edge. */
  multiple_outgoing_edges: true;
  /** §2: a state field has more than one declared reducer. */
  conflicting_reducers: true;
  /** §2: a projection mapping / declared set names a field missing from the relevant schema. */
  mapping_references_undeclared_field: true;
  /** §2: a subgraph-as-node declares both the same-name sets and an explicit inputs/outputs map. */
  conflicting_projection_forms: true;
  /** §2: a reducer factory received invalid construction parameters. */
  reducer_configuration_invalid: true;
  /** Implementation-defined: two nodes were registered under the same name. */
  duplicate_node: true;
  /** Implementation-defined: a state schema is malformed (bad type string, unknown record, bad default). */
  invalid_state_schema: true;
  /** Implementation-defined: a node definition is malformed (e.g. not a function / node kind). */
  invalid_node: true;
}

/** A compile-error category identifier. */
export type CompileErrorCategory = keyof CompileErrorCategories;

/** One compile-time finding. A failing compile reports all of them on {@link CompileError.diagnostics}. */
export interface CompileDiagnostic {
  readonly category: CompileErrorCategory;
  readonly message: string;
  /** The node the diagnostic concerns, when there is one. */
  readonly node?: string;
  /** The state field the diagnostic concerns, when there is one. */
  readonly field?: string;
}

/**
 * A compile-time failure (graph-engine §2). Raised by `GraphBuilder.compile()`, by state-schema
 * definition, and by reducer factories (`reducer_configuration_invalid`) — always before any node
 * body runs.
 */
export class CompileError extends Error {
  override name = "CompileError";
  /** The canonical category of the first (primary) diagnostic. */
  readonly category: CompileErrorCategory;
  readonly node?: string;
  readonly field?: string;
  /** Every diagnostic found in the same compile pass, primary first. */
  readonly diagnostics: readonly CompileDiagnostic[];

  constructor(diagnostic: CompileDiagnostic, more: readonly CompileDiagnostic[] = [], options?: ErrorOptions) {
    super(diagnostic.message, options);
    this.category = diagnostic.category;
    if (diagnostic.node !== undefined) this.node = diagnostic.node;
    if (diagnostic.field !== undefined) this.field = diagnostic.field;
    this.diagnostics = Object.freeze([diagnostic, ...more]);
  }
}

/** Registry of compile-warning categories (extensible by declaration merging, like the errors). */
export interface CompileWarningCategories {
  /** §2: a projection round-trips a field into a non-round-trip-idempotent reducer. */
  projection_reducer_round_trip: true;
  /**
   * Implementation-defined: nodes reachable from the entry have no path to END (a cycle with no
   * exit) — a run that enters them loops until a node fails or `maxSteps` stops it.
   */
  cycle_cannot_reach_end: true;
}

/** A compile-warning category identifier. */
export type CompileWarningCategory = keyof CompileWarningCategories;

/** A non-fatal compile-time diagnostic (§2 *Reducer round-trip warning*). */
export interface CompileWarning {
  readonly category: CompileWarningCategory;
  readonly message: string;
  /** The node (in the graph being compiled) the warning concerns. */
  readonly node?: string;
  /** The parent field concerned. */
  readonly field?: string;
  /** Name of the graph being compiled. */
  readonly graph?: string;
}

/** Convenience constructor used across the engine. */
export function compileError(
  category: CompileErrorCategory,
  message: string,
  extra: { node?: string; field?: string; cause?: unknown } = {},
): CompileError {
  const d: CompileDiagnostic = {
    category,
    message,
    ...(extra.node !== undefined ? { node: extra.node } : {}),
    ...(extra.field !== undefined ? { field: extra.field } : {}),
  };
  return new CompileError(d, [], extra.cause !== undefined ? { cause: extra.cause } : undefined);
}
