/**
 * Observers (graph-engine §6 *Observer hooks*): read-only async callbacks receiving every event of
 * an invocation. Two registration modes — graph-attached (`CompiledGraph.attachObserver`) and
 * invocation-scoped (`invoke(state, { observers })`) — both accepting an optional `phases` set.
 */
import type { CompiledGraph } from "./compiled-graph.ts";
import type { NodePhase, ObserverEvent } from "./events.ts";
import type { StateRecord } from "./state-types.ts";

/** A compiled graph of any state type, as an invocation observer's `graph` scope. */
export type ScopeGraph = CompiledGraph<StateRecord, unknown>;

/** What an observer receives besides the event. */
export interface DeliveryContext {
  /** The invocation the event belongs to. */
  readonly invocationId: string;
  /**
   * Aborted when a process-wide `drain()` times out and cancels this invocation's worker — lets
   * cancellation-safe observers stop early (§6 *Drain*).
   */
  readonly signal: AbortSignal;
}

/**
 * An observer: returns nothing of interest. Async per §6; a synchronous function is accepted and
 * treated as an already-resolved one.
 */
export type Observer = (event: ObserverEvent, ctx: DeliveryContext) => void | Promise<void>;

/** Registration options. */
export interface ObserverOptions {
  /**
   * Phases to receive (default: all — `started`, `completed`, `suspended`). Events without a phase
   * (non-node event kinds) are always delivered. An empty set is rejected with a `RangeError`.
   */
  readonly phases?: Iterable<NodePhase>;
  /** Name used when reporting the observer's errors. */
  readonly name?: string;
}

/** An observer plus options, as accepted by `invoke({ observers })`. */
export interface ObserverSpec extends ObserverOptions {
  readonly observer: Observer;
  /**
   * Scope the invocation-scoped observer to one graph's runs (an additional registration mode,
   * §6 *MAY provide additional registration modes*): it receives only the events a graph-attached
   * observer on `graph` would — those of `graph`'s nodes and of the graphs nested under them —
   * during this invocation only. `graph` is the invoked graph or one of its subgraphs (anything
   * else is a `RangeError` at `invoke()`). Its delivery position stays that of an
   * invocation-scoped observer (after every graph-attached one, in the order passed).
   */
  readonly graph?: ScopeGraph;
}

/** Either a bare observer or an {@link ObserverSpec}. */
export type ObserverInput = Observer | ObserverSpec;

/** A normalized registration. `phases === null` means every phase. */
export interface ObserverRegistration {
  readonly observer: Observer;
  readonly phases: ReadonlySet<NodePhase> | null;
  readonly name: string;
  /** @internal invocation-scoped only: the graph runtime whose runs the observer is scoped to. */
  readonly scope?: unknown;
}

const VALID_PHASES: ReadonlySet<string> = new Set(["started", "completed", "suspended"]);

/** Normalize and validate a registration (§6: empty phase sets are rejected at registration). */
export function toRegistration(observer: Observer, options: ObserverOptions = {}): ObserverRegistration {
  if (typeof observer !== "function") throw new TypeError("an observer must be a function");
  let phases: ReadonlySet<NodePhase> | null = null;
  if (options.phases !== undefined) {
    if (typeof options.phases === "string") throw new TypeError("phases must be an iterable of phase names, not a string");
    const set = new Set<NodePhase>();
    for (const p of options.phases) {
      if (!VALID_PHASES.has(p)) throw new RangeError(`unknown observer phase ${JSON.stringify(p)}`);
      set.add(p);
    }
    if (set.size === 0) throw new RangeError("an observer's phases set must not be empty");
    phases = set;
  }
  return Object.freeze({ observer, phases, name: options.name ?? (observer.name || "anonymous observer") });
}

/** Normalize an {@link ObserverInput}. */
export function normalizeObserverInput(input: ObserverInput): ObserverRegistration {
  if (typeof input === "function") return toRegistration(input);
  if (typeof input === "object" && input !== null && typeof input.observer === "function") {
    return toRegistration(input.observer, input);
  }
  throw new TypeError("an observer must be a function or { observer, phases?, name? }");
}

/** An observer error, reported instead of being propagated (§6: observer errors are isolated). */
export interface ObserverErrorReport {
  readonly error: unknown;
  readonly event: ObserverEvent;
  readonly observerName: string;
  readonly invocationId: string;
}

/** Receives {@link ObserverErrorReport}s. Defaults to `console.warn` when none is configured. */
export type ObserverErrorHandler = (report: ObserverErrorReport) => void;

/** The default observer-error channel (§6: "SHOULD report ... e.g. TypeScript's console.warn"). */
export const warnObserverError: ObserverErrorHandler = (r) => {
  const ev = r.event as { kind: string; phase?: string; nodeName?: string };
  const where = ev.kind === "node" ? `${ev.phase} event of node "${ev.nodeName}"` : `${ev.kind} event`;
  console.warn(`[openarmature] observer "${r.observerName}" raised on the ${where} (invocation ${r.invocationId}):`, r.error);
};
