/**
 * Fixture-template builders shared by the directive tests: each returns YAML text, so a test
 * states only the keys in which its fixture differs from its neighbours'.
 */
import { indent } from "./tester.ts";

/** `key: body` for a one-line flow value (`{…}`, `[…]`), else `key:` with `body` indented `n` under it. */
export function section(key: string, body: string, n = 2): string {
  return /^[{[]/.test(body) && !body.includes("\n") ? `${key}: ${body}` : `${key}:\n${indent(body, n)}`;
}

/** `state:` (holding `fields`) and a graph running `nodes` in the given order, then END; a body is a flow map or a block. */
export function chain(fields: string, nodes: Readonly<Record<string, string>>, schemaVersion?: string): string {
  const names = Object.keys(nodes);
  return [
    "state:",
    ...(schemaVersion === undefined ? [] : [`  schema_version: ${schemaVersion}`]),
    indent(section("fields", fields), 2),
    `entry: ${names[0]}`,
    "nodes:",
    ...Object.entries(nodes).map(([name, body]) => indent(section(name, body), 2)),
    "edges:",
    ...names.map((name, i) => `  - {from: ${name}, to: ${names[i + 1] ?? "END"}}`),
  ].join("\n");
}

/** A top-level `subgraph:` named `name` over `graph` (as built by {@link chain}). */
export const subgraph = (name: string, graph: string): string => `subgraph:\n  name: ${name}\n${indent(graph, 2)}`;

/** A `subgraphs:` block declaring each named graph (as built by {@link chain}). */
export const subgraphs = (graphs: Readonly<Record<string, string>>): string =>
  section("subgraphs", Object.entries(graphs).map(([name, graph]) => section(name, graph)).join("\n"));

/** `graph` run once from `initial_state: {}`, the case keys `rest` then `expected:` holding `expected`. */
export const runOnce = (graph: string, expected: string, rest = ""): string => `\n${graph}\ninitial_state: {}\n${rest}\n${section("expected", expected)}\n`;

/** The scorer subgraph's one node `score` (body `mock`) over int fields input and out. */
export const scorer = (mock: string): string => chain("input: {type: int, default: 0}\nout: {type: int, default: 0}", { score: mock });

/** `first` → `second` → END over bool fields `f1`, `f2`: `first` sets `f1`; `second` fails on its first invocation only, then sets `f2`. */
export const flakyPair = (first: string, second: string, f1: string, f2: string): string =>
  chain(`${f1}: {type: bool, default: false}\n${f2}: {type: bool, default: false}`, {
    [first]: `{update_pure: {${f1}: true}}`,
    [second]: `flaky: {fail_first_invocation_only: true, on_success: {${f2}: true}}`,
  });

/** node_a → node_b → END over int fields a, b, set to 1 and 2 by pure updates. */
export const pureAB = (schemaVersion?: string): string =>
  chain("a: {type: int, default: 0}\nb: {type: int, default: 0}", { node_a: "{update_pure: {a: 1}}", node_b: "{update_pure: {b: 2}}" }, schemaVersion);

/** node_a → node_b → END where node_b fails on the first run only (bool fields a, b). */
export const FLAKY_AB = flakyPair("node_a", "node_b", "a", "b");

/** `graph` run from `initial_state: {}` with an in-memory checkpointer, followed by the case keys `rest`. */
export const checkpointed = (graph: string, rest: string): string => `\n${graph}\ninitial_state: {}\ncheckpointer: in_memory\n${rest}\n`;

/** A `resume:` block resuming the first run, with `keys` (YAML text, empty ones dropped) under it. */
export const resumeFirstRun = (...keys: readonly string[]): string => section("resume", ["from_first_run: true", ...keys.filter((k) => k !== "")].join("\n"));

export interface SerialFanOutOptions {
  /** The scorer node's mock (default: index 2 fails on the first run, the rest echo `input`). */
  readonly mock?: string;
  readonly checkpointer?: string;
  /** What follows `concurrent_mode: serial` in the fan_out map (default `, error_policy: fail_fast`). */
  readonly extra?: string;
  /** An extra parent-state field line. */
  readonly fields?: string;
}

/** A checkpointed serial fan-out `process` of the scorer over [10, 20, 30, 40] into `results`; `block` at case level. */
export function serialFanOut(block: string, opts: SerialFanOutOptions = {}): string {
  const fields = ["items: {type: list<int>, default: [10, 20, 30, 40]}", "results: {type: list<int>, reducer: append, default: []}", ...(opts.fields ? [opts.fields] : [])];
  const fanOut = `fan_out: {subgraph: scorer, items_field: items, item_field: input, collect_field: out, target_field: results, concurrent_mode: serial${opts.extra ?? ", error_policy: fail_fast"}}`;
  const fanCase = [chain(fields.join("\n"), { process: fanOut }), "initial_state: {}", `checkpointer: ${opts.checkpointer ?? "in_memory"}`, block].join("\n");
  const mock = opts.mock ?? "flaky_per_index: {fail_first_run_indices: [2], success_compute: {out: input}}";
  return `\n${subgraph("scorer", scorer(mock))}\ncases:\n  - name: fan\n${indent(fanCase, 4)}\n`;
}

/** The fields x and new_field (default v2_default) that every v2 seeded-record graph declares. */
export const V2_FIELDS = "x: {type: int, default: 0}\nnew_field: {type: string, default: v2_default}";

export interface SeededRecord {
  /** The v2 graph (as built by {@link chain}). */
  readonly graph: string;
  readonly checkpointer: string;
  /** The seeded v1 record's state (a flow map). */
  readonly state: string;
  /** The v1→v2 migration mock. */
  readonly migrate: string;
}

/** A v1 record seeded into a v2 graph and resumed through one v1→v2 migration; `block` goes inside `resume:`. */
export const seededResume = (seed: SeededRecord, block: string): string => `
${seed.graph}
initial_state: {}
checkpointer: ${seed.checkpointer}
seeded_record: {schema_version: v1, state: ${seed.state}, completed_positions: []}
migrations:
  - {from_version: v1, to_version: v2, migrate: ${seed.migrate}}
resume:
  from_seeded_record: true
${indent(block, 2)}
`;

/** One `mock_provider.responses` entry (indented for `responses:`): an OpenAI chat completion replying `content`. */
export const chatCompletion = (content: string, extra = ""): string => `
    - status: 200
      body:
        id: cc-1
        object: chat.completion
        model: test-model
        choices:
          - {index: 0, message: {role: assistant, content: ${JSON.stringify(content)}}, finish_reason: stop}
        usage: {prompt_tokens: 2, completion_tokens: 1, total_tokens: 3}${extra}`;
