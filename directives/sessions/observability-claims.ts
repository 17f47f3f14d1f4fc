/**
 * Named claims of sessions 012 (session id on spans and log records, sessions §3 / observability
 * §5.6, §7), in the claim-table form, over the §6.3 capture of the real session-bound call.
 */
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { registerClaims, type ClaimRow } from "../../harness/observability/claim-table.ts";
import { LogCapture, useOtelCapture, type CapturedSpans } from "../../harness/observability/capture.ts";
import { capturedSpans } from "../../harness/observability/spans.ts";
import { show } from "../../harness/suspension/claims.ts";

interface View {
  readonly cap: CapturedSpans;
  readonly logAttributes: readonly Readonly<Record<string, unknown>>[];
}

function view(obs: Observation, ctx: CheckContext): View | null {
  const cap = capturedSpans(obs, ctx);
  if (cap === null) return null;
  return { cap, logAttributes: obs.get(LogCapture, ctx.locate(ctx.self.path)).map((r) => r.attributes) };
}

const KEY = "openarmature.session_id";

const rows: ClaimRow<View>[] = [
  {
    name: "session_id_uniform_across_span_tree",
    section: "sessions 012",
    summary: "every span of the call carries this openarmature.session_id",
    schema: { type: "string", minLength: 1 },
    check: (v, want: string) => {
      const bad = v.cap.spans.filter((s) => s.attributes[KEY] !== want);
      return v.cap.spans.length > 0 && bad.length === 0 ? null : `spans ${show(bad.map((s) => [s.name, s.attributes[KEY]]))}`;
    },
  },
  {
    name: "all_logs_carry_session_id",
    section: "sessions 012",
    summary: "every log record carries this openarmature.session_id",
    schema: { type: "string", minLength: 1 },
    check: (v, want: string) => {
      const bad = v.logAttributes.filter((a) => a[KEY] !== want);
      return v.logAttributes.length > 0 && bad.length === 0 ? null : `log records with ${show(bad.map((a) => a[KEY]))}`;
    },
  },
  {
    name: "node_event_does_not_carry_session_id_field",
    section: "sessions 012",
    summary: "the §6 node events carry no session id field (observers read it from the ambient context)",
    check: (v) => {
      const withIt = v.cap.nodeEvents.filter((e) => Object.hasOwn(e, "sessionId") || Object.hasOwn(e, "session_id"));
      return v.cap.nodeEvents.length > 0 && withIt.length === 0 ? null : `${withIt.length} of ${v.cap.nodeEvents.length} node events carry one`;
    },
  },
];

registerClaims("sessions", view, rows, useOtelCapture);
