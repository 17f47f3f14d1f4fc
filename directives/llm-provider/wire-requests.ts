/**
 * `expected.wire_requests: [<entry>, ...]` (conformance-adapter §5.11): one entry per attempt the
 * call-level retry loop issued, in order. `sampling` matches declared RuntimeConfig fields read
 * from the attempt's realized wire body, where the case's mapping puts them (llm-provider §8.1.1:
 * the body root, `stop_sequences` as `stop`; §8.2.1: the root, same names; §8.3.1: under
 * `generationConfig`, camelCase); `appended_messages` matches the messages after the caller's
 * original ones, each exact `{role, content}` or `{role, content_contains: [...]}`, read back from
 * the mapping's wire messages (Anthropic `messages`, Gemini `contents` with `model` as assistant;
 * a message's text is its string content or its text blocks / parts joined).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { describeCall, wiredCall } from "../../harness/llm/reading.ts";

interface Entry {
  sampling?: Record<string, unknown>;
  appended_messages?: Array<{ role: string; content?: string; content_contains?: string[] }>;
}

type Json = Record<string, unknown>;

/** Where a mapping's wire body carries the declared RuntimeConfig fields, and under which names. */
const SAMPLING: Readonly<Record<string, { readonly at?: string; readonly names: Readonly<Record<string, string>> }>> = {
  openai: { names: { stop_sequences: "stop" } },
  // upstream 060's OpenAI-compatible mapping with streaming switched off (harness/llm/case.ts)
  streaming_unsupported_stub: { names: { stop_sequences: "stop" } },
  anthropic: { names: {} },
  gemini: {
    at: "generationConfig",
    names: { temperature: "temperature", top_p: "topP", max_tokens: "maxOutputTokens", stop_sequences: "stopSequences", seed: "seed", frequency_penalty: "frequencyPenalty", presence_penalty: "presencePenalty" },
  },
};

/** The text of a wire message's content: a string, or its text blocks (Anthropic) / parts (Gemini) joined. */
function wireText(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  const texts = (content as Json[]).filter((b) => typeof b["text"] === "string" && b["thought"] !== true && (b["type"] === undefined || b["type"] === "text"));
  return texts.length === content.length ? texts.map((b) => b["text"]).join("") : content;
}

/** The wire messages of a body as `{role, content}` in §3 terms (Gemini `model` is `assistant`). */
function wireMessages(mapping: string, body: Json): Json[] {
  if (mapping === "gemini") {
    const contents = Array.isArray(body["contents"]) ? (body["contents"] as Json[]) : [];
    return contents.map((c) => ({ role: c["role"] === "model" ? "assistant" : c["role"], content: wireText(c["parts"]) }));
  }
  const messages = Array.isArray(body["messages"]) ? (body["messages"] as Json[]) : [];
  return mapping === "anthropic" ? messages.map((m) => ({ role: m["role"], content: wireText(m["content"]) })) : messages;
}

/**
 * How many wire messages the caller's own messages realize: every message on OpenAI; on Anthropic /
 * Gemini system messages are lifted out of the list and a run of `tool` messages collapses into one
 * `user` message (llm-provider §8.2.1, §8.2.1.2, §8.3.1, §8.3.1.2).
 */
function callerWireCount(mapping: string, caller: ReadonlyArray<{ role?: unknown }>): number {
  if (mapping !== "anthropic" && mapping !== "gemini") return caller.length;
  let n = 0;
  caller.forEach((m, i) => {
    if (m.role === "system") return;
    if (m.role === "tool" && caller[i - 1]?.role === "tool") return;
    n++;
  });
  return n;
}

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
    const sampling = SAMPLING[call.mapping];
    if (sampling === undefined) {
      ctx.fail(`wire_requests does not know where the '${call.mapping}' mapping puts its request fields`, {});
      return;
    }
    const base = callerWireCount(call.mapping, JSON.parse(call.messagesBefore) as Array<{ role?: unknown }>);
    value.forEach((entry, i) => {
      const body = requests[i]!.body ?? {};
      const label = `${ctx.label}[${i}]`;
      const fields = (sampling.at === undefined ? body : body[sampling.at]) as Json | undefined;
      for (const [field, want] of Object.entries(entry.sampling ?? {})) {
        const wire = sampling.names[field] ?? field;
        ctx.match(want, fields !== undefined && fields !== null && Object.hasOwn(fields, wire) ? fields[wire] : null, null, `${label}.sampling.${field}`);
      }
      if (entry.appended_messages !== undefined) {
        const appended = wireMessages(call.mapping, body).slice(base);
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
