import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { GraphCaseHooksSlot } from "../../harness/graph/extensions.ts";

/**
 * `subgraph_with_idx:` (pipeline-utilities fixture 022): a second single-subgraph declaration,
 * shaped like `subgraph:` (`name` + body), for the worker that reads its instance's item. It adds
 * the named body to the case's declarations; the §5.4 sites still win on a name clash.
 */
@directive({ name: "subgraph_with_idx", at: "case", home: "pipeline-utilities", summary: "an extra named subgraph declaration" })
export class SubgraphWithIdx {
  readonly schema = { type: "object", required: ["name"], properties: { name: { type: "string", minLength: 1 } } };
  configure(value: { name: string } & Record<string, unknown>, ctx: ConfigureContext): void {
    const { name, ...body } = value;
    const extra = ctx.slot(GraphCaseHooksSlot).extraSubgraphs;
    if (extra.has(name)) throw new FixtureSchemaInvalid(`subgraph '${name}' is declared twice`, ctx.locate(ctx.self.path));
    extra.set(name, { body, path: ctx.self.path });
  }
}
