import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { MiddlewareLog } from "../../harness/suspension/facets.ts";

/**
 * `middleware_log_captured: [<marker>, ...]` (conformance-adapter §5.8, §6.7): the markers the
 * call's `wrap_with_middleware` middlewares recorded, in recording order — complete and ordered.
 */
@directive({ name: "middleware_log_captured", at: "expected", home: "general", summary: "the wrap_with_middleware markers, in order" })
export class MiddlewareLogCaptured {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "string" } };
  check(value: string[], obs: Observation, ctx: CheckContext): void {
    ctx.match(value, obs.tryGet(MiddlewareLog) ?? [], Shapes.list("ordered"));
  }
}
