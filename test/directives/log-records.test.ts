import { expect } from "chai";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { CorrelatedLogger } from "../../src/observability/index.ts";
import { logRecordView } from "../../harness/observability/logs.ts";
import { captureLogsPerCall, CaseLogCapture, LogCapture, OtelCaptureState } from "../../harness/observability/capture.ts";
import { Observation } from "../../src/conformance/observation.ts";
import { directiveTester } from "./tester.ts";

/** Node a logs once per call; `invocations` runs the graph that many times (one per entry). */
const logged = (block: string, invocations = 0, extra = "") => `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes:
  a:
    emits_log: {message: "node a executing", level: INFO}
edges: [{from: a, to: END}]
initial_state: {}
${extra}
${invocations > 0 ? `invocations:\n${Array.from({ length: invocations }, (_, i) => `  - {name: run_${i}}`).join("\n")}` : ""}
expected:
${block}
`;

directiveTester("log_records count / log_records_absent (conformance-adapter §5.5)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    logged("  log_records:\n    - {body: node a executing, count: 1}\n    - {level: INFO}\n  log_records_absent:\n    - {level: ERROR}\n    - {body: node b executing}"),
    logged("  log_records:\n    - {level: ERROR, count: 0}"),
    // Case level of a two-call case: the whole case's records.
    logged("  log_records_absent:\n    - {level: WARNING}", 2),
    logged("  log_records:\n    - {body: node a executing, count: 2}\n    - {level: INFO}", 2),
    // run_count: the block applies to each run, reading that run's records.
    logged("  log_records:\n    - {body: node a executing, count: 1}", 0, "run_count: 2"),
  ],
  invalid: [
    { code: logged("  log_records:\n    - {body: node a executing, count: 2}"), message: "1 captured log record(s) match the entry, expected 2" },
    { code: logged("  log_records:\n    - {level: INFO, count: 0}"), message: "expected 0" },
    { code: logged("  log_records_absent:\n    - {body: node a executing}"), message: "1 captured log record(s) match an absent entry" },
    // Both calls' records count at case level, not only the last call's.
    { code: logged("  log_records_absent:\n    - {level: INFO}", 2), message: "2 captured log record(s) match an absent entry" },
    { code: logged("  log_records:\n    - {body: node a executing, count: 1}", 2), message: "2 captured log record(s) match the entry, expected 1" },
    { code: logged("  log_records_absent:\n    - {}"), category: "fixture_schema_invalid", message: "log_records_absent" },
  ],
});

const DETACHED = "otel_observer: {attached: false}";
const COLLECTOR = "typed_observers:\n  - {name: all, kind: typed_event_collector}";

directiveTester("log_records trace context and otel_observer: {attached: false} (conformance-adapter §5.5, §6.3)", {
  template: (b) => b,
  capability: "observability",
  valid: [
    // Attached (the default): the record carries the node span's context.
    logged("  log_records:\n    - {body: node a executing, trace_id: <trace_id_A>, span_id: <any-string>}"),
    // Detached: no observer, so no span context (null: not set, §8.4) — the record is still captured, and typed events still reach a collector.
    logged("  log_records:\n    - {body: node a executing, count: 1, trace_id: null, span_id: null, event_name: null}\n  observers:\n    all:\n      event_count: {event_type: NodeEvent, count: 2}", 0, `${DETACHED}\n${COLLECTOR}`),
  ],
  invalid: [
    // The directive is honored: with the observer attached the record has a trace context, so null fails.
    { code: logged("  log_records:\n    - {body: node a executing, trace_id: null}"), message: "expected.log_records[0].trace_id" },
    { code: logged("  log_records:\n    - {body: node a executing, span_id: <any-string>}", 0, DETACHED), message: "expected.log_records[0].span_id" },
    // §6.3: a case asserting span_tree, traces or llm_spans MUST NOT set attached: false — whichever key comes first.
    { code: logged("  span_tree: []", 0, DETACHED), category: "fixture_schema_invalid", message: ["attached: false", "'span_tree'", "§6.3"] },
    { code: `${logged("  log_records: [{level: INFO}]\n  llm_spans: []")}\n${DETACHED}\n`, category: "fixture_schema_invalid", message: ["attached: false", "'llm_spans'"] },
    { code: logged("  log_records: [{level: INFO}]", 0, `${DETACHED}\ninvocations:\n  - name: one\n    expected:\n      traces: []`), category: "fixture_schema_invalid", message: ["'traces'", "invocations[0].expected.traces"] },
  ],
});

describe("log records carry the OTel EventName (observability §7 diagnostic event names)", () => {
  it("a record emitted with an eventName reads as event_name", async () => {
    const exporter = new InMemoryLogRecordExporter();
    const provider = new LoggerProvider({ processors: [new SimpleLogRecordProcessor({ exporter })] });
    new CorrelatedLogger(provider.getLogger("t")).emit({ body: "b", eventName: "openarmature.diagnostic.test" });
    await provider.forceFlush();
    const [view] = exporter.getFinishedLogRecords().map(logRecordView);
    expect(view!.event_name).to.equal("openarmature.diagnostic.test");
    await provider.shutdown();
  });
});

/** An llm-provider bare call (no graph): §6.3 captures log records for any case asserting them. */
const bare = (block: string) => `
mock_provider:
  responses:
    - status: 200
      body: {id: cc-1, object: chat.completion, model: test-model, choices: [{index: 0, message: {role: assistant, content: x}, finish_reason: stop}], usage: {prompt_tokens: 2, completion_tokens: 1, total_tokens: 3}}
call:
  operation: complete
  messages: [{role: user, content: hi}]
  config: {extras: {stop: 5}}
expected:
  success: true
${block}
`;

directiveTester("log_records / log_records_absent on an llm-provider bare call (§6.3)", {
  template: bare,
  capability: "llm-provider",
  // llm-provider §6: a malformed extra is dropped without a diagnostic.
  valid: ["  log_records_absent: [{level: WARNING}]\n  log_records: [{level: INFO, count: 0}]"],
  invalid: [{ code: "  log_records: [{level: WARNING}]", message: "the observed list is empty" }],
});

describe("captureLogsPerCall (§6.3 log capture without a graph)", () => {
  it("reads the records the case pipeline received during each call, and the whole case's", async () => {
    const state = new OtelCaptureState();
    const hooks = { beforeCall: [] as Array<() => void>, afterCall: [] as Array<(o: Observation) => Promise<void>> };
    captureLogsPerCall(state, hooks);
    captureLogsPerCall(state, hooks); // once per case
    expect(hooks.afterCall).to.have.length(1);
    const calls: Observation[] = [];
    for (const body of ["first", "second"]) {
      for (const b of hooks.beforeCall) b();
      state.logger.log("WARNING", body);
      const obs = new Observation(body);
      for (const a of hooks.afterCall) await a(obs);
      calls.push(obs);
    }
    const loc = { file: "t", path: [] };
    expect(calls[1]!.get(LogCapture, loc).map((r) => r.body)).to.deep.equal(["second"]);
    expect(calls[1]!.get(CaseLogCapture, loc).map((r) => r.body)).to.deep.equal(["first", "second"]);
  });
});
