/**
 * The web page of a server with a token, in a real headless browser (Debian's `chromium` through
 * `playwright-core`): opening the printed URL `/?token=…` once sets an HttpOnly cookie and lands on
 * the page without the token in its address; the page's own requests (history, a streamed
 * message, Approve) then pass on that cookie — the page's script is unchanged and never sees the
 * token. A browser without the cookie gets 401.
 *
 * The browser: `$OA_CHROMIUM` (or `$CHROMIUM_PATH`), else the standard paths; skipped when none is
 * found, except under `CI=true`.
 */
import { expect } from "chai";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { providerChatGraph } from "../../src/harness/chat/index.ts";
import { startHarnessServer, type HarnessServer } from "../../src/harness/http/server.ts";
import { ScriptedProvider } from "../../src/testing/scripted-provider.ts";
import { tempDir } from "../support/temp-dir.ts";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/snap/bin/chromium"];
const chromiumPath = (): string | undefined => [process.env["OA_CHROMIUM"], process.env["CHROMIUM_PATH"]].find((v) => v !== undefined && v !== "") ?? CANDIDATES.find((p) => existsSync(p));

const dir = tempDir("oa-web-token-");
const TOKEN = "page-token-0123456789-abcdef";
const words = (text: string) => text.split(/(?<= )/).map((w) => ({ type: "text" as const, content: w }));

describe("harness: the web page of a server with a token, in headless Chromium", function () {
  this.timeout(90_000);
  let browser: Browser | undefined;
  let srv: HarnessServer | undefined;

  before(async function () {
    const executablePath = chromiumPath();
    if (executablePath === undefined) {
      if (process.env["CI"] === "true") throw new Error("no Chromium found — under CI=true the browser test must run");
      this.skip();
    }
    const provider = new ScriptedProvider({
      script: {
        mode: "when_only",
        responses: [
          { type: "stream", chunks: words("Hello through the cookie."), when: { prompt_contains: "hello" } },
          { type: "stream", chunks: words("Deleted, as approved."), when: { prompt_contains: "delete" } },
        ],
      },
    });
    srv = await startHarnessServer({ graph: providerChatGraph(provider, { approveWhen: (t) => t.startsWith("delete") }), database: join(dir, "web.db"), token: TOKEN });
    browser = await chromium.launch({ executablePath, headless: true, args: process.getuid?.() === 0 ? ["--no-sandbox"] : [] });
  });
  after(async () => {
    await browser?.close();
    await srv?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the printed URL logs the page in (HttpOnly cookie, token gone from the address); messages, streaming and Approve work", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    const landing = await page.goto(`${srv!.url}/?token=${encodeURIComponent(TOKEN)}`);
    expect(landing!.status()).to.equal(200);
    await page.waitForFunction("new URLSearchParams(location.search).get('session') !== null");
    expect(page.url()).to.not.include(TOKEN);
    expect(page.url()).to.not.include("token=");
    const cookies = await context.cookies();
    expect(cookies).to.have.length(1);
    expect(cookies[0]).to.deep.include({ httpOnly: true, sameSite: "Strict", path: "/" });
    expect(cookies[0]!.value).to.not.include(TOKEN);
    expect(await page.evaluate("document.cookie")).to.equal(""); // the page's script cannot read it
    expect(await page.content()).to.not.include(TOKEN);

    const streamed = page.waitForResponse((r) => r.url().endsWith("/messages") && r.request().method() === "POST");
    await page.fill("#text", "hello there");
    await page.click("#send-button");
    const reply = await streamed;
    expect(reply.status()).to.equal(200);
    expect((await reply.text()).match(/^event: delta$/gm)).to.have.length(4);
    await page.waitForSelector(".msg.assistant >> text=Hello through the cookie.");

    await page.fill("#text", "delete the report");
    await page.click("#send-button");
    await page.waitForSelector('button[data-decision="approve"]');
    const resumed = page.waitForResponse((r) => r.url().endsWith("/chat/signals"));
    await page.click('button[data-decision="approve"]');
    expect((await resumed).status()).to.equal(200);
    await page.waitForSelector(".msg.assistant >> text=Deleted, as approved.");

    await page.reload();
    await page.waitForFunction("document.querySelectorAll('.msg').length === 5");
    await context.close();
  });

  it("a browser without the cookie (or with a wrong token) gets 401, not the page", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    expect((await page.goto(`${srv!.url}/`))!.status()).to.equal(401);
    expect((await page.goto(`${srv!.url}/?token=wrong-token-wrong-token`))!.status()).to.equal(401);
    expect(await context.cookies()).to.deep.equal([]);
    await context.close();
  });
});
