import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { MiddlewareConfigs, pipelineCase } from "../../harness/pipeline/case-state.ts";
import { noCallMade } from "../../harness/pipeline/reading.ts";
import { CallbackCaptures } from "../../harness/pipeline/facets.ts";

const RECORD = {
  type: "object",
  additionalProperties: false,
  properties: {
    callback: { enum: ["on_retry", "on_caught"] },
    attempt_index: { type: "integer", minimum: 0 },
    category: { type: ["string", "null"] },
    message: { type: "string" },
  },
} as const;

/**
 * `callback_records: {<capture name>: [<record>, ...]}` (this project's pipeline-utilities note,
 * `spec/pipeline-utilities/conformance/003-*.md`), under `expected:`: what the declarative stand-ins
 * of the §6.1 `on_retry` and §6.3 `on_caught` callbacks (`{capture_to: <name>}`) received during
 * the call, by capture name — complete and in the order the callbacks fired; each record matches
 * by the keys it names: `callback`, `attempt_index` (on_retry), and the §6.4 derived `category` /
 * `message` of the error the callback received. `[]` asserts the callback never fired.
 */
@directive({ name: "callback_records", at: "expected", home: "pipeline-utilities", summary: "what on_retry / on_caught stand-ins received" })
export class CallbackRecordsAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "array", items: RECORD } };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k));
  }
  check(value: Record<string, unknown[]>, obs: Observation, ctx: CheckContext): void {
    const none = noCallMade(obs);
    if (none !== null) return ctx.fail(none);
    const configs = obs.get(MiddlewareConfigs, ctx.locate(ctx.self.path));
    const declared = new Set(
      configs.flatMap((c) => [c.entry.on_retry, c.entry.on_caught]).flatMap((s) => (s !== null && typeof s === "object" ? [(s as { capture_to: string }).capture_to] : [])),
    );
    const captured = obs.tryGet(CallbackCaptures);
    for (const [name, want] of Object.entries(value)) {
      if (!declared.has(name)) {
        ctx.fail(`no on_retry / on_caught in this case captures to '${name}'`, { path: `${ctx.label}.${name}` });
        continue;
      }
      ctx.match(want, [...(captured?.get(name) ?? [])], Shapes.list("ordered", Shapes.named()), `${ctx.label}.${name}`);
    }
  }
}
