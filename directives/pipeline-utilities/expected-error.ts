import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { defaultClassifier } from "../../src/pipeline/middleware/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { categorizedLink } from "../../harness/graph/carries.ts";
import { ExpectedError } from "../general/expected-error.ts";

const base = new ExpectedError().schema;

type Value = Parameters<ExpectedError["check"]>[0] & {
  transient?: boolean;
  cause?: { exception_type: string };
};

/**
 * `expected_error:` as the pipeline-utilities note refines it (checkpoint fixtures 030, 041–046):
 * the general definition (`carries` included, §5.13) plus
 *
 * - `transient: <bool>` (030): whether the error is transient — by the error's own flag and by the
 *   §6.1 default retry classifier (a non-transient error is never retried);
 * - `cause: {exception_type: <name>}` (046): the type name of that error's own cause (the
 *   exception a migration function raised).
 */
@directive({ name: "expected_error", at: ["case", "invocation", "expected"], home: "pipeline-utilities", summary: "the case raised this categorized error (with cause / transient)" })
export class PipelineExpectedError extends ExpectedError {
  override readonly schema = {
    ...base,
    properties: {
      ...base.properties,
      transient: { type: "boolean" },
      cause: { type: "object", required: ["exception_type"], additionalProperties: false, properties: { exception_type: { type: "string", minLength: 1 } } },
    },
  };

  override check(value: Value, obs: Observation, ctx: CheckContext): void {
    const { transient, cause, ...general } = value;
    if (Object.keys(general).length > 0) super.check(general, obs, ctx);
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored" && r.kind !== "compile_error") {
      if (Object.keys(general).length === 0) ctx.fail("expected the case to raise an error, but it did not");
      return;
    }
    const err = categorizedLink(r.error);
    const sub = (k: string): string => `${ctx.label}.${k}`;
    if (transient !== undefined) {
      ctx.match(transient, err.transient === true, null, sub("transient"));
      ctx.match(transient, defaultClassifier(r.error, {}) === true, null, `${sub("transient")} (default retry classifier)`);
    }
    if (cause !== undefined) {
      const c = err.cause as (Error & { constructor?: { name?: string } }) | undefined;
      const name = c === undefined || c === null ? null : (c.name ?? c.constructor?.name ?? typeof c);
      ctx.match(cause.exception_type, name, null, sub("cause.exception_type"));
    }
  }
}
