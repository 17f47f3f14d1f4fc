import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { RUN_COUNT } from "../../harness/graph/executor.ts";

/** `run_count: <int>` (conformance-adapter §5.7): run the graph that many times; `expected:` applies to each run. */
@directive({ name: "run_count", at: "case", home: "general", summary: "run the case's graph N times" })
export class RunCount {
  readonly schema = { type: "integer", minimum: 1 };
  configure(value: number, ctx: ConfigureContext): void {
    ctx.plan.setInput(RUN_COUNT, value);
  }
}
