import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { defaultClassifier } from "../../src/pipeline/middleware/index.ts";
import * as F from "../../harness/graph/facets.ts";
import { causeChain } from "../../harness/graph/reading.ts";
import { ExpectedError } from "../general/expected-error.ts";

const base = new ExpectedError().schema;

type Value = Parameters<ExpectedError["check"]>[0] & {
  transient?: boolean;
  carries?: Record<string, unknown>;
  cause?: { exception_type: string };
};

/** `from_version` → `fromVersion`. */
function camel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * `expected_error:` as the pipeline-utilities note refines it (checkpoint fixtures 030, 041–046):
 * the general definition plus
 *
 * - `transient: <bool>` (030): whether the error is transient — by the error's own flag and by the
 *   §6.1 default retry classifier (a non-transient error is never retried);
 * - `carries: {<field>: <value>, <field>_present, <field>_mentions}` (§5.13): fields of the error
 *   the §5.8 category rule picks (the §10.10 error: `from_version`, `to_version`,
 *   `registered_migrations_count`, ...), read by their TypeScript names;
 * - `cause: {exception_type: <name>}` (046): the type name of that error's own cause (the
 *   exception a migration function raised).
 */
@directive({ name: "expected_error", at: ["case", "invocation", "expected"], home: "pipeline-utilities", summary: "the case raised this categorized error (with carries / cause / transient)" })
export class PipelineExpectedError extends ExpectedError {
  override readonly schema = {
    ...base,
    properties: {
      ...base.properties,
      transient: { type: "boolean" },
      carries: { type: "object", minProperties: 1 },
      cause: { type: "object", required: ["exception_type"], additionalProperties: false, properties: { exception_type: { type: "string", minLength: 1 } } },
    },
  };

  override check(value: Value, obs: Observation, ctx: CheckContext): void {
    const { transient, carries, cause, ...general } = value;
    if (Object.keys(general).length > 0) super.check(general, obs, ctx);
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored" && r.kind !== "compile_error") {
      if (Object.keys(general).length === 0) ctx.fail("expected the case to raise an error, but it did not");
      return;
    }
    const chain = causeChain(r.error);
    const link = chain.find((l) => !l.carrier && l.category !== null) ?? chain.find((l) => !l.carrier) ?? chain[0]!;
    const err = link.error as Record<string, unknown> & Error;
    const sub = (k: string): string => `${ctx.label}.${k}`;
    if (transient !== undefined) {
      ctx.match(transient, err.transient === true, null, sub("transient"));
      ctx.match(transient, defaultClassifier(r.error, {}) === true, null, `${sub("transient")} (default retry classifier)`);
    }
    for (const [key, want] of Object.entries(carries ?? {})) {
      const flavor = key.endsWith("_present") ? "present" : key.endsWith("_mentions") ? "mentions" : "value";
      const field = flavor === "value" ? key : key.slice(0, key.lastIndexOf("_"));
      const has = camel(field) in err || field in err;
      const got = camel(field) in err ? err[camel(field)] : err[field];
      if (flavor === "present") ctx.match(want, has && got !== null && got !== undefined, null, sub(`carries.${key}`));
      else if (!has) ctx.fail(`${sub(`carries.${key}`)}: the ${err.name} does not expose '${field}'`, { path: sub(`carries.${key}`), expected: want });
      else if (flavor === "mentions") {
        for (const m of Array.isArray(want) ? want : [want]) {
          if (!String(got).includes(String(m))) ctx.fail(`${sub(`carries.${key}`)}: ${JSON.stringify(got)} does not mention ${JSON.stringify(m)}`, { path: sub(`carries.${key}`), expected: m, actual: got });
        }
      } else ctx.match(want, got, null, sub(`carries.${key}`));
    }
    if (cause !== undefined) {
      const c = err.cause as (Error & { constructor?: { name?: string } }) | undefined;
      const name = c === undefined || c === null ? null : (c.name ?? c.constructor?.name ?? typeof c);
      ctx.match(cause.exception_type, name, null, sub("cause.exception_type"));
    }
  }
}
