/**
 * The graph executor: builds the case's graph with the real engine, attaches the harness
 * observers, makes each invoke() call the case describes (single, `run_count` times, or the
 * `invocations:` list), waits for observer delivery, and reports what each call produced.
 */
import {
  CompileError as EngineCompileError,
  drain,
  stateSchema,
  type CompiledGraph,
  type CompileWarning,
  type InvocationResult,
  type InvokeOptions,
  type NodePhase,
  type ObserverInput,
} from "../../src/graph/index.ts";
import { ConformanceError, FixtureSchemaInvalid, HarnessPrimitiveMissing } from "../../src/conformance/errors.ts";
import type { CallRecord, CaseExecutor, RunContext } from "../../src/conformance/directive.ts";
import { InvocationPlan } from "../../src/conformance/invocation-plan.ts";
import { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { HarnessObserver, type Delivery } from "../observers.ts";
import { buildGraph, toStateSpec } from "./build.ts";
import * as F from "./facets.ts";
import { timedDrain } from "./drain-summary.ts";
import { causeChain } from "./reading.ts";
import { CaseGraph, GraphSpec, subgraphPlanSpec } from "./graph-spec.ts";
import type { BuildEnv, CallData } from "./node-directive.ts";
import { CaseObservers, type ObserverDecl } from "./observer-decls.ts";
import { CALL_RUNNER, GraphCaseHooksSlot, type CallContext, type CallRunner } from "./extensions.ts";

const defaultRunner: CallRunner = (ctx) => ctx.graph.invoke(ctx.initialState, ctx.options);

/** Plan inputs the graph executor reads. */
export const RUN_COUNT = "run_count";
export const DRAIN = "drain";
export const INITIAL_STATE = "initial_state";

interface DrainRequest {
  readonly timeoutSeconds: number | null;
}

export const graphExecutor: CaseExecutor = {
  name: "graph",
  run: (rc) => new GraphRun(rc).run(),
};

class GraphRun {
  private readonly graphs = new Map<string, CompiledGraph>();
  private readonly building = new Set<string>();

  private readonly observers = new Map<string, HarnessObserver>();
  private readonly deliveries: Delivery[] = [];
  private readonly clock = { current: 0 };
  private call: CallData = { index: 0, nodeDrains: new Map(), observation: new Observation(null), defects: [] };
  private readonly warnings: CompileWarning[] = [];
  /** Graph name → the graph-part spec it was built from (for observer targets). */
  private root: CompiledGraph | null = null;

  constructor(private readonly rc: RunContext) {}

  private env(spec: GraphSpec): BuildEnv {
    return {
      caseSpec: this.rc.caseSpec,
      locate: this.rc.locate,
      graphName: spec.name,
      subgraph: (name, where, node) => this.subgraph(name, where, spec.name, node),
      observer: (name, where) => {
        const o = this.observers.get(name);
        if (!o) throw new FixtureSchemaInvalid(`no observer named '${name}' is declared in this case`, this.rc.locate(where));
        return o;
      },
      currentCall: () => this.call,
      slot: (key) => this.rc.slot(key),
      resolve: (position, value, path) => {
        const r = this.rc.resolve(position, value, path);
        this.rc.throwIfUnknown();
        return r;
      },
      fieldNames: new Set(Object.keys((spec.state?.value.fields ?? {}) as object)),
    };
  }

  /** Graph-part specs of every declared subgraph, configured before anything is built. */
  private readonly specs = new Map<string, GraphSpec>();
  /** parent graph name → subgraphs its nodes use; node name → the subgraph it runs. */
  private readonly children = new Map<string, Set<string>>();
  private readonly nodeSubgraph = new Map<string, string>();

  private async configureSubgraphs(): Promise<void> {
    const decls = new Map<string, { readonly body: Readonly<Record<string, unknown>>; readonly path: KeyPath }>(this.rc.slot(GraphCaseHooksSlot).extraSubgraphs);
    for (const [name, decl] of this.rc.caseSpec.subgraphs) decls.set(name, decl);
    for (const [name, decl] of decls) {
      const spec = new GraphSpec(decl.path, name);
      const plan = new InvocationPlan(name, decl.path, "subgraph");
      subgraphPlanSpec(plan, spec);
      // A subgraph body is a graph specification: its keys resolve at the `subgraph` position.
      const resolved = this.rc.resolve("subgraph", decl.body, decl.path);
      await this.rc.configureAll(resolved, plan);
      this.specs.set(name, spec);
    }
    // An overridden declaration never runs, but its keys are still the fixture's: check them, and
    // each of its nodes' directives (names and value shapes), without configuring anything.
    for (const decl of this.rc.caseSpec.shadowed) {
      this.rc.resolve("subgraph", decl.body, decl.path);
      // Its state schema too (§5.2: a default MUST match the declared type), through the engine.
      const state = decl.body["state"];
      if (typeof state === "object" && state !== null && !Array.isArray(state) && typeof (state as { fields?: unknown }).fields === "object") {
        try {
          stateSchema(toStateSpec(state as Record<string, unknown>, { locate: (p) => this.rc.locate(p), path: [...decl.path, "state"] })).checkDefaults();
        } catch (err) {
          if (!(err instanceof EngineCompileError)) throw err;
          throw new FixtureSchemaInvalid(`the overridden subgraph declaration's state schema is invalid: ${err.message}`, this.rc.locate([...decl.path, "state"]), { cause: err });
        }
      }
      const nodes = decl.body["nodes"];
      if (typeof nodes !== "object" || nodes === null || Array.isArray(nodes)) continue;
      for (const [node, body] of Object.entries(nodes as Record<string, unknown>)) {
        if (typeof body === "object" && body !== null && !Array.isArray(body)) {
          this.rc.resolve("node", body as Record<string, unknown>, [...decl.path, "nodes", node]);
        }
      }
    }
    this.rc.throwIfUnknown();
  }

  private subgraph(name: string, where: KeyPath, parent: string, node: string): CompiledGraph {
    let kids = this.children.get(parent);
    if (!kids) this.children.set(parent, (kids = new Set()));
    kids.add(name);
    if (!this.nodeSubgraph.has(node)) this.nodeSubgraph.set(node, name);
    const built = this.graphs.get(name);
    if (built) return built;
    const spec = this.specs.get(name);
    if (!spec) throw new FixtureSchemaInvalid(`no subgraph named '${name}' is declared for this case`, this.rc.locate(where));
    if (this.building.has(name)) throw new FixtureSchemaInvalid(`subgraph '${name}' contains itself`, this.rc.locate(where));
    this.building.add(name);
    try {
      const hooks = this.rc.slot(GraphCaseHooksSlot);
      const g = buildGraph(spec, this.env(spec), {
        warnings: this.warnings,
        middleware: hooks.subgraphMiddleware.get(name) ?? [],
        nodeMiddleware: (node) => hooks.nodeMiddleware.get(`${name}/${node}`) ?? [],
      });
      this.graphs.set(name, g);
      return g;
    } finally {
      this.building.delete(name);
    }
  }

  async run(): Promise<CallRecord[]> {
    const decls = this.rc.slot(CaseObservers);
    for (const d of decls) {
      this.observers.set(d.name, new HarnessObserver(d.name, d.behavior, this.clock, this.deliveries, d.pace));
    }
    const plans = this.plans();
    await this.configureSubgraphs();
    let root: CompiledGraph;
    const rootSpec = this.rc.slot(CaseGraph);
    try {
      const hooks = this.rc.slot(GraphCaseHooksSlot);
      root = buildGraph(rootSpec, this.env(rootSpec), {
        warnings: this.warnings,
        middleware: hooks.graphMiddleware,
        nodeMiddleware: (node) => hooks.nodeMiddleware.get(node) ?? [],
      });
    } catch (err) {
      // A fixture defect found while building (an unknown or malformed node directive) is the
      // case's own error, not a compile error of the graph.
      if (err instanceof ConformanceError || (!(err instanceof EngineCompileError) && !isCategorized(err))) throw err;
      return plans.map((plan, i) =>
        ({ plan, observation: this.observation(plan, i).set(F.Result, { kind: "compile_error", error: err as Error }).set(F.CompileWarnings, [...this.warnings]) }),
      );
    }
    const registrationErrors = this.attachObservers(root, decls);
    const invocationObservers = this.invocationObservers(root, decls);
    this.root = root;
    const hooks = this.rc.slot(GraphCaseHooksSlot);
    try {
      // Registration (stores, checkpointers, migration registries, ...) completes before the first
      // invoke(): a categorized error raised here is a registration-time error of every call
      // (§5.8 `raised_at: registration`), not one the first invoke() raised.
      for (const before of hooks.beforeCalls) await before(root);
    } catch (err) {
      if (err instanceof ConformanceError || !isCategorized(err)) throw err;
      return plans.map((plan, i) =>
        ({ plan, observation: this.observation(plan, i).set(F.Result, { kind: "compile_error", error: err as Error }).set(F.CompileWarnings, [...this.warnings]) }),
      );
    }
    const records: CallRecord[] = [];
    for (const [i, plan] of plans.entries()) {
      this.clock.current = i;
      const obs = this.observation(plan, i);
      this.call = { index: i, nodeDrains: new Map(), observation: obs, defects: [] };
      obs.set(F.CompileWarnings, [...this.warnings]).set(F.RegistrationErrors, registrationErrors).set(F.RootGraph, root);
      const firstDelivery = this.deliveries.length;
      const base = {
        plan,
        index: i,
        graph: root,
        initialState: (plan.input(INITIAL_STATE) ?? this.rc.casePlan.input(INITIAL_STATE) ?? {}) as Record<string, unknown>,
        previous: records.map((r) => r.observation),
        observation: obs,
      };
      let options: InvokeOptions = {
        observers: [...invocationObservers],
        onObserverError: () => {},
        signal: this.rc.signal,
        ...(hooks.invocationHooks.length > 0 ? { hooks: hooks.invocationHooks } : {}),
      };
      for (const extra of hooks.invokeOptions) {
        const o = extra(base);
        options = { ...options, ...o, observers: [...(options.observers ?? []), ...(o.observers ?? [])] };
      }
      const ctx: CallContext = { ...base, options };
      const runner = plan.input<CallRunner>(CALL_RUNNER) ?? hooks.runner ?? defaultRunner;
      for (const before of hooks.beforeCall) await before(ctx);
      let invocationId: string | null = null;
      let outcome: InvocationResult | Error;
      try {
        const result = await runner(ctx);
        outcome = result;
        invocationId = result.invocationId;
        obs.set(F.ExecutionOrder, result.executionOrder);
        if (result.outcome === "completed") obs.set(F.Result, { kind: "completed", state: result.state });
        else obs.set(F.Result, { kind: "suspended", state: result.state, nodeName: result.nodeName, descriptor: result.interrupt.descriptor });
      } catch (err) {
        const e = err as Error & { invocationId?: string; executionOrder?: readonly string[] };
        // A fixture defect the harness found while running the call is the case's own error, also
        // when a node body raised it and the engine wrapped it (node_exception, a fan-out's error):
        // it must not pass as the errored outcome a case asserts. So is an uncategorized error,
        // unless the case asserts an API-boundary rejection and invoke() raised it before any
        // invocation existed.
        const defect = causeChain(err).find((l) => l.error instanceof ConformanceError)?.error;
        if (defect !== undefined) throw defect;
        if (!isCategorized(e)) {
          if (!hooks.acceptBoundaryRejection || !(err instanceof Error) || e.invocationId !== undefined) throw err;
          obs.set(F.BoundaryRejection, e);
        }
        outcome = e;
        invocationId = e.invocationId ?? null;
        obs.set(F.Result, { kind: "errored", error: e });
        if (e.executionOrder) obs.set(F.ExecutionOrder, e.executionOrder);
      }
      // A defect some middleware caught (failure isolation, collect mode) still fails the case.
      const caught = this.call.defects[0];
      if (caught !== undefined) throw caught;
      obs.set(F.InvocationId, invocationId);
      const drainReq = plan.input<DrainRequest>(DRAIN);
      if (drainReq !== undefined) {
        const timeoutMs = drainReq.timeoutSeconds === null ? null : drainReq.timeoutSeconds * 1000;
        obs.set(F.DrainResult, await timedDrain(timeoutMs, () => drain({ timeoutMs })));
        obs.set(F.DeliveriesAtDrainReturn, new Map([...this.observers].map(([name, o]) => [name, o.deliveryCounts(i)])));
      } else if (invocationId !== null) {
        await root.drainEventsFor(invocationId); // read observer state once delivery completed (§8.4)
      }
      for (const after of hooks.afterCall) await after(ctx, outcome);
      obs.set(F.Deliveries, this.deliveries.slice(firstDelivery).filter((d) => d.call === i));
      obs.set(F.NodeDrains, this.call.nodeDrains);
      records.push({ plan, observation: obs });
    }
    return records;
  }

  private observation(plan: InvocationPlan, index: number): Observation {
    return new Observation(plan.name)
      .set(F.Observers, this.observers)
      .set(F.CallIndex, index);
  }

  /**
   * The calls to make: the `invocations:` entries; else the case's own call (`run_count` times)
   * followed by any follow-up plans bundles created (e.g. a `resume:` block), in creation order.
   */
  private plans(): InvocationPlan[] {
    if (this.rc.invocations.length > 0) {
      // run_count repeats the case's own call; a case calling through invocations: has none to repeat.
      if (this.rc.casePlan.hasInput(RUN_COUNT)) {
        throw new FixtureSchemaInvalid(
          "run_count repeats the case's own call (§5.7), but this case makes its calls through invocations: (§4.3): write the calls as entries, or drop invocations:",
          this.rc.locate([...this.rc.caseSpec.path, "run_count"]),
        );
      }
      const defaults = this.rc.slot(GraphCaseHooksSlot).invocationDefaults;
      for (const plan of this.rc.invocations) {
        for (const key of defaults) if (!plan.hasInput(key) && this.rc.casePlan.hasInput(key)) plan.setInput(key, this.rc.casePlan.input(key));
      }
      return [...this.rc.invocations];
    }
    const n = this.rc.casePlan.input<number>(RUN_COUNT) ?? 1;
    return [...Array.from({ length: n }, () => this.rc.casePlan), ...this.rc.followUps];
  }

  private attachObservers(root: CompiledGraph, decls: readonly ObserverDecl[]): Map<string, Error> {
    const errors = new Map<string, Error>();
    for (const d of decls) {
      if (d.attach !== "graph") continue;
      const g = this.targetGraph(root, d.target, d.path);
      const o = this.observers.get(d.name) as HarnessObserver;
      try {
        g.attachObserver(o.observe, { name: d.name, ...(d.phases !== undefined ? { phases: d.phases as NodePhase[] } : {}) });
      } catch (err) {
        errors.set(d.name, err as Error);
      }
    }
    return errors;
  }

  /**
   * The `attach: invocation` observers, passed through `invoke({ observers })`. A target other than
   * `outer` scopes the observer to that graph's runs (the engine's `graph` option): it receives what
   * a graph-attached observer on the target would, for this one invocation.
   */
  private invocationObservers(root: CompiledGraph, decls: readonly ObserverDecl[]): ObserverInput[] {
    const out: ObserverInput[] = [];
    for (const d of decls) {
      if (d.attach !== "invocation") continue;
      const g = this.targetGraph(root, d.target, d.path);
      const o = this.observers.get(d.name) as HarnessObserver;
      out.push({
        observer: o.observe,
        name: d.name,
        ...(g !== root ? { graph: g } : {}),
        ...(d.phases !== undefined ? { phases: d.phases as NodePhase[] } : {}),
      });
    }
    return out;
  }

  /** `outer`, `inner` (the innermost subgraph), or a subgraph / subgraph-node name. */
  private targetGraph(root: CompiledGraph, target: string, path: KeyPath): CompiledGraph {
    if (target === "outer") return root;
    const name = target === "inner" ? this.innermost(root.name) : this.graphs.has(target) ? target : this.nodeSubgraph.get(target);
    const g = name !== undefined ? this.graphs.get(name) : undefined;
    if (g === undefined || g === root) {
      throw new FixtureSchemaInvalid(
        target === "inner" ? "observer target 'inner' but the graph runs no subgraph" : `observer target '${target}' names no subgraph or subgraph node (graph-engine §6 registers observers on a graph or an invocation, never on a node that runs no subgraph)`,
        this.rc.locate(path),
      );
    }
    return g;
  }

  /** The deepest subgraph under `graph` (first found at the greatest depth). */
  private innermost(graph: string): string | undefined {
    let best: string | undefined;
    let bestDepth = 0;
    const walk = (g: string, depth: number, seen: Set<string>): void => {
      if (depth > bestDepth) {
        best = g;
        bestDepth = depth;
      }
      for (const c of this.children.get(g) ?? []) if (!seen.has(c)) walk(c, depth + 1, new Set([...seen, c]));
    };
    walk(graph, 0, new Set([graph]));
    return best;
  }
}

function isCategorized(e: unknown): boolean {
  return e instanceof Error && typeof (e as { category?: unknown }).category === "string";
}
