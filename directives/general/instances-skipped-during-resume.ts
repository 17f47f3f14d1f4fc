import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext } from "../../src/conformance/directive.ts";
import { Shapes } from "../../src/conformance/matcher/index.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { completedInRecord, resumedRecord, topFanOut } from "../../harness/checkpoint/reading.ts";

/**
 * `instances_skipped_during_resume: [<index>, ...]` (conformance-adapter §5.8 *Checkpoint
 * records*), under a `resume:` block's `expected:`: the instances of the case's top-level fan-out
 * the resumed call did not dispatch because the record it resumed marks them `completed` (rolled
 * forward, degraded instances included). Complete and unordered; an instance neither dispatched
 * nor completed in the record is in neither list (so the written partition fails).
 */
@directive({ name: "instances_skipped_during_resume", at: "expected", home: "general", summary: "fan-out instances the resume rolled forward" })
export class InstancesSkippedDuringResume {
  readonly scope = "call" as const;
  readonly schema = { type: "array", items: { type: "integer", minimum: 0 } };
  check(value: number[], obs: Observation, ctx: CheckContext): void {
    const fan = topFanOut(obs);
    if (typeof fan === "string") return ctx.fail(fan);
    const record = resumedRecord(obs);
    if (typeof record === "string") return ctx.fail(record);
    const saved = completedInRecord(record, fan.node, null);
    const skipped: number[] = [];
    for (let i = 0; i < fan.count; i++) if (!fan.dispatched.has(i) && saved.has(i)) skipped.push(i);
    ctx.match(value, skipped, Shapes.list("unordered"));
  }
}
