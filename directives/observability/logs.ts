import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { LogCapture, OtelCaptureSlot, useOtelCapture } from "../../harness/observability/capture.ts";
import { logRecordView } from "../../harness/observability/logs.ts";
import { ABSENT } from "../../harness/observability/spans.ts";

/**
 * `emits_log: {message, level}` (observability §7, fixture 010): the node emits one log record
 * through the case's OTel Logs pipeline with the library's `CorrelatedLogger`.
 */
@directive({ name: "emits_log", at: "node", home: "general", summary: "node emits a log record (§7 correlation)" })
export class EmitsLog {
  readonly schema: JsonSchema = {
    type: "object",
    required: ["message"],
    properties: { message: { type: "string" }, level: { type: "string", enum: ["TRACE", "DEBUG", "INFO", "WARNING", "WARN", "ERROR", "FATAL"] } },
    additionalProperties: false,
  };
  contribute(value: { message: string; level?: string }, node: NodeAssembly, env: BuildEnv, _at: KeyPath): void {
    const capture = env.slot(OtelCaptureSlot);
    node.steps.push(() => capture.logger.log(value.level ?? "INFO", value.message));
  }
}

/**
 * `log_records: [<entry>, ...]` (conformance-adapter §5.5): an existence list over the records the
 * call emitted; each entry matches by the fields it names — `body`, `level` (severity text),
 * `event_name`, `attributes` (subset), `attributes_absent` (none of the keys present), `trace_id` / `span_id` (the record's OTel trace context; an
 * all-zero id counts as absent). The 0.109 fixtures write the trace context inside `attributes`;
 * the record view carries it there too (read from the context, never from an attribute).
 */
@directive({ name: "log_records", at: "expected", home: "general", summary: "log records the call emitted (existence list)" })
export class LogRecords {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = {
    type: "array",
    items: {
      type: "object",
      properties: {
        body: {},
        level: { type: "string" },
        event_name: { type: "string" },
        attributes: { type: "object" },
        attributes_absent: { type: "array", items: { type: "string" } },
        trace_id: { type: "string" },
        span_id: { type: "string" },
      },
      additionalProperties: false,
    },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
  }
  check(value: unknown[], obs: Observation, ctx: CheckContext): void {
    const records = obs.get(LogCapture, ctx.locate(ctx.self.path)).map(logRecordView);
    ctx.match(value, records, Shapes.list("existence", Shapes.named({ keys: { attributes: Shapes.typed(Shapes.named()), attributes_absent: ABSENT } })));
  }
}
