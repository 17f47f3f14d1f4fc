/**
 * `expected.wire_requests: [<entry>, ...]` (conformance-adapter §5.11): one entry per attempt the
 * call-level retry loop issued, in order. `sampling` matches declared RuntimeConfig fields read
 * from the attempt's realized wire body (under their wire names: `stop_sequences` is OpenAI's
 * `stop`); `appended_messages` matches the messages after the caller's original ones, each exact
 * `{role, content}` or `{role, content_contains: [...]}`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { describeCall, wiredCall } from "../../harness/llm/reading.ts";

interface Entry {
  sampling?: Record<string, unknown>;
  appended_messages?: Array<{ role: string; content?: string; content_contains?: string[] }>;
}

const WIRE_NAME: Readonly<Record<string, string>> = { stop_sequences: "stop" };

// §5.11 defines it in §5 itself: general, recognized in every directory.
@directive({ name: "wire_requests", at: "expected", home: "general", summary: "per-attempt outbound requests" })
export class WireRequests {
  readonly scope = "call" as const;
  readonly schema = {
    type: "array",
    items: {
      type: "object",
      additionalProperties: false,
      properties: {
        sampling: { type: "object" },
        appended_messages: {
          type: "array",
          items: { type: "object", additionalProperties: false, required: ["role"], properties: { role: { type: "string" }, content: { type: "string" }, content_contains: { type: "array", minItems: 1, items: { type: "string" } } } },
        },
      },
    },
  };
  check(value: Entry[], obs: Observation, ctx: CheckContext): void {
    const call = wiredCall(obs, ctx);
    const requests = call.requests.filter((r) => r.method === "POST");
    if (requests.length !== value.length) {
      ctx.fail(`expected ${value.length} attempt request(s), but the loop sent ${requests.length} (${describeCall(call)})`, { expected: value.length, actual: requests.length });
      return;
    }
    const base = (JSON.parse(call.messagesBefore) as unknown[]).length;
    value.forEach((entry, i) => {
      const body = requests[i]!.body ?? {};
      const label = `${ctx.label}[${i}]`;
      for (const [field, want] of Object.entries(entry.sampling ?? {})) {
        const wire = WIRE_NAME[field] ?? field;
        ctx.match(want, Object.hasOwn(body, wire) ? body[wire] : null, null, `${label}.sampling.${field}`);
      }
      if (entry.appended_messages !== undefined) {
        const wireMessages = Array.isArray(body["messages"]) ? (body["messages"] as Array<Record<string, unknown>>) : [];
        const appended = wireMessages.slice(base);
        if (appended.length !== entry.appended_messages.length) {
          ctx.fail(`attempt ${i} appended ${appended.length} message(s), expected ${entry.appended_messages.length}`, {
            path: `${label}.appended_messages`,
            expected: entry.appended_messages,
            actual: appended,
          });
          return;
        }
        entry.appended_messages.forEach((m, j) => {
          const got = appended[j]!;
          const at = `${label}.appended_messages[${j}]`;
          ctx.match(m.role, got["role"], null, `${at}.role`);
          if (m.content !== undefined) ctx.match(m.content, got["content"], null, `${at}.content`);
          for (const s of m.content_contains ?? []) {
            if (typeof got["content"] !== "string" || !got["content"].includes(s)) ctx.fail(`the appended content does not contain ${JSON.stringify(s)}`, { path: `${at}.content_contains`, actual: got["content"] });
          }
        });
      }
    });
  }
}
