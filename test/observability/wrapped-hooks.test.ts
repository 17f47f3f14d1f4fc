import { expect } from "chai";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { defineState, END, field, GraphBuilder, type InvocationHooks, type NodeAttempt } from "../../src/graph/index.ts";
import { InMemoryCheckpointer, withCheckpointer } from "../../src/checkpoint/index.ts";
import { suspend, withSuspension } from "../../src/suspension/index.ts";
import { OTelObserver } from "../../src/observability/index.ts";

const S = defineState({ v: field.int().default(0), go: field.bool().default(false) });

function graph() {
  return new GraphBuilder(S)
    .addNode("a", () => ({ v: 1 }))
    .addNode("gate", (s) => {
      if (!s.go) suspend({ signalId: "approve", metadata: { kind: "review" } });
      return { v: 2 };
    })
    .addNode("after", () => ({ v: 3 }))
    .addEdge("a", "gate")
    .addEdge("gate", "after")
    .addEdge("after", END)
    .setEntry("a")
    .compile({ name: "g" });
}

/** An OTel observer on `exporter` alone: the node spans' fast path (attributes after the start, the top-level slot). */
function observer() {
  const exporter = new InMemorySpanExporter();
  const errors: unknown[] = [];
  return { exporter, errors, otel: new OTelObserver({ exporter, onError: (e) => errors.push(e) }) };
}

describe("observability: the caller's hooks through withSuspension / withCheckpointer", () => {
  it("withSuspension hands attempt hooks the suspended attempt, with its descriptor, as event hooks see it", async () => {
    const seen: Record<string, unknown>[] = [];
    const copy = (a: NodeAttempt) => ({ phase: a.phase, node: a.nodeName, step: a.step, descriptor: a.descriptor, at: a.timestamp });
    const attempts: InvocationHooks = { onNodeAttemptStart: (a) => seen.push({ by: "attempt", ...copy(a) }), onNodeAttemptEnd: (a) => seen.push({ by: "attempt", ...copy(a) }) };
    const events: InvocationHooks = { onNodeEvent: (e) => seen.push({ by: "event", ...copy(e) }) };
    const r = await withSuspension(graph()).invoke({}, { hooks: [attempts, events] });
    expect(r.outcome).to.equal("suspended");
    const byAttempt = seen.filter((x) => x["by"] === "attempt").map(({ by: _b, ...x }) => x);
    const byEvent = seen.filter((x) => x["by"] === "event").map(({ by: _b, ...x }) => x);
    expect(byAttempt.map((x) => `${String(x["phase"])}:${String(x["node"])}`)).to.deep.equal(["started:a", "completed:a", "started:gate", "suspended:gate"]);
    expect(byAttempt).to.deep.equal(byEvent);
    expect(byAttempt[3]!["descriptor"]).to.deep.include({ signalId: "approve" });
  });

  it("an OTel observer under withSuspension renders the suspended node span (§5.8), and the resumed invocation", async () => {
    const { exporter, errors, otel } = observer();
    const runner = withSuspension(graph());
    const s = await runner.invoke({}, { hooks: otel });
    expect(s.outcome).to.equal("suspended");
    await runner.resume(s.invocationId, { go: true }, { hooks: otel });
    await otel.forceFlush();
    expect(errors).to.deep.equal([]);
    const spans = exporter.getFinishedSpans();
    const gates = spans.filter((x) => x.name === "gate");
    // markNodeCompleted (the default): the resume continues after `gate`, which does not run again.
    expect(gates.map((g) => g.attributes["openarmature.outcome"])).to.deep.equal(["suspended"]);
    expect(spans.filter((x) => x.name === "openarmature.invocation")).to.have.length(2);
    expect(spans.filter((x) => x.name === "after")).to.have.length(1);
    expect(gates[0]!.attributes).to.include({ "openarmature.suspension.signal_id": "approve", "openarmature.suspension.metadata.kind": "review" });
  });

  it("an OTel observer under withCheckpointer still gets every span (the checkpointer's own hooks do not replace it)", async () => {
    const { exporter, errors, otel } = observer();
    const g = new GraphBuilder(S)
      .addNode("a", () => ({ v: 1 }))
      .addNode("b", () => ({ v: 2 }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({ name: "g" });
    const store = new InMemoryCheckpointer();
    await withCheckpointer(g, store).invoke({}, { hooks: otel, invocationId: "inv-1" });
    await otel.forceFlush();
    expect(errors).to.deep.equal([]);
    expect(exporter.getFinishedSpans().map((x) => x.name).sort()).to.deep.equal(["a", "b", "openarmature.invocation"]);
    expect(await store.load("inv-1")).to.not.equal(undefined);
  });
});
