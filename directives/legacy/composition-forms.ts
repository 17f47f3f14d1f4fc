/**
 * Older composition forms the corpus still writes (issue 31 item 3), read through their current
 * form where the meaning is unambiguous: counted as deprecations, refused under
 * `--strict-vocabulary` naming the replacement (see forms.ts for the mechanism). A form with no
 * current spelling at its place (`augment_metadata` on a composite entry) is left in the value once
 * counted, and the directive reads it (directives/general/parallel-branches.ts, fan-out.ts).
 *
 * Forms of the same family this bundle does NOT read, because their meaning is not fixed by the
 * seed or the capability specs (each stays the error the current vocabulary gives it):
 * - `fan_out: {items_field}` without `item_field` (observability 029, 039, 044, 054).
 *   pipeline-utilities §9: `item_field` is "Required when `items_field` is specified", and
 *   `collect_field` / `target_field` carry each instance's contribution; with none of them the
 *   fixtures need two different undefined rules — 039 reads `items_field: inner_seed` in an
 *   instance whose subgraph declares only `score` (the item's keys spread into the instance
 *   state), 044 expects an instance's write to reach the parent's `append` reducer with no
 *   `collect_field` (field-name matching out), while graph-engine §2's subgraph default is "no
 *   projection in occurs".
 * - `augment_metadata_from_field` on a fan-out entry: the fixtures' comments read the field from
 *   the instance's item (029: "{productId: item.id}"), §5.1 reads it "from state"; with an
 *   `item_field` the two differ.
 */
import { directive, legacyForm } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { Retirement } from "../../src/conformance/deprecation.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { GraphCaseHooksSlot } from "../../harness/graph/extensions.ts";
import { Subgraph } from "../general/subgraph.ts";
import { Inputs } from "../general/inputs.ts";
import { Outputs } from "../general/outputs.ts";

type Mapping = Record<string, unknown>;
const isMapping = (v: unknown): v is Mapping => v !== null && typeof v === "object" && !Array.isArray(v);
const never = (section: string, replacement: string): Retirement => ({ replacement, section, neverDefined: true });

/** `fan_out.inner_subgraph: <name>` (observability 029, 039, 044, 054): the instance graph, §5.4's `fan_out.subgraph`. */
legacyForm({
  at: "node",
  key: "fan_out",
  home: "general",
  form: "fan_out.inner_subgraph",
  retirement: never("conformance-adapter 0.120.1 §5.4 (fan_out: {subgraph: <subgraph_name>, ...})", "fan_out: {subgraph: <name>}"),
  rewrite(v) {
    if (!isMapping(v) || typeof v["inner_subgraph"] !== "string" || "subgraph" in v) return undefined;
    const { inner_subgraph, ...rest } = v;
    return { value: { subgraph: inner_subgraph, ...rest }, uses: [["inner_subgraph"]] };
  },
});

const INNER_STATE_RETIREMENT = never(
  "conformance-adapter 0.120.1 §4.1 / §5.4 (a subgraph body is a graph specification with its own state:); graph-engine §2 (\"A subgraph executes against its own state schema\")",
  "state: {fields: {}} (the fields the subgraph declares)",
);

/**
 * `inner_subgraphs: {<name>: <body>, ...}` (observability 029, 039, 044, 048, 054, 055): the
 * §5.4 `subgraphs:` mapping under another name, declared at the site it is written (a case, or
 * the document for every case). A body that declares no `state` runs against its own schema with
 * no declared fields (graph-engine §2: "A subgraph executes against its own state schema" — never
 * the parent's); the adapter reads every fixture schema as open (harness/graph/build.ts), so the
 * fields its nodes write are held last-write-wins. That reading is counted as its own use.
 */
@directive({
  name: "inner_subgraphs",
  at: "case",
  home: "general",
  section: "no spec version (read as a legacy form of §5.4 subgraphs:)",
  summary: "legacy: subgraphs: under another name",
  retired: never("conformance-adapter 0.120.1 §5.4 (Subgraph declaration via subgraphs:)", "subgraphs: {<name>: {state, entry, nodes, edges}}"),
})
export class InnerSubgraphs {
  readonly schema = { type: "object", minProperties: 1, additionalProperties: { type: "object" } };
  configure(value: Record<string, Mapping>, ctx: ConfigureContext): void {
    const extra = ctx.slot(GraphCaseHooksSlot).extraSubgraphs;
    for (const [name, written] of Object.entries(value)) {
      const path: KeyPath = [...ctx.self.path, name];
      if (extra.has(name) || ctx.caseSpec.subgraphs.has(name)) {
        throw new FixtureSchemaInvalid(`subgraph '${name}' is declared both in 'inner_subgraphs' and in another declaration in scope: declare it once`, ctx.locate(path));
      }
      let body = written;
      if (!("state" in body)) {
        if (!ctx.retiredForm("inner_subgraphs.<name> without state", INNER_STATE_RETIREMENT, path)) continue;
        body = { state: { fields: {} }, ...body };
      }
      extra.set(name, { body, path });
    }
  }
}

interface SubgraphCallValue {
  subgraph: string;
  inputs?: Record<string, string>;
  outputs?: Record<string, string>;
}

/**
 * `subgraph_call: {subgraph, inputs?, outputs?}` on a node (observability 039): the node runs the
 * named subgraph, §5.4's `subgraph: <name>` with graph-engine §2's `inputs` / `outputs` beside it.
 */
@directive({
  name: "subgraph_call",
  at: "node",
  home: "general",
  section: "no spec version (read as a legacy form of §5.4 subgraph:)",
  summary: "legacy: subgraph: with inputs / outputs inside one mapping",
  retired: never("conformance-adapter 0.120.1 §5.4 (subgraph: <subgraph_name> on a node) and graph-engine §2 (inputs / outputs)", "subgraph: <name>, with inputs: / outputs: beside it"),
})
export class SubgraphCall {
  readonly schema = {
    type: "object",
    required: ["subgraph"],
    additionalProperties: false,
    properties: {
      subgraph: { type: "string", minLength: 1 },
      inputs: { type: "object", additionalProperties: { type: "string" } },
      outputs: { type: "object", additionalProperties: { type: "string" } },
    },
  };
  contribute(value: SubgraphCallValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    new Subgraph().contribute(value.subgraph, node, env, [...at, "subgraph"]);
    if (value.inputs !== undefined) new Inputs().contribute(value.inputs as never, node, env, [...at, "inputs"]);
    if (value.outputs !== undefined) new Outputs().contribute(value.outputs as never, node, env, [...at, "outputs"]);
  }
}

const AUGMENT_RETIREMENT = never(
  "conformance-adapter 0.120.1 §5.1 (augment_metadata is a node behavior directive) and §5.4 (a fan-out / branch entry carries no node directives)",
  "augment_metadata: {...} on the first node of the subgraph the entry runs",
);

/**
 * `augment_metadata: {...}` written on a parallel-branches entry (observability 030): "harness
 * primitive equivalent to set_invocation_metadata(...) placed at the top of the branch's subgraph
 * body" (030's comment) — set before the branch body runs, in the branch's own context.
 */
legacyForm({
  at: "node",
  key: "parallel_branches",
  home: "general",
  form: "parallel_branches.branches.<name>.augment_metadata",
  retirement: AUGMENT_RETIREMENT,
  rewrite(v) {
    if (!isMapping(v) || !isMapping(v["branches"])) return undefined;
    const uses: KeyPath[] = Object.entries(v["branches"])
      .filter(([, b]) => isMapping(b) && "augment_metadata" in b)
      .map(([name]) => ["branches", name, "augment_metadata"]);
    return uses.length > 0 ? { value: v, uses } : undefined;
  },
});

/**
 * `augment_metadata: {...}` (constant entries) written on a fan-out entry: set at the top of each
 * instance's body, in the instance's own context. (`augment_metadata_from_field` there is not read:
 * see the file comment.)
 */
legacyForm({
  at: "node",
  key: "fan_out",
  home: "general",
  form: "fan_out.augment_metadata",
  retirement: AUGMENT_RETIREMENT,
  rewrite(v) {
    return isMapping(v) && "augment_metadata" in v ? { value: v, uses: [["augment_metadata"]] } : undefined;
  },
});
