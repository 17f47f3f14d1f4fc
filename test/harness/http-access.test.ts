/**
 * Who may talk to the HTTP runtime (real node:http sockets on 127.0.0.1): the token every route
 * checks (Bearer header, or the page cookie `GET /?token=` sets), the refusal to listen on a
 * non-loopback address without one, the Host allow-list (DNS rebinding) and the Origin check
 * (other origins in the user's browser).
 */
import { expect } from "chai";
import { request } from "node:http";
import { connect } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { defineState, END, field, GraphBuilder } from "../../src/graph/index.ts";
import { InMemorySessionStore, withSessions } from "../../src/sessions/index.ts";
import { TurnHarness } from "../../src/harness/index.ts";
import { ChatHarness, messagesField } from "../../src/harness/chat/index.ts";
import { startHarnessServer, type HarnessServer, type HarnessServerOptions } from "../../src/harness/http/server.ts";
import { HarnessServerError } from "../../src/harness/http/errors.ts";

const TOKEN = "s3cret-token-for-tests-0123456789";

function harnesses(): Pick<HarnessServerOptions, "harness" | "chat"> {
  const Counter = defineState({ count: field.int().default(0) });
  const counter = new GraphBuilder(Counter).addNode("inc", async (s) => ({ count: s.count + 1 })).addEdge("inc", END).setEntry("inc").compile();
  const Chat = defineState({ messages: messagesField() });
  const echo = new GraphBuilder(Chat)
    .addNode("echo", async (s) => ({ messages: [{ role: "assistant", content: `echo ${String((s.messages.at(-1) as { content: unknown }).content)}` }] }))
    .addEdge("echo", END)
    .setEntry("echo")
    .compile();
  return {
    harness: new TurnHarness({ mode: "sessioned", graph: withSessions(counter, { store: new InMemorySessionStore(), projection: "full" }) }),
    chat: new ChatHarness({ graph: withSessions(echo, { store: new InMemorySessionStore(), projection: "full" }) }),
  };
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}
/** One request on a real socket, with any headers (fetch cannot set Host). */
function raw(srv: HarnessServer, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Raw> {
  const { port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: "127.0.0.1", port, method, path, headers: { connection: "close", ...headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}
const category = (r: Raw): string => (JSON.parse(r.body) as { error: { category: string } }).error.category;
const message = { role: "user", content: "hi" };
const JSON_TYPE = { "content-type": "application/json" };

describe("harness: HTTP runtime access (token, Host allow-list, Origin check)", function () {
  this.timeout(20_000);
  let srv: HarnessServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  describe("with a token", () => {
    beforeEach(async () => {
      srv = await startHarnessServer({ ...harnesses(), token: TOKEN });
    });

    const ROUTES: ReadonlyArray<[string, string, unknown?]> = [
      ["GET", "/"],
      ["POST", "/turns", {}],
      ["POST", "/signals", { invocation_id: "x" }],
      ["GET", "/chat/any-session/messages"],
      ["POST", "/chat/any-session/messages", message],
      ["POST", "/chat/signals", { invocation_id: "some-invocation" }],
      ["GET", "/chat/any-session/events"],
      ["GET", "/no-such-route"],
      ["DELETE", "/turns"],
    ];

    it("every route answers 401 request_unauthenticated (with WWW-Authenticate) without the token or with a wrong one", async () => {
      for (const [method, path, body] of ROUTES) {
        for (const auth of [{}, { authorization: "Bearer wrong-token-wrong-token" }, { authorization: `Basic ${Buffer.from(`u:${TOKEN}`).toString("base64")}` }, { cookie: "openarmature_auth_1=forged" }] as Record<string, string>[]) {
          const r = await raw(srv!, method, path, { ...JSON_TYPE, ...auth }, body === undefined ? undefined : JSON.stringify(body));
          expect(r.status, `${method} ${path} ${JSON.stringify(auth)}`).to.equal(401);
          expect(r.headers["www-authenticate"]).to.equal('Bearer realm="openarmature"');
          expect(category(r)).to.equal("request_unauthenticated");
          expect(r.body).to.not.include(TOKEN);
        }
      }
    });

    it("a refused request's body is not read: 401 at once and the connection closed", async () => {
      const socket = connect(Number(new URL(srv!.url).port), "127.0.0.1");
      let got = "";
      socket.setEncoding("utf8").on("data", (d: string) => (got += d));
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.write(`POST /chat/big/messages HTTP/1.1\r\nHost: ${new URL(srv!.url).host}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"role":`);
      await Promise.race([closed, delay(3000)]);
      socket.destroy();
      expect(got).to.match(/^HTTP\/1\.1 401 /);
      expect(got.toLowerCase()).to.include("connection: close");
    });

    it("the Bearer token opens every route (scheme case-insensitive)", async () => {
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await raw(srv!, "GET", "/", auth)).status).to.equal(200);
      const turn = await raw(srv!, "POST", "/turns", { ...JSON_TYPE, authorization: `bearer ${TOKEN}` }, "{}");
      expect(turn.status).to.equal(200);
      const sent = await raw(srv!, "POST", "/chat/c1/messages", { ...JSON_TYPE, ...auth }, JSON.stringify(message));
      expect(JSON.parse(sent.body).replies).to.deep.equal([{ role: "assistant", content: "echo hi" }]);
      const history = await raw(srv!, "GET", "/chat/c1/messages", auth);
      expect(JSON.parse(history.body).messages).to.have.length(2);
      expect((await raw(srv!, "GET", "/no-such-route", auth)).status).to.equal(404);
    });

    it("GET /?token= sets an HttpOnly SameSite=Strict cookie and redirects (303) to the URL without the token; the cookie then authenticates", async () => {
      const { port } = new URL(srv!.url);
      const wrong = await raw(srv!, "GET", "/?token=not-the-token-at-all");
      expect(wrong.status).to.equal(401);
      expect(wrong.headers["set-cookie"]).to.equal(undefined);

      const r = await raw(srv!, "GET", `/?session=abc&token=${encodeURIComponent(TOKEN)}`);
      expect(r.status).to.equal(303);
      expect(r.headers["location"]).to.equal("/?session=abc");
      const setCookie = (r.headers["set-cookie"] as string[])[0]!;
      expect(setCookie).to.match(new RegExp(`^openarmature_auth_${port}=[A-Za-z0-9_-]+; HttpOnly; SameSite=Strict; Path=/$`));
      expect(setCookie).to.not.include(TOKEN);
      const cookie = setCookie.split(";")[0]!;

      const page = await raw(srv!, "GET", "/?session=abc", { cookie: `other=1; ${cookie}` });
      expect(page.status).to.equal(200);
      expect(page.body).to.include("<title>openarmature chat</title>");
      expect(page.body).to.not.include(TOKEN); // the token is never in the page
      expect(page.headers["content-security-policy"]).to.equal("frame-ancestors 'none'");
      const sent = await raw(srv!, "POST", "/chat/c2/messages", { ...JSON_TYPE, cookie, origin: srv!.url }, JSON.stringify(message));
      expect(sent.status).to.equal(200);
      // The cookie of another server (another port) is not this one's.
      expect((await raw(srv!, "GET", "/chat/c2/messages", { cookie: cookie.replace(`_${port}=`, `_${Number(port) + 1}=`) })).status).to.equal(401);
    });
  });

  it("refuses to listen on a non-loopback address without a token (harness_server_token_required); binds with one", async () => {
    for (const host of ["0.0.0.0", "::"]) {
      const e = await startHarnessServer(harnesses(), 0, host).then(
        (s) => s.close().then(() => undefined),
        (err: unknown) => err,
      );
      expect(e, host).to.be.instanceOf(HarnessServerError);
      expect((e as HarnessServerError).category).to.equal("harness_server_token_required");
      expect((e as Error).message).to.include(host);
    }
    srv = await startHarnessServer({ ...harnesses(), token: TOKEN }, 0, "0.0.0.0");
    const { port } = new URL(srv.url);
    expect((await fetch(`http://127.0.0.1:${port}/chat/a/messages`)).status).to.equal(401);
    expect((await fetch(`http://127.0.0.1:${port}/chat/a/messages`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).to.equal(200);
  });

  it("a token that is short or not visible ASCII is harness_server_option_invalid (the server does not start)", async () => {
    for (const token of ["short", "has a space in it 0123456789", ""]) {
      const e = await startHarnessServer({ ...harnesses(), token }).then(
        (s) => s.close().then(() => undefined),
        (err: unknown) => err,
      );
      expect((e as HarnessServerError).category, JSON.stringify(token)).to.equal("harness_server_option_invalid");
      if (token !== "") expect((e as Error).message).to.not.include(token); // the refusal never echoes the secret
    }
  });

  describe("Host allow-list and Origin check (loopback without a token too)", () => {
    it("a Host that is not the server's is 403 request_forbidden; the loopback names with the port pass", async () => {
      srv = await startHarnessServer(harnesses());
      const { port } = new URL(srv.url);
      for (const host of ["evil.example", `evil.example:${port}`, "localhost:1", `127.0.0.2:${port}`, `localhost.evil.example:${port}`]) {
        const r = await raw(srv, "GET", "/chat/a/messages", { host });
        expect(r.status, host).to.equal(403);
        expect(category(r)).to.equal("request_forbidden");
      }
      // A POST from a rebinding page never reaches a turn.
      const post = await raw(srv, "POST", "/chat/a/messages", { ...JSON_TYPE, host: "evil.example" }, JSON.stringify(message));
      expect(post.status).to.equal(403);
      for (const host of [`localhost:${port}`, `LOCALHOST:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`]) expect((await raw(srv, "GET", "/chat/a/messages", { host })).status, host).to.equal(200);
      expect(JSON.parse((await raw(srv, "GET", "/chat/a/messages", { host: `localhost:${port}` })).body).messages).to.deep.equal([]);
    });

    it("allowedHosts adds names (any port, or name:port); a malformed entry is harness_server_option_invalid", async () => {
      srv = await startHarnessServer({ ...harnesses(), allowedHosts: ["chat.example.com", "Other.Example:9000"] });
      expect((await raw(srv, "GET", "/chat/a/messages", { host: "chat.example.com" })).status).to.equal(200);
      expect((await raw(srv, "GET", "/chat/a/messages", { host: "chat.example.com:443" })).status).to.equal(200);
      expect((await raw(srv, "GET", "/chat/a/messages", { host: "other.example:9000" })).status).to.equal(200);
      expect((await raw(srv, "GET", "/chat/a/messages", { host: "other.example:9001" })).status).to.equal(403);
      const e = await startHarnessServer({ ...harnesses(), allowedHosts: ["bad host:x"] }).catch((err: unknown) => err);
      expect((e as HarnessServerError).category).to.equal("harness_server_option_invalid");
    });

    it("a request from another origin is 403 request_forbidden; the server's own origin and allowedOrigins pass", async () => {
      srv = await startHarnessServer({ ...harnesses(), allowedOrigins: ["https://app.example.com"] });
      const { port } = new URL(srv.url);
      const send = (origin: string, host = `127.0.0.1:${port}`) => raw(srv!, "POST", "/chat/o/messages", { ...JSON_TYPE, host, origin }, JSON.stringify(message));
      for (const origin of ["http://evil.example", `http://localhost:${Number(port) + 1}`, "null", "https://app.example.com:8443", "file://", "not a url"]) {
        const r = await send(origin);
        expect(r.status, origin).to.equal(403);
        expect(category(r)).to.equal("request_forbidden");
      }
      // Reading another origin's way is refused too (an EventSource or fetch from another page carries Origin).
      expect((await raw(srv, "GET", "/chat/o/messages", { origin: "http://evil.example" })).status).to.equal(403);
      expect((await raw(srv, "GET", "/chat/o/events", { origin: "http://evil.example" })).status).to.equal(403);
      expect((await send(`http://127.0.0.1:${port}`)).status).to.equal(200);
      expect((await send(`http://localhost:${port}`, `localhost:${port}`)).status).to.equal(200);
      expect((await send("https://app.example.com")).status).to.equal(200);
      const history = JSON.parse((await raw(srv, "GET", "/chat/o/messages")).body) as { messages: unknown[] };
      expect(history.messages).to.have.length(6); // only the three allowed sends ran a turn
    });
  });
});
