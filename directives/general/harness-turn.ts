import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { errorCategoryOf, turnOf } from "../../harness/turns/reading.ts";

/**
 * `dispatch_path: "3.0" | "3.1" | "3.2" | "3.3"` (conformance-adapter §5.8 *Harness turn outcomes*):
 * the inbound dispatch path the harness classified the transmission or chat turn into (harness §3),
 * compared as a string.
 */
@directive({ name: "dispatch_path", at: "expected", home: "general", summary: "the harness §3 dispatch path of the turn" })
export class DispatchPathAssertion {
  readonly scope = "call" as const;
  readonly schema = { enum: ["3.0", "3.1", "3.2", "3.3"] };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const t = turnOf(obs, ctx);
    if (t !== null) ctx.match(value, t.path, null);
  }
}

/**
 * `error_bucket: session_terminating | retryable_transient | user_correctable` (conformance-adapter
 * §5.8): the harness §7 bucket of an errored turn, the tokens harness-chat §5.2 writes.
 */
@directive({ name: "error_bucket", at: "expected", home: "general", summary: "the harness §7 bucket of an errored turn" })
export class ErrorBucketAssertion {
  readonly scope = "call" as const;
  readonly schema = { enum: ["session_terminating", "retryable_transient", "user_correctable"] };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const t = turnOf(obs, ctx);
    if (t === null) return;
    if (t.outcome !== "errored") return ctx.fail(`the turn ${t.outcome}; an error bucket needs an errored turn`, { expected: value, actual: t.outcome });
    ctx.match(value, t.bucket, null);
  }
}

/**
 * `error_category: <category>` (conformance-adapter §5.8): the errored turn's concrete category, read
 * by the §5.8 category rule (the outermost non-carrier link with a category, else the carrier's).
 */
@directive({ name: "error_category", at: "expected", home: "general", summary: "the concrete category of an errored turn" })
export class ErrorCategoryAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "string", minLength: 1 };
  check(value: string, obs: Observation, ctx: CheckContext): void {
    const t = turnOf(obs, ctx);
    if (t === null) return;
    if (t.outcome !== "errored") return ctx.fail(`the turn ${t.outcome}; an error category needs an errored turn`, { expected: value, actual: t.outcome });
    ctx.match(value, errorCategoryOf(t), null);
  }
}
