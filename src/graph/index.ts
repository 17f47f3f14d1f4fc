/**
 * OpenArmature graph engine — public entry (graph-engine spec §2–§6).
 *
 * Build: {@link defineState} / {@link stateSchema} → {@link GraphBuilder} → `compile()`.
 * Run: `CompiledGraph.invoke()`. Observe: `attachObserver()` / `invoke({ observers })`.
 * Flush: {@link drain} / `CompiledGraph.drain()` / `drainEventsFor()`.
 */

// §2 State
export { defineState, stateSchema, StateSchema } from "./state-schema.ts";
export type {
  FieldDefinition,
  FieldSpec,
  RecordDefinition,
  RecordSpec,
  StateOf,
  StateSchemaOptions,
  StateSpec,
  UpdateOf,
} from "./state-schema.ts";
export { field, defineRecord, FieldBuilder, RecordType } from "./fields.ts";
export type { AnyFieldBuilder, FieldConfig, TypeLike, UpdatesOf, ValuesOf } from "./fields.ts";
export type { TypeNode, JsonSchema } from "./type-strings.ts";
export type { StateRecord, PartialUpdate, DeepReadonly } from "./state-types.ts";
export type { StateFromSpec, UpdateFromSpec, TypeOfTypeString } from "./type-inference.ts";

// §2 Reducers
export {
  lastWriteWins,
  append,
  merge,
  concatFlatten,
  mergeAll,
  boundedAppend,
  dedupeAppend,
  mergeByKey,
  defineReducer,
} from "./reducers.ts";
export type { AnyReducerFn, Reducer, ReducerFn, ReducerMeta, ReducerSpec, KeySpec, CanonicalReducerName, ReducerFactoryName } from "./reducers.ts";

// §2 Topology, compile
export { END, type End, type RouteTarget } from "./end.ts";
export { GraphBuilder, graph } from "./builder.ts";
export type { CompileOptions, ConditionalEdgeOptions, NodeOptions } from "./builder.ts";
export { CompiledGraph, type GraphNodeInfo } from "./compiled-graph.ts";
export { CompileError } from "./compile-errors.ts";
export type {
  CompileDiagnostic,
  CompileErrorCategory,
  CompileErrorCategories,
  CompileWarning,
  CompileWarningCategory,
  CompileWarningCategories,
} from "./compile-errors.ts";

// §2 Subgraphs
export { subgraphNode, SubgraphNode } from "./subgraph.ts";
export type { SubgraphProjection, ProjectionForm, ResolvedProjection } from "./projection.ts";

// §3 Execution, outcomes
export type {
  InvokeOptions,
  InvocationResult,
  CompletedInvocation,
  SuspendedInvocation,
  InvocationOutcomeBase,
} from "./outcomes.ts";

// §4 Errors
export {
  GraphRuntimeError,
  NodeException,
  EdgeException,
  ReducerError,
  RoutingError,
  StateValidationError,
  InvocationCancelledError,
  StepLimitExceededError,
  isGraphError,
  messageOf,
} from "./errors.ts";
export type { RuntimeErrorCategory, RuntimeErrorCategories, ValidationIssue, ErrorLocation } from "./errors.ts";

// §6 Events, observers, drain
export { isNodeEvent } from "./events.ts";
export type {
  NodeEvent,
  NodeAttempt,
  NodePhase,
  EventLineage,
  FanOutConfig,
  ParallelBranchesConfig,
  NodeEventExtras,
  ObserverEvent,
  ObserverEventMap,
  ObserverEventKind,
  MetadataAugmentationEvent,
} from "./events.ts";
export {
  registerEventFamily,
  eventFamilyByType,
  eventFamilyOf,
  eventFamilies,
  eventTypeName,
  toSpecRecord,
  lineageRecord,
  lineageOf,
  withCallerInvocationMetadata,
} from "./event-families.ts";
export type { EventFamily } from "./event-families.ts";
export { warnObserverError } from "./observers.ts";
export type {
  Observer,
  ObserverOptions,
  ObserverSpec,
  ObserverInput,
  ScopeGraph,
  ObserverRegistration,
  ObserverErrorReport,
  ObserverErrorHandler,
  DeliveryContext,
} from "./observers.ts";
export { drain, drainEventsFor } from "./drain.ts";
export type { DrainOptions, DrainSummary } from "./drain.ts";

// Node context and engine extension seams (see README.md)
export {
  GraphInterrupt,
  withAttemptIndex,
  currentAttemptIndex,
  currentNodeContext,
  inNodeBody,
  emitEvent,
  isNodeKind,
  preciseNow,
  setInvocationMetadata,
  getInvocationMetadata,
} from "./extension.ts";
export { validateMetadata, RESERVED_METADATA_KEYS, RESERVED_METADATA_PREFIXES } from "./invocation-metadata.ts";
export type { AttributeValue, InvocationMetadata } from "./invocation-metadata.ts";
export type {
  NodeContext,
  NodeExecutionContext,
  NodeFn,
  EdgeFn,
  Middleware,
  NodeKind,
  NodeCompileContext,
  InvocationHooks,
  InvocationInfo,
  InvocationEnd,
  ChildRunInfo,
  MetadataAugmentation,
  StartPosition,
  SubgraphRunOptions,
  MaybePromise,
} from "./extension.ts";
