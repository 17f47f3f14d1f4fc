/** FilesystemPromptBackend on a real directory: layout, both sidecar conventions, categorized errors. */
import { expect } from "chai";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FilesystemPromptBackend, PromptManager } from "../../src/prompts/index.ts";
import { rejection } from "./helpers.ts";

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "oa-prompts-"));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}


describe("prompts: FilesystemPromptBackend", () => {
  it("reads a text prompt under its label directory, with a per-prompt sidecar", async () => {
    const root = tree({
      "production/greet.j2": "Hello, {{ name }}!",
      "production/greet.config.json": JSON.stringify({ temperature: 0.2, max_tokens: 64, repetition_penalty: 1.1, token_budget: { input_max_tokens: 100, junk: 1 } }),
    });
    const p = await new FilesystemPromptBackend({ root }).fetch("greet", "production");
    expect(p.template).to.equal("Hello, {{ name }}!");
    expect(p.version).to.match(/^sha-[0-9a-f]{12}$/);
    expect(p.template_hash).to.match(/^sha256:[0-9a-f]{64}$/);
    expect(p.sampling).to.deep.equal({ temperature: 0.2, max_tokens: 64, extras: { repetition_penalty: 1.1 } });
    expect(p.token_budget).to.deep.equal({ input_max_tokens: 100 });
    expect(p.metadata?.["path"]).to.equal(join(root, "production", "greet.j2"));
    rmSync(root, { recursive: true });
  });

  it("reads a chat prompt and the unified prompt_configs.json; the per-prompt sidecar wins", async () => {
    const root = tree({
      "prompt_configs.json": JSON.stringify({ chat: { temperature: 0.5 }, other: { seed: 1 } }),
      "staging/chat.chat.json": JSON.stringify([{ role: "system", content: "Be brief." }, { placeholder: "history" }, { role: "user", content: "{{ q }}" }]),
      "staging/other.j2": "x",
      "staging/other.config.json": JSON.stringify({ seed: 2 }),
    });
    const b = new FilesystemPromptBackend({ root });
    const chat = await b.fetch("chat", "staging");
    expect(chat.chat_template).to.have.length(3);
    expect(chat.sampling).to.deep.equal({ temperature: 0.5 });
    expect((await b.fetch("other", "staging")).sampling).to.deep.equal({ seed: 2 });
    const r = await new PromptManager({ backends: [b] }).get("chat", { label: "staging", variables: { q: "hi" }, placeholders: { history: [] } });
    expect(r.messages).to.deep.equal([{ role: "system", content: "Be brief." }, { role: "user", content: "hi" }]);
    rmSync(root, { recursive: true });
  });

  it("a changed file is a new version and hash (no cache)", async () => {
    const root = tree({ "production/g.j2": "one" });
    const b = new FilesystemPromptBackend({ root });
    const a = await b.fetch("g", "production", { cacheTtlSeconds: 30 });
    writeFileSync(join(root, "production", "g.j2"), "two");
    const c = await b.fetch("g", "production");
    expect(c.version).to.not.equal(a.version);
    expect(c.template_hash).to.not.equal(a.template_hash);
    rmSync(root, { recursive: true });
  });

  it("categorizes failures, naming the prompt and files", async () => {
    const root = tree({
      "production/bad.chat.json": "{not json",
      "production/both.j2": "x",
      "production/both.chat.json": "[]",
      "production/cfg.j2": "x",
      "production/cfg.config.json": JSON.stringify({ temperature: "hot" }),
      "production/budget.j2": "x",
      "production/budget.config.json": JSON.stringify({ token_budget: "lots" }),
    });
    const b = new FilesystemPromptBackend({ root });
    const missing = await rejection(b.fetch("nope", "production"));
    expect(missing.category).to.equal("prompt_not_found");
    expect(missing.message).to.contain("nope.j2");
    expect((await rejection(b.fetch("greet", "no-such-label"))).category).to.equal("prompt_not_found");
    expect((await rejection(b.fetch("../etc/passwd", "production"))).category).to.equal("prompt_not_found");
    expect((await rejection(b.fetch("bad", "production"))).category).to.equal("prompt_config_invalid");
    expect((await rejection(b.fetch("both", "production"))).category).to.equal("prompt_config_invalid");
    const cfg = await rejection(b.fetch("cfg", "production"));
    expect(cfg.category).to.equal("prompt_config_invalid");
    expect(cfg.message).to.contain("temperature");
    // A malformed token_budget never breaks the fetch (§5, proposal 0109).
    expect((await b.fetch("budget", "production")).token_budget).to.equal(undefined);
    const gone = await rejection(new FilesystemPromptBackend({ root: join(root, "missing-root") }).fetch("g", "production"));
    expect(gone.category).to.equal("prompt_store_unavailable");
    rmSync(root, { recursive: true });
  });

  it("rejects a malformed prompt_configs.json at construction, naming it", () => {
    const root = tree({ "prompt_configs.json": "[1,2]" });
    expect(() => new FilesystemPromptBackend({ root })).to.throw(/prompt_configs\.json/);
    rmSync(root, { recursive: true });
  });
});
