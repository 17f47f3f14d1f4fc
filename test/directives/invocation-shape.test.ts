/**
 * Conformance-adapter 0.120.1 §5.7 invocation shape: `invoke:` and `invoke_with:` are two spellings
 * of one container — either works, both at once is fixture_schema_invalid (§9: the adapter does not
 * pick one of two equivalent directives). `run_count` repeats the case's own call, so beside
 * `invocations:` (which has none) it is fixture_schema_invalid rather than ignored.
 */
import { expect } from "chai";
import { runSnippet } from "./tester.ts";

const withInvoke = (block: string, expected = "  final_state: {v: 1}\n  drain_summary: {timeout_reached: false, undelivered_count: 0}") => `
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a: {update: {v: 1}}
edges:
  - {from: a, to: END}
initial_state: {}
observers:
  - {name: obs, attach: graph, target: outer, behavior: record, sleep_ms_per_event: 5}
${block}
expected:
${expected}
`;

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
});
