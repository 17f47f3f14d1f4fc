/**
 * The llm-provider fixtures' wire assertions beside the general §5.16 set
 * (`directives/general/wire-request.ts`): `expected_wire_request_checks: {<member>_absent: bool}`
 * and `expected_wire_bytes_identical` (llm-provider's note; the latter at the document root of a
 * `calls:` document).
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { llmCalls } from "../../harness/llm/reading.ts";
import { wireCall } from "../../harness/wire-call.ts";
import { requestsOf, sound } from "../general/wire-request.ts";
import { CALL_POSITION } from "../general/call.ts";

const HOME = "llm-provider";
const AT = ["case", CALL_POSITION];

@directive({ name: "expected_wire_request_checks", at: AT, home: HOME, summary: "member absence checks on the request" })
export class ExpectedWireRequestChecks {
  readonly scope = "call" as const;
  readonly schema = { type: "object", propertyNames: { pattern: "_absent$" }, additionalProperties: { type: "boolean" } };
  check(value: Record<string, boolean>, obs: Observation, ctx: CheckContext): void {
    const requests = requestsOf(wireCall(obs, ctx));
    if (requests.length === 0) ctx.fail("the call sent no request");
    requests.forEach((r, i) => {
      const body = sound(r, i, ctx);
      if (!body) return;
      for (const [key, absent] of Object.entries(value)) {
        const member = key.slice(0, -"_absent".length);
        if (Object.hasOwn(body, member) === absent) ctx.fail(`request ${i}: '${member}' is ${absent ? "present" : "absent"}`, { path: `${ctx.label}.${key}`, actual: body[member] });
      }
    });
  }
}

/** `expected_wire_bytes_identical: {calls: [i, j, ...]}` — the listed calls sent byte-identical bodies (§8). */
@directive({ name: "expected_wire_bytes_identical", at: "case", home: HOME, summary: "the listed calls' request bytes are identical" })
export class ExpectedWireBytesIdentical {
  readonly schema = { type: "object", required: ["calls"], additionalProperties: false, properties: { calls: { type: "array", minItems: 2, items: { type: "integer", minimum: 0 } } } };
  check(value: { calls: number[] }, obs: Observation, ctx: CheckContext): void {
    const calls = llmCalls(obs, ctx);
    const bytes = value.calls.map((i) => {
      const call = calls[i];
      if (!call) throw new FixtureSchemaInvalid(`there is no call ${i}`, ctx.locate(ctx.self.path));
      return requestsOf(call).map((r) => r.bodyText ?? "").join("\n");
    });
    bytes.forEach((b, k) => {
      if (b !== bytes[0]) ctx.fail(`call ${value.calls[k]}'s request bytes differ from call ${value.calls[0]}'s`, { expected: bytes[0], actual: b });
    });
  }
}
