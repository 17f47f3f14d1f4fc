import { expect } from "chai";
import { loadConformance } from "../../src/conformance/setup.ts";
import { runCaseToResult } from "../../src/conformance/run.ts";
import { casesOf } from "./helpers.ts";

describe("case time limit", () => {
  it("an endless graph loop fails with case_timeout and is stopped, not left running", async () => {
    const registry = await loadConformance();
    const [c] = casesOf(`
state: {fields: {n: {type: int, default: 0}}}
entry: a
nodes: {a: {update_from_field: {n: n, multiplier: 1}}}
edges: [{from: a, condition: {if_field: n, equals: -1, then: END, else: a}}]
expected: {final_state: {n: 0}}
`);
    const t0 = performance.now();
    const r = await runCaseToResult(c!, registry, { caseTimeoutMs: 200 });
    expect(r.status).to.equal("failed");
    expect(r.category).to.equal("case_timeout");
    expect(performance.now() - t0).to.be.lessThan(5_000);
    // A loop left running would keep this process's CPU busy; an aborted invocation lets it idle.
    const before = process.cpuUsage();
    // A loop still running burns the whole 500 ms window (~500 CPU ms); an idle process a few. Half the
    // window leaves room for GC threads on a loaded machine (151 CPU ms in a 150 ms window was seen).
    await new Promise((res) => setTimeout(res, 500));
    const used = process.cpuUsage(before);
    expect((used.user + used.system) / 1000, "CPU ms burned while idle").to.be.lessThan(250);
  });
});
