/**
 * `openarmature serve` through the real binary (`node bin/openarmature.mjs`, a child process, no
 * API key): what it refuses at start — one categorized line, no stack trace, a non-zero exit —
 * and how it hands out its token (the page URL printed once, the network warning).
 */
import { expect } from "chai";
import { spawn, type ChildProcess } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { tempDir } from "../support/temp-dir.ts";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
const dir = tempDir("oa-serve-cli-");
const TOKEN = "cli-token-abcdefghijklmnop";

interface Served {
  readonly child: ChildProcess;
  /** The first line on stdout (the URL line), or undefined when the command exited first. */
  readonly line: string | undefined;
  stdout(): string;
  stderr(): string;
  readonly exited: Promise<number | null>;
}
function serve(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<Served> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extraEnv };
  for (const k of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENARMATURE_TEST_SCRIPT", ...(extraEnv["OPENARMATURE_TOKEN"] === undefined ? ["OPENARMATURE_TOKEN"] : [])]) delete env[k];
  const child = spawn(process.execPath, ["bin/openarmature.mjs", "serve", "--port", "0", ...args], { cwd: PROJECT, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return new Promise((resolve) => {
    const result = (line: string | undefined): Served => ({ child, line, stdout: () => stdout, stderr: () => stderr, exited });
    child.stdout!.on("data", (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes("\n")) resolve(result(stdout.split("\n")[0]));
    });
    void exited.then(() => resolve(result(undefined)));
  });
}
const stop = async (s: Served) => {
  s.child.kill("SIGTERM");
  return s.exited;
};

describe("cli: openarmature serve refuses unsafe or broken starts, hands out its token", function () {
  this.timeout(60_000);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("--database on a file that is not SQLite: one categorized line on stderr, exit 1, no stack trace", async () => {
    const file = join(dir, "not-sqlite.db");
    writeFileSync(file, "this is not an SQLite database, just text that is long enough to have a header\n".repeat(20));
    const s = await serve(["--database", file]);
    expect(s.line).to.equal(undefined);
    expect(await s.exited).to.equal(1);
    const lines = s.stderr().trimEnd().split("\n");
    expect(lines, s.stderr()).to.have.length(1);
    expect(lines[0]).to.match(/^openarmature serve: .*not-sqlite\.db.* \[session_store_corrupt\]$/);
    expect(s.stderr()).to.not.match(/\n\s+at /);
  });

  it("--database on a directory: one categorized line, exit 1", async () => {
    const s = await serve(["--database", dir]);
    expect(await s.exited).to.equal(1);
    const lines = s.stderr().trimEnd().split("\n");
    expect(lines, s.stderr()).to.have.length(1);
    expect(lines[0]).to.match(/^openarmature serve: .* \[[a-z_]+\]$/);
  });

  it("--host 0.0.0.0 without a token refuses to start: exit 2, harness_server_token_required", async () => {
    const s = await serve(["--host", "0.0.0.0", "--database", join(dir, "wild.db")]);
    expect(s.line).to.equal(undefined);
    expect(await s.exited).to.equal(2);
    const lines = s.stderr().trimEnd().split("\n");
    expect(lines, s.stderr()).to.have.length(1);
    expect(lines[0]).to.match(/^openarmature serve: refusing to listen on 0\.0\.0\.0.* \[harness_server_token_required\]$/);
  });

  it("--host 0.0.0.0 with $OPENARMATURE_TOKEN binds and warns that the server is reachable from the network; requests need the token", async () => {
    const s = await serve(["--host", "0.0.0.0", "--database", join(dir, "wild-token.db")], { OPENARMATURE_TOKEN: TOKEN });
    try {
      expect(s.line, s.stderr()).to.match(/^openarmature serve: http:\/\/0\.0\.0\.0:\d+\/\?token=/);
      expect(s.stderr()).to.match(/^openarmature serve: warning: listening on 0\.0\.0\.0, reachable from the network/m);
      const port = /:(\d+)\//.exec(s.line!)![1];
      expect((await fetch(`http://127.0.0.1:${port}/chat/w/messages`)).status).to.equal(401);
      expect((await fetch(`http://127.0.0.1:${port}/chat/w/messages`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).to.equal(200);
    } finally {
      expect(await stop(s)).to.equal(0);
    }
  });

  it("--token: the printed page URL carries it once; opening it sets the cookie and the page works; a short token is a usage error", async () => {
    const s = await serve(["--token", TOKEN, "--database", join(dir, "token.db")]);
    try {
      const m = /^openarmature serve: (http:\/\/127\.0\.0\.1:\d+)\/\?token=([^ ]+) \(/.exec(s.line ?? "");
      expect(m, `${s.line} ${s.stderr()}`).to.not.equal(null);
      expect(decodeURIComponent(m![2]!)).to.equal(TOKEN);
      expect(s.stderr()).to.not.include("warning"); // loopback: no network warning
      const base = m![1]!;
      expect((await fetch(`${base}/`)).status).to.equal(401);
      const opened = await fetch(`${base}/?token=${m![2]}`, { redirect: "manual" });
      expect(opened.status).to.equal(303);
      const cookie = opened.headers.get("set-cookie")!.split(";")[0]!;
      const turn = await fetch(`${base}/chat/t/messages`, { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ role: "user", content: "with the cookie" }) });
      expect(((await turn.json()) as { replies: unknown[] }).replies).to.deep.equal([{ role: "assistant", content: "You said: with the cookie" }]);
    } finally {
      expect(await stop(s)).to.equal(0);
    }
    const short = await serve(["--token", "short", "--database", join(dir, "short.db")]);
    expect(await short.exited).to.equal(2);
    expect(short.stderr()).to.match(/^openarmature serve: .* \[harness_server_option_invalid\]\n$/);
  });
});
