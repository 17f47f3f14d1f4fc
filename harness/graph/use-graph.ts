/** Graph-part directives at case level make the case a graph case (run by the graph executor). */
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { graphExecutor } from "./executor.ts";

export function useGraphExecutor(ctx: ConfigureContext): void {
  if (ctx.plan.kind === "subgraph") return;
  ctx.setExecutor(graphExecutor);
}
