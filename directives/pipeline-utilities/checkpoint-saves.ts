import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { CheckpointSaves } from "../../harness/checkpoint/facets.ts";
import { checkRecord, RECORD_FIELD_SCHEMAS, resolveRecordClaims } from "../../harness/checkpoint/record-assertions.ts";

/**
 * `checkpoint_saves: [{after_node, <record sub-assertions>}, ...]` (pipeline-utilities note,
 * fixture 024), under `expected:`: every `Checkpointer.save` of the call, complete and in the order
 * the backend received them. `after_node` names the node whose completed event (or, for a fan-out
 * instance's completion save, the fan-out node whose instance) triggered the save; the other keys
 * are the §5.8 record vocabulary, read from that save's record.
 */
@directive({ name: "checkpoint_saves", at: "expected", home: "pipeline-utilities", summary: "every checkpoint save of the call, in order" })
export class CheckpointSavesAssertion {
  readonly scope = "call" as const;
  readonly schema = {
    type: "array",
    items: { type: "object", properties: { after_node: { type: "string" }, ...RECORD_FIELD_SCHEMAS } },
  };
  configure(value: Record<string, unknown>[], ctx: ConfigureContext): void {
    value.forEach(({ after_node: _n, ...rest }, i) => resolveRecordClaims(rest, [...ctx.self.path, i], ctx));
  }
  async check(value: Record<string, unknown>[], obs: Observation, ctx: CheckContext): Promise<void> {
    const saves = obs.get(CheckpointSaves, ctx.locate(ctx.self.path));
    if (saves.length !== value.length) {
      ctx.fail(`${ctx.label}: expected ${value.length} save(s), the Checkpointer received ${saves.length}`, {
        expected: value.length,
        actual: saves.map((s) => s.context?.namespace.join("/") ?? "?"),
      });
    }
    for (const [i, entry] of value.entries()) {
      const save = saves[i];
      if (save === undefined) break;
      const { after_node: after, ...rest } = entry;
      const label = `${ctx.label}[${i}]`;
      if (after !== undefined) ctx.match(after, save.context?.namespace[save.context.namespace.length - 1] ?? null, null, `${label}.after_node`);
      await checkRecord(rest, save.record, obs, ctx, label, [...ctx.self.path, i]);
    }
  }
}
