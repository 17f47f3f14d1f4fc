import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { graphSpecOf } from "../../harness/graph/graph-spec.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";

/** `entry:` (graph-engine §2): the graph's declared entry node. */
@directive({ name: "entry", at: ["case", "subgraph"], home: "general", summary: "entry node" })
export class Entry {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    graphSpecOf(ctx).entry = { value, path: ctx.self.path };
    useGraphExecutor(ctx);
  }
}
