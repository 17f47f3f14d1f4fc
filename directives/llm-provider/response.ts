/**
 * `expected.response` (llm-provider fixture header of 001): the returned §6 Response, matched as
 * an implementation record (named keys; a written null matches null or missing) — `message`,
 * `finish_reason`, `usage`, `parsed` — plus `raw_check.required_keys`: each listed top-level key
 * of `raw` equals the mock response's value (for a stream, the key is present and `usage` equals
 * the terminal usage chunk's verbatim).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { describeCall, llmCall } from "../../harness/llm/reading.ts";

const toolCall = Shapes.record({ keys: { arguments: Shapes.document() } });
export const RESPONSE_SHAPE = Shapes.record({
  keys: {
    message: Shapes.record({ keys: { tool_calls: Shapes.list("ordered", toolCall) } }),
    parsed: { mapping: "exact", nulls: "record" },
  },
});

@directive({ name: "response", at: "expected", home: "llm-provider", summary: "the returned Response" })
export class ResponseAssertion {
  readonly scope = "call" as const;
  readonly schema = {
    type: "object",
    properties: { raw_check: { type: "object", additionalProperties: false, properties: { required_keys: { type: "array", items: { type: "string" } } } } },
  };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const call = llmCall(obs, ctx);
    if (call.response === undefined) {
      ctx.fail(`expected a Response, but ${describeCall(call)}`);
      return;
    }
    const { raw_check: rawCheck, ...fields } = value as { raw_check?: { required_keys?: string[] } };
    ctx.match(fields, call.response, RESPONSE_SHAPE);
    for (const key of rawCheck?.required_keys ?? []) {
      const raw = call.response.raw as Record<string, unknown>;
      const label = `${ctx.label}.raw_check.${key}`;
      if (!Object.hasOwn(raw, key)) {
        ctx.fail(`raw has no '${key}'`, { path: label });
        continue;
      }
      const served = call.served[call.served.length - 1];
      if (served?.body !== undefined && typeof served.body === "object" && served.body !== null) {
        ctx.match((served.body as Record<string, unknown>)[key], raw[key], Shapes.document(), label);
      } else if (served?.streamBody && key === "usage") {
        const terminal = [...served.streamBody].reverse().find((c) => typeof c === "object" && c !== null && "usage" in c) as Record<string, unknown> | undefined;
        ctx.match(terminal?.["usage"], raw[key], Shapes.document(), label);
      }
    }
  }
}

/** `expected.success: true` — the operation (e.g. `ready()`) returned without raising. */
@directive({ name: "success", at: "expected", home: "llm-provider", summary: "the operation returned" })
export class Success {
  readonly scope = "call" as const;
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const call = llmCall(obs, ctx);
    const ok = call.error === undefined;
    if (ok !== value) ctx.fail(`expected success ${value}, but ${describeCall(call)}`);
  }
}

/** `expected.provider_call_count: N` — the call sent N wire requests (fixture 024). */
@directive({ name: "provider_call_count", at: "expected", home: "llm-provider", summary: "wire requests the call sent" })
export class ProviderCallCount {
  readonly scope = "call" as const;
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    ctx.match(value, llmCall(obs, ctx).requests.length, null);
  }
}

/** `expected.no_token_events_emitted: true` — no content / reasoning token event was emitted (§5 *Streaming*). */
@directive({ name: "no_token_events_emitted", at: "expected", home: "llm-provider", summary: "no token events" })
export class NoTokenEventsEmitted {
  readonly scope = "call" as const;
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const n = llmCall(obs, ctx).events.filter((e) => e.type === "text_delta" || e.type === "reasoning_delta").length;
    if ((n === 0) !== value) ctx.fail(`expected no_token_events_emitted ${value}, but ${n} token event(s) were emitted`);
  }
}
