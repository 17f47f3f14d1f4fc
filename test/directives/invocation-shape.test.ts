/**
 * Conformance-adapter 0.120.1 §5.7 invocation shape: `invoke:` and `invoke_with:` are two spellings
 * of one container — either works, both at once is fixture_schema_invalid (§9: the adapter does not
 * pick one of two equivalent directives). `run_count` repeats the case's own call, so beside
 * `invocations:` (which has none) it is fixture_schema_invalid rather than ignored. The case's
 * per-call settings (`invoke: {drain}`, caller ids, caller metadata) are the default of each
 * `invocations:` entry that does not write its own, as `initial_state` is — never dropped.
 */
import { expect } from "chai";
import { oneNode, runSnippet } from "./tester.ts";

const withInvoke = (block: string, expected = "  final_state: {v: 1}\n  drain_summary: {timeout_reached: false, undelivered_count: 0}") =>
  oneNode(`initial_state: {}
observers:
  - {name: obs, attach: graph, target: outer, behavior: record, sleep_ms_per_event: 5}
${block}
expected:
${expected}`);

describe("§5.7 invoke container", function () {
  this.timeout(30_000);
  for (const spelling of ["invoke", "invoke_with"]) {
    it(`${spelling}: {drain: {}} drains with no timeout`, async () => {
      const [r] = await runSnippet(withInvoke(`${spelling}: {drain: {}}`));
      expect(r!.status, r!.message ?? "").to.equal("passed");
    });
    it(`${spelling}: a wrong drain summary fails`, async () => {
      const [r] = await runSnippet(withInvoke(`${spelling}: {drain: {timeout_seconds: 5}}`, "  drain_summary: {timeout_reached: true}"));
      expect(r!.category).to.equal("assertion_failed");
      expect(r!.message).to.contain("expected.drain_summary.timeout_reached");
    });
  }
  it("both spellings at once are fixture_schema_invalid, naming both", async () => {
    const [r] = await runSnippet(withInvoke("invoke: {drain: {}}\ninvoke_with: {drain: {timeout_seconds: 1}}"));
    expect(r!.category).to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("'invoke' and 'invoke_with'");
  });
  it("run_count beside invocations: is fixture_schema_invalid, not ignored", async () => {
    const invocations = "invocations:\n  - {name: one, initial_state: {}, expected: {final_state: {v: 1}}}";
    const [ok] = await runSnippet(withInvoke(invocations, "  final_state: {v: 1}").replace(/\nexpected:\n.*$/s, "\n"));
    expect(ok!.status, ok!.message ?? "").to.equal("passed");
    const [r] = await runSnippet(withInvoke(`run_count: 2\n${invocations}`, "  final_state: {v: 1}").replace(/\nexpected:\n.*$/s, "\n"));
    expect(r!.category).to.equal("fixture_schema_invalid");
    expect(r!.message).to.contain("run_count repeats the case's own call");
  });
  it("case-level per-call settings are each invocations entry's default; an entry's own wins", async () => {
    const ID = "6f1c2e0a-4b7d-4c1e-9a2b-3c4d5e6f7a8b";
    const yaml = (second: string) => `
state: {fields: {v: {type: int, default: 0}}}
entry: a
nodes: {a: {update: {v: 1}}}
edges: [{from: a, to: END}]
observers:
  - {name: obs, attach: graph, target: outer, behavior: record}
invoke: {drain: {timeout_seconds: 2}}
caller_invocation_id: ${ID}
caller_correlation_id: corr-case
invocations:
  - name: inherits
    initial_state: {}
    expected:
      drain_summary: {timeout_reached: false, undelivered_count: 0}
      observer_events:
        obs:
          - {phase: started, invocation_id: ${ID}, correlation_id: corr-case}
          - {phase: completed, invocation_id: ${ID}, correlation_id: corr-case}
  - name: overrides
    correlation_id: corr-own
    initial_state: {}
    expected:
      observer_events:
        obs:
          - {phase: started, correlation_id: ${second}}
          - {phase: completed, correlation_id: ${second}}
`;
    const [ok] = await runSnippet(yaml("corr-own"));
    expect(ok!.status, ok!.message ?? "").to.equal("passed");
    const [r] = await runSnippet(yaml("corr-case"));
    expect(r!.category).to.equal("assertion_failed");
    expect(r!.message).to.contain('invocations[1].expected.observer_events.obs[0].correlation_id: expected "corr-case", got "corr-own"');
  });
});
