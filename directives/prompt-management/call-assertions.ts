/**
 * Assertions inside a call's `expected:` (prompt-management fixtures): the returned `prompt` /
 * `prompt_result` and the fetch counts the manager's backends received. A raised error is the
 * general §5.8 `raises` (directives/general/expected-raises.ts), registered at this position too.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { callRecord, matchPromptRecord, returned } from "../../harness/prompts/reading.ts";
import { CALL_EXPECTED } from "./case.ts";

const HOME = "prompt-management";

/** `prompt: {...}` — the fetched `Prompt` (§3), by named keys plus the `_present` / `_absent` claims. */
@directive({ name: "prompt", at: CALL_EXPECTED, home: HOME, summary: "the Prompt the call returned" })
export class PromptAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1 };
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const v = returned(callRecord(obs, ctx), ctx);
    if (v !== undefined) matchPromptRecord(value, v, ctx);
  }
}

/** `prompt_result: {...}` — the rendered `PromptResult` (§4). */
@directive({ name: "prompt_result", at: CALL_EXPECTED, home: HOME, summary: "the PromptResult the call returned" })
export class PromptResultAssertion extends PromptAssertion {}

/** `backend_call_counts: {<backend>: <int>}` — fetches each named backend received so far. */
@directive({ name: "backend_call_counts", at: CALL_EXPECTED, home: HOME, summary: "fetches each backend received" })
export class BackendCallCounts {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "integer", minimum: 0 } };
  check(value: Record<string, number>, obs: Observation, ctx: CheckContext): void {
    const counts = callRecord(obs, ctx).backendCalls;
    for (const [name, want] of Object.entries(value)) {
      if (!(name in counts)) ctx.fail(`no backend named '${name}' was declared`, { path: `${ctx.label}.${name}` });
      else ctx.match(want, counts[name], null, `${ctx.label}.${name}`);
    }
  }
}

/** `<backend>_backend_call_count: <int>` — fetches one backend received so far (008's `secondary_…`). */
@directive({ name: /(?<backend>.+)_backend_call_count/, at: CALL_EXPECTED, home: HOME, summary: "fetches one backend received" })
export class BackendCallCount {
  readonly scope = "call" as const;
  readonly schema = { type: "integer", minimum: 0 };
  check(value: number, obs: Observation, ctx: CheckContext): void {
    const name = ctx.self.groups["backend"] as string;
    const counts = callRecord(obs, ctx).backendCalls;
    if (!(name in counts)) ctx.fail(`no backend named '${name}' was declared`, { path: ctx.label });
    else ctx.match(value, counts[name], null, ctx.label);
  }
}
