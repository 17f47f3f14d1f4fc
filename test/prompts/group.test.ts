/** PromptGroup (§10) and the §5 sampling / token-budget projections. */
import { expect } from "chai";
import { createPrompt, PromptGroup, PromptGroupInvalid, renderPrompt, samplingConfigFrom, tokenBudgetFrom } from "../../src/prompts/index.ts";

describe("prompts: PromptGroup and config projections", () => {
  const r = renderPrompt(createPrompt({ name: "a", label: "production", version: "v1", template: "x" }));

  it("a group needs at least two members (prompt_group_invalid at construction)", () => {
    for (const members of [[], [r]]) {
      const e = (() => {
        try {
          new PromptGroup("g", members);
        } catch (err) {
          return err as PromptGroupInvalid;
        }
        throw new Error("expected prompt_group_invalid");
      })();
      expect(e.category).to.equal("prompt_group_invalid");
      expect(e.message).to.contain("'g'");
    }
    const g = new PromptGroup("classify_then_answer", [r, r, r]);
    expect(g.members).to.have.length(3);
    expect(g.group_name).to.equal("classify_then_answer");
  });

  it("projects a sampling config onto the seven declared fields plus extras", () => {
    expect(samplingConfigFrom({ temperature: 0, stop_sequences: ["END"], top_k: 5, extras: { a: 1 } })).to.deep.equal({ temperature: 0, stop_sequences: ["END"], extras: { a: 1, top_k: 5 } });
    expect(samplingConfigFrom({})).to.equal(undefined);
    expect(() => samplingConfigFrom({ max_tokens: 1.5 })).to.throw(TypeError, /max_tokens/);
  });

  it("keeps only recognized, well-formed token-budget bounds", () => {
    expect(tokenBudgetFrom({ input_max_tokens: 10, unknown: 5 })).to.deep.equal({ input_max_tokens: 10 });
    expect(tokenBudgetFrom({ input_max_tokens: -1, total_max_tokens: "x" })).to.equal(undefined);
    expect(tokenBudgetFrom("nonsense")).to.equal(undefined);
  });
});
