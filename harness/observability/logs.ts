/** Reading captured log records (conformance-adapter §5.5 `log_records`; observability §7). */
import type { ReadableLogRecord } from "@opentelemetry/sdk-logs";

const INVALID_TRACE = "0".repeat(32);
const INVALID_SPAN = "0".repeat(16);

/** A record as `log_records` entries match it. */
export interface LogRecordView {
  readonly body: unknown;
  readonly level?: string;
  readonly event_name?: string;
  readonly trace_id?: string;
  readonly span_id?: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  /** The record's own attributes (what `attributes_absent` reads). */
  readonly attributes_absent: Readonly<Record<string, unknown>>;
}

export function logRecordView(r: ReadableLogRecord): LogRecordView {
  const out: Record<string, unknown> = { body: r.body };
  if (r.severityText !== undefined) out["level"] = r.severityText;
  if (r.eventName !== undefined) out["event_name"] = r.eventName;
  const sc = r.spanContext;
  const ctx: Record<string, string> = {};
  if (sc && sc.traceId !== INVALID_TRACE) ctx["trace_id"] = sc.traceId;
  if (sc && sc.spanId !== INVALID_SPAN) ctx["span_id"] = sc.spanId;
  Object.assign(out, ctx);
  out["attributes"] = { ...r.attributes, ...ctx };
  out["attributes_absent"] = { ...r.attributes };
  return out as unknown as LogRecordView;
}
