import {
  END,
  GraphBuilder,
  isNodeEvent,
  stateSchema,
  type CompiledGraph,
  type NodeContext,
  type NodeEvent,
  type NodeKind,
  type Observer,
  type ObserverEvent,
  type StateRecord,
  type StateSpec,
} from "../../src/graph/index.ts";

export type Fields = StateSpec["fields"];
type Body = (s: Readonly<StateRecord>, ctx: NodeContext) => unknown;

/** A linear graph over `fields`: nodes run in order, the last routes to END. */
export function chain(fields: Fields, nodes: [string, Body | NodeKind][], name = "graph"): CompiledGraph<StateRecord, unknown> {
  const b = new GraphBuilder(stateSchema({ fields }));
  nodes.forEach(([n, body], i) => {
    if (typeof body === "function") b.addNode(n, async (s, ctx) => (await body(s, ctx)) as StateRecord);
    else b.addNode(n, body);
    b.addEdge(n, i + 1 < nodes.length ? nodes[i + 1]![0] : END);
  });
  return b.setEntry(nodes[0]![0]).compile({ name, onWarning: () => {} });
}

/** A one-node graph. */
export function single(fields: Fields, node: string, body: Body | NodeKind, name = node): CompiledGraph<StateRecord, unknown> {
  return chain(fields, [[node, body]], name);
}

/** A recording observer. */
export function recorder(): Observer & { events: NodeEvent[] } {
  const events: NodeEvent[] = [];
  const fn = ((e: ObserverEvent) => {
    if (isNodeEvent(e)) events.push(e);
  }) as unknown as Observer & { events: NodeEvent[] };
  fn.events = events;
  return fn;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A seeded PRNG (mulberry32), so "random" delays are reproducible. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export { compileErrorOf, runtimeErrorOf } from "../graph/helpers.ts";

/** Tracks how many instances are in flight, and the maximum reached. */
export class InFlight {
  now = 0;
  max = 0;
  readonly started: number[] = [];
  enter(i: number): void {
    this.started.push(i);
    this.now++;
    if (this.now > this.max) this.max = this.now;
  }
  exit(): void {
    this.now--;
  }
}
