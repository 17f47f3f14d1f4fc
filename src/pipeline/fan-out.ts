/**
 * Parallel fan-out (pipeline-utilities §9): a node that runs a compiled subgraph once per item of
 * a parent list field (`itemsField` mode) or `count` times (`count` mode), at most `concurrency`
 * instances at a time, and merges the instances' `collectField` values into the parent's
 * `targetField` in instance-index order.
 *
 * ```ts
 * builder.addNode("process", fanOut({
 *   subgraph: worker,            // a CompiledGraph
 *   itemsField: "items",         // parent list field ...
 *   itemField: "item",           // ... each element projected into this subgraph field
 *   collectField: "result",      // subgraph field read from each finished instance ...
 *   targetField: "results",      // ... merged (as one list, index order) via this field's reducer
 *   concurrency: 16,             // default 10; null = unbounded; 1 = serial; or (state) => n
 *   errorPolicy: "collect",      // default "fail_fast"
 *   errorsField: "errors",
 * }));
 * ```
 *
 * Each instance runs through the engine's `runSubgraph` as a child of the fan-out node, so its
 * events carry `fan_out_index` and the lineage chains (graph-engine §6), share the invocation's
 * step counter and observers, and nested fan-outs extend the chain.
 *
 * Under a Checkpointer (`withCheckpointer`, pipeline-utilities §10.7 / §10.11) the node uses the
 * per-instance seam `beginFanOutCheckpoint`: each instance's contribution (its `collectField` value
 * and `extraOutputs`, or under `collect` its error record) is saved as it completes, and on resume
 * the instances the loaded record marks `completed` are not re-run — their saved contributions roll
 * forward into the same index-order fan-in (exactly once, §10.11.1). A count that differs from the
 * saved entry's raises `checkpoint_record_invalid` before any instance runs.
 */
import {
  GraphInterrupt,
  currentNodeContext,
  type CompiledGraph,
  type NodeCompileContext,
  type NodeEventExtras,
  type NodeExecutionContext,
  type NodeKind,
  type Reducer,
  type StateRecord,
} from "../graph/index.ts";
import { isCheckpointError } from "../checkpoint/index.ts";
import { beginFanOutCheckpoint, type InstanceContribution } from "../checkpoint/fan-out-progress.ts";
import type { Middleware } from "../graph/index.ts";
import { runWrappingChain } from "./wrapping-chain.ts";
import { CancelledError, cancellationSignal } from "./cancellation.ts";
import { isFailureIsolationMiddleware } from "./middleware/failure-isolation.ts";
import { dispatchBounded } from "./concurrency.ts";
import { ERROR_POLICIES, fanOutErrorRecord, type ErrorPolicy, type InstanceFailure } from "./error-policy.ts";
import { FanOutError, FanOutInstanceError, nodeLocation, type FanOutErrorCategory } from "./errors.ts";
import { FanInBuffer } from "./fan-in.ts";
import type { FieldOf } from "./field-names.ts";
import { projectIn, resolveInputs, resolveOutputs, warnMapRoundTrips, warnRoundTrip, type InPair, type OutPair } from "./projection.ts";
import {
  checkErrorsField,
  describe,
  invalid,
  isCompiledGraph,
  isIntField,
  isListField,
  isNonNegativeInt,
  isPositiveInt,
  requireDeclared,
} from "./validation.ts";

/** §9.2 default concurrency bound. */
export const DEFAULT_FAN_OUT_CONCURRENCY = 10;

/** A literal, or a function of the parent state at fan-out entry (§9.1 `count`, §9.2 `concurrency`). */
export type FromState<P, T> = T | ((state: Readonly<P>) => T);

/** §9.1 `on_empty`. */
export type OnEmpty = "raise" | "noop";

/** Options shared by both fan-out modes (§9 *Configuration*). */
export interface FanOutCommonOptions<P extends StateRecord, C extends StateRecord> {
  /** The compiled subgraph run once per instance. */
  readonly subgraph: CompiledGraph<C, unknown>;
  /** Subgraph field whose final value each instance contributes. */
  readonly collectField: FieldOf<NoInfer<C>>;
  /** Parent field receiving the collected list (one reducer update, instance-index order). */
  readonly targetField: FieldOf<NoInfer<P>>;
  /**
   * Upper bound on concurrently running instances: a positive integer, `null` (unbounded), or a
   * function of the parent state returning one of those (resolved once at entry). `1` runs the
   * instances serially. Default {@link DEFAULT_FAN_OUT_CONCURRENCY}.
   */
  readonly concurrency?: FromState<P, number | null>;
  /** §9.5; default `"fail_fast"`. */
  readonly errorPolicy?: ErrorPolicy;
  /** `collect` only: parent list field (extending reducer) receiving one record per failed instance. */
  readonly errorsField?: FieldOf<NoInfer<P>>;
  /** Build the record written to `errorsField` (default {@link fanOutErrorRecord}: `{ fan_out_index, category, message }`). */
  readonly errorRecord?: (failure: InstanceFailure) => unknown;
  /** §9.1: what a resolved count of zero does. Default `"raise"` (`fan_out_empty`). */
  readonly onEmpty?: OnEmpty;
  /** Parent int field receiving the resolved instance count at fan-in. */
  readonly countField?: FieldOf<NoInfer<P>>;
  /** Extra per-instance inputs: subgraph field → parent field (read from the entry snapshot). */
  readonly inputs?: { readonly [K in FieldOf<NoInfer<C>>]?: FieldOf<NoInfer<P>> };
  /**
   * Extra outputs: parent field → subgraph field. Like the collect channel, the instances' values
   * (one slot each, in index order) are merged into the parent field as one list through its reducer.
   */
  readonly extraOutputs?: { readonly [K in FieldOf<NoInfer<P>>]?: FieldOf<NoInfer<C>> };
  /**
   * §9.7 instance middleware, outer to inner: the same chain wraps every instance's whole subgraph
   * invocation. Each sees the instance's initial state and returns the subgraph's final state or a
   * partial of it (a failure-isolation degraded update), read by subgraph field names at fan-in; a
   * retry re-runs the whole instance.
   */
  readonly instanceMiddleware?: readonly Middleware<StateRecord, StateRecord>[];
}

/** `items_field` mode: one instance per element of a parent list field. */
export interface FanOutItemsOptions<P extends StateRecord, C extends StateRecord> extends FanOutCommonOptions<P, C> {
  /** Parent list field; its length is the instance count. */
  readonly itemsField: FieldOf<NoInfer<P>>;
  /** Subgraph field each element is assigned to. */
  readonly itemField: FieldOf<NoInfer<C>>;
  readonly count?: undefined;
}

/** `count` mode: a fixed (or state-computed) number of instances, no per-item data. */
export interface FanOutCountOptions<P extends StateRecord, C extends StateRecord> extends FanOutCommonOptions<P, C> {
  /** A non-negative integer, or a function of the parent state returning one. */
  readonly count: FromState<P, number>;
  readonly itemsField?: undefined;
  readonly itemField?: undefined;
}

/** Fan-out options: exactly one of {@link FanOutItemsOptions} / {@link FanOutCountOptions}. */
export type FanOutOptions<P extends StateRecord, C extends StateRecord> = FanOutItemsOptions<P, C> | FanOutCountOptions<P, C>;

/** What validation resolved, per parent schema. */
interface FanOutPlan {
  readonly inPairs: readonly InPair[];
  readonly outPairs: readonly OutPair[];
  readonly reducerFor: (field: string) => Reducer<unknown, unknown>;
}

/** The entry-time resolution (§9.1 / §9.2), computed once per dispatch. */
interface Resolution {
  readonly count: number | undefined;
  readonly items: readonly unknown[] | undefined;
  readonly concurrency: number | null | undefined;
  readonly problem?: { readonly category: FanOutErrorCategory; readonly message: string };
  /** A `count` / `concurrency` callable raised. */
  readonly thrown?: { readonly error: unknown };
}

/** The {@link NodeKind} behind {@link fanOut}. */
export class FanOutNode implements NodeKind<StateRecord, StateRecord> {
  readonly kind = "fan_out";
  readonly subgraphs: readonly CompiledGraph<StateRecord, unknown>[];
  readonly options: FanOutOptions<StateRecord, StateRecord>;
  readonly errorPolicy: ErrorPolicy;
  readonly onEmpty: OnEmpty;
  readonly #plans = new WeakMap<object, FanOutPlan>();
  /** Resolution computed for the §6 `fan_out_config` of an attempt, reused by its `run`. */
  readonly #resolved = new WeakMap<object, Resolution>();

  constructor(options: FanOutOptions<StateRecord, StateRecord>) {
    this.options = Object.freeze({ ...options });
    this.errorPolicy = options.errorPolicy ?? "fail_fast";
    this.onEmpty = options.onEmpty ?? "raise";
    this.subgraphs = isCompiledGraph(options.subgraph) ? [options.subgraph] : [];
  }

  /** Every instance runs the one subgraph. */
  childGraph(): CompiledGraph<StateRecord, unknown> | undefined {
    return this.subgraphs[0];
  }

  /** §9 *Configuration* compile-time checks, against the parent graph being compiled. */
  validate(ctx: NodeCompileContext): void {
    const o = this.options;
    const parent = ctx.schema;
    let ok = true;
    const bad = (): void => {
      ok = false;
    };

    if (!isCompiledGraph(o.subgraph)) {
      invalid(ctx, "subgraph must be a CompiledGraph (call .compile() on its builder)");
      return;
    }
    const sub = o.subgraph.schema as unknown as typeof parent;

    // Mode: exactly one of items_field / count (§9 *Mutual exclusion*).
    const hasItems = o.itemsField !== undefined;
    const hasCount = o.count !== undefined;
    if (hasItems === hasCount) {
      ctx.error(
        "fan_out_count_mode_ambiguous",
        `fan-out node "${ctx.nodeName}" must specify exactly one of itemsField and count (got ${hasItems ? "both" : "neither"})`,
      );
      bad();
    } else if (hasItems) {
      if (requireDeclared(ctx, parent, "parent", o.itemsField, "itemsField")) {
        if (!isListField(parent, o.itemsField)) {
          ctx.error("fan_out_field_not_list", `fan-out node "${ctx.nodeName}": itemsField "${o.itemsField}" must be a list-typed field`, {
            field: o.itemsField,
          });
          bad();
        }
      } else bad();
      if (o.itemField === undefined) {
        invalid(ctx, "itemField is required in itemsField mode");
        bad();
      } else if (sub.extraFields === "forbid" && !requireDeclared(ctx, sub, "subgraph", o.itemField, "itemField")) {
        // §9 says item_field names a field of the subgraph state. An open schema
        // (`extraFields: "allow"`) admits any name as such a field — which is what the §9
        // conformance fixtures rely on (023 seeds an `item_field` its worker never declares). A
        // closed schema (the default) is checked strictly.
        bad();
      }
    } else {
      if (o.itemField !== undefined) {
        ctx.error("fan_out_count_mode_ambiguous", `fan-out node "${ctx.nodeName}": itemField must be absent in count mode`);
        bad();
      }
      if (typeof o.count !== "function" && !isNonNegativeInt(o.count)) {
        invalid(ctx, `count must be a non-negative integer or a function of the state, got ${describe(o.count)}`);
        bad();
      }
    }

    if (!requireDeclared(ctx, sub, "subgraph", o.collectField, "collectField")) bad();
    if (!requireDeclared(ctx, parent, "parent", o.targetField, "targetField")) bad();
    const mws = o.instanceMiddleware;
    if (mws !== undefined) {
      if (!Array.isArray(mws) || mws.some((m) => typeof m !== "function")) {
        invalid(ctx, "instanceMiddleware must be a list of middleware functions");
        bad();
      } else {
        for (const m of mws) {
          // §9.8: a static degraded update must fill the instance's slot.
          if (isFailureIsolationMiddleware(m) && m.staticDegradedUpdate !== undefined && !(o.collectField in (m.staticDegradedUpdate as object))) {
            ctx.error(
              "fan_out_degraded_update_missing_collect_field",
              `fan-out node "${ctx.nodeName}": the failure-isolation degraded update ${JSON.stringify(m.staticDegradedUpdate)} does not cover collect field "${o.collectField}"`,
              { field: o.collectField },
            );
            bad();
          }
        }
      }
    }

    const c = o.concurrency;
    if (c !== undefined && c !== null && typeof c !== "function" && !isPositiveInt(c)) {
      invalid(ctx, `concurrency must be a positive integer, null (unbounded) or a function of the state, got ${describe(c)}`);
      bad();
    }
    if (!ERROR_POLICIES.includes(this.errorPolicy)) {
      invalid(ctx, `errorPolicy must be "fail_fast" or "collect", got ${describe(this.errorPolicy)}`);
      bad();
    }
    if (this.onEmpty !== "raise" && this.onEmpty !== "noop") {
      invalid(ctx, `onEmpty must be "raise" or "noop", got ${describe(this.onEmpty)}`);
      bad();
    }
    if (o.errorRecord !== undefined && typeof o.errorRecord !== "function") {
      invalid(ctx, "errorRecord must be a function");
      bad();
    }
    if (o.errorsField !== undefined && !checkErrorsField(ctx, o.errorsField, "errorsField")) bad();
    if (o.countField !== undefined) {
      if (requireDeclared(ctx, parent, "parent", o.countField, "countField")) {
        if (!isIntField(parent, o.countField)) {
          ctx.error(
            "mapping_references_undeclared_field",
            `fan-out node "${ctx.nodeName}": countField "${o.countField}" must be an int-typed field`,
            { field: o.countField },
          );
          bad();
        }
      } else bad();
    }

    const inPairs = resolveInputs(ctx, o.inputs, sub, "inputs");
    const outPairs = resolveOutputs(ctx, o.extraOutputs, sub, "extraOutputs");
    if (!inPairs || !outPairs) bad();

    // Every parent field the fan-in writes receives exactly one update.
    const written = new Map<string, string>();
    const claim = (f: unknown, via: string): void => {
      if (typeof f !== "string") return;
      const prev = written.get(f);
      if (prev !== undefined) {
        invalid(ctx, `parent field "${f}" is written by both ${prev} and ${via}`, f);
        bad();
      } else written.set(f, via);
    };
    claim(o.targetField, "targetField");
    claim(o.errorsField, "errorsField");
    claim(o.countField, "countField");
    for (const [p] of outPairs ?? []) claim(p, `extraOutputs.${p}`);

    if (!ok || !inPairs || !outPairs) return;

    // graph-engine §2 round-trip warning, on both projection-out channels (§9.3).
    warnMapRoundTrips(ctx, inPairs, outPairs, "extraOutputs");
    const seededByInputs = inPairs.some(([s, p]) => s === o.collectField && p === o.targetField);
    const seededByItems = hasItems && o.itemField === o.collectField && o.itemsField === o.targetField;
    if (seededByInputs || seededByItems) {
      warnRoundTrip(
        ctx,
        o.targetField,
        seededByInputs
          ? `collectField "${o.collectField}" is seeded from it via inputs and collected back into it`
          : `each element is spread into itemField "${o.itemField}" and collected back into it`,
      );
    }

    this.#plans.set(parent, { inPairs, outPairs, reducerFor: ctx.reducerFor });
  }

  /** §6 `fan_out_config`, from the resolution at entry (reused by {@link run}). */
  eventFields(state: Readonly<StateRecord>): NodeEventExtras {
    const r = this.#resolve(state);
    this.#resolved.set(state, r);
    const c = this.options.concurrency;
    return {
      fanOutConfig: {
        itemCount: r.count ?? 0,
        concurrency: r.concurrency !== undefined ? r.concurrency : typeof c === "function" ? null : (c ?? DEFAULT_FAN_OUT_CONCURRENCY),
        errorPolicy: this.errorPolicy,
        parentNodeName: currentNodeContext()?.nodeName ?? "",
      },
    };
  }

  /** §9.1–§9.5: resolve, dispatch the instances, fan in. */
  async run(state: Readonly<StateRecord>, ctx: NodeExecutionContext<StateRecord>): Promise<StateRecord> {
    const plan = this.#plans.get(ctx.schema);
    if (!plan) throw new Error(`fan-out node "${ctx.nodeName}" was not validated against this graph's schema`);
    const r = this.#resolved.get(state) ?? this.#resolve(state);
    this.#resolved.delete(state);
    if (r.thrown) throw r.thrown.error;
    if (r.problem) throw new FanOutError(r.problem.category, r.problem.message, nodeLocation(ctx, state));
    const o = this.options;
    const n = r.count!;
    const fanIn = new FanInBuffer(plan.reducerFor);
    // §10.7 / §10.11 per-instance checkpointing: undefined unless the invocation runs with a
    // Checkpointer. Before any instance work (count drift raises checkpoint_record_invalid here).
    const cp = beginFanOutCheckpoint(ctx, n);

    if (n === 0) {
      if (this.onEmpty === "raise") {
        // §9.1: the propagated node_exception takes the place of the completed event.
        ctx.suppressCompletedEvent();
        throw new FanOutError(
          "fan_out_empty",
          `fan-out node "${ctx.nodeName}" resolved zero instances (onEmpty: "raise")`,
          nodeLocation(ctx, state),
        );
      }
      fanIn.set(o.targetField, []);
      if (o.errorsField !== undefined) fanIn.set(o.errorsField, []);
      if (o.countField !== undefined) fanIn.set(o.countField, 0);
      return fanIn.toUpdate();
    }

    // §9.1 per-instance projection: `inputs` from the entry snapshot, the item on top.
    const base = projectIn(plan.inPairs, state);
    const items = r.items;
    const itemField = o.itemField;
    const sub = o.subgraph;
    const collect = o.collectField;
    const record = o.errorRecord ?? fanOutErrorRecord;
    /** Each instance's contribution (§9.3 / §10.11): a live run's, or one rolled forward from the record. */
    const contributions: (InstanceContribution | undefined)[] = new Array<InstanceContribution | undefined>(n);
    const contributionOf = (final: Readonly<StateRecord>): InstanceContribution => {
      const v = final[collect];
      const c: { result: unknown; resultIsError: boolean; extraOutputs?: Record<string, unknown> } = { result: v === undefined ? null : v, resultIsError: false };
      // §9.3: one slot per instance; a value the (degraded) contribution lacks is null, not absent.
      if (plan.outPairs.length > 0) c.extraOutputs = Object.fromEntries(plan.outPairs.map(([p, s]) => [p, final[s] === undefined ? null : final[s]]));
      return c;
    };
    const instanceChain = o.instanceMiddleware ?? [];
    const outcome = await dispatchBounded<true>({
      count: n,
      concurrency: r.concurrency ?? null,
      errorPolicy: this.errorPolicy,
      signal: ctx.signal,
      task: async (i, signal) => {
        const saved = cp?.completed.get(i);
        if (saved !== undefined) {
          // §10.11.1: completed in the resumed-from run — not re-run; its entry rolls forward.
          contributions[i] = saved;
          return true;
        }
        cp?.instanceStarted(i);
        const input = items !== undefined && itemField !== undefined ? { ...base, [itemField]: items[i] } : base;
        let final: Readonly<StateRecord>;
        try {
          final =
            instanceChain.length > 0
              ? await runWrappingChain(instanceChain, input, (s) => ctx.runSubgraph(sub, s, { fanOutIndex: i, signal }) as Promise<StateRecord>, ctx)
              : await ctx.runSubgraph(sub, input, { fanOutIndex: i, signal });
        } catch (e) {
          // §10.11.2 collect: a recorded error entry is the instance's durable contribution.
          if (this.errorPolicy === "collect" && isInstanceFailure(e)) {
            const c: InstanceContribution = { result: record({ fanOutIndex: i, error: e }), resultIsError: true };
            contributions[i] = c;
            await cp?.instanceCompleted(i, c);
          }
          throw e;
        }
        const c = contributionOf(final);
        contributions[i] = c;
        await cp?.instanceCompleted(i, c);
        return true;
      },
    });

    if (outcome.fatal) {
      const e = outcome.fatal.error;
      // A cancellation (the caller's, surfacing at this node as invocation_cancelled) is not an instance failure.
      if (e instanceof GraphInterrupt || e instanceof CancelledError || outcome.cancelled) throw e;
      // §9.5 fail_fast: the offending instance's error, wrapped at the fan-out node's level.
      throw new FanOutInstanceError(outcome.fatal.index, e, nodeLocation(ctx, state));
    }

    // §9.3 fan-in, in instance-index order regardless of completion order.
    const collected: unknown[] = [];
    const records: unknown[] = [];
    // §9.3 extra outputs, like the collect channel: one slot per instance in index order (null where
    // a degraded contribution lacks the field), merged as one list through the parent's reducer.
    const extras = new Map<string, unknown[]>(plan.outPairs.map(([p]) => [p, []]));
    for (let i = 0; i < n; i++) {
      const c = contributions[i];
      if (outcome.succeeded[i] && c !== undefined && !c.resultIsError) {
        collected.push(c.result);
        for (const [p] of plan.outPairs) extras.get(p)!.push(c.extraOutputs?.[p] ?? null);
      } else if (c?.resultIsError === true) records.push(c.result);
      else if (!outcome.succeeded[i] && i in outcome.failures) records.push(record({ fanOutIndex: i, error: outcome.failures[i] }));
    }
    fanIn.set(o.targetField, collected);
    for (const [p, list] of extras) fanIn.set(p, list);
    if (o.errorsField !== undefined) fanIn.set(o.errorsField, records);
    if (o.countField !== undefined) fanIn.set(o.countField, n);
    return fanIn.toUpdate();
  }

  /** §9.1 count / items and §9.2 concurrency, against the entry snapshot. */
  #resolve(state: Readonly<StateRecord>): Resolution {
    const o = this.options;
    let count: number | undefined;
    let items: readonly unknown[] | undefined;
    let problem: Resolution["problem"];
    let thrown: Resolution["thrown"];
    try {
      if (o.itemsField !== undefined) {
        const v = state[o.itemsField];
        if (Array.isArray(v)) {
          items = v;
          count = v.length;
        } else {
          problem = {
            category: "fan_out_field_not_list",
            message: `fan-out itemsField "${o.itemsField}" holds ${describe(v)} at fan-out entry, not a list`,
          };
        }
      } else {
        const c = typeof o.count === "function" ? o.count(state) : o.count;
        if (isNonNegativeInt(c)) count = c;
        else problem = { category: "fan_out_invalid_count", message: `fan-out count resolved to ${describe(c)}; it must be a non-negative integer` };
      }
    } catch (error) {
      thrown = { error };
    }
    let concurrency: number | null | undefined;
    const c = o.concurrency;
    if (c === undefined) concurrency = DEFAULT_FAN_OUT_CONCURRENCY;
    else if (typeof c !== "function") concurrency = c;
    else if (!thrown) {
      try {
        const v = c(state);
        if (v === null || isPositiveInt(v)) concurrency = v;
        else {
          problem ??= {
            category: "fan_out_invalid_concurrency",
            message: `fan-out concurrency resolved to ${describe(v)}; it must be a positive integer or null (unbounded)`,
          };
        }
      } catch (error) {
        thrown = { error };
      }
    }
    return {
      count,
      items,
      concurrency,
      ...(problem !== undefined ? { problem } : {}),
      ...(thrown !== undefined ? { thrown } : {}),
    };
  }
}

/**
 * Whether an instance's error is a genuine instance failure (recorded under `collect`), not a
 * suspension, a cancellation, or a checkpoint failure (which fail the invocation instead).
 */
function isInstanceFailure(e: unknown): boolean {
  if (e instanceof GraphInterrupt || e instanceof CancelledError || isCheckpointError(e)) return false;
  return cancellationSignal()?.aborted !== true;
}

/**
 * Create a fan-out node (pipeline-utilities §9) for `GraphBuilder.addNode(name, fanOut({...}))`.
 * `P` (parent state) is inferred from the builder, `C` (instance state) from `subgraph`.
 */
export function fanOut<P extends StateRecord, C extends StateRecord, U = Partial<P>>(options: FanOutOptions<P, C>): NodeKind<P, U> {
  return new FanOutNode(options as unknown as FanOutOptions<StateRecord, StateRecord>) as unknown as NodeKind<P, U>;
}

