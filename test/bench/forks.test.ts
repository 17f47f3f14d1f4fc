import { expect } from "chai";
import { mergeForks } from "../../bench/lib/forks.ts";
import type { ImplResult, ScenarioResult } from "../../bench/lib/harness.ts";
import { summarize } from "../../bench/lib/stats.ts";

function impl(samples: number[]): ImplResult {
  return {
    usPerStep: summarize(samples),
    samplesUsPerStep: samples,
    cpuUsPerStep: summarize(samples.map((x) => x * 2)),
    samplesCpuUsPerStep: samples.map((x) => x * 2),
    unitsPerSample: 4,
    samplesPerRound: 2,
    warmupCalls: 10,
    timedSteps: 1000,
  };
}

function fork(ours: number[], floor: number[]): ScenarioResult {
  return {
    name: "s",
    description: "d",
    notes: [],
    stepsPerUnit: 100,
    unitLabel: "u",
    roundsPlanned: 2,
    roundsRun: 2,
    wallMs: 1000,
    verified: true,
    impls: { ours: impl(ours), langgraph: impl([100, 100]), floor: impl(floor) },
    ratios: { oursOverLanggraph: 0, oursOverFloor: 0 },
    cpuRatios: { oursOverLanggraph: 0, oursOverFloor: 0 },
  };
}

describe("bench: a scenario measured in several processes (forks.ts)", () => {
  it("one process's result is returned as it is", () => {
    const r = fork([1, 2, 3], [1, 1, 1]);
    expect(mergeForks([r])).to.equal(r);
  });

  it("the median is the median of the processes' medians — one slow process does not set it — and the samples pool", () => {
    const m = mergeForks([fork([3, 3, 3], [2, 2, 2]), fork([3.1, 3.1, 3.1], [2, 2, 2]), fork([6, 6, 6], [2, 2, 2])]);
    expect(m.forks).to.equal(3);
    expect(m.impls.ours.usPerStep.median).to.equal(3.1);
    expect(m.impls.ours.forkMedians).to.deep.equal([3, 3.1, 6]);
    expect(m.impls.ours.samplesUsPerStep).to.have.length(9);
    expect(m.impls.ours.usPerStep.p90).to.equal(6);
    expect(m.impls.ours.cpuUsPerStep.median).to.equal(6.2);
    expect(m.ratios.oursOverFloor).to.be.closeTo(1.55, 1e-9);
    expect(m.cpuRatios.oursOverFloor).to.be.closeTo(1.55, 1e-9);
    expect(m.impls.ours.timedSteps).to.equal(3000);
    expect(m.roundsRun).to.equal(6);
  });

  it("refuses results of different scenarios, and none", () => {
    expect(() => mergeForks([fork([1], [1]), { ...fork([1], [1]), name: "other" }])).to.throw(RangeError, /different scenarios/);
    expect(() => mergeForks([])).to.throw(RangeError, /no results/);
  });
});
