/**
 * The web chat page in a real headless browser: Debian's `chromium` driven by `playwright-core`
 * against the HTTP harness on 127.0.0.1 (a chat graph over the scripted provider, sessions in
 * SQLite). A message is sent from the page, its reply arrives as streamed deltas and is rendered, a
 * turn that needs approval shows Approve / Reject, and clicking Approve resumes the suspended turn
 * from the page; a reload shows the saved history. A message sent while a turn waits for approval
 * is refused by the server and kept in the input box (across a reload too); a reload during the
 * wait shows Approve / Reject again (the server's `pending` list); approving then completes the
 * turn, and the kept message is sent after it — nothing is lost.
 *
 * The browser: `$OA_CHROMIUM` (or `$CHROMIUM_PATH`), else the standard paths. When none is found
 * the test is skipped — except under `CI=true`, where it fails (`.ci/run` installs `chromium`).
 */
import { expect } from "chai";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { providerChatGraph } from "../../src/harness/chat/index.ts";
import { startHarnessServer, type HarnessServer } from "../../src/harness/http/server.ts";
import { ScriptedProvider } from "../../src/testing/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/snap/bin/chromium"];

/** The browser executable, or `undefined` when none is installed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const v of [env["OA_CHROMIUM"], env["CHROMIUM_PATH"]]) if (v !== undefined && v !== "") return v;
  return CANDIDATES.find((p) => existsSync(p));
}

const dir = tempDir("oa-web-page-");
const words = (text: string) => text.split(/(?<= )/).map((w) => ({ type: "text" as const, content: w }));

describe("harness: the web chat page in headless Chromium (playwright-core)", function () {
  this.timeout(90_000);
  let browser: Browser | undefined;
  let srv: HarnessServer | undefined;
  let page: Page;

  before(async function () {
    const executablePath = findChromium();
    if (executablePath === undefined) {
      const why = `no Chromium found (set OA_CHROMIUM, or install Debian's chromium; looked in ${CANDIDATES.join(", ")})`;
      if (process.env["CI"] === "true") throw new Error(`${why} — .ci/run installs it; under CI=true the browser test must run`);
      this.skip();
    }
    const provider = new ScriptedProvider({
      script: {
        mode: "when_only",
        responses: [
          { type: "stream", chunks: words("Hello from the streamed reply."), when: { prompt_contains: "hello" } },
          { type: "stream", chunks: words("Deleted, as approved."), when: { prompt_contains: "delete the report" } },
          { type: "stream", chunks: words("Draft deleted."), when: { prompt_contains: "delete the draft" } },
          { type: "stream", chunks: words("Greetings back."), when: { prompt_contains: "greetings" } },
        ],
      },
    });
    srv = await startHarnessServer({ graph: providerChatGraph(provider, { approveWhen: (t) => t.startsWith("delete") }), database: join(dir, "web.db") });
    browser = await chromium.launch({ executablePath, headless: true, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
    page = await browser.newPage();
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("sends a message from the page and renders the streamed reply", async () => {
    // Count the delta events the page receives for the reply (the stream, not one final blob).
    await page.goto(`${srv!.url}/`);
    await page.waitForFunction("new URLSearchParams(location.search).get('session') !== null");
    const streamed = page.waitForResponse((r) => r.url().endsWith("/messages") && r.request().method() === "POST");
    await page.fill("#text", "hello there");
    await page.click("#send-button");
    const body = await (await streamed).text();
    expect(body.match(/^event: delta$/gm)).to.have.length(5);
    expect(body).to.match(/event: completed\n/);
    await page.waitForSelector(".msg.assistant >> text=Hello from the streamed reply.");
    const log = await page.$$eval(".msg", (els) => els.map((e) => `${e.getAttribute("data-role")}: ${e.textContent}`));
    expect(log).to.deep.equal(["user: hello there", "assistant: Hello from the streamed reply."]);
  });

  it("a turn needing approval shows Approve / Reject; Approve resumes it from the page", async () => {
    await page.fill("#text", "delete the report");
    await page.click("#send-button");
    await page.waitForSelector('button[data-decision="approve"]');
    expect(await page.$$eval(".msg", (els) => els.map((e) => e.textContent))).to.deep.equal([
      "hello there",
      "Hello from the streamed reply.",
      "delete the report",
      'Approve "delete the report"? (approve / reject)',
    ]);
    const resumed = page.waitForResponse((r) => r.url().endsWith("/chat/signals"));
    await page.click('button[data-decision="approve"]');
    expect((await resumed).status()).to.equal(200);
    await page.waitForSelector(".msg.assistant >> text=Deleted, as approved.");
    expect(await page.$$('button[data-decision="approve"]')).to.have.length(0);
  });

  it("a reload shows the saved conversation (GET /chat/<session>/messages)", async () => {
    await page.reload();
    await page.waitForFunction("document.querySelectorAll('.msg').length === 5");
    expect(await page.$$eval(".msg", (els) => els.map((e) => e.textContent))).to.deep.equal([
      "hello there",
      "Hello from the streamed reply.",
      "delete the report",
      'Approve "delete the report"? (approve / reject)',
      "Deleted, as approved.",
    ]);
  });

  it("a message sent during the wait is refused and kept; after a reload the buttons are back, Approve completes the turn, the kept message follows", async () => {
    const texts = () => page.$$eval(".msg", (els) => els.map((e) => `${e.getAttribute("data-role")}: ${e.textContent}`));
    await page.goto(`${srv!.url}/`); // a new session
    await page.waitForFunction("new URLSearchParams(location.search).get('session') !== null");
    const session = new URL(page.url()).searchParams.get("session")!;
    await page.fill("#text", "delete the draft");
    await page.click("#send-button");
    await page.waitForSelector('button[data-decision="approve"]');

    // Sent while the turn waits: the server refuses it (never runs it), the page says so and keeps the text.
    const refused = page.waitForResponse((r) => r.url().endsWith("/messages") && r.request().method() === "POST");
    await page.fill("#text", "greetings");
    await page.click("#send-button");
    expect(await (await refused).text()).to.match(/event: errored\n/).and.match(/chat_turn_pending/);
    await page.waitForSelector(".msg.system");
    expect(await page.textContent(".msg.system")).to.match(/waiting for a signal/);
    expect(await page.inputValue("#text")).to.equal("greetings");
    const server = (await (await fetch(`${srv!.url}/chat/${session}/messages`)).json()) as { messages: { content: string }[]; pending: { invocation_id: string; signal_descriptor: { metadata: { kind: string } } }[] };
    expect(server.messages.map((m) => m.content)).to.deep.equal(["delete the draft", 'Approve "delete the draft"? (approve / reject)']);
    expect(server.pending).to.have.length(1);
    expect(server.pending[0]!.signal_descriptor.metadata.kind).to.equal("approval");

    // A reload rebuilds the pending approval from the server, and keeps the unsent text.
    await page.reload();
    await page.waitForSelector('button[data-decision="approve"]');
    expect(await page.$$('button[data-decision="reject"]')).to.have.length(1);
    expect(await texts()).to.deep.equal(["user: delete the draft", 'assistant: Approve "delete the draft"? (approve / reject)']);
    expect(await page.inputValue("#text")).to.equal("greetings");

    const resumed = page.waitForResponse((r) => r.url().endsWith("/chat/signals"));
    await page.click('button[data-decision="approve"]');
    expect((await resumed).status()).to.equal(200);
    await page.waitForSelector(".msg.assistant >> text=Draft deleted.");
    expect(await page.$$(".approval button")).to.have.length(0);

    // The kept message goes now, and the conversation holds everything, in order.
    await page.click("#send-button");
    await page.waitForSelector(".msg.assistant >> text=Greetings back.");
    expect(await page.inputValue("#text")).to.equal("");
    await page.reload();
    await page.waitForFunction("document.querySelectorAll('.msg').length === 5");
    expect(await texts()).to.deep.equal([
      "user: delete the draft",
      'assistant: Approve "delete the draft"? (approve / reject)',
      "assistant: Draft deleted.",
      "user: greetings",
      "assistant: Greetings back.",
    ]);
    expect(await page.$$(".approval button")).to.have.length(0);
    expect(await page.inputValue("#text")).to.equal("");
  });
});

