import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema } from "../../src/conformance/directive.ts";
import { match, Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { captureLogsPerCall, CaseLogCapture, LogCapture, OtelCaptureSlot, useOtelCapture } from "../../harness/observability/capture.ts";
import { LLM_CASE } from "../../harness/llm/case.ts";
import { callsProvider } from "../../harness/provider-context.ts";
import { logRecordView, type LogRecordView } from "../../harness/observability/logs.ts";
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
 * An entry's keys. `event_name`, `trace_id` and `span_id` MAY be written null (§8.4 Null: a log
 * record is a record in the implementation's language, so null asserts the field is not set —
 * for the trace context, no context or OpenTelemetry's all-zero invalid one, §5.5).
 */
const ENTRY_PROPERTIES = {
  body: {},
  level: { type: "string" },
  event_name: { type: ["string", "null"] },
  attributes: { type: "object" },
  attributes_absent: { type: "array", items: { type: "string" } },
  trace_id: { type: ["string", "null"] },
  span_id: { type: ["string", "null"] },
} as const;

/** One entry against one record: the subset rule (§5.5) — the fields it names, attributes with span-attribute typing. */
const ENTRY: Shape = Shapes.named({ keys: { attributes: Shapes.typed(Shapes.named()), attributes_absent: ABSENT } });

type Entry = Readonly<Record<string, unknown>> & { readonly count?: number };

/**
 * §6.3: capture log records for any case asserting them — a graph case through the OTel capture,
 * a case making bare provider calls (`call:` / `calls:`, no graph; decided once the case is
 * configured) through the same pipeline read per call.
 */
function captureLogs(ctx: ConfigureContext): void {
  const state = useOtelCapture(ctx);
  ctx.whenConfigured(() => {
    if (callsProvider(ctx, "llm")) captureLogsPerCall(state, ctx.slot(LLM_CASE));
  });
}

/** The records `entry` matches on its own (its binding tokens bound per record). */
function matching(entry: Entry, records: readonly LogRecordView[]): LogRecordView[] {
  return records.filter((r) => match(entry, r, ENTRY).ok);
}

/**
 * The records a block reads (§8.4 *What an assertion reads*; §5.5: captured for the whole case,
 * read after delivery completed): every call's in the case-level block of a multi-call case, the
 * call's own in a block scoped to one call (an invocation, or each run of a single-call case).
 */
function scopedRecords(obs: Observation, ctx: CheckContext): LogRecordView[] {
  const facet = obs.calls.length > 0 ? CaseLogCapture : LogCapture;
  return obs.get(facet, ctx.locate(ctx.self.path)).map(logRecordView);
}

/**
 * `log_records: [<entry>, ...]` (conformance-adapter §5.5): an existence list over the records the
 * block's calls emitted (every call's at case level, §8.4 — not a one-call directive); each entry matches by the fields it names — `body`, `level` (severity text),
 * `event_name`, `attributes` (subset), `attributes_absent` (none of the keys present), `trace_id` /
 * `span_id` (the record's OTel trace context; an all-zero id counts as absent). An entry with
 * `count: <n>` asserts exactly n records match it instead. The 0.109 fixtures write the trace
 * context inside `attributes`; the record view carries it there too (read from the context,
 * never from an attribute).
 */
@directive({ name: "log_records", at: "expected", home: "general", summary: "log records the block's calls emitted (existence list; count per entry)" })
export class LogRecords {
  readonly schema: JsonSchema = {
    type: "array",
    items: { type: "object", properties: { ...ENTRY_PROPERTIES, count: { type: "integer", minimum: 0 } }, additionalProperties: false },
  };
  configure(_value: unknown, ctx: ConfigureContext): void {
    captureLogs(ctx);
  }
  check(value: Entry[], obs: Observation, ctx: CheckContext): void {
    const records = scopedRecords(obs, ctx);
    const plain = value.filter((e) => e.count === undefined);
    if (plain.length === value.length) {
      ctx.match(value, records, Shapes.list("existence", ENTRY));
      return;
    }
    for (const [i, entry] of value.entries()) {
      const { count, ...rest } = entry;
      if (count === undefined) {
        ctx.match([entry], records, Shapes.list("existence", ENTRY), `${ctx.label}[${i}]`);
        continue;
      }
      const n = matching(rest, records).length;
      if (n !== count) ctx.fail(`${n} captured log record(s) match the entry, expected ${count}`, { path: `${ctx.label}[${i}]`, expected: count, actual: n });
    }
  }
}

/** `log_records_absent: [<entry>, ...]` (conformance-adapter §5.5): no captured record matches any entry (same subset rule). */
@directive({ name: "log_records_absent", at: "expected", home: "general", summary: "no captured log record matches these entries" })
export class LogRecordsAbsent {
  readonly schema: JsonSchema = { type: "array", minItems: 1, items: { type: "object", minProperties: 1, properties: ENTRY_PROPERTIES, additionalProperties: false } };
  configure(_value: unknown, ctx: ConfigureContext): void {
    captureLogs(ctx);
  }
  check(value: Entry[], obs: Observation, ctx: CheckContext): void {
    const records = scopedRecords(obs, ctx);
    for (const [i, entry] of value.entries()) {
      const hits = matching(entry, records);
      if (hits.length > 0) ctx.fail(`${hits.length} captured log record(s) match an absent entry, e.g. ${JSON.stringify(hits[0]!.body)}`, { path: `${ctx.label}[${i}]`, expected: "no record", actual: hits[0] });
    }
  }
}
