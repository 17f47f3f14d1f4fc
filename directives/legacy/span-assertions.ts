/**
 * Retired span assertions (conformance-adapter 0.120.1 §5.8: "otel_spans and observability's
 * parent_trace are retired. span_tree covers both."), each checked through `span_tree`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema, Resolved } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { useOtelCapture } from "../../harness/observability/capture.ts";
import { SpanTree } from "../general/span-tree.ts";
import { LegacyOtelObservers, SPAN_TREE_RETIREMENT } from "./retirements.ts";

const spanTree = new SpanTree();

/**
 * `parent_trace: {span_tree}` (observability fixture 008, retired): the call's own trace, checked
 * as `span_tree`.
 */
@directive({
  name: "parent_trace",
  at: "expected",
  home: "observability",
  section: "conformance-adapter §5.8 (retired)",
  summary: "retired: the call's own trace (checked as span_tree)",
  retired: SPAN_TREE_RETIREMENT("span_tree: [...] (the call's own trace)"),
})
export class ParentTrace {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "object", required: ["span_tree"], properties: { span_tree: { type: "array", items: { type: "object" } } }, additionalProperties: false };
  configure(_value: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
  }
  check(value: { span_tree: unknown[] }, obs: Observation, ctx: CheckContext): void {
    spanTree.check(value.span_tree, obs, ctx);
  }
}

/**
 * `otel_spans: {<observer_name>: {name, status, attributes, children, ...}}` (the 0.109 §5.8
 * hierarchical span assertion, retired): each entry is the root span of the call's own trace as
 * the named OTel observer (an `observers:` entry written with the retired `behavior: otel`)
 * emitted it — checked as `span_tree: [<entry>]`, so the root is the trace's only root and every
 * level's children are complete.
 */
@directive({
  name: "otel_spans",
  at: "expected",
  home: "general",
  section: "conformance-adapter §5.8 (retired)",
  summary: "retired: the span tree per OTel observer (checked as span_tree)",
  retired: SPAN_TREE_RETIREMENT("span_tree: [<root span entry>]"),
})
export class OtelSpans {
  readonly scope = "call" as const;
  readonly schema: JsonSchema = { type: "object", minProperties: 1, additionalProperties: { type: "object" } };
  /** The case's `behavior: otel` observer names, per use (filled while the case configures, read at check). */
  private readonly declaredFor = new WeakMap<Resolved, ReadonlySet<string>>();
  configure(_value: unknown, ctx: ConfigureContext): void {
    useOtelCapture(ctx);
    this.declaredFor.set(ctx.self, ctx.slot(LegacyOtelObservers));
  }
  check(value: Record<string, unknown>, obs: Observation, ctx: CheckContext): void {
    const declared = this.declaredFor.get(ctx.self) ?? new Set<string>();
    for (const [observer, root] of Object.entries(value)) {
      if (!declared.has(observer)) {
        ctx.fail(
          `otel_spans names '${observer}', which no observers: entry declares with behavior: otel${declared.size > 0 ? ` (declared: ${[...declared].join(", ")})` : ""}`,
          { path: `${ctx.label}.${observer}` },
        );
        continue;
      }
      const label = `${ctx.label}.${observer}`;
      spanTree.check([root], obs, { ...ctx, label, match: (e, a, shape, sub) => ctx.match(e, a, shape, sub ?? label) });
    }
  }
}
