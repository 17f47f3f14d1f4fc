import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import * as F from "../../harness/graph/facets.ts";
import { causeChain, classify } from "../../harness/graph/reading.ts";
import { ExpectedError } from "../general/expected-error.ts";

type Value = Parameters<ExpectedError["check"]>[0] & {
  carries?: Record<string, unknown>;
  cause?: { exception_type?: string };
};

function camel(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/**
 * `expected_error:` as the sessions fixtures write it (013): the general definition governs, plus
 * `carries: {<field>: <value>}` (conformance-adapter §5.13 — the categorized error's exposed fields:
 * a bare field compares exactly, a mapping by named keys; `<field>_present` asserts presence,
 * `<field>_mentions` a substring) and `cause: {exception_type}` — the exception preserved as the
 * categorized error's cause has that type (its `name`, e.g. Python's `KeyError`).
 */
@directive({ name: "expected_error", at: ["case", "invocation", "expected"], home: "sessions", summary: "the case raised this categorized error" })
export class SessionsExpectedError extends ExpectedError {
  override readonly schema = (() => {
    const base = new ExpectedError().schema;
    return {
      ...base,
      properties: {
        ...base.properties,
        carries: { type: "object", minProperties: 1 },
        cause: { type: "object", required: ["exception_type"], additionalProperties: false, properties: { exception_type: { type: "string", minLength: 1 } } },
      },
    };
  })() as unknown as ExpectedError["schema"];

  override check(value: Value, obs: Observation, ctx: CheckContext): void {
    super.check(value, obs, ctx);
    if (value.carries === undefined && value.cause === undefined) return;
    const r = obs.get(F.Result, ctx.locate(ctx.self.path));
    if (r.kind !== "errored" && r.kind !== "compile_error") return; // super reported it
    const category = classify(r.error).category;
    const link = causeChain(r.error).find((l) => !l.carrier && l.category === category)?.error as Record<string, unknown> | undefined;
    if (link === undefined) {
      ctx.fail(`no link of the raised error carries category ${category ?? "(none)"}`);
      return;
    }
    for (const [key, want] of Object.entries(value.carries ?? {})) {
      const at = `${ctx.label}.carries.${key}`;
      if (key.endsWith("_present")) {
        const f = camel(key.slice(0, -"_present".length));
        ctx.match(want, link[f] !== undefined && link[f] !== null, null, at);
      } else if (key.endsWith("_mentions")) {
        const f = camel(key.slice(0, -"_mentions".length));
        const text = String(link[f] ?? "");
        for (const s of Array.isArray(want) ? want : [want]) if (!text.includes(String(s))) ctx.fail(`'${f}' does not mention ${JSON.stringify(s)}`, { path: at, actual: text });
      } else {
        const f = camel(key);
        if (!(f in link)) ctx.fail(`the ${category} error exposes no field '${f}'`, { path: at });
        else ctx.match(want, link[f], Shapes.named(), at);
      }
    }
    if (value.cause?.exception_type !== undefined) {
      const cause = (link as { cause?: unknown }).cause;
      const type = cause instanceof Error ? cause.name : cause === undefined ? null : typeof cause;
      ctx.match(value.cause.exception_type, type, null, `${ctx.label}.cause.exception_type`);
    }
  }
}
