/**
 * harness §8.4 / observability §4.6: the turn-level wrapper span through the real `OTelObserver`
 * (in-memory exporter). Attached to the graph (`compile({ hooks })`), the harness opens
 * `openarmature.turn` around each turn's invoke and the invocation span is its child; sessioned
 * turns carry `openarmature.session_id`, signal-resume turns the §5.8 descriptor attributes;
 * stateless turns no session id; without an observer there is no wrapper.
 */
import { expect } from "chai";
import { SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { InMemorySessionStore, withSessions } from "../../src/sessions/index.ts";
import { suspend } from "../../src/suspension/index.ts";
import { TurnHarness } from "../../src/harness/index.ts";
import { OTelObserver, TURN_SPAN_NAME } from "../../src/observability/index.ts";

const S = defineState({ n: field.int().default(0), approved: field.bool().default(false), fail: field.bool().default(false) });

function setup() {
  const exporter = new InMemorySpanExporter();
  const errors: unknown[] = [];
  const otel = new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(exporter)], onError: (e) => errors.push(e) });
  const graph = (hooks?: OTelObserver) =>
    new GraphBuilder(S)
      .addNode("work", async (s) => {
        if (s.fail) throw Object.assign(new Error("boom"), { category: "provider_unavailable" });
        return { n: s.n + 1 };
      })
      .addNode("gate", async (s) => {
        if (s.n === 2 && !s.approved) suspend({ signalId: "ok-7", metadata: { kind: "approval", pool: "ops" } });
        return {};
      })
      .addNode("finish", async () => ({})) // so a resume runs a node (a resume with nothing left to run invokes nothing)
      .addEdge("work", "gate")
      .addEdge("gate", "finish")
      .addEdge("finish", END)
      .setEntry("work")
      .compile({ name: "turns", ...(hooks ? { hooks } : {}) });
  return { exporter, errors, otel, graph };
}
const named = (spans: ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
const id = (s: ReadableSpan) => s.spanContext().spanId;

describe("harness: turn-level wrapper span (§8.4, observability §4.6) through OTelObserver", () => {
  it("sessioned: each turn is an openarmature.turn span with the session id, parent of its invocation span", async () => {
    const { exporter, errors, otel, graph } = setup();
    const harness = new TurnHarness({ mode: "sessioned", graph: withSessions(graph(otel), { store: new InMemorySessionStore(), projection: "full" }) });
    const t1 = await harness.handle({ sessionId: "s1", intent: "new_session" });
    const t2 = await harness.handle({ sessionId: "s1" });
    expect(t1.outcome).to.equal("completed");
    expect(t2.outcome).to.equal("suspended");
    const spans = exporter.getFinishedSpans();
    const turns = named(spans, TURN_SPAN_NAME);
    const invocations = named(spans, "openarmature.invocation");
    expect(turns).to.have.length(2);
    expect(invocations).to.have.length(2);
    for (let i = 0; i < 2; i++) {
      expect(invocations[i]!.parentSpanContext?.spanId).to.equal(id(turns[i]!));
      expect(invocations[i]!.spanContext().traceId).to.equal(turns[i]!.spanContext().traceId);
      expect(turns[i]!.parentSpanContext).to.equal(undefined);
    }
    expect(turns[0]!.attributes).to.deep.include({ "openarmature.session_id": "s1", "openarmature.harness.mode": "sessioned", "openarmature.harness.path": "3.1", "openarmature.outcome": "completed", "openarmature.invocation_id": t1.invocationId });
    expect(turns[1]!.attributes).to.deep.include({ "openarmature.harness.path": "3.2", "openarmature.outcome": "suspended" });
    expect(turns[0]!.status.code).to.equal(SpanStatusCode.OK);

    // The signal-resume turn carries the paused descriptor (§5.8).
    const t3 = await harness.handle({ signal: { signalId: "ok-7" }, signalPayload: { approved: true } });
    expect(t3.outcome).to.equal("completed");
    const [resumeTurn] = named(exporter.getFinishedSpans(), TURN_SPAN_NAME).slice(2);
    expect(resumeTurn!.attributes).to.deep.include({
      "openarmature.harness.path": "3.3",
      "openarmature.session_id": "s1",
      "openarmature.suspension.signal_id": "ok-7",
      "openarmature.suspension.metadata.kind": "approval",
      "openarmature.suspension.metadata.pool": "ops",
      "openarmature.harness.resumed_invocation_id": t2.invocationId,
    });
    const resumedInvocation = named(exporter.getFinishedSpans(), "openarmature.invocation")[2]!;
    expect(resumedInvocation.parentSpanContext?.spanId).to.equal(id(resumeTurn!));
    expect(errors).to.deep.equal([]);
  });

  it("an errored turn: ERROR status, the category and the §7 bucket", async () => {
    const { exporter, otel, graph } = setup();
    const harness = new TurnHarness({ mode: "sessioned", graph: withSessions(graph(otel), { store: new InMemorySessionStore(), projection: "full" }), initialState: () => ({ fail: true }) });
    const t = await harness.handle({ sessionId: "s2" });
    expect(t.outcome).to.equal("errored");
    const [turn] = named(exporter.getFinishedSpans(), TURN_SPAN_NAME);
    expect(turn!.status.code).to.equal(SpanStatusCode.ERROR);
    expect(turn!.attributes).to.deep.include({ "openarmature.outcome": "errored", "openarmature.error.category": "provider_unavailable", "openarmature.harness.error_bucket": "retryable_transient" });
  });

  it("stateless: no session id on the span; an observer passed per turn (hooks) or as turnSpans works too", async () => {
    const { exporter, otel, graph } = setup();
    await new TurnHarness({ mode: "stateless", graph: graph() }).handle({ sessionId: "ignored" }, { hooks: otel });
    await new TurnHarness({ mode: "stateless", graph: graph(), turnSpans: otel }).handle({});
    const turns = named(exporter.getFinishedSpans(), TURN_SPAN_NAME);
    expect(turns).to.have.length(2);
    expect(turns[0]!.attributes).to.not.have.property("openarmature.session_id");
    expect(turns[0]!.attributes["openarmature.harness.path"]).to.equal("3.0");
    // turnSpans without the observer as a hook: the wrapper alone (no invocation spans were asked for).
    expect(named(exporter.getFinishedSpans(), "openarmature.invocation")).to.have.length(1);
  });

  it("no observer attached: no wrapper span, the turn runs the same", async () => {
    const { exporter, graph } = setup();
    const t = await new TurnHarness({ mode: "stateless", graph: graph() }).handle({});
    expect(t.outcome).to.equal("completed");
    expect(exporter.getFinishedSpans()).to.deep.equal([]);
  });
});
