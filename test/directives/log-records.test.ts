import { expect } from "chai";
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor } from "@opentelemetry/sdk-logs";
import { CorrelatedLogger } from "../../src/observability/index.ts";
import { logRecordView } from "../../harness/observability/logs.ts";
import { directiveTester } from "./tester.ts";

/** Node a logs once per call; `invocations` runs the graph that many times (one per entry). */
const logged = (block: string, invocations = 0) => `
state: {fields: {x: {type: int, default: 0}}}
entry: a
nodes:
  a:
    emits_log: {message: "node a executing", level: INFO}
edges: [{from: a, to: END}]
initial_state: {}
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
  ],
  invalid: [
    { code: logged("  log_records:\n    - {body: node a executing, count: 2}"), message: "1 captured log record(s) match the entry, expected 2" },
    { code: logged("  log_records:\n    - {level: INFO, count: 0}"), message: "expected 0" },
    { code: logged("  log_records_absent:\n    - {body: node a executing}"), message: "1 captured log record(s) match an absent entry" },
    // Both calls' records count at case level, not only the last call's.
    { code: logged("  log_records_absent:\n    - {level: INFO}", 2), message: "2 captured log record(s) match an absent entry" },
    { code: logged("  log_records_absent:\n    - {}"), category: "fixture_schema_invalid", message: "log_records_absent" },
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
