/** Render (§6.render, §8, §11): text and chat variants, content blocks, placeholders, every render error. */
import { expect } from "chai";
import { createPrompt, PromptRenderError, renderPrompt, templateHash, type ChatSegment, type Prompt } from "../../src/prompts/index.ts";

const chat = (name: string, chat_template: ChatSegment[]): Prompt => createPrompt({ name, label: "production", version: "v1", chat_template });
const text = (template: string): Prompt => createPrompt({ name: "t", label: "production", version: "v1", template });

function renderError(fn: () => unknown): PromptRenderError {
  try {
    fn();
  } catch (e) {
    expect(e).to.be.instanceOf(PromptRenderError);
    return e as PromptRenderError;
  }
  throw new Error("expected prompt_render_error");
}

describe("prompts: render", () => {
  it("a text prompt renders to one user message, propagating identity and sampling", () => {
    const p = createPrompt({ name: "g", label: "production", version: "v1", template: "Hi {{ u }}", sampling: { temperature: 0 }, observability_entities: { langfuse_prompt: "ref" } });
    const r = renderPrompt(p, { u: "A" }, { history: [{ role: "user", content: "ignored" }] });
    expect(r.messages).to.deep.equal([{ role: "user", content: "Hi A" }]);
    expect([r.name, r.version, r.label, r.template_hash]).to.deep.equal(["g", "v1", "production", p.template_hash]);
    expect(r.sampling).to.deep.equal({ temperature: 0 });
    expect(r.observability_entities).to.deep.equal({ langfuse_prompt: "ref" });
    expect(r.variables).to.deep.equal({ u: "A" });
    expect(r.fetched_at).to.equal(p.fetched_at);
  });

  it("rendered_hash is stable for equal inputs and differs for different variables", () => {
    const p = text("Hi {{ u }}");
    expect(renderPrompt(p, { u: "A" }).rendered_hash).to.equal(renderPrompt(p, { u: "A" }).rendered_hash);
    expect(renderPrompt(p, { u: "A" }).rendered_hash).to.not.equal(renderPrompt(p, { u: "B" }).rendered_hash);
  });

  it("template_hash covers chat structure: equal templates hash equal, any change hashes apart", () => {
    const a: ChatSegment[] = [{ role: "system", content: "x" }, { placeholder: "h" }];
    expect(templateHash(a)).to.equal(templateHash(JSON.parse(JSON.stringify(a)) as ChatSegment[]));
    expect(templateHash(a)).to.not.equal(templateHash([{ role: "user", content: "x" }, { placeholder: "h" }]));
    expect(templateHash(a)).to.not.equal(templateHash([{ role: "system", content: "x" }, { placeholder: "h2" }]));
    expect(templateHash("x")).to.not.equal(templateHash([{ role: "user", content: "x" }]));
  });

  it("a chat prompt renders segments, blocks and placeholder messages in order", () => {
    const p = chat("c", [
      { role: "system", content: "About {{ topic }}." },
      { placeholder: "history" },
      {
        role: "user",
        content: [
          { type: "text", text: "Look at {{ thing }}" },
          { type: "image", source: { type: "url", url: "{{ url }}" }, detail: "low" },
          { type: "image", source: { type: "inline", base64_data: "{{ b64 }}" }, media_type: "{{ mt }}" },
        ],
      },
    ]);
    const r = renderPrompt(p, { topic: "cats", thing: "this", url: "https://x/y.png", b64: "AAAA", mt: "image/png" }, { history: [{ role: "assistant", content: "earlier" }] });
    expect(r.messages).to.deep.equal([
      { role: "system", content: "About cats." },
      { role: "assistant", content: "earlier" },
      {
        role: "user",
        content: [
          { type: "text", text: "Look at this" },
          { type: "image", source: { type: "url", url: "https://x/y.png" }, detail: "low" },
          { type: "image", source: { type: "inline", base64_data: "AAAA" }, media_type: "image/png" },
        ],
      },
    ]);
  });

  it("an empty placeholder list contributes nothing", () => {
    const r = renderPrompt(chat("c", [{ placeholder: "h" }, { role: "user", content: "q" }]), {}, { h: [] });
    expect(r.messages).to.deep.equal([{ role: "user", content: "q" }]);
  });

  const cases: [string, () => unknown, string][] = [
    ["undefined variable (named, per segment)", () => renderPrompt(chat("c", [{ role: "system", content: "{{ a }}" }, { role: "user", content: "{{ b }}" }]), { a: "x" }), "'b'"],
    ["template syntax error", () => renderPrompt(text("{{ oops"), {}), "does not parse"],
    ["empty segment", () => renderPrompt(chat("c", [{ role: "system", content: "" }, { role: "user", content: "x" }]), {}), "empty"],
    ["segment rendering to empty", () => renderPrompt(chat("c", [{ role: "user", content: "{{ e }}" }]), { e: "" }), "empty"],
    ["empty text block", () => renderPrompt(chat("c", [{ role: "user", content: [{ type: "text", text: "{{ e }}" }] }]), { e: "" }), "empty"],
    ["empty block list", () => renderPrompt(chat("c", [{ role: "user", content: [] }]), {}), "empty"],
    ["unfilled placeholder", () => renderPrompt(chat("c", [{ placeholder: "examples" }, { role: "user", content: "x" }]), {}, { other: [] }), "examples"],
    ["duplicate placeholder", () => renderPrompt(chat("c", [{ placeholder: "h" }, { placeholder: "h" }]), {}, { h: [] }), "more than once"],
    ["placeholder name shape", () => renderPrompt(chat("c", [{ placeholder: "chat-history" }]), {}, { "chat-history": [] }), "chat-history"],
    ["image in a system segment", () => renderPrompt(chat("c", [{ role: "system", content: [{ type: "image", source: { type: "url", url: "u" } }] }]), {}), "image"],
    ["all-empty render", () => renderPrompt(chat("c", [{ placeholder: "h" }]), {}, { h: [] }), "empty"],
    ["undefined variable in an image url", () => renderPrompt(chat("c", [{ role: "user", content: [{ type: "image", source: { type: "url", url: "{{ u }}" } }] }]), {}), "content[0].source.url"],
  ];
  for (const [what, fn, mention] of cases) {
    it(`raises prompt_render_error naming the prompt: ${what}`, () => {
      const e = renderError(fn);
      expect(e.category).to.equal("prompt_render_error");
      expect(e.version).to.equal("v1");
      expect(e.label).to.equal("production");
      expect(e.description).to.contain(mention);
      expect(e.message).to.contain(`prompt '${e.name}'`);
    });
  }

  it("redacts variable values on the result and the error, keeping the keys", () => {
    const redact = (k: string, v: unknown): unknown => (k === "secret" ? "***" : v);
    const r = renderPrompt(text("{{ secret }} {{ x }}"), { secret: "s3", x: 1 }, null, { redact });
    expect(r.variables).to.deep.equal({ secret: "***", x: 1 });
    const e = renderError(() => renderPrompt(text("{{ secret }} {{ y }}"), { secret: "s3" }, null, { redact }));
    expect(e.variables).to.deep.equal({ secret: "***" });
    expect(e.message).to.not.contain("s3");
  });
});
