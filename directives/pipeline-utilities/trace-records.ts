import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { TraceRecords } from "../../harness/pipeline/facets.ts";
import { MiddlewareConfigs, pipelineCase } from "../../harness/pipeline/case-state.ts";
import { noCallMade } from "../../harness/pipeline/reading.ts";

const RECORD_SHAPE = Shapes.named({
  keys: { state_in: Shapes.exact(), state_seen_in_post_phase: Shapes.exact(), partial_update_returned: Shapes.exact() },
});

/**
 * `trace_records: {<recorder name>: [<record>, ...]}` (pipeline-utilities note, fixtures 001 / 005):
 * what each named `trace_recorder` (or `state_inspector`) recorded during the call, one record
 * per dispatch, complete and in dispatch order. A record matches by the keys it names:
 * `state_in` / `state_seen_in_post_phase` (state snapshots, exact), `partial_update_returned`
 * (exact), and the out-of-band `pre_seen` / `post_seen` phase flags.
 */
@directive({ name: "trace_records", at: "expected", home: "pipeline-utilities", summary: "what each trace_recorder recorded" })
export class TraceRecordsAssertion {
  readonly scope = "call" as const;
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "array", items: { type: "object" } } };
  configure(_value: unknown, ctx: ConfigureContext): void {
    pipelineCase((k) => ctx.slot(k));
  }
  check(value: Record<string, unknown[]>, obs: Observation, ctx: CheckContext): void {
    const none = noCallMade(obs);
    if (none !== null) {
      ctx.fail(none);
      return;
    }
    const where = ctx.locate(ctx.self.path);
    const declared = new Set(obs.get(MiddlewareConfigs, where).filter((c) => c.type === "trace_recorder" || c.type === "state_inspector").map((c) => c.entry.name));
    const records = obs.tryGet(TraceRecords) ?? new Map();
    for (const [name, written] of Object.entries(value)) {
      if (!declared.has(name)) {
        ctx.fail(`no trace_recorder named '${name}' is declared in this case`, { path: `${ctx.label}.${name}` });
        continue;
      }
      ctx.match(written, records.get(name) ?? [], Shapes.list("ordered", RECORD_SHAPE), `${ctx.label}.${name}`);
    }
  }
}
