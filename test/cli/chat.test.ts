/**
 * `openarmature chat` through the real binary (`node bin/openarmature.mjs`, a child process) with
 * messages piped on standard input and no API key in the environment: the scripted provider
 * answers (the offline demo, or a script file), an approval is answered on the next line, and with
 * `--database` a second run continues the saved conversation.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { existsSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { chooseProvider } from "../../src/cli/chat.ts";
import { tempDir } from "../support/temp-dir.ts";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
const dir = tempDir("oa-cli-chat-");

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
/** Run the CLI with `input` piped to it; every provider key removed from the environment. */
export function runChat(bin: string, args: string[], input: string, cwd = PROJECT, extraEnv: NodeJS.ProcessEnv = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENARMATURE_TEST_SCRIPT"]) delete env[k];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, "chat", ...args], { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe("cli: openarmature chat (piped stdin, no API key)", function () {
  this.timeout(60_000);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("answers each line through the scripted provider's offline demo, streaming the reply", async () => {
    const r = await runChat("bin/openarmature.mjs", [], "hello there\n\nsecond line\n");
    expect(r.code).to.equal(0, r.stderr);
    expect(r.stderr).to.include("scripted provider, offline demo");
    expect(r.stdout).to.equal("assistant> You said: hello there\nassistant> You said: second line\n");
  });

  it("an approval: the turn waits, 'approve' lets the model answer, 'reject' declines", async () => {
    const r = await runChat("bin/openarmature.mjs", ["--approve-when", "^!"], "!delete all\napprove\n!drop\nreject\nafter\n");
    expect(r.code).to.equal(0, r.stderr);
    expect(r.stdout.split("\n")).to.deep.equal([
      'assistant> Approve "!delete all"? (approve / reject)',
      "(waiting for approval: type 'approve' or 'reject')",
      "assistant> You said: !delete all",
      'assistant> Approve "!drop"? (approve / reject)',
      "(waiting for approval: type 'approve' or 'reject')",
      "assistant> Declined.",
      "assistant> You said: after",
      "",
    ]);
  });

  it("--script: the scripted provider answers from the file; an exhausted script is an errored turn, not a crash", async () => {
    const script = join(dir, "script.yaml");
    writeFileSync(script, "responses:\n  - type: text\n    content: from the script\n");
    const r = await runChat("bin/openarmature.mjs", ["--script", script], "one\ntwo\n");
    expect(r.code).to.equal(0, r.stderr);
    const lines = r.stdout.trim().split("\n");
    expect(lines[0]).to.equal("assistant> from the script");
    expect(lines[1]).to.equal("system> I had trouble responding. Try again in a moment. [script_exhausted]");
  });

  it("--database: a second run with the same --session continues the saved conversation", async () => {
    const db = join(dir, "chat.db");
    const first = await runChat("bin/openarmature.mjs", ["--database", db, "--session", "s1"], "remember me\n");
    expect(first.code).to.equal(0, first.stderr);
    const second = await runChat("bin/openarmature.mjs", ["--database", db, "--session", "s1"], "again\n");
    expect(second.code).to.equal(0, second.stderr);
    expect(second.stdout).to.equal("user> remember me\nassistant> You said: remember me\nassistant> You said: again\n");
  });

  it("--database: a run with the --session of a turn still waiting for approval picks the approval up ('approve' resumes it)", async () => {
    const db = join(dir, "pending.db");
    const first = await runChat("bin/openarmature.mjs", ["--database", db, "--session", "p1", "--approve-when", "^!"], "!delete all\n");
    expect(first.code).to.equal(0, first.stderr);
    expect(first.stdout).to.include("(waiting for approval: type 'approve' or 'reject')");
    const second = await runChat("bin/openarmature.mjs", ["--database", db, "--session", "p1", "--approve-when", "^!"], "approve\nafter\n");
    expect(second.code).to.equal(0, second.stderr);
    expect(second.stdout.split("\n")).to.deep.equal([
      "user> !delete all",
      'assistant> Approve "!delete all"? (approve / reject)',
      "(waiting for approval: type 'approve' or 'reject')",
      "assistant> You said: !delete all",
      "assistant> You said: after",
      "",
    ]);
  });

  it("usage errors exit 2 naming the problem", async () => {
    const r = await runChat("bin/openarmature.mjs", ["--provider", "nope"], "");
    expect(r.code).to.equal(2);
    expect(r.stderr).to.include("unknown provider 'nope'");
  });

  it("openarmature serve: the page and a chat turn over HTTP, sessions in the SQLite file; SIGTERM shuts it down gracefully", async () => {
    const database = join(dir, "serve.db");
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENARMATURE_TEST_SCRIPT"]) delete env[k];
    const child = spawn(process.execPath, ["bin/openarmature.mjs", "serve", "--port", "0", "--database", database], { cwd: PROJECT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        stdout += d.toString();
        const m = /openarmature serve: (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout);
        if (m) resolve(m[1]!);
      });
      child.on("close", () => reject(new Error(`serve exited early: ${stderr}`)));
    });
    expect(stdout).to.include(`sessions in ${database}`);
    expect(await (await fetch(`${url}/`)).text()).to.include("<title>openarmature chat</title>");
    const turn = (await (await fetch(`${url}/chat/w/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ role: "user", content: "over http" }) })).json()) as { replies: unknown[] };
    expect(turn.replies).to.deep.equal([{ role: "assistant", content: "You said: over http" }]);
    child.kill("SIGTERM");
    expect(await exited).to.equal(0, stderr);
    expect(stdout).to.include("shutting down");
    expect(existsSync(database)).to.equal(true);
  });

  it("a provider key in the environment selects that provider (no call is made to choose it)", () => {
    expect(chooseProvider({}, { ANTHROPIC_API_KEY: "k" }).banner).to.equal("anthropic (model claude-3-5-haiku-latest)");
    expect(chooseProvider({}, { OPENAI_API_KEY: "k", GEMINI_API_KEY: "g" }).provider.name).to.equal("openai");
    expect(chooseProvider({}, {}).banner).to.match(/^scripted provider, offline demo/);
    expect(chooseProvider({ provider: "gemini", model: "m" }, { GEMINI_API_KEY: "g" }).banner).to.equal("gemini (model m)");
    // A native provider named without its key is refused before any call (test/cli/model-flags.test.ts).
    expect(() => chooseProvider({ provider: "gemini", model: "m" }, {})).to.throw(/--provider gemini needs GEMINI_API_KEY/);
  });
});
