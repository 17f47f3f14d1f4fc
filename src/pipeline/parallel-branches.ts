/**
 * Parallel branches (pipeline-utilities §11): a node that runs M heterogeneous branches
 * concurrently — each a compiled subgraph with its own state schema (projected in via `inputs`,
 * out via `outputs`) or an inline callable over the parent state — and merges their buffered
 * contributions in branch insertion order through the parent's reducers.
 *
 * ```ts
 * builder.addNode("retrieve", parallelBranches({
 *   branches: {
 *     vector: { subgraph: vectorSearch, inputs: { query: "question" }, outputs: { vector_hits: "hits" } },
 *     fts: { call: async (s) => ({ fts_hits: await fts(s.question) }), when: (s) => s.use_fts },
 *   },
 *   errorPolicy: "collect",
 *   errorsField: "errors",
 * }));
 * ```
 *
 * Branch runs go through the engine's `runSubgraph` with `branchName`, so every inner event carries
 * `branch_name` and the lineage chains (graph-engine §6). A `call` branch is the event-source unit
 * itself: it runs as a one-node graph whose node is named after the branch (synthetic
 * `node_name` / `namespace` segment = the branch name, §6).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import {
  END,
  GraphBuilder,
  GraphInterrupt,
  NodeException,
  currentNodeContext,
  type CompiledGraph,
  type MaybePromise,
  type NodeCompileContext,
  type NodeContext,
  type NodeEventExtras,
  type NodeExecutionContext,
  type NodeKind,
  type Reducer,
  type StateRecord,
  type StateSchema,
} from "../graph/index.ts";
import type { Middleware } from "../graph/index.ts";
import { runWrappingChain } from "./wrapping-chain.ts";
import { CancelledError } from "./cancellation.ts";
import { dispatchBounded } from "./concurrency.ts";
import { ERROR_POLICIES, branchErrorRecord, type BranchFailure, type ErrorPolicy } from "./error-policy.ts";
import { ParallelBranchesBranchFailedError, nodeLocation } from "./errors.ts";
import { FanInBuffer } from "./fan-in.ts";
import type { FieldOf } from "./field-names.ts";
import { nameMatchingOutputs, projectIn, resolveInputs, resolveOutputs, warnMapRoundTrips, type InPair, type OutPair } from "./projection.ts";
import { checkErrorsField, describe, invalid, isCompiledGraph } from "./validation.ts";

/** A branch running a compiled subgraph (§11.1.1 `subgraph` form). */
export interface SubgraphBranch<P extends StateRecord, C extends StateRecord = StateRecord> {
  readonly subgraph: CompiledGraph<C, unknown>;
  /** Subgraph field → parent field, copied in at branch entry (§11.2). */
  readonly inputs?: { readonly [K in FieldOf<NoInfer<C>>]?: FieldOf<NoInfer<P>> };
  /**
   * Parent field → subgraph field, merged out at branch exit (§11.4). When absent, subgraph fields
   * whose names match parent fields are merged out (graph-engine §2 default).
   */
  readonly outputs?: { readonly [K in FieldOf<NoInfer<P>>]?: FieldOf<NoInfer<C>> };
  /** §11.10: evaluated once at dispatch; `false` skips the branch (no work, events or contribution). */
  readonly when?: (state: Readonly<P>) => boolean;
  /**
   * §11.7 branch middleware, outer to inner, wrapping the branch's whole invocation: each sees the
   * branch's initial (subgraph-shaped) state and returns the subgraph's final state or a partial of
   * it (e.g. a failure-isolation degraded update), which `outputs` then project into the parent —
   * a field it does not cover contributes nothing.
   */
  readonly middleware?: readonly Middleware<StateRecord, StateRecord>[];
  readonly call?: undefined;
}

/** A branch running an inline callable over the parent state (§11.1.1 `call` form). */
export interface CallBranch<P extends StateRecord, U = Partial<P>> {
  /** Returns a parent-shaped partial update: the branch's contribution (§11.4). */
  readonly call: (state: Readonly<P>, ctx: NodeContext) => MaybePromise<NoInfer<U> | void | undefined>;
  /** §11.10: evaluated once at dispatch; `false` skips the branch. */
  readonly when?: (state: Readonly<P>) => boolean;
  /** §11.7 branch middleware around the callable (parent-shaped state in, parent-shaped update out). */
  readonly middleware?: readonly Middleware<StateRecord, StateRecord>[];
  readonly subgraph?: undefined;
  readonly inputs?: undefined;
  readonly outputs?: undefined;
}

/** §11.1.1 branch spec: exactly one of `subgraph` / `call`. */
export type BranchSpec<P extends StateRecord, U = Partial<P>> = SubgraphBranch<P> | CallBranch<P, U>;

/** §11.1 configuration. */
export interface ParallelBranchesOptions<P extends StateRecord, U = Partial<P>> {
  /** Branch name → spec. Insertion order is dispatch order and merge order (§11.8). */
  readonly branches: { readonly [name: string]: BranchSpec<P, U> };
  /** §11.5; default `"fail_fast"`. */
  readonly errorPolicy?: ErrorPolicy;
  /** `collect` only: parent list field (extending reducer) receiving one record per failed branch. */
  readonly errorsField?: FieldOf<NoInfer<P>>;
  /** Build the record written to `errorsField` (default {@link branchErrorRecord}). */
  readonly errorRecord?: (failure: BranchFailure) => unknown;
}

/** A branch spec as validation sees it (every field optional and unchecked). */
interface LooseBranch {
  readonly subgraph?: unknown;
  readonly call?: unknown;
  readonly inputs?: unknown;
  readonly outputs?: unknown;
  readonly when?: unknown;
  readonly middleware?: unknown;
}

interface ResolvedBranch {
  readonly name: string;
  /** §11.7 branch middleware, outer to inner. */
  readonly middleware: readonly Middleware<StateRecord, StateRecord>[];
  readonly when: ((state: Readonly<StateRecord>) => boolean) | undefined;
  /** The graph run for the branch: its subgraph, or the one-node graph wrapping its callable. */
  readonly graph: CompiledGraph<StateRecord, unknown>;
  readonly isCall: boolean;
  readonly inPairs: readonly InPair[];
  readonly outPairs: readonly OutPair[];
}

interface BranchesPlan {
  readonly branches: readonly ResolvedBranch[];
  readonly reducerFor: (field: string) => Reducer<unknown, unknown>;
}

/** Which branches dispatch for one entry state (§11.10), computed once per dispatch. */
type Selection = { readonly branches: readonly ResolvedBranch[] } | { readonly thrown: unknown };

/** Carries a `call` branch's raw returned update out of its one-node graph. */
const captured = new AsyncLocalStorage<{ update: unknown }>();

/** The {@link NodeKind} behind {@link parallelBranches}. */
export class ParallelBranchesNode implements NodeKind<StateRecord, StateRecord> {
  readonly kind = "parallel_branches";
  readonly subgraphs: readonly CompiledGraph<StateRecord, unknown>[];
  readonly options: ParallelBranchesOptions<StateRecord, StateRecord>;
  readonly errorPolicy: ErrorPolicy;
  /** Declared branch names, in insertion order. */
  readonly branchNames: readonly string[];
  readonly #plans = new WeakMap<object, BranchesPlan>();
  readonly #selected = new WeakMap<object, Selection>();

  constructor(options: ParallelBranchesOptions<StateRecord, StateRecord>) {
    this.options = Object.freeze({ ...options });
    this.errorPolicy = options.errorPolicy ?? "fail_fast";
    const branches = typeof options.branches === "object" && options.branches !== null ? options.branches : {};
    this.branchNames = Object.freeze(Object.keys(branches));
    this.subgraphs = Object.values(branches)
      .map((b) => (b as { subgraph?: unknown } | null)?.subgraph)
      .filter(isCompiledGraph);
  }

  /** The branch's subgraph (undefined for a `call` branch or an unknown name). */
  childGraph(lineage: { readonly branchName?: string }): CompiledGraph<StateRecord, unknown> | undefined {
    const name = lineage.branchName;
    if (name === undefined || !Object.prototype.hasOwnProperty.call(this.options.branches, name)) return undefined;
    const sub = (this.options.branches[name] as { subgraph?: unknown } | null)?.subgraph;
    return isCompiledGraph(sub) ? sub : undefined;
  }

  /** §11.9 compile-time checks, against the parent graph being compiled. */
  validate(ctx: NodeCompileContext): void {
    const o = this.options;
    let ok = true;
    if (typeof o.branches !== "object" || o.branches === null || Array.isArray(o.branches)) {
      invalid(ctx, "branches must be a mapping of branch name to branch spec");
      return;
    }
    if (this.branchNames.length === 0) {
      ctx.error("parallel_branches_no_branches", `parallel-branches node "${ctx.nodeName}" declares no branches`);
      return;
    }
    if (!ERROR_POLICIES.includes(this.errorPolicy)) {
      invalid(ctx, `errorPolicy must be "fail_fast" or "collect", got ${describe(this.errorPolicy)}`);
      ok = false;
    }
    if (o.errorRecord !== undefined && typeof o.errorRecord !== "function") {
      invalid(ctx, "errorRecord must be a function");
      ok = false;
    }
    if (o.errorsField !== undefined && !checkErrorsField(ctx, o.errorsField, "errorsField")) ok = false;

    const resolved: ResolvedBranch[] = [];
    for (const name of this.branchNames) {
      /** Loosely typed: untyped callers (YAML fixtures, JS) may pass anything. */
      const spec = o.branches[name] as unknown as LooseBranch | null;
      const bad = (why: string): void => {
        ctx.error("parallel_branches_invalid_branch_spec", `parallel-branches node "${ctx.nodeName}", branch "${name}": ${why}`);
        ok = false;
      };
      if (name.length === 0) {
        bad("a branch name must be a non-empty string");
        continue;
      }
      if (typeof spec !== "object" || spec === null) {
        bad("a branch spec must be a mapping with `subgraph` or `call`");
        continue;
      }
      const hasSub = spec.subgraph !== undefined;
      const hasCall = spec.call !== undefined;
      if (hasSub === hasCall) {
        bad(`declare exactly one of subgraph and call (got ${hasSub ? "both" : "neither"})`);
        continue;
      }
      if (spec.when !== undefined && typeof spec.when !== "function") {
        bad("when must be a function of the parent state");
        continue;
      }
      const when = spec.when as ResolvedBranch["when"];
      const middleware = (spec.middleware ?? []) as readonly Middleware<StateRecord, StateRecord>[];
      if (!Array.isArray(middleware) || middleware.some((m) => typeof m !== "function")) {
        bad("middleware must be a list of middleware functions");
        continue;
      }
      if (hasCall) {
        if (typeof spec.call !== "function") {
          bad("call must be an async function of the parent state");
          continue;
        }
        if (spec.inputs !== undefined || spec.outputs !== undefined) {
          bad("a call branch has no inputs / outputs (it reads and returns parent-shaped state)");
          continue;
        }
        resolved.push({
          name,
          when,
          middleware,
          graph: callGraph(builderFor(ctx), name, spec.call as CallBranch<StateRecord, unknown>["call"], `${ctx.graphName}.${ctx.nodeName}.${name}`),
          isCall: true,
          inPairs: [],
          outPairs: [],
        });
        continue;
      }
      if (!isCompiledGraph(spec.subgraph)) {
        bad("subgraph must be a CompiledGraph (call .compile() on its builder)");
        continue;
      }
      const sub = spec.subgraph.schema as unknown as StateSchema<StateRecord, unknown>;
      const inPairs = resolveInputs(ctx, spec.inputs, sub, `branch "${name}" inputs`);
      const outPairs =
        spec.outputs === undefined ? nameMatchingOutputs(ctx, sub) : resolveOutputs(ctx, spec.outputs, sub, `branch "${name}" outputs`);
      if (!inPairs || !outPairs) {
        ok = false;
        continue;
      }
      warnMapRoundTrips(ctx, inPairs, outPairs, spec.outputs === undefined ? "field-name matching" : `branch "${name}" outputs`);
      resolved.push({ name, when, middleware, graph: spec.subgraph, isCall: false, inPairs, outPairs });
    }
    if (ok) this.#plans.set(ctx.schema, { branches: resolved, reducerFor: ctx.reducerFor });
  }

  /** §6 `parallel_branches_config`, from the dispatch-time `when` selection (reused by {@link run}). */
  eventFields(state: Readonly<StateRecord>): NodeEventExtras {
    const nctx = currentNodeContext();
    const plan = nctx ? this.#plans.get(nctx.schema) : undefined;
    let branchCount = this.branchNames.length;
    if (plan) {
      const sel = this.#select(plan, state);
      this.#selected.set(state, sel);
      if ("branches" in sel) branchCount = sel.branches.length;
    }
    return {
      parallelBranchesConfig: {
        branchNames: this.branchNames,
        branchCount,
        errorPolicy: this.errorPolicy,
        parentNodeName: nctx?.nodeName ?? "",
      },
    };
  }

  /** §11.2–§11.5: select, dispatch every branch concurrently, merge in insertion order. */
  async run(state: Readonly<StateRecord>, ctx: NodeExecutionContext<StateRecord>): Promise<StateRecord> {
    const plan = this.#plans.get(ctx.schema);
    if (!plan) throw new Error(`parallel-branches node "${ctx.nodeName}" was not validated against this graph's schema`);
    const sel = this.#selected.get(state) ?? this.#select(plan, state);
    this.#selected.delete(state);
    if ("thrown" in sel) throw sel.thrown;
    const branches = sel.branches;
    const fanIn = new FanInBuffer(plan.reducerFor);
    const o = this.options;

    const outcome = await dispatchBounded<Readonly<StateRecord>>({
      count: branches.length,
      concurrency: null,
      errorPolicy: this.errorPolicy,
      signal: ctx.signal,
      task: async (i, signal) => {
        const b = branches[i]!;
        // One invocation of the branch: its callable's update, or its subgraph's final state.
        const invokeBranch = async (input: Readonly<StateRecord>): Promise<StateRecord> => {
          if (b.isCall) {
            const holder = { update: undefined as unknown };
            await captured.run(holder, () => ctx.runSubgraph(b.graph, input, { branchName: b.name, callableBranch: true, signal }));
            const u = holder.update;
            return (typeof u === "object" && u !== null ? u : {}) as StateRecord;
          }
          return (await ctx.runSubgraph(b.graph, input, { branchName: b.name, signal })) as StateRecord;
        };
        const input = b.isCall ? state : projectIn(b.inPairs, state);
        const result = b.middleware.length > 0 ? await runWrappingChain(b.middleware, input, invokeBranch, ctx) : await invokeBranch(input);
        if (b.isCall) return result;
        const contribution: StateRecord = {};
        for (const [p, s] of b.outPairs) if (result[s] !== undefined) contribution[p] = result[s];
        return contribution;
      },
    });

    if (outcome.fatal) {
      const e = outcome.fatal.error;
      // A cancellation (the caller's, surfacing at this node as invocation_cancelled) is not a branch failure.
      if (e instanceof GraphInterrupt || e instanceof CancelledError || outcome.cancelled) throw e;
      // §11.5 fail_fast: buffered contributions are discarded; recoverable state = entry state.
      // §11.9: the carrier wraps "a `call` branch's callable['s]" exception as its direct cause. A call
      // branch runs as a one-node graph whose own node_exception is not part of that chain: unwrap it,
      // so §6.1's single-level classifier sees the callable's category (a node-level retry re-runs the
      // node on a transient branch failure).
      const failed = branches[outcome.fatal.index]!;
      const cause = failed.isCall && e instanceof NodeException ? e.cause : e;
      throw new ParallelBranchesBranchFailedError(failed.name, cause, nodeLocation(ctx, state));
    }

    // §11.4 / §11.8: merge buffered contributions in branch insertion order.
    for (let i = 0; i < branches.length; i++) {
      if (!outcome.succeeded[i]) continue;
      const c = outcome.results[i]!;
      for (const f of Object.keys(c)) fanIn.add(f, c[f]);
    }
    if (o.errorsField !== undefined && this.errorPolicy === "collect") {
      const record = o.errorRecord ?? branchErrorRecord;
      const records: unknown[] = [];
      for (let i = 0; i < branches.length; i++) {
        if (!outcome.succeeded[i]) records.push(record({ branchName: branches[i]!.name, error: outcome.failures[i] }));
      }
      fanIn.set(o.errorsField, records);
    }
    return fanIn.toUpdate();
  }

  #select(plan: BranchesPlan, state: Readonly<StateRecord>): Selection {
    try {
      return { branches: plan.branches.filter((b) => b.when === undefined || Boolean(b.when(state))) };
    } catch (thrown) {
      return { thrown };
    }
  }
}


/** A builder over the parent schema carrying the parent's builder-declared reducers. */
function builderFor(ctx: NodeCompileContext): GraphBuilder<StateRecord, unknown> {
  const b = new GraphBuilder(ctx.schema);
  for (const f of ctx.schema.fields.values()) {
    const r = ctx.reducerFor(f.name);
    if (f.declaredReducers.length === 0 && r !== f.reducer) b.declareReducer(f.name, r as never);
  }
  return b;
}

/** The one-node graph a `call` branch runs as: its node is named after the branch (§6 synthetic identity). */
function callGraph(
  b: GraphBuilder<StateRecord, unknown>,
  name: string,
  call: CallBranch<StateRecord, unknown>["call"],
  graphName: string,
): CompiledGraph<StateRecord, unknown> {
  return b
    .addNode(name, async (s, nctx) => {
      const holder = captured.getStore();
      const u = await call(s, nctx);
      if (holder) holder.update = u;
      return u as StateRecord | undefined;
    })
    .addEdge(name, END)
    .setEntry(name)
    .compile({ name: graphName });
}

/**
 * Create a parallel-branches node (pipeline-utilities §11) for
 * `GraphBuilder.addNode(name, parallelBranches({...}))`. `P` is inferred from the builder.
 */
export function parallelBranches<P extends StateRecord, U = Partial<P>>(options: ParallelBranchesOptions<P, U>): NodeKind<P, U> {
  return new ParallelBranchesNode(options as unknown as ParallelBranchesOptions<StateRecord, StateRecord>) as unknown as NodeKind<P, U>;
}
