/**
 * The model flags `agent`, `chat` and `serve` share, through the real binary (`node bin/openarmature.mjs`,
 * a child process) with every provider key removed from the environment unless a test sets one:
 * `--base-url` against a real OpenAI-compatible server on a loopback `node:http` socket, the one
 * rule for which model answers when no flag names one, and `openarmature --help`.
 */
import { expect } from "chai";
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const PROJECT = fileURLToPath(new URL("../..", import.meta.url));
const KEYS = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENARMATURE_TEST_SCRIPT", "OPENARMATURE_TOKEN"];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}
/** Run `openarmature ARGS` with `input` on stdin, the provider keys removed, `extraEnv` added. */
function cli(args: string[], { input = "", env: extraEnv = {} }: { input?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of KEYS) delete env[k];
  Object.assign(env, extraEnv);
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["bin/openarmature.mjs", ...args], { cwd: PROJECT, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: { model?: string; stream?: boolean; messages?: Array<{ role: string; content: unknown }> };
}
/** A real OpenAI-compatible Chat Completions server on loopback: it answers "local: <last user text>". */
class LocalServer {
  readonly seen: Seen[] = [];
  readonly #server: Server;
  constructor() {
    this.#server = createServer((req, res) => {
      let raw = "";
      req.on("data", (d: Buffer) => (raw += d.toString()));
      req.on("end", () => {
        const body = JSON.parse(raw || "{}") as Seen["body"];
        this.seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body });
        if (req.url !== "/v1/chat/completions") {
          res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
          return;
        }
        const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
        const text = `local: ${typeof last?.content === "string" ? last.content : ""}`;
        if (body.stream === true) {
          res.writeHead(200, { "content-type": "text/event-stream" });
          const chunk = (delta: Record<string, unknown>, finish: string | null) => `data: ${JSON.stringify({ id: "c1", model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
          res.end(chunk({ role: "assistant", content: text }, null) + chunk({}, "stop") + "data: [DONE]\n\n");
        } else {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(JSON.stringify({ id: "c1", model: body.model, choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: text } }] }));
        }
      });
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.#server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/v1`;
  }
  close(): Promise<void> {
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }
}

describe("cli: the model flags of agent, chat and serve", function () {
  this.timeout(60_000);
  const local = new LocalServer();
  let baseUrl = "";
  before(async () => {
    baseUrl = await local.start();
  });
  after(() => local.close());
  beforeEach(() => local.seen.splice(0));

  describe("--base-url URL: an OpenAI-compatible server (a local vLLM, Ollama)", () => {
    it("agent: the call goes to URL/chat/completions with --model; no API key is sent without --provider", async () => {
      const r = await cli(["agent", "--base-url", baseUrl, "--model", "llama3.2", "hello local"], { env: { OPENAI_API_KEY: "sk-must-not-leave" } });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal("local: hello local\n");
      expect(local.seen).to.have.length(1);
      expect(local.seen[0]!.url).to.equal("/v1/chat/completions");
      expect(local.seen[0]!.body.model).to.equal("llama3.2");
      expect(local.seen[0]!.headers.authorization, "the OpenAI key went to another server").to.equal(undefined);
    });

    it("agent --provider openai --base-url: that provider's key is sent (a gateway that needs one)", async () => {
      const r = await cli(["agent", "--provider", "openai", "--base-url", `${baseUrl}/`, "hi"], { env: { OPENAI_API_KEY: "sk-gateway" } });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal("local: hi\n");
      expect(local.seen[0]!.headers.authorization).to.equal("Bearer sk-gateway");
      expect(local.seen[0]!.body.model).to.equal("gpt-4o-mini");
    });

    it("chat: each line is answered by the server at URL (streamed), the banner names it", async () => {
      const r = await cli(["chat", "--base-url", baseUrl, "--model", "qwen"], { input: "one\ntwo\n" });
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal("assistant> local: one\nassistant> local: two\n");
      expect(r.stderr).to.include(`openai-compatible server at ${baseUrl} (model qwen)`);
      expect(local.seen.map((s) => [s.url, s.body.model])).to.deep.equal([["/v1/chat/completions", "qwen"], ["/v1/chat/completions", "qwen"]]);
    });

    it("serve: a turn over HTTP is answered by the server at URL", async () => {
      const env: NodeJS.ProcessEnv = { ...process.env };
      for (const k of KEYS) delete env[k];
      const dir = mkdtempSync(join(tmpdir(), "oa-base-url-"));
      const child = spawn(process.execPath, ["bin/openarmature.mjs", "serve", "--port", "0", "--database", join(dir, "s.db"), "--base-url", baseUrl, "--model", "m1"], { cwd: PROJECT, env, stdio: ["ignore", "pipe", "pipe"] });
      let stdout = "";
      let stderr = "";
      child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          child.stdout.on("data", (d: Buffer) => {
            stdout += d.toString();
            const m = /openarmature serve: (http:\/\/127\.0\.0\.1:\d+)\//.exec(stdout);
            if (m) resolve(m[1]!);
          });
          void exited.then(() => reject(new Error(`serve exited early: ${stderr}`)));
        });
        expect(stdout).to.include(`openai-compatible server at ${baseUrl} (model m1)`);
        const res = await fetch(`${url}/chat/s/messages`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ role: "user", content: "over http" }) });
        expect(((await res.json()) as { replies: unknown[] }).replies).to.deep.equal([{ role: "assistant", content: "local: over http" }]);
        expect(local.seen[0]!.body.model).to.equal("m1");
      } finally {
        child.kill("SIGTERM");
        expect(await exited).to.equal(0, stderr);
        rmSync(dir, { recursive: true, force: true });
      }
    });

    const BAD: Array<[string, string[], RegExp]> = [
      ["not a URL", ["--base-url", "just words", "--model", "m"], /--base-url: expected an http:\/\/ or https:\/\/ URL/],
      ["another scheme", ["--base-url", "ftp://example.org/v1", "--model", "m"], /--base-url: expected an http:\/\/ or https:\/\/ URL, got 'ftp:'/],
      ["credentials in the URL", ["--base-url", "http://user:secret@127.0.0.1:1/v1", "--model", "m"], /--base-url: .*credentials/],
      ["a query string", ["--base-url", "http://127.0.0.1:1/v1?x=1", "--model", "m"], /--base-url: .*query/],
      ["without --model or --provider", ["--base-url", "http://127.0.0.1:1/v1"], /--base-url without --provider needs --model/],
      ["with the scripted provider", ["--base-url", "http://127.0.0.1:1/v1", "--provider", "scripted"], /--base-url does not apply to the scripted provider/],
    ];
    for (const command of ["agent", "chat", "serve"]) {
      for (const [title, args, message] of BAD) {
        it(`${command}: ${title} is a usage error (exit 2) naming the flag, nothing called`, async () => {
          const r = await cli([command, ...args, ...(command === "agent" ? ["hi"] : [])]);
          expect(r.code, r.stderr).to.equal(2);
          expect(r.stderr).to.match(message);
          expect(r.stderr).to.not.include("secret");
          expect(local.seen).to.have.length(0);
        });
      }
    }
  });

  describe("which model answers: one rule for agent, chat and serve", () => {
    it("agent with no key and no --provider: exit 2 naming the variables and flags it looked for and the offline demo; no call", async () => {
      const r = await cli(["agent", "hello"]);
      expect(r.code, r.stderr).to.equal(2);
      expect(r.stdout).to.equal("");
      for (const s of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "--provider", "--base-url", "openarmature agent --provider scripted"]) expect(r.stderr).to.include(s);
      expect(r.stderr).to.not.include("api.openai.com");
    });

    it("agent --provider scripted without a script: the offline demo, as chat and serve give it", async () => {
      const r = await cli(["agent", "--provider", "scripted", "hello demo"]);
      expect(r.code, r.stderr).to.equal(0);
      expect(r.stdout).to.equal("You said: hello demo\n");
    });

    it("a native provider named without its key: a usage error naming the variable (agent, chat, serve alike)", async () => {
      for (const command of ["agent", "chat", "serve"]) {
        const r = await cli([command, "--provider", "anthropic", ...(command === "agent" ? ["hi"] : [])]);
        expect(r.code, `${command}: ${r.stderr}`).to.equal(2);
        expect(r.stderr).to.include(`openarmature ${command}: --provider anthropic needs ANTHROPIC_API_KEY`);
      }
    });

    it("the same selection for every command: a key picks its provider and that provider's default model", async () => {
      const { chooseProvider } = await import("../../src/cli/model-choice.ts");
      for (const whenNone of ["demo", "refuse"] as const) {
        expect(chooseProvider({}, { ANTHROPIC_API_KEY: "k" }, whenNone).banner).to.equal("anthropic (model claude-3-5-haiku-latest)");
        expect(chooseProvider({ provider: "gemini" }, { GEMINI_API_KEY: "k" }, whenNone).banner).to.equal("gemini (model gemini-2.0-flash)");
      }
      expect(chooseProvider({}, {}, "demo").banner).to.match(/^scripted provider, offline demo/);
      expect(() => chooseProvider({}, {}, "refuse")).to.throw(/no model to call/);
    });

    it("each command's --help states the rule", async () => {
      for (const command of ["agent", "chat", "serve"]) {
        const r = await cli([command, "--help"]);
        expect(r.code).to.equal(0);
        expect(r.stdout).to.include("--base-url URL");
        expect(r.stdout).to.include("OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY");
        expect(r.stdout).to.match(command === "agent" ? /none of these \(no key, no --provider\): exit 2/ : /none of these \(no key, no --provider\): the offline demo/);
      }
    });
  });

  describe("openarmature --help", () => {
    it("prints to stdout, exits 0, the commands users want first (agent, chat, serve), then conform, directives", async () => {
      const r = await cli(["--help"]);
      expect(r.code).to.equal(0);
      expect(r.stderr).to.equal("");
      const at = (s: string) => r.stdout.indexOf(s);
      expect(at("openarmature agent")).to.be.greaterThan(-1);
      expect(at("openarmature agent")).to.be.lessThan(at("openarmature chat"));
      expect(at("openarmature chat")).to.be.lessThan(at("openarmature serve"));
      expect(at("openarmature serve")).to.be.lessThan(at("openarmature conform"));
      expect(at("openarmature conform")).to.be.lessThan(at("openarmature directives"));
      for (const alias of ["-h", "help"]) {
        const a = await cli([alias]);
        expect(a.code).to.equal(0);
        expect(a.stdout).to.equal(r.stdout);
      }
    });

    it("no command or an unknown one: the same overview on stderr, exit 2", async () => {
      const none = await cli([]);
      expect(none.code).to.equal(2);
      expect(none.stdout).to.equal("");
      expect(none.stderr).to.match(/^usage: openarmature <command>/);
      const unknown = await cli(["serf"]);
      expect(unknown.code).to.equal(2);
      expect(unknown.stderr).to.match(/^openarmature: unknown command 'serf'/);
    });
  });
});
