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
