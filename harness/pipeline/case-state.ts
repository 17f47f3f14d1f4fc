/**
 * Per-case state of the pipeline-utilities harness: which call is running (so middleware built
 * at configure time record into that call's observation), the adapter's capture observer (the
 * node and failure-isolation events a case asserts without declaring an observer), the case's
 * monotonic clock (`clock_stub`), and the middleware configuration the case declared (for claims).
 */
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import { SlotKey } from "../../src/conformance/directive.ts";
import type { ObserverEvent } from "../../src/graph/index.ts";
import { GraphCaseHooksSlot } from "../graph/extensions.ts";
import { CapturedEvents, perCall } from "./facets.ts";

/** Where a middleware entry is registered. */
export interface MiddlewareSite {
  /** The graph it belongs to: the case graph's name, or a declared subgraph's. */
  readonly graph: string;
  /** The node it wraps; `null` for per-graph middleware. */
  readonly node: string | null;
  /** `per_graph` / `per_node` (the case-level `middleware:` block) or `node` (a node's own `middleware:`). */
  readonly scope: "per_graph" | "per_node" | "node";
  /** Position in its list (outer to inner). */
  readonly index: number;
}

/** One declared middleware entry, as the fixture wrote it. */
export interface MiddlewareConfig extends MiddlewareSite {
  readonly type: string;
  readonly entry: Readonly<Record<string, unknown>>;
}

/** The case's declared middleware, in declaration order (set on every call's observation). */
export const MiddlewareConfigs = new Facet<readonly MiddlewareConfig[]>("declared middleware");

const SCOPE_ORDER = { per_graph: 0, per_node: 1, node: 2 } as const;

/** The declared chain around `node` of `graph`, outer to inner (§3: per-graph outside per-node). */
export function chainFor(configs: readonly MiddlewareConfig[], graph: string, node: string): MiddlewareConfig[] {
  return configs
    .filter((c) => c.graph === graph && (c.node === null || c.node === node))
    .sort((a, b) => SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || a.index - b.index);
}

/** A monotonic clock: real (`performance.now`) unless `clock_stub` makes it deterministic. */
export class CaseClock {
  private stepMs: number | null = null;
  private t = 0;
  /** `clock_stub: {type: deterministic_monotonic, advance_ms_per_call}`: each read advances by `ms`. */
  makeDeterministic(ms: number): void {
    this.stepMs = ms;
    this.t = 0;
  }
  readonly now = (): number => {
    if (this.stepMs === null) return performance.now();
    this.t += this.stepMs;
    return this.t;
  };
}

export class PipelineCaseState {
  private current: Observation | null = null;
  private installed = false;
  readonly clock = new CaseClock();
  readonly configs: MiddlewareConfig[] = [];

  /**
   * Hook the case's calls once: before each call, bind the call's observation (recorders write to
   * it) and start its capture list; before the first call, attach the capture observer to the
   * compiled outermost graph (a parent-attached observer receives inner events too, graph-engine §6).
   */
  install(slot: <T>(key: SlotKey<T>) => T): this {
    if (this.installed) return this;
    this.installed = true;
    const hooks = slot(GraphCaseHooksSlot);
    hooks.beforeCall.push((c) => {
      this.current = c.observation;
      c.observation.set(CapturedEvents, []).set(MiddlewareConfigs, [...this.configs]);
    });
    hooks.beforeCalls.push((graph) => {
      graph.attachObserver((event: ObserverEvent) => {
        if (this.current) perCall(this.current, CapturedEvents, () => []).push(event);
      }, { name: "pipeline-utilities capture" });
    });
    return this;
  }

  /** The running call's observation (middleware run only inside a call). */
  call(): Observation {
    if (this.current === null) throw new Error("pipeline harness: no call is running");
    return this.current;
  }
}

export const PipelineCase = new SlotKey<PipelineCaseState>("pipeline-utilities case", () => new PipelineCaseState());

/** The case's pipeline state, with its call hooks installed. */
export function pipelineCase(slot: <T>(key: SlotKey<T>) => T): PipelineCaseState {
  return slot(PipelineCase).install(slot);
}
