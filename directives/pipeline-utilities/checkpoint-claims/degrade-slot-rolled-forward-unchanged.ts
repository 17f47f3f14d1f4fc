import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { declaredFanOut, settle } from "../../../harness/checkpoint/claims.ts";
import { finalState, resumedRecord, topFanOut } from "../../../harness/checkpoint/reading.ts";
import { valuesEqual } from "../../../harness/graph/values.ts";

/**
 * `degrade_slot_rolled_forward_unchanged` (fixture 069; §9.3, §10.11): each instance the resume rolled
 * forward contributes its saved slot unchanged — its saved `result` at its index of the fan-out's
 * `target_field`, and its saved `extra_outputs` values at that index of theirs — and was not re-run.
 */
@directive({ name: "degrade_slot_rolled_forward_unchanged", at: "invariant", home: "pipeline-utilities" })
export class DegradeSlotRolledForwardUnchanged {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const fan = topFanOut(obs);
    if (typeof fan === "string") return settle(value, ctx, fan);
    const record = resumedRecord(obs);
    if (typeof record === "string") return settle(value, ctx, record);
    const state = finalState(obs, ctx);
    if (typeof state === "string") return settle(value, ctx, state);
    const decl = declaredFanOut(ctx, fan.node);
    const target = decl?.["target_field"] as string | undefined;
    const entry = (record.fan_out_progress ?? []).find((e) => e.fan_out_node_name === fan.node && (e.enclosing_fan_out_lineage ?? []).length === 0);
    if (entry === undefined || target === undefined) return settle(value, ctx, `the resumed record has no progress for '${fan.node}'`);
    let reason: string | null = null;
    let rolled = 0;
    entry.instances.forEach((inst, i) => {
      if (reason !== null || inst.state !== "completed") return;
      rolled++;
      if (fan.dispatched.has(i)) reason = `instance ${i} was re-run`;
      const slot = (state[target] as unknown[] | undefined)?.[i];
      if (reason === null && !valuesEqual(slot, inst.result)) reason = `${target}[${i}] is ${JSON.stringify(slot)}, the saved slot ${JSON.stringify(inst.result)}`;
      for (const [field, v] of Object.entries(inst.extra_outputs ?? {})) {
        const got = (state[field] as unknown[] | undefined)?.[i];
        if (reason === null && !valuesEqual(got ?? null, v ?? null)) reason = `${field}[${i}] is ${JSON.stringify(got)}, the saved slot ${JSON.stringify(v)}`;
      }
    });
    settle(value, ctx, reason ?? (rolled === 0 ? "no instance was rolled forward" : null));
  }
}
