import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { isMapping } from "../../src/conformance/fixture-model.ts";
import { graphSpecOf } from "../../harness/graph/graph-spec.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";

/**
 * `nodes:` (conformance-adapter §5.1): each node's keys are node directives, resolved at the
 * `node` position and kept in document order (§8.3 Directive execution order).
 */
@directive({ name: "nodes", at: ["case", "subgraph"], home: "general", summary: "the graph's nodes" })
export class Nodes {
  readonly schema = { type: "object", additionalProperties: { type: ["object", "null"] } };
  configure(value: Record<string, Record<string, unknown> | null>, ctx: ConfigureContext): void {
    const spec = graphSpecOf(ctx);
    for (const [name, body] of Object.entries(value)) {
      const path = [...ctx.self.path, name];
      if (body !== null && !isMapping(body)) throw new FixtureSchemaInvalid(`node '${name}' must be a mapping of node directives`, ctx.locate(path));
      spec.nodes.push({ name, path, directives: ctx.resolve("node", body ?? {}, path) });
    }
    useGraphExecutor(ctx);
  }
}
