/**
 * OpenArmature pipeline utilities — public entry for parallel fan-out (pipeline-utilities §9) and
 * parallel branches (§11). (Canonical middleware live in `./middleware/index.ts`.)
 *
 * Both are engine node kinds: `GraphBuilder.addNode(name, fanOut({...}))`,
 * `addNode(name, parallelBranches({...}))`. Their instances / branches run as children of the node
 * inside the same invocation (graph-engine §3's concurrency exception) through the engine's
 * `runSubgraph`, so every inner event carries `fan_out_index` / `branch_name` and the lineage chains
 * (graph-engine §6), and nesting composes.
 *
 * ```ts
 * const g = new GraphBuilder(State)
 *   .addNode("embed", fanOut({ subgraph: embedOne, itemsField: "chunks", itemField: "text",
 *                               collectField: "vector", targetField: "vectors", concurrency: 16 }))
 *   .addNode("retrieve", parallelBranches({ branches: {
 *     vector: { subgraph: vectorSearch, inputs: { query: "question" }, outputs: { hits: "hits" } },
 *     fts: { call: async (s) => ({ hits: await fts(s.question) }), when: (s) => s.use_fts },
 *   } }))
 *   .addEdge("embed", "retrieve").addEdge("retrieve", END).setEntry("embed").compile();
 * ```
 *
 * Behavior notes:
 *
 * - Errors: configuration problems fail `compile()` with the spec's categories; runtime failures
 *   surface as the node's `node_exception` (recoverable state = parent state at node entry) whose
 *   cause chain holds {@link FanOutError} / {@link FanOutInstanceError} /
 *   {@link ParallelBranchesBranchFailedError}; use {@link findCause} to reach them.
 * - Cancellation is cooperative: a `fail_fast` failure, or the caller's `invoke({ signal })`,
 *   aborts the instances' / branches' `ctx.signal` (also {@link cancellationSignal};
 *   {@link throwIfCancelled}); no instance / branch starts after it, and each running one stops
 *   before its next node. The node waits for started siblings to settle before raising, so no
 *   instance work outlives it. The caller's abort surfaces as one `invocation_cancelled` error at
 *   the node, not as an instance failure.
 * - Fan-in is one pass in index / insertion order; several contributions to one field are combined
 *   into one reducer update ({@link combineContributions}) — exact for every canonical reducer,
 *   for custom reducers exact when they are associative over updates.
 */

// §9 Parallel fan-out
export { fanOut, FanOutNode, DEFAULT_FAN_OUT_CONCURRENCY } from "./fan-out.ts";
export type { FanOutOptions, FanOutItemsOptions, FanOutCountOptions, FanOutCommonOptions, FromState, OnEmpty } from "./fan-out.ts";

// §11 Parallel branches
export { parallelBranches, ParallelBranchesNode } from "./parallel-branches.ts";
export type { ParallelBranchesOptions, BranchSpec, SubgraphBranch, CallBranch } from "./parallel-branches.ts";

// Typed field names
export type { FieldOf, KnownKeys } from "./field-names.ts";

// §9.5 / §11.5 error policy
export { ERROR_POLICIES } from "./error-policy.ts";
export type { ErrorPolicy, InstanceFailure, BranchFailure, FanOutErrorRecord, BranchErrorRecord } from "./error-policy.ts";

// Cooperative cancellation (§9.5, §11.5)
export { cancellationSignal, throwIfCancelled, CancelledError } from "./cancellation.ts";

// Errors (§9, §11.9)
export {
  FanOutError,
  FanOutInstanceError,
  ParallelBranchesBranchFailedError,
  isFanOutError,
  findCause,
} from "./errors.ts";
export type { FanOutErrorCategory } from "./errors.ts";
