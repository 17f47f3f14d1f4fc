import { expect } from "chai";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { defineState, END, field, GraphBuilder, GraphRuntimeError, isNodeEvent, type NodeEvent, type Observer, type ObserverEvent } from "../../src/graph/index.ts";
import { suspend } from "../../src/suspension/index.ts";
import { tempDir as exitCleanedTempDir } from "../support/temp-dir.ts";

/** A recording observer (node events only). */
export function recorder(): Observer & { events: NodeEvent[] } {
  const events: NodeEvent[] = [];
  const fn = ((e: ObserverEvent) => {
    if (isNodeEvent(e)) events.push(e);
  }) as unknown as Observer & { events: NodeEvent[] };
  fn.events = events;
  return fn;
}

/** `phase:node` per event. */
export function phases(events: readonly NodeEvent[]): string[] {
  return events.map((e) => `${e.phase}:${e.namespace.join("/")}`);
}

/** The rejection of `p` (fails when it resolves). */
export async function rejection(p: Promise<unknown>): Promise<GraphRuntimeError & { [k: string]: unknown }> {
  try {
    await p;
  } catch (e) {
    expect(e).to.be.instanceOf(Error);
    return e as GraphRuntimeError & { [k: string]: unknown };
  }
  expect.fail("expected the promise to reject");
}

/** The suspension category of an error: its own, or its cause's through carriers. */
export function categoryOf(e: unknown): string | undefined {
  let x: unknown = e;
  for (let i = 0; i < 16 && x instanceof Error; i++) {
    const c = (x as { category?: unknown; isCarrier?: unknown }).category;
    if (typeof c === "string" && (x as { isCarrier?: unknown }).isCarrier !== true) return c;
    x = x.cause;
  }
  return (e as { category?: string }).category;
}

/** A temp directory, removed by `cleanup()`. */
export function tempDir(): { dir: string; file(name: string): string; cleanup(): void } {
  const dir = exitCleanedTempDir("oa-suspension-");
  return { dir, file: (n) => join(dir, n), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const ApprovalState = defineState({
  approved: field.bool().default(false),
  completed: field.bool().default(false),
  log: field.list(field.string()).default([]).reducer("append"),
});

/** gate (suspends) → next (records the approval) → END. */
export function approvalGraph(options: { markNodeCompleted?: boolean; seen?: unknown[] } = {}) {
  return new GraphBuilder(ApprovalState)
    .addNode("gate", async (s) => {
      options.seen?.push(s.approved);
      if (!s.approved) suspend({ signalId: "approval-1", metadata: { kind: "approval" } }, { markNodeCompleted: options.markNodeCompleted ?? true });
      return { log: ["gate"] };
    })
    .addNode("next", async (s) => ({ completed: s.approved, log: ["next"] }))
    .addEdge("gate", "next")
    .addEdge("next", END)
    .setEntry("gate")
    .compile({ name: "approval" });
}
