import { expect } from "chai";
import { trace, SpanStatusCode } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace-base";
import { append, defineState, END, field, GraphBuilder, setInvocationMetadata, type NodeExecutionContext } from "../../src/graph/index.ts";
import { fanOut, parallelBranches } from "../../src/pipeline/index.ts";
import { retry } from "../../src/pipeline/middleware/index.ts";
import { OTelObserver, truncatePayload } from "../../src/observability/index.ts";

function setup(options: ConstructorParameters<typeof OTelObserver>[0] = {}) {
  const exporter = new InMemorySpanExporter();
  const errors: unknown[] = [];
  const otel = new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(exporter)], onError: (e) => errors.push(e), ...options });
  return { exporter, otel, errors };
}

const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
const byName = (spans: ReadableSpan[], n: string) => spans.filter((s) => s.name === n);

const S = defineState({ v: field.int().default(0), log: field.list(field.string()).default([]).reducer(append) });
const P = defineState({ items: field.list(field.int()).default([]), outs: field.list(field.int()).default([]).reducer(append) });

/** A fan-out instance graph whose one node tags its instance's metadata with its item. */
function taggingInner() {
  const Inner = defineState({ idx: field.int().default(0), out: field.int().default(0) });
  return new GraphBuilder(Inner)
    .addNode("work", (s) => (setInvocationMetadata({ item: s.idx }), { out: s.idx }))
    .setEntry("work")
    .compile({ name: "inner" });
}

describe("observability: OTel observer spans (§4–§6)", () => {
  it("opens an invocation span and one node span per node, current while the body runs", async () => {
    const { exporter, otel, errors } = setup();
    let during: string | undefined;
    const g = new GraphBuilder(S)
      .addNode("a", () => ({ v: 1 }))
      .addNode("b", () => ((during = otel.activeSpan()?.spanContext().spanId), { v: 2 }))
      .addEdge("a", "b")
      .addEdge("b", END)
      .setEntry("a")
      .compile({ name: "g" });
    const r = await g.invoke({}, { hooks: otel, correlationId: "req-1", metadata: { tenantId: "t" } });
    const spans = exporter.getFinishedSpans();
    expect(errors).to.deep.equal([]);
    const [inv] = byName(spans, "openarmature.invocation");
    expect(inv!.attributes).to.include({
      "openarmature.invocation_id": r.invocationId,
      "openarmature.correlation_id": "req-1",
      "openarmature.graph.entry_node": "a",
      "openarmature.implementation.name": "openarmature-typescript",
      "openarmature.user.tenantId": "t",
    });
    const [b] = byName(spans, "b");
    expect(during).to.equal(b!.spanContext().spanId);
    expect(parentOf(b!)).to.equal(inv!.spanContext().spanId);
    expect(b!.attributes["openarmature.node.namespace"]).to.deep.equal(["b"]);
    expect(b!.attributes["openarmature.node.step"]).to.equal(1);
    expect(b!.status.code).to.equal(SpanStatusCode.OK);
    // Never the global provider.
    expect(trace.getTracerProvider()).to.not.equal(otel.tracerProvider);
  });

  it("maps a node failure to ERROR with the category and an exception event, on the node and the invocation", async () => {
    const { exporter, otel } = setup();
    const g = new GraphBuilder(S)
      .addNode("boom", () => {
        throw new Error("boom");
      })
      .setEntry("boom")
      .compile({ name: "g" });
    await g.invoke({}, { hooks: otel }).catch(() => undefined);
    for (const s of exporter.getFinishedSpans()) {
      expect(s.status).to.deep.equal({ code: SpanStatusCode.ERROR, message: "node_exception" });
      expect(s.events.map((e) => e.name)).to.include("exception");
    }
  });

  it("nests subgraph and fan-out instance spans; metadata augmentation stays in its instance", async () => {
    const { exporter, otel } = setup();
    const inner = taggingInner();
    const g = new GraphBuilder(P)
      .addNode("fan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "out", targetField: "outs" }))
      .setEntry("fan")
      .compile({ name: "outer" });
    await g.invoke({ items: [0, 1] }, { hooks: otel });
    const spans = exporter.getFinishedSpans();
    const [fanNode, ...instances] = byName(spans, "fan").sort((x, y) => (x.attributes["openarmature.fan_out.item_count"] ? -1 : 1) - (y.attributes["openarmature.fan_out.item_count"] ? -1 : 1));
    expect(fanNode!.attributes["openarmature.fan_out.item_count"]).to.equal(2);
    expect(instances).to.have.length(2);
    for (const inst of instances) {
      expect(parentOf(inst)).to.equal(fanNode!.spanContext().spanId);
      const i = inst.attributes["openarmature.node.fan_out_index"];
      const [work] = byName(spans, "work").filter((w) => parentOf(w) === inst.spanContext().spanId);
      expect(work!.attributes["openarmature.node.fan_out_index"]).to.equal(i);
      expect(work!.attributes["openarmature.user.item"]).to.equal(i);
      expect(inst.attributes["openarmature.user.item"]).to.equal(i);
    }
    expect(fanNode!.attributes["openarmature.user.item"]).to.equal(undefined);
    expect(byName(spans, "openarmature.invocation")[0]!.attributes["openarmature.user.item"]).to.equal(undefined);
  });

  it("renders a detached fan-out as one trace per instance, linked from the fan-out node span", async () => {
    const { exporter, otel } = setup({ detachedFanOuts: ["fan"] });
    const Inner = defineState({ idx: field.int().default(0), out: field.int().default(0) });
    const inner = new GraphBuilder(Inner).addNode("work", (s) => ({ out: s.idx })).setEntry("work").compile({ name: "inner" });
    const g = new GraphBuilder(P)
      .addNode("fan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "out", targetField: "outs" }))
      .setEntry("fan")
      .compile({ name: "outer" });
    await g.invoke({ items: [0, 1, 2] }, { hooks: otel });
    const spans = exporter.getFinishedSpans();
    const traces = new Set(spans.map((s) => s.spanContext().traceId));
    expect(traces.size).to.equal(4);
    const fanNode = spans.find((s) => s.name === "fan" && s.attributes["openarmature.fan_out.item_count"] === 3)!;
    expect(fanNode.links).to.have.length(3);
    const roots = byName(spans, "openarmature.invocation");
    expect(new Set(roots.map((s) => s.attributes["openarmature.invocation_id"])).size).to.equal(1);
  });

  it("renders an inline-callable branch as its dispatch span alone, current in the callable; a when-skipped branch not at all (§5.7)", async () => {
    const { exporter, otel, errors } = setup();
    const B = defineState({ on: field.bool().default(false), a: field.int().default(0), b: field.int().default(0), c: field.int().default(0) });
    let during: string | undefined;
    const g = new GraphBuilder(B)
      .addNode(
        "pb",
        parallelBranches({
          branches: {
            a: { call: () => ((during = otel.activeSpan()?.spanContext().spanId), { a: 1 }) },
            b: { call: () => ({ b: 1 }), when: (s) => s.on },
            c: {
              call: () => {
                throw new Error("c failed");
              },
            },
          },
          errorPolicy: "collect",
        }),
      )
      .setEntry("pb")
      .compile({ name: "g" });
    await g.invoke({}, { hooks: otel });
    expect(errors).to.deep.equal([]);
    const spans = exporter.getFinishedSpans();
    const [pb] = byName(spans, "pb");
    expect(pb!.attributes["openarmature.parallel_branches.branch_count"]).to.equal(2);
    expect(spans.map((s) => s.name).sort()).to.deep.equal(["a", "c", "openarmature.invocation", "pb"]);
    const [a] = byName(spans, "a");
    const [c] = byName(spans, "c");
    expect(parentOf(a!)).to.equal(pb!.spanContext().spanId);
    expect(a!.attributes).to.include({ "openarmature.node.branch_name": "a", "openarmature.node.attempt_index": 0 });
    expect(during).to.equal(a!.spanContext().spanId);
    expect(c!.status.code).to.equal(SpanStatusCode.ERROR);
    expect(c!.events.filter((e) => e.name === "exception")).to.have.length(1);
  });
});

describe("observability: OTel span content does not depend on how spans are exported", () => {
  /** Every span of one run, in export order: name, kind, parent / trace by position, attributes in order, status, events, links. */
  function content(spans: ReadableSpan[]): unknown[] {
    const pos = new Map<string, number>();
    const at = (id: string | undefined): number | null => (id === undefined ? null : (pos.has(id) ? pos.get(id)! : (pos.set(id, pos.size), pos.size - 1)));
    const ids = new Set(["openarmature.invocation_id", "exception.stacktrace"]);
    const attrs = (a: Readonly<Record<string, unknown>> | undefined) => Object.entries(a ?? {}).map(([k, v]) => [k, ids.has(k) ? "<varies>" : v]);
    return spans.map((s) => ({
      name: s.name,
      kind: s.kind,
      self: at(s.spanContext().spanId),
      parent: at(s.parentSpanContext?.spanId),
      trace: at(s.spanContext().traceId),
      attributes: attrs(s.attributes),
      status: s.status,
      events: s.events.map((e) => [e.name, attrs(e.attributes)]),
      links: s.links.length,
    }));
  }

  async function run(otel: OTelObserver): Promise<void> {
    const inner = taggingInner();
    const g = new GraphBuilder(P)
      .addNode("first", () => ({}))
      .addNode("fan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "out", targetField: "outs", concurrency: 1 }))
      .addNode("dfan", fanOut({ subgraph: inner, itemsField: "items", itemField: "idx", collectField: "out", targetField: "outs", concurrency: 1 }))
      .addNode("boom", () => {
        throw new Error("boom");
      })
      .addEdge("first", "fan")
      .addEdge("fan", "dfan")
      .addEdge("dfan", "boom")
      .setEntry("first")
      .compile({ name: "outer" });
    await g.invoke({ items: [0, 1] }, { hooks: otel, correlationId: "req-1", metadata: { tenant: "t" } }).catch(() => undefined);
    await otel.forceFlush();
  }

  it("`exporter` alone (attributes set right after each start) exports what span processors see at the start", async () => {
    const viaProcessor = setup({ detachedFanOuts: ["dfan"] });
    await run(viaProcessor.otel);
    const exported = new InMemorySpanExporter();
    const errors: unknown[] = [];
    await run(new OTelObserver({ exporter: exported, detachedFanOuts: ["dfan"], onError: (e) => errors.push(e) }));
    expect(errors).to.deep.equal([]);
    const want = content(viaProcessor.exporter.getFinishedSpans());
    expect(want.length).to.be.greaterThan(10);
    const first = want.find((s) => (s as { name: string }).name === "first") as { attributes: unknown[] };
    expect(first.attributes).to.deep.include(["openarmature.node.namespace", ["first"]]).and.deep.include(["openarmature.user.tenant", "t"]);
    expect(content(exported.getFinishedSpans())).to.deep.equal(want);
  });

  it("a top-level node's span carries the metadata an earlier node set and its own attempt index, with `exporter` alone too", async () => {
    let calls = 0;
    const g = new GraphBuilder(S)
      .addNode("tag", () => (setInvocationMetadata({ tier: "gold" }), { v: 1 }))
      .addNode("flaky", () => {
        if (++calls === 1) throw new Error("once");
        return { v: 2 };
      }, { middleware: [retry({ maxAttempts: 2, backoff: () => 0, classifier: () => true })] })
      .addNode("after", () => ({ v: 3 }))
      .addEdge("tag", "flaky")
      .addEdge("flaky", "after")
      .addEdge("after", END)
      .setEntry("tag")
      .compile({ name: "g" });
    for (const viaExporter of [false, true]) {
      calls = 0;
      const exported = new InMemorySpanExporter();
      const errors: unknown[] = [];
      const otel = viaExporter
        ? new OTelObserver({ exporter: exported, onError: (e) => errors.push(e) })
        : new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(exported)], onError: (e) => errors.push(e) });
      await g.invoke({}, { hooks: otel, metadata: { tenant: "t" } });
      await otel.forceFlush();
      const spans = exported.getFinishedSpans();
      expect(errors, `viaExporter ${viaExporter}`).to.deep.equal([]);
      const [inv] = byName(spans, "openarmature.invocation");
      expect(inv!.attributes["openarmature.user.tier"], "the invocation span").to.equal("gold");
      for (const [name, attempt] of [["flaky", 0], ["flaky", 1], ["after", 0]] as const) {
        const span = byName(spans, name).find((s) => s.attributes["openarmature.node.attempt_index"] === attempt);
        expect(span, `${name} attempt ${attempt}`).to.not.equal(undefined);
        expect(span!.attributes, `${name} attempt ${attempt}, viaExporter ${viaExporter}`).to.include({ "openarmature.user.tenant": "t", "openarmature.user.tier": "gold" });
      }
    }
  });

  it("a top-level node's span stays open to the invocation's end when its failure's completed event is suppressed; child runs nest under a plain node's span", async () => {
    const Inner = defineState({ v: field.int().default(0) });
    const inner = new GraphBuilder(Inner).addNode("in", () => ({ v: 5 })).setEntry("in").compile({ name: "inner" });
    const g = new GraphBuilder(S)
      // The engine's extension context (what node kinds get): the node context a body sees, widened.
      .addNode("caller", async (_s, ctx) => ({ v: (await (ctx as unknown as NodeExecutionContext).runSubgraph(inner, {})).v }))
      .addNode("quiet", (_s, ctx) => {
        (ctx as unknown as NodeExecutionContext).suppressCompletedEvent();
        throw new Error("quietly");
      })
      .addEdge("caller", "quiet")
      .addEdge("quiet", END)
      .setEntry("caller")
      .compile({ name: "g" });
    for (const viaExporter of [false, true]) {
      const exported = new InMemorySpanExporter();
      const errors: unknown[] = [];
      const otel = viaExporter
        ? new OTelObserver({ exporter: exported, onError: (e) => errors.push(e) })
        : new OTelObserver({ spanProcessors: [new SimpleSpanProcessor(exported)], onError: (e) => errors.push(e) });
      await g.invoke({}, { hooks: otel }).catch(() => undefined);
      await otel.forceFlush();
      const spans = exported.getFinishedSpans();
      expect(errors, `viaExporter ${viaExporter}`).to.deep.equal([]);
      const [inv] = byName(spans, "openarmature.invocation");
      const [quiet] = byName(spans, "quiet");
      const [child] = byName(spans, "in");
      expect(quiet!.endTime, `viaExporter ${viaExporter}`).to.deep.equal(inv!.endTime);
      expect(parentOf(quiet!)).to.equal(inv!.spanContext().spanId);
      // runSubgraph from a plain node's body: the child run's span (named for the node) under the
      // node's span, the inner node's under the run's.
      const caller = byName(spans, "caller").find((x) => parentOf(x) === inv!.spanContext().spanId);
      const run = spans.find((x) => x.spanContext().spanId === parentOf(child!));
      expect(run?.name).to.equal("caller");
      expect(parentOf(run!), `viaExporter ${viaExporter}`).to.equal(caller!.spanContext().spanId);
    }
  });

  it("a span processor of yours sees a node span's attributes in onStart", async () => {
    const seen: Record<string, unknown>[] = [];
    const processor: SpanProcessor = {
      onStart: (span) => void seen.push({ ...(span as unknown as ReadableSpan).attributes }),
      onEnd: () => undefined,
      forceFlush: async () => undefined,
      shutdown: async () => undefined,
    };
    const otel = new OTelObserver({ spanProcessors: [processor], exporter: new InMemorySpanExporter() });
    const g = new GraphBuilder(S).addNode("a", () => ({ v: 1 })).setEntry("a").compile({ name: "g" });
    await g.invoke({}, { hooks: otel });
    expect(seen.find((a) => a["openarmature.node.name"] === "a")).to.include({ "openarmature.node.step": 0 });
  });
});

describe("observability: payload truncation (§5.5.5)", () => {
  it("cuts at a code-point boundary and appends the exact marker", () => {
    const v = "é".repeat(100); // 200 bytes
    const out = truncatePayload(v, 64);
    expect(Buffer.byteLength(out)).to.be.at.most(64);
    expect(out.endsWith("…[truncated, 200 bytes total]")).to.equal(true);
    expect(Buffer.from(out).toString("utf8")).to.equal(out);
    expect(truncatePayload("short", 64)).to.equal("short");
  });
});

describe("observability: log correlation (§7)", () => {
  it("gives a record emitted in a node the node span's context and the correlation attributes", async () => {
    const { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } = await import("@opentelemetry/sdk-logs");
    const { CorrelatedLogger } = await import("../../src/observability/index.ts");
    const { exporter, otel } = setup();
    const logs = new InMemoryLogRecordExporter();
    const log = new CorrelatedLogger(new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter: logs })] }).getLogger("t"), otel);
    const g2 = new GraphBuilder(S).addNode("n", () => (log.info("hello", { k: 1 }), {})).setEntry("n").compile({ name: "g2" });
    await g2.invoke({}, { hooks: otel, correlationId: "c-1", metadata: { tenantId: "t" } });
    const [rec] = logs.getFinishedLogRecords();
    const [n] = byName(exporter.getFinishedSpans(), "n");
    expect(rec!.spanContext?.spanId).to.equal(n!.spanContext().spanId);
    expect(rec!.attributes).to.deep.equal({ "openarmature.correlation_id": "c-1", "openarmature.user.tenantId": "t", k: 1 });
    expect(rec!.severityText).to.equal("INFO");
    // Outside an invocation: no correlation, no span.
    log.info("outside");
    expect(logs.getFinishedLogRecords()[1]!.attributes).to.deep.equal({});
  });
});
