/**
 * Wire-request assertions (conformance-adapter §5.16) over the requests the mock captured:
 * `expected_wire_request` (list or mapping form, exact bodies), `expected_wire_request_includes`
 * (named keys), `expected_wire_request_absent_keys`, `expected_wire_headers`,
 * `expected_wire_request_count`, `expected_wire_url`. General definitions, one implementation: they
 * read the provider call the case's harness recorded (`harness/wire-call.ts`: an llm-provider call
 * or a retrieval-provider one); a case whose harness made no provider call reports that. The
 * llm-provider note's `expected_wire_request_checks` and `expected_wire_bytes_identical` are in
 * `directives/llm-provider/wire-checks.ts`. A body with a repeated member name fails every wire assertion on that request. Values the
 * mapping defines as JSON-encoded strings (OpenAI tool-call `arguments`) compare after decoding.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { Shapes, type Shape } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import type { WireCapture } from "../../harness/llm/facets.ts";
import { wireCall, type WireCall } from "../../harness/wire-call.ts";
import { CALL_POSITION } from "./call.ts";

const HOME = "general";
/** The case (or document root), and a `calls:` list's call entry (`llm_call`). */
const AT = ["case", CALL_POSITION];

const message = Shapes.document({
  keys: { tool_calls: Shapes.list("ordered", Shapes.document({ keys: { function: Shapes.document({ keys: { arguments: Shapes.json() } }) } })) },
});
function bodyShape(mapping: "exact" | "named"): Shape {
  return Shapes.document({ mapping, keys: { messages: Shapes.list("ordered", { ...message, mapping }) } });
}

/** The requests a wire assertion reads: the model requests (POST) of the call. */
export function requestsOf(call: WireCall): ReadonlyArray<WireCapture> {
  const posts = call.requests.filter((r) => r.method === "POST");
  return posts.length > 0 || call.operation === "complete" ? posts : call.requests;
}

/**
 * §5.16 *Exclusivity* and count agreement, checked at configure time: one body form per position,
 * and a written `expected_wire_request_count` agrees with the body form's request count.
 */
export function declareForm(ctx: ConfigureContext, key: "form" | "count", value: { form?: string; requests: number }): void {
  const slot = `wire:${key}`;
  if (ctx.plan.hasInput(slot)) {
    throw new FixtureSchemaInvalid(`'${ctx.self.key}' and '${ctx.plan.input<{ name: string }>(slot)!.name}' cannot both be written at one position`, ctx.locate(ctx.self.path));
  }
  ctx.plan.setInput(slot, { name: ctx.self.key, requests: value.requests });
  const form = ctx.plan.input<{ name: string; requests: number }>("wire:form");
  const count = ctx.plan.input<{ name: string; requests: number }>("wire:count");
  if (form && count && form.requests !== count.requests) {
    throw new FixtureSchemaInvalid(`expected_wire_request_count ${count.requests} disagrees with ${form.name} (${form.requests} request(s))`, ctx.locate(ctx.self.path));
  }
}

/** §5.16: under `mapping: gemini` the `model` key compares with the URL's `{model}` path segment. */
export function withModel(call: WireCall, r: WireCapture, body: Record<string, unknown>): Record<string, unknown> {
  if (call.mapping !== "gemini") return body;
  const m = /\/models\/([^/:]+)(?::|$)/.exec(new URL(r.url).pathname);
  return m ? { ...body, model: decodeURIComponent(m[1]!) } : body;
}

export function sound(r: WireCapture, i: number, ctx: CheckContext): Record<string, unknown> | undefined {
  if (r.repeatedMember !== undefined) {
    ctx.fail(`request ${i} repeats the member '${r.repeatedMember}'`, { path: `${ctx.label}[${i}]` });
    return undefined;
  }
  if (r.body === undefined) ctx.fail(`request ${i} has no JSON body`, { path: `${ctx.label}[${i}]` });
  return r.body;
}


@directive({ name: "expected_wire_request", at: AT, home: HOME, summary: "the exact wire request bodies" })
export class ExpectedWireRequest {
  readonly scope = "call" as const;
  readonly schema = { type: ["object", "array"] };
  configure(value: unknown, ctx: ConfigureContext): void {
    declareForm(ctx, "form", { requests: Array.isArray(value) ? value.length : 1 });
  }
  check(value: Record<string, unknown> | Record<string, unknown>[], obs: Observation, ctx: CheckContext): void {
    const expected = Array.isArray(value) ? value : [value];
    const call = wireCall(obs, ctx);
    const requests = requestsOf(call);
    if (requests.length !== expected.length) {
      ctx.fail(`expected ${expected.length} wire request(s), but the call sent ${requests.length}`, { expected: expected.length, actual: requests.length });
      return;
    }
    requests.forEach((r, i) => {
      const body = sound(r, i, ctx);
      if (body !== undefined) ctx.match(expected[i], withModel(call, r, body), bodyShape("exact"), Array.isArray(value) ? `${ctx.label}[${i}]` : ctx.label);
    });
  }
}

@directive({ name: "expected_wire_request_includes", at: AT, home: HOME, summary: "the one wire request, by named keys" })
export class ExpectedWireRequestIncludes {
  readonly scope = "call" as const;
  readonly schema = { type: "object" };
  configure(value: Record<string, unknown>, ctx: ConfigureContext): void {
    // §5.16: top-level absence is written with expected_wire_request_absent_keys, never as an
    // `absent_keys` key in the body; `<key>_absent_keys` beside a member is absence below the top level.
    if (Object.hasOwn(value, "absent_keys")) {
      throw new FixtureSchemaInvalid(
        "an 'absent_keys' key at the top level of an expected_wire_request_includes body is not allowed: write top-level absence as expected_wire_request_absent_keys beside it (conformance-adapter §5.16)",
        ctx.locate([...ctx.self.path, "absent_keys"]),
      );
    }
    declareForm(ctx, "form", { requests: 1 });
  }
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const call = wireCall(obs, ctx);
    const requests = requestsOf(call);
    if (requests.length !== 1) {
      ctx.fail(`expected exactly one wire request, but the call sent ${requests.length}`);
      return;
    }
    const body = sound(requests[0]!, 0, ctx);
    if (body !== undefined) ctx.match(value, withModel(call, requests[0]!, body), bodyShape("named"));
  }
}

@directive({ name: "expected_wire_request_absent_keys", at: AT, home: HOME, summary: "top-level members no request carries" })
export class ExpectedWireRequestAbsentKeys {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    requestsOf(wireCall(obs, ctx)).forEach((r, i) => {
      const body = sound(r, i, ctx);
      for (const k of value) if (body && Object.hasOwn(body, k)) ctx.fail(`request ${i} carries '${k}'`, { path: `${ctx.label}.${k}`, actual: body[k] });
    });
  }
}

@directive({ name: "expected_wire_headers", at: AT, home: HOME, summary: "headers every request carries once" })
export class ExpectedWireHeaders {
  readonly scope = "call" as const;
  readonly schema = { type: "object", additionalProperties: { type: "string" } };
  check(value: Record<string, string>, obs: Observation, ctx: CheckContext): void {
    const requests = wireCall(obs, ctx).requests;
    if (requests.length === 0) ctx.fail("the call sent no request to read headers from");
    requests.forEach((r, i) => {
      for (const [name, want] of Object.entries(value)) {
        const got = r.headers.filter(([k]) => k.toLowerCase() === name.toLowerCase()).map(([, v]) => v);
        if (got.length !== 1) ctx.fail(`request ${i} carries header '${name}' ${got.length} times`, { path: `${ctx.label}.${name}` });
        else ctx.match(want, got[0], null, `${ctx.label}.${name}`);
      }
    });
  }
}

@directive({ name: "expected_wire_request_count", at: AT, home: HOME, summary: "how many requests were sent" })
export class ExpectedWireRequestCount {
  readonly scope = "call" as const;
  readonly schema = { type: "integer", minimum: 0 };
  configure(value: number, ctx: ConfigureContext): void {
    declareForm(ctx, "count", { requests: value });
  }
  check(value: number, obs: Observation, ctx: CheckContext): void {
    ctx.match(value, wireCall(obs, ctx).requests.length, null);
  }
}

@directive({ name: "expected_wire_url", at: AT, home: HOME, summary: "the resolved URL of every request" })
export class ExpectedWireUrl {
  readonly scope = "call" as const;
  readonly schema = { type: "string" };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const requests = wireCall(obs, ctx).requests;
    if (requests.length === 0) ctx.fail("the call sent no request");
    requests.forEach((r, i) => ctx.match(value, r.url, null, `${ctx.label}[${i}]`));
  }
}

/** `expected_wire_request_checks: {<member>_absent: bool}` — a top-level member is absent (true) / present (false). */
