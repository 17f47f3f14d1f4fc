/**
 * prompt-management §12 at the llm-provider call site: a PromptResult's messages and sampling go to
 * a registry provider's complete() as they are — and the one shape where the two specs disagree, a
 * system segment written as content blocks (prompt-management §3 renders it to blocks; llm-provider
 * §3 requires a system message's content to be a string), is refused by the provider before any
 * request, naming the field; `toLlmMessages` joins its text blocks (the choice recorded in
 * src/prompts/README.md).
 */
import { expect } from "chai";
import { LlmProviderError, providers, type Message } from "../../src/llm/index.ts";
import { createPrompt, renderPrompt, toLlmMessages } from "../../src/prompts/index.ts";

function recordingOpenAi() {
  const bodies: Record<string, unknown>[] = [];
  const fetch = async (_url: string | URL | Request, init?: RequestInit) => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return Response.json({ choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "ok" } }] });
  };
  return { bodies, llm: providers.create("openai", { model: "gpt-4o-mini", apiKey: "sk-test", fetch }) };
}

describe("prompts → llm: a PromptResult sent through a registry provider", () => {
  it("messages and sampling pass as they are; the sampling reaches the wire", async () => {
    const prompt = createPrompt({ name: "p", label: "production", version: "v1", chat_template: [{ role: "system", content: "Be {{ tone }}." }, { role: "user", content: "{{ q }}" }], sampling: { temperature: 0.2, max_tokens: 16 } });
    const result = renderPrompt(prompt, { tone: "brief", q: "Hi?" });
    const { bodies, llm } = recordingOpenAi();
    await llm.complete(toLlmMessages(result.messages), { config: result.sampling });
    expect(bodies[0]).to.deep.include({ messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi?" }], temperature: 0.2, max_tokens: 16 });
  });

  it("a system segment written as content blocks renders to blocks, which complete() refuses pre-send naming messages[0].content; toLlmMessages joins them into the string llm-provider §3 requires", async () => {
    const prompt = createPrompt({ name: "p", label: "production", version: "v1", chat_template: [{ role: "system", content: [{ type: "text", text: "Be {{ tone }}." }] }, { role: "user", content: "Hi?" }] });
    const result = renderPrompt(prompt, { tone: "brief" });
    expect(result.messages[0]).to.deep.equal({ role: "system", content: [{ type: "text", text: "Be brief." }] });
    const { bodies, llm } = recordingOpenAi();
    const e = await llm.complete(result.messages as Message[]).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(LlmProviderError);
    expect((e as LlmProviderError).category).to.equal("provider_invalid_request");
    expect((e as Error).message).to.contain("messages[0].content");
    expect(bodies).to.have.length(0);
    const flattened = toLlmMessages(result.messages);
    expect(flattened.slice(1)).to.deep.equal(result.messages.slice(1));
    await llm.complete(flattened);
    expect((bodies[0]!["messages"] as unknown[])[0]).to.deep.equal({ role: "system", content: "Be brief." });
  });
});
