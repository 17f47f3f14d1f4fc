/**
 * Older value forms the corpus still writes, each read through its current form when its meaning
 * is unambiguous (issue 31 item 3). Every use is counted as a deprecation and `--strict-vocabulary`
 * refuses it as fixture_directive_unknown naming the replacement (src/conformance/registry.ts
 * `LegacyForm`; the interpreter applies them before a value is validated).
 *
 * Not read, because the form leaves part of its meaning open (each stays the error the current
 * vocabulary gives it):
 * - an inline `calls_llm: {model, response}` with no `messages` (observability 038): §5.1's call
 *   issues one complete() "with the given messages", and llm-provider §5 requires `messages` to be a
 *   "non-empty ordered sequence" ending in `user` or `tool`; which request the call sends (and so
 *   what its span and events carry) is not written.
 * - `edges[].when` with a comparison other than `equals` (observability 011 writes `gt: 0`): §5.3's
 *   condition defines only `equals`.
 * Composition forms (inner subgraphs, fan-out / branch entries) are in composition-forms.ts.
 */
import { directive, legacyForm } from "../../src/conformance/registry.ts";
import { NodeMiddleware } from "../pipeline-utilities/node-middleware.ts";
import type { Retirement } from "../../src/conformance/deprecation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";

type Mapping = Record<string, unknown>;
const isMapping = (v: unknown): v is Mapping => v !== null && typeof v === "object" && !Array.isArray(v);
const never = (section: string, replacement: string): Retirement => ({ replacement, section, neverDefined: true });

/**
 * `parallel_branches.branches: [<name>, ...]` (observability 048, 055): each name is both the
 * branch name and the declared subgraph it runs — `{<name>: {subgraph: <name>}}`.
 */
legacyForm({
  at: "node",
  key: "parallel_branches",
  home: "general",
  form: "parallel_branches.branches as a list",
  retirement: never("conformance-adapter 0.120.1 §5.4 (branches is a mapping of branch name to {subgraph, inputs?, outputs?})", "branches: {<name>: {subgraph: <name>}}"),
  rewrite(v) {
    if (!isMapping(v) || !Array.isArray(v["branches"]) || !v["branches"].every((b) => typeof b === "string")) return undefined;
    const names = v["branches"] as string[];
    if (new Set(names).size !== names.length) return undefined; // a repeated name is no mapping: leave it to the schema
    return { value: { ...v, branches: Object.fromEntries(names.map((n) => [n, { subgraph: n }])) }, uses: [["branches"]] };
  },
});

/** `typed_observers[].retains_arrival_order: true` (observability 056): a collector retains events in delivery order anyway (§5.5). */
legacyForm({
  at: "case",
  key: "typed_observers",
  home: "general",
  form: "typed_observers[].retains_arrival_order",
  retirement: never("conformance-adapter 0.120.1 §5.5 (a typed_event_collector retains every event it receives, in delivery order)", "nothing (drop it)"),
  rewrite(v) {
    if (!Array.isArray(v)) return undefined;
    const uses: KeyPath[] = [];
    const value = v.map((o, i) => {
      if (!isMapping(o) || o["retains_arrival_order"] !== true) return o;
      uses.push([i, "retains_arrival_order"]);
      const { retains_arrival_order: _drop, ...rest } = o;
      return rest;
    });
    return uses.length > 0 ? { value, uses } : undefined;
  },
});

/** `saved_session_assertions.excludes_fields` (sessions 004): redundant with the exact `state` (§5.6). */
legacyForm({
  at: ["expected", "invocation"],
  key: "saved_session_assertions",
  home: "general",
  form: "saved_session_assertions.excludes_fields",
  retirement: { replacement: "nothing (an exact state already excludes every field it does not name)", section: "conformance-adapter 0.120.1 §5.6" },
  rewrite(v) {
    if (!isMapping(v) || !("excludes_fields" in v)) return undefined;
    const { excludes_fields: _drop, ...rest } = v;
    return { value: rest, uses: [["excludes_fields"]] };
  },
});

/**
 * `expected_chain_ambiguity_error: <category>` (a bare category): the directive asserts exactly that
 * category, so the bare form is `{}` when it names it (any other category is not this directive).
 */
legacyForm({
  at: ["case", "invocation"],
  key: "expected_chain_ambiguity_error",
  home: "pipeline-utilities",
  form: "expected_chain_ambiguity_error: <category>",
  retirement: never("the pipeline-utilities note (expected_chain_ambiguity_error: {from_version?, to_version?, raised_at?})", "expected_chain_ambiguity_error: {}"),
  rewrite(v) {
    return v === "checkpoint_state_migration_chain_ambiguous" ? { value: {}, uses: [[]] } : undefined;
  },
});

/** An observer-event entry's `error: <category>` — §5.8 writes `error: {category: <id>}`. */
function bareErrors(entries: unknown, at: KeyPath, uses: KeyPath[]): unknown {
  if (!Array.isArray(entries)) return entries;
  return entries.map((e, i) => {
    if (!isMapping(e) || typeof e["error"] !== "string") return e;
    uses.push([...at, i, "error"]);
    return { ...e, error: { category: e["error"] } };
  });
}
const ERROR_RETIREMENT = never("conformance-adapter 0.120.1 §5.8 (an observer event's error is written {category: <id>})", "error: {category: <id>}");
for (const key of ["observer_events", "final_accumulator_state"]) {
  legacyForm({
    at: "expected",
    key,
    home: "general",
    form: `${key}[].error: <category>`,
    retirement: ERROR_RETIREMENT,
    rewrite(v) {
      if (!isMapping(v)) return undefined;
      const uses: KeyPath[] = [];
      const value = Object.fromEntries(Object.entries(v).map(([obs, list]) => [obs, bareErrors(list, [obs], uses)]));
      return uses.length > 0 ? { value, uses } : undefined;
    },
  });
}
legacyForm({
  at: "expected",
  key: "node_accumulator_snapshots",
  home: "general",
  form: "node_accumulator_snapshots[].error: <category>",
  retirement: ERROR_RETIREMENT,
  rewrite(v) {
    if (!isMapping(v)) return undefined;
    const uses: KeyPath[] = [];
    const value = Object.fromEntries(
      Object.entries(v).map(([node, byObs]) => [node, isMapping(byObs) ? Object.fromEntries(Object.entries(byObs).map(([obs, list]) => [obs, bareErrors(list, [node, obs], uses)])) : byObs]),
    );
    return uses.length > 0 ? { value, uses } : undefined;
  },
});

/**
 * A retry middleware's `classifier: {transient_categories: [...]}` (observability 007, 119): the
 * categories retried — the category_set classifier over them.
 */
export function transientCategoriesForm(at: "node" | "case" | "subgraph", key: string): void {
  legacyForm({
    at,
    key,
    home: "general",
    form: "classifier: {transient_categories}",
    retirement: never("pipeline-utilities §6.1 / its note (classifier: {type: category_set, categories: [...]})", "classifier: {type: category_set, categories: [...]}"),
    rewrite(v) {
      if (!Array.isArray(v)) return undefined;
      const uses: KeyPath[] = [];
      const value = v.map((m, i) => {
        const c = isMapping(m) ? m["classifier"] : undefined;
        if (!isMapping(c) || !Array.isArray(c["transient_categories"]) || Object.keys(c).length !== 1) return m;
        uses.push([i, "classifier", "transient_categories"]);
        return { ...(m as Mapping), classifier: { type: "category_set", categories: c["transient_categories"] } };
      });
      return uses.length > 0 ? { value, uses } : undefined;
    },
  });
}
transientCategoriesForm("node", "middleware");
transientCategoriesForm("case", "middleware");

/**
 * Node-level `middleware: [...]` outside pipeline-utilities (observability 007, 119): the
 * pipeline-utilities note defines it, so elsewhere it is outside the recognized vocabulary
 * (§5 Definition homes); read as that note defines it, counted, refused under the strict vocabulary.
 */
const NODE_MIDDLEWARE_RETIREMENT: Retirement = never(
  "conformance-adapter 0.120.1 §5 Definition homes (node-level middleware is defined by the pipeline-utilities note only)",
  "wrap_with_middleware (§5.1), or a pipeline-utilities fixture",
);
export const OTHER_DIRECTORIES = ["conformance-adapter", "graph-engine", "harness", "harness-chat", "llm-provider", "observability", "prompt-management", "retrieval-provider", "sessions", "suspension", "testing"];
for (const home of OTHER_DIRECTORIES) {
  directive({ name: "middleware", at: "node", home, section: "pipeline-utilities note (read elsewhere as a legacy form)", summary: "legacy: the node's own middleware, as pipeline-utilities defines it", retired: NODE_MIDDLEWARE_RETIREMENT })(
    class LegacyNodeMiddleware extends NodeMiddleware {},
  );
}

/**
 * `invocations: <int>` (observability 009, 011): N invocation entries sharing the graph and
 * backends, each asserting nothing of its own; the case-level `expected:` reads every call (§8.4).
 */
legacyForm({
  at: "case",
  key: "invocations",
  home: "general",
  form: "invocations: <int>",
  retirement: never("conformance-adapter 0.120.1 §4.3 (invocations is a list of invocation entries)", "invocations: [{name: ...}, ...] (one entry per call)"),
  rewrite(v) {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > 100) return undefined;
    return { value: Array.from({ length: v }, (_, i) => ({ name: `invocation_${i + 1}` })), uses: [[]] };
  },
});

/** A top-level `informative: true` (observability 048): no spec version defines it; it asserts nothing and configures nothing. */
@directive({
  name: "informative",
  at: "case",
  home: "general",
  section: "no spec version (read as a legacy form)",
  summary: "legacy: a marker with no meaning",
  retired: never("conformance-adapter 0.120.1 §4 (no such fixture key)", "nothing (drop it; a comment says what it meant)"),
})
export class Informative {
  readonly schema = { const: true };
  configure(): void {}
}

/**
 * `edges: [{from: A, when: {field, equals}, to: T}, {from: A, to: E}]` (observability 011's shape):
 * a guarded edge with one static edge from the same node as its else — §5.3's conditional edge
 * `{from: A, condition: {if_field, equals, then: T, else: E}}`, written where the guarded edge
 * was (the static edge is consumed). Only `equals` is read: §5.3 defines no other comparison, so a
 * `when` with `gt:` (011) or without exactly one static else stays the schema error it is.
 */
function whenEdges(v: unknown): { value: unknown; uses: KeyPath[] } | undefined {
  if (!Array.isArray(v)) return undefined;
  const edges = v as unknown[];
  const uses: KeyPath[] = [];
  const consumed = new Set<number>();
  const out = new Map<number, unknown>();
  edges.forEach((e, i) => {
    if (!isMapping(e) || !("when" in e)) return;
    const w = e["when"];
    if (Object.keys(e).sort().join() !== "from,to,when" || !isMapping(w) || Object.keys(w).sort().join() !== "equals,field" || typeof w["field"] !== "string") return;
    const statics = edges.flatMap((s, j) => (isMapping(s) && s["from"] === e["from"] && Object.keys(s).sort().join() === "from,to" ? [j] : []));
    const guarded = edges.filter((s) => isMapping(s) && s["from"] === e["from"] && "when" in s).length;
    if (statics.length !== 1 || guarded !== 1) return;
    const j = statics[0]!;
    consumed.add(j);
    out.set(i, { from: e["from"], condition: { if_field: w["field"], equals: w["equals"], then: e["to"], else: (edges[j] as Mapping)["to"] } });
    uses.push([i, "when"]);
  });
  if (uses.length === 0) return undefined;
  return { value: edges.flatMap((e, i) => (consumed.has(i) ? [] : [out.get(i) ?? e])), uses };
}
legacyForm({
  at: ["case", "subgraph"],
  key: "edges",
  home: "general",
  form: "edges[].when with a static else edge",
  retirement: never("conformance-adapter 0.120.1 §5.3 (a conditional edge is {from, condition: {if_field, equals, then, else}})", "{from, condition: {if_field, equals, then, else}}"),
  rewrite: whenEdges,
});

/**
 * `calls_embed.model: <id>`: the embedding sibling of §5.15's `calls_rerank.model` — the call's
 * provider is bound to that model (harness/retrieval/case.ts). §5.15 gives `calls_embed` no
 * `model`, so the key stays in the value once counted and the directive reads it.
 */
legacyForm({
  at: "node",
  key: "calls_embed",
  home: "general",
  form: "calls_embed.model",
  retirement: never("conformance-adapter 0.120.1 §5.15 (calls_embed: {input, config?, stores_response_in}; the model is the provider construction block's)", "the embedding provider block's model (or the mock's)"),
  rewrite(v) {
    return isMapping(v) && "model" in v ? { value: v, uses: [["model"]] } : undefined;
  },
});

/**
 * A node's `on_other_indices: {...}` written beside its `conditional_suspend` rather than inside it
 * (§5.1 writes `conditional_suspend: {suspend_on_item_index, descriptor, on_other_indices}`): the
 * same directive, moved into the mapping it belongs to. Read only when the inner one is absent.
 */
legacyForm({
  at: ["case", "subgraph"],
  key: "nodes",
  home: "general",
  form: "on_other_indices beside conditional_suspend",
  retirement: never("conformance-adapter 0.120.1 §5.1 (conditional_suspend: {suspend_on_item_index, descriptor, on_other_indices})", "conditional_suspend: {..., on_other_indices: {...}}"),
  rewrite(v) {
    if (!isMapping(v)) return undefined;
    const uses: KeyPath[] = [];
    const value = Object.fromEntries(
      Object.entries(v).map(([name, body]) => {
        if (!isMapping(body) || !("on_other_indices" in body)) return [name, body];
        const cs = body["conditional_suspend"];
        if (!isMapping(cs) || "on_other_indices" in cs) return [name, body];
        uses.push([name, "on_other_indices"]);
        const { on_other_indices, ...rest } = body;
        return [name, { ...rest, conditional_suspend: { ...cs, on_other_indices } }];
      }),
    );
    return uses.length > 0 ? { value, uses } : undefined;
  },
});
