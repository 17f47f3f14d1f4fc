/**
 * Log correlation (observability §7): log records emitted inside an invocation carry the active
 * openarmature span's trace / span ids (OTel's own trace context of the record) and the
 * invocation's correlation attributes — `openarmature.correlation_id`, `openarmature.session_id`
 * when session-bound, and `openarmature.user.<key>` for the metadata in scope.
 *
 * {@link CorrelatedLogger} wraps an OTel Logs `Logger` (from a `LoggerProvider` you configure).
 * For pino / winston users, {@link correlationAttributes} is the bridge: merge it into each record
 * (a pino `mixin`, a winston `format`) from anywhere in a node's async call tree.
 */
import type { Attributes } from "@opentelemetry/api";
import { SeverityNumber, type Logger, type LogRecord } from "@opentelemetry/api-logs";
import { currentNodeContext, getInvocationMetadata, preciseNow } from "../graph/index.ts";
import { currentSessionId } from "../sessions/context.ts";
import { crossCuttingAttributes } from "./attributes.ts";
import type { OTelObserver } from "./otel-observer.ts";

/** The §7 correlation attributes of the calling context (empty outside an invocation's nodes). */
export function correlationAttributes(): Attributes {
  const ctx = currentNodeContext();
  if (!ctx) return {};
  return crossCuttingAttributes(ctx.correlationId, currentSessionId(), getInvocationMetadata());
}

/** Severity names and their OTel numbers. */
export const SEVERITY: Readonly<Record<string, SeverityNumber>> = {
  TRACE: SeverityNumber.TRACE,
  DEBUG: SeverityNumber.DEBUG,
  INFO: SeverityNumber.INFO,
  WARNING: SeverityNumber.WARN,
  WARN: SeverityNumber.WARN,
  ERROR: SeverityNumber.ERROR,
  FATAL: SeverityNumber.FATAL,
};

/** An OTel Logs logger whose records carry the §7 correlation (trace context + attributes). */
export class CorrelatedLogger {
  constructor(
    readonly logger: Logger,
    /** The observer whose spans are the active ones (for `trace_id` / `span_id`). */
    readonly observer?: OTelObserver,
  ) {}

  emit(record: LogRecord): void {
    const context = record.context ?? this.observer?.activeContext();
    this.logger.emit({
      // The engine's clock (the one span times come from), so a record falls inside its span.
      timestamp: preciseNow(),
      ...record,
      ...(context ? { context } : {}),
      attributes: { ...correlationAttributes(), ...record.attributes },
    });
  }

  /** Emit `body` at `level` (`DEBUG`, `INFO`, `WARNING`, `ERROR`, ...). */
  log(level: string, body: string, attributes?: Attributes): void {
    const severityNumber = SEVERITY[level.toUpperCase()];
    if (severityNumber === undefined) throw new RangeError(`unknown log level ${JSON.stringify(level)} (known: ${Object.keys(SEVERITY).join(", ")})`);
    this.emit({ body, severityText: level.toUpperCase(), severityNumber, ...(attributes ? { attributes } : {}) });
  }

  info(body: string, attributes?: Attributes): void {
    this.log("INFO", body, attributes);
  }
  warn(body: string, attributes?: Attributes): void {
    this.log("WARNING", body, attributes);
  }
  error(body: string, attributes?: Attributes): void {
    this.log("ERROR", body, attributes);
  }
}
