/** The prompt-context binding (§12): snapshots for observers, per async context, innermost wins. */
import { expect } from "chai";
import { activePrompt, activePromptGroup, activeTokenBudget, createPrompt, PromptGroup, renderPrompt, withPrompt, withPromptGroup } from "../../src/prompts/index.ts";

describe("prompts: active prompt context", () => {
  const classify = renderPrompt(createPrompt({ name: "classify", label: "production", version: "v1", template: "c", token_budget: { total_max_tokens: 25 } }));
  const answer = renderPrompt(createPrompt({ name: "answer", label: "production", version: "v2", template: "a" }));

  it("is null outside any binding", () => {
    expect([activePrompt(), activePromptGroup(), activeTokenBudget()]).to.deep.equal([null, null, null]);
  });

  it("snapshots identity, group and budget inside the binding, across awaits and concurrently", async () => {
    const group = new PromptGroup("classify_then_answer", [classify, answer]);
    const seen = await withPromptGroup(group, () =>
      Promise.all(
        [classify, answer].map((r) =>
          withPrompt(r, async () => {
            await new Promise((res) => setTimeout(res, r === classify ? 10 : 1));
            return { prompt: activePrompt(), group: activePromptGroup(), budget: activeTokenBudget() };
          }),
        ),
      ),
    );
    expect(seen[0]).to.deep.equal({
      prompt: { name: "classify", version: "v1", label: "production", template_hash: classify.template_hash, rendered_hash: classify.rendered_hash },
      group: { group_name: "classify_then_answer" },
      budget: { input_max_tokens: null, total_max_tokens: 25 },
    });
    expect(seen[1]?.prompt?.name).to.equal("answer");
    expect(seen[1]?.budget).to.equal(null);
    expect(activePrompt()).to.equal(null);
  });

  it("the innermost prompt binding wins", () => {
    expect(withPrompt(classify, () => withPrompt(answer, () => activePrompt()?.name))).to.equal("answer");
  });
});
