/**
 * Reading a graph call for assertions: the §5.8 category rule over cause chains, node events in
 * the spec's field names, and the matcher shapes of the positions graph assertions read.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { isNodeEvent, type NodeEvent, type ObserverEvent } from "../../src/graph/index.ts";
import { toSpecEvent } from "../../src/internal.ts";
import { isSignalDescriptor, toDescriptorDocument } from "../../src/internal.ts";
import * as F from "./facets.ts";

interface Link {
  readonly error: unknown;
  readonly category: string | null;
  readonly message: string;
  readonly carrier: boolean;
}

/** The cause chain, outermost first (bounded, cycle-safe). */
export function causeChain(error: unknown): Link[] {
  const out: Link[] = [];
  const seen = new Set<unknown>();
  let e: unknown = error;
  while (e !== undefined && e !== null && !seen.has(e) && out.length < 64) {
    seen.add(e);
    const cat = (e as { category?: unknown }).category;
    out.push({
      error: e,
      category: typeof cat === "string" && cat !== "" ? cat : null,
      message: e instanceof Error ? e.message : String(e),
      carrier: (e as { isCarrier?: unknown }).isCarrier === true,
    });
    e = e instanceof Error ? e.cause : undefined;
  }
  return out;
}

/**
 * §5.8 category rule (pipeline-utilities §6.4): the category of the outermost non-carrier link
 * with a category; failing that, the outermost carrier's own category. `message` is that link's
 * message, or the outermost non-carrier link's when no non-carrier link has a category.
 */
export function classify(error: unknown): { category: string | null; message: string | null; causeMessage: string | null } {
  const chain = causeChain(error);
  const innermost = chain[chain.length - 1];
  const hit = chain.find((l) => !l.carrier && l.category !== null);
  if (hit) return { category: hit.category, message: hit.message, causeMessage: innermost?.message ?? null };
  const carrier = chain.find((l) => l.carrier);
  const firstNonCarrier = chain.find((l) => !l.carrier);
  return {
    category: carrier?.category ?? null,
    message: firstNonCarrier?.message ?? carrier?.message ?? null,
    causeMessage: innermost?.message ?? null,
  };
}

/**
 * A node event as the fixtures write it (snake_case fields; `error` as `{category, message}`; a
 * suspension descriptor as `{signal_id, metadata}`, suspension §4).
 */
export function eventRecord(e: NodeEvent): Record<string, unknown> {
  const r = toSpecEvent(e) as unknown as Record<string, unknown>;
  return isSignalDescriptor(e.descriptor) ? { ...r, descriptor: toDescriptorDocument(e.descriptor) } : r;
}

export function nodeEvents(events: readonly ObserverEvent[]): NodeEvent[] {
  return events.filter(isNodeEvent) as NodeEvent[];
}

/** An observer-event entry: named keys; state snapshots exact; namespace / parent_states whole lists. */
export const EVENT_SHAPE: Shape = Shapes.named({
  keys: {
    pre_state: Shapes.exact(),
    post_state: Shapes.exact(),
    parent_states: Shapes.list("ordered", Shapes.exact()),
    namespace: Shapes.list("ordered"),
    descriptor: Shapes.named({ keys: { metadata: Shapes.exact() } }),
  },
});

/** The observed call result, or a direct failure when the block needs something else. */
export function completedState(obs: Observation, ctx: CheckContext): Readonly<Record<string, unknown>> | null {
  const r = obs.get(F.Result, ctx.locate(ctx.self.path));
  if (r.kind === "completed") return r.state;
  ctx.fail(`the call did not complete: ${describeResult(r)}`);
  return null;
}

export function describeResult(r: F.CallResult): string {
  switch (r.kind) {
    case "completed":
      return "it completed";
    case "suspended":
      return `it suspended at node '${r.nodeName}'`;
    case "errored": {
      const c = classify(r.error);
      return `it errored with ${c.category ?? "an uncategorized error"}: ${c.message ?? r.error.message}`;
    }
    case "compile_error":
      return `compilation failed with ${(r.error as { category?: string }).category ?? "an error"}: ${r.error.message}`;
  }
}

/** The events one observer received during the call (node events only). */
export function observerEvents(obs: Observation, ctx: CheckContext, name: string): NodeEvent[] | null {
  const observers = obs.get(F.Observers, ctx.locate(ctx.self.path));
  const o = observers.get(name);
  if (!o) {
    ctx.fail(`no observer named '${name}' is declared in this case`);
    return null;
  }
  return nodeEvents(o.eventsOf(obs.get(F.CallIndex, ctx.locate(ctx.self.path))));
}
