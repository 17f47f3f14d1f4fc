import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { defaultClassifier } from "../../src/pipeline/middleware/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { categorizedLink } from "../../harness/graph/carries.ts";
import { causeSchema, ExpectedError } from "../general/expected-error.ts";

const base = new ExpectedError().schema;

type Value = Parameters<ExpectedError["check"]>[0] & { transient?: boolean };

/**
 * `expected_error:` as the pipeline-utilities note refines it (checkpoint fixtures 030, 041–046):
 * the general definition (`carries`, §5.13, and `cause`, §5.8) plus
 *
 * - `transient: <bool>` (030): whether the error is transient — by the error's own flag and by the
 *   §6.1 default retry classifier (a non-transient error is never retried);
 * - `cause: {exception_type: <name>}` (046) beside the general `raised_by_mock`: the type name of
 *   that error's own cause (the exception a migration function raised), checked by the general
 *   definition.
 */
@directive({ name: "expected_error", at: ["case", "invocation", "expected"], home: "pipeline-utilities", summary: "the case raised this categorized error (with cause / transient)" })
export class PipelineExpectedError extends ExpectedError {
  override readonly schema = {
    ...base,
    properties: { ...base.properties, transient: { type: "boolean" }, cause: causeSchema(true) },
  };

  override check(value: Value, obs: Observation, ctx: CheckContext): void {
    const { transient, ...general } = value;
    if (Object.keys(general).length > 0) super.check(general, obs, ctx);
    if (transient === undefined) return;
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored" && r.kind !== "compile_error") {
      if (Object.keys(general).length === 0) ctx.fail("expected the case to raise an error, but it did not");
      return;
    }
    const err = categorizedLink(r.error);
    const sub = `${ctx.label}.transient`;
    ctx.match(transient, err.transient === true, null, sub);
    ctx.match(transient, defaultClassifier(r.error, {}) === true, null, `${sub} (default retry classifier)`);
  }
}
