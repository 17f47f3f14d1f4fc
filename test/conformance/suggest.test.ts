import { expect } from "chai";
import { didYouMean, editDistance, nearest, patternCandidates } from "../../src/conformance/suggest.ts";

describe("suggest (did you mean)", () => {
  it("edit distance counts inserts, deletes, substitutions and adjacent swaps as one edit each", () => {
    expect(editDistance("final_state", "final_state")).to.equal(0);
    expect(editDistance("final_stat", "final_state")).to.equal(1);
    expect(editDistance("fnial_state", "final_state")).to.equal(1);
    expect(editDistance("final_xtate", "final_state")).to.equal(1);
    expect(editDistance("", "abc")).to.equal(3);
  });

  it("nearest keeps only the closest names, and none when every name is too far to be a typo", () => {
    expect(nearest("final_stat", ["final_state", "execution_order", "final_stats", "final_states"])).to.deep.equal(["final_state", "final_stats"]);
    expect(nearest("FINAL_STATE", ["final_state"])).to.deep.equal(["final_state"]);
    expect(nearest("observer_events", ["final_state", "execution_order"])).to.deep.equal([]);
    expect(nearest("x", ["final_state"])).to.deep.equal([]);
  });

  it("pattern families suggest the concrete name with the word's own head or tail", () => {
    expect(patternCandidates("a_node_event_count", /(?<node>.+)_node_events_count/)).to.deep.equal(["a_node_events_count"]);
    expect(patternCandidates("loaded_invoke_stat_for_x", /loaded_invoke_state_for_(?<field>.+)/)).to.deep.equal(["loaded_invoke_state_for_x"]);
    expect(patternCandidates("instance_x_resume_attempt_count", /instance_(?<index>\d+)_resume_attempt_count/)).to.deep.equal([]);
    expect(patternCandidates("invoke_wth", /invoke(?:_with)?/)).to.deep.equal([]);
  });

  it("formats up to three suggestions", () => {
    expect(didYouMean([])).to.equal("");
    expect(didYouMean(["a", "b", "c", "d"])).to.equal(" (did you mean 'a' or 'b' or 'c'?)");
  });
});
