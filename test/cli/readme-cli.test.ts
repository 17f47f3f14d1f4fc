/**
 * The README's command-line and LLM text stays true: every flag `agent`, `chat` and `serve` accept
 * (read from their `--help`) is documented in the chat section (`agent --form` in the work-forms
 * paragraph), and the LLM section says `complete()` does not retry by default and shows `baseUrl` and
 * call-level `retry` in an executed example (test/readme.test.ts runs it).
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AGENT_USAGE } from "../../src/cli/agent.ts";
import { CHAT_USAGE, SERVE_USAGE } from "../../src/cli/chat.ts";

const readme = readFileSync(join(fileURLToPath(new URL("../..", import.meta.url)), "README.md"), "utf8");
function section(heading: string): string {
  const start = readme.indexOf(`\n### ${heading}`);
  expect(start, `README section '${heading}'`).to.be.greaterThan(-1);
  const end = readme.indexOf("\n### ", start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
}
const flagsOf = (usage: string): string[] => [...new Set([...usage.matchAll(/^ {2}(--[a-z-]+)/gm)].map((m) => m[1]!))];

describe("README: the command-line flags and the LLM section", () => {
  it("every flag of chat, serve and agent is in the chat section (agent --form with the work forms)", () => {
    const chat = section("Deploying a chat");
    const flags = [...flagsOf(CHAT_USAGE), ...flagsOf(SERVE_USAGE), ...flagsOf(AGENT_USAGE)].filter((f) => f !== "--form");
    expect(flags).to.include.members(["--base-url", "--provider", "--token", "--allowed-host"]);
    expect(flags.filter((f) => !new RegExp(`(?<![\\w-])${f}(?![\\w-])`).test(chat)), "undocumented flags").to.deep.equal([]);
    expect(readme).to.include("`openarmature agent --form FILE");
  });

  it("the chat section states the one model rule, --base-url and agent's refusal without a key", () => {
    const chat = section("Deploying a chat");
    expect(chat).to.include("one rule for `agent`, `chat` and `serve`");
    expect(chat).to.include("--base-url http://localhost:11434/v1");
    expect(chat).to.match(/`agent`, whose output is taken\s+as the model's answer, exits 2/);
  });

  it("the LLM section: no retry by default (quoting the spec), baseUrl and call-level retry in an executed example", () => {
    const llm = section("LLM providers");
    expect(llm).to.include("`complete()` does NOT retry on\ntransient errors by default");
    const blocks = [...llm.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
    const example = blocks.find((b) => b.includes("baseUrl:") && b.includes("retry:"));
    expect(example, "an executed ts block with baseUrl and retry").to.not.equal(undefined);
    expect(example).to.include("provider_unavailable");
  });
});
