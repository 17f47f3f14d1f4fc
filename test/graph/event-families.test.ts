import { expect } from "chai";
import {
  END,
  eventFamilyByType,
  eventFamilyOf,
  graph,
  registerEventFamily,
  stateSchema,
  toSpecRecord,
  eventTypeName,
  currentNodeContext,
  type InvocationHooks,
  type ObserverEvent,
} from "../../src/graph/index.ts";
import { lineageRecord, nodeLineageRecord } from "../../src/graph/event-families.ts";
import { toSpecFailureIsolationEvent } from "../../src/internal.ts";
import type { FailureIsolationEvent } from "../../src/pipeline/middleware/index.ts";
import "../../src/llm/index.ts";

describe("typed event families (graph-engine §6 typed variants)", () => {
  it("names every engine and LLM / tool family by its spec type name and kind", () => {
    for (const [type, kind] of [
      ["NodeEvent", "node"],
      ["LlmCompletionEvent", "llm_completion"],
      ["LlmFailedEvent", "llm_failed"],
      ["LlmTokenEvent", "llm_token"],
      ["ToolCallEvent", "tool_call"],
      ["ToolCallFailedEvent", "tool_call_failed"],
    ] as const) {
      expect(eventFamilyByType(type)?.kind, type).to.equal(kind);
      expect(eventFamilyOf({ kind })?.typeName).to.equal(type);
    }
    expect(eventTypeName({ kind: "unknown_kind" })).to.equal("unknown_kind");
  });

  it("refuses a type name or kind registered twice differently; re-registering the same pair is a no-op", () => {
    const toRecord = () => ({});
    expect(() => registerEventFamily({ typeName: "NodeEvent", kind: "llm_token", toRecord })).to.throw(TypeError, /already registered/);
    expect(() => registerEventFamily({ typeName: "Other", kind: "node", toRecord })).to.throw(TypeError, /already registered as 'NodeEvent'/);
    const node = eventFamilyByType("NodeEvent")!;
    expect(() => registerEventFamily(node)).to.not.throw();
  });

  it("renders a node event as its spec record; an unregistered kind is a TypeError", async () => {
    const seen: ObserverEvent[] = [];
    const g = graph(stateSchema({ fields: { v: { type: "int", default: 0 } } })).addNode("a", () => ({ v: 1 })).addEdge("a", END).setEntry("a").compile();
    await g.invoke({}, { observers: [(e) => void seen.push(e)] });
    await g.drain();
    const r = toSpecRecord(seen[0]!);
    expect(r).to.include({ phase: "started", node_name: "a", attempt_index: 0 });
    expect(() => toSpecRecord({ kind: "nope" } as unknown as ObserverEvent)).to.throw(TypeError, /no event family/);
  });

  it("hands ctx.emit's typed events to onTypedEvent inline, before the observers' queue", async () => {
    const order: string[] = [];
    const hooks: InvocationHooks = { onTypedEvent: (e) => void order.push(`hook:${e.kind}`) };
    const g = graph(stateSchema({ fields: { v: { type: "int", default: 0 } } }))
      .addNode("a", (_s, ctx) => {
        ctx.emit({ kind: "metadata_augmentation", ...lineage(ctx), added: {}, metadata: {}, timestamp: 0 } as unknown as ObserverEvent);
        order.push(`emitted:${currentNodeContext() !== undefined}`);
        return { v: 1 };
      })
      .addEdge("a", END)
      .setEntry("a")
      .compile();
    await g.invoke({}, { hooks, observers: [(e) => void (e.kind !== "node" && order.push(`observer:${e.kind}`))] });
    await g.drain();
    expect(order).to.deep.equal(["hook:metadata_augmentation", "emitted:true", "observer:metadata_augmentation"]);
  });
});

function lineage(ctx: { invocationId: string; correlationId: string; attemptIndex: number; fanOutIndexChain: readonly (number | null)[]; branchNameChain: readonly (string | null)[] }) {
  return { invocationId: ctx.invocationId, correlationId: ctx.correlationId, attemptIndex: ctx.attemptIndex, fanOutIndexChain: ctx.fanOutIndexChain, branchNameChain: ctx.branchNameChain };
}

describe("lineage records (graph-engine §6 baseline, observability §6, pipeline-utilities §6.3)", () => {
  const base = { invocationId: "inv-1", correlationId: "cor-1", nodeName: "n", namespace: ["outer", "n"], attemptIndex: 2, fanOutIndexChain: [3], branchNameChain: [null] };
  const scoped = { ...base, fanOutIndex: 3, branchName: "b" };
  const ids = ["invocation_id", "correlation_id"];
  const nodeKeys = ["node_name", "namespace", "attempt_index", "fan_out_index", "branch_name", "fan_out_index_chain", "branch_name_chain"];

  it("lineageRecord: the ids, then the node lineage in field order; fan_out_index / branch_name null outside a scope", () => {
    expect(Object.keys(lineageRecord(base))).to.deep.equal([...ids, ...nodeKeys]);
    expect(lineageRecord(base)).to.deep.equal({ invocation_id: "inv-1", correlation_id: "cor-1", node_name: "n", namespace: ["outer", "n"], attempt_index: 2, fan_out_index: null, branch_name: null, fan_out_index_chain: [3], branch_name_chain: [null] });
    expect(lineageRecord(scoped)).to.include({ fan_out_index: 3, branch_name: "b" });
    expect(nodeLineageRecord(scoped)).to.deep.equal({ node_name: "n", namespace: ["outer", "n"], attempt_index: 2, fan_out_index: 3, branch_name: "b", fan_out_index_chain: [3], branch_name_chain: [null] });
  });

  it("the metadata-augmentation record: ids, nullable node_name / namespace, attempt, chains, added (no fan_out_index / branch_name)", () => {
    const r = toSpecRecord({ kind: "metadata_augmentation", invocationId: "inv-1", correlationId: "cor-1", attemptIndex: 0, fanOutIndexChain: [], branchNameChain: [], added: { k: "v" }, metadata: { k: "v", old: 1 }, timestamp: 0 });
    expect(Object.keys(r)).to.deep.equal(["invocation_id", "correlation_id", "node_name", "namespace", "attempt_index", "fan_out_index_chain", "branch_name_chain", "added"]);
    expect(r).to.deep.equal({ invocation_id: "inv-1", correlation_id: "cor-1", node_name: null, namespace: null, attempt_index: 0, fan_out_index_chain: [], branch_name_chain: [], added: { k: "v" } });
  });

  it("the failure-isolation record's wrapped_node_lineage is the node lineage; the ids close the record", () => {
    const e = { kind: "failure_isolation", ...scoped, eventName: "x", preState: {}, postState: {}, caughtException: { category: null, message: "m", chain: [] }, exception: new Error("m"), graphName: "g", timestamp: 0 } as FailureIsolationEvent;
    const r = toSpecFailureIsolationEvent(e);
    expect(Object.keys(r)).to.deep.equal(["event_name", "wrapped_node_lineage", "pre_state", "post_state", "caught_exception", ...ids]);
    expect(Object.keys(r.wrapped_node_lineage)).to.deep.equal(nodeKeys);
    expect(r.wrapped_node_lineage).to.deep.equal(nodeLineageRecord(scoped));
  });
});
