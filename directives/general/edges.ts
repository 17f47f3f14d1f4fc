import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { graphSpecOf } from "../../harness/graph/graph-spec.ts";
import { useGraphExecutor } from "../../harness/graph/use-graph.ts";

/**
 * `edges:` (conformance-adapter §5.3): static `{from, to}` edges (to a node or END) and
 * conditional `{from, condition}` edges (`if_field / equals / then / else`, or a named callable).
 */
@directive({ name: "edges", at: ["case", "subgraph"], home: "general", summary: "static and conditional edges" })
export class Edges {
  readonly schema = {
    type: "array",
    items: {
      type: "object",
      description: "an edge is {from, to} or {from, condition: {if_field, equals, then, else}} (conformance-adapter §5.3)",
      required: ["from"],
      additionalProperties: false,
      properties: {
        from: { type: "string", minLength: 1 },
        to: { type: "string", minLength: 1 },
        // `if_field / equals / then / else`, or a named callable (`state_field_read` reads `field`,
        // `edge_raises` raises `message`); no other key.
        condition: {
          type: "object",
          anyOf: [
            {
              required: ["if_field", "equals", "then", "else"],
              additionalProperties: false,
              properties: { if_field: { type: "string" }, equals: {}, then: { type: "string" }, else: { type: "string" } },
            },
            {
              required: ["callable"],
              additionalProperties: false,
              properties: { callable: { type: "string" }, field: { type: "string" }, message: { type: "string" } },
            },
          ],
        },
      },
      anyOf: [{ required: ["to"] }, { required: ["condition"] }],
    },
  };
  configure(value: Array<{ from: string; to?: string; condition?: Record<string, unknown> }>, ctx: ConfigureContext): void {
    const spec = graphSpecOf(ctx);
    for (const [i, e] of value.entries()) {
      spec.edges.push({ from: e.from, path: [...ctx.self.path, i], ...(e.to !== undefined ? { to: e.to } : {}), ...(e.condition ? { condition: e.condition } : {}) });
    }
    useGraphExecutor(ctx);
  }
}
