/**
 * The HTTP runtime's own time and connection bounds, over real sockets (`net.connect`) and small
 * option values: a body or headers trickled in are cut off within their bound, an idle kept-alive
 * connection is closed, connections past `maxConnections` are refused — and an event stream is
 * exempt from the request timeouts, kept alive by its heartbeat.
 */
import { expect } from "chai";
import { connect, type Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { defineState, END, GraphBuilder } from "../../src/graph/index.ts";
import { InMemorySessionStore, withSessions } from "../../src/sessions/index.ts";
import { ChatHarness, messagesField } from "../../src/harness/chat/index.ts";
import { startHarnessServer, type HarnessServer, type HarnessServerOptions } from "../../src/harness/http/server.ts";
import { HarnessServerError } from "../../src/harness/http/errors.ts";

function chat(): ChatHarness {
  const Chat = defineState({ messages: messagesField() });
  const echo = new GraphBuilder(Chat).addNode("echo", async () => ({ messages: [{ role: "assistant", content: "ok" }] })).addEdge("echo", END).setEntry("echo").compile();
  return new ChatHarness({ graph: withSessions(echo, { store: new InMemorySessionStore(), projection: "full" }) });
}

/** A socket to the server, recording what it receives and when the server closes it. */
interface Probe {
  readonly socket: Socket;
  received(): string;
  /** Ms from connect until the server closed the connection, or `undefined` while open. */
  closedAfter(): number | undefined;
  closed: Promise<void>;
}
const sockets = new Set<Socket>();
async function open(srv: HarnessServer): Promise<Probe> {
  const { port } = new URL(srv.url);
  const socket = connect(Number(port), "127.0.0.1");
  sockets.add(socket);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const t0 = Date.now();
  let data = "";
  let closedAt: number | undefined;
  socket.setEncoding("utf8");
  socket.on("data", (d: string) => (data += d));
  socket.on("error", () => {});
  const closed = new Promise<void>((resolve) =>
    socket.once("close", () => {
      closedAt = Date.now();
      resolve();
    }),
  );
  return { socket, received: () => data, closedAfter: () => (closedAt === undefined ? undefined : closedAt - t0), closed };
}
/** Resolves when `p` closed, or after `ms` (whichever first). */
const closedWithin = (p: Probe, ms: number) => Promise.race([p.closed, delay(ms)]);

describe("harness: HTTP runtime bounds (real sockets, small limits)", function () {
  this.timeout(20_000);
  let srv: HarnessServer | undefined;
  const start = async (o: Partial<HarnessServerOptions> = {}) => (srv = await startHarnessServer({ chat: chat(), ...o }));
  afterEach(async () => {
    for (const s of sockets) s.destroy();
    sockets.clear();
    await srv?.close();
    srv = undefined;
  });

  it("a body sent a byte at a time is cut off at bodyTimeoutMs: 408 request_timeout, connection closed", async () => {
    await start({ bodyTimeoutMs: 400, headersTimeoutMs: 400 });
    const p = await open(srv!);
    p.socket.write(`POST /chat/slow/messages HTTP/1.1\r\nHost: ${new URL(srv!.url).host}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n`);
    const drip = setInterval(() => !p.socket.destroyed && p.socket.write(" "), 100);
    await closedWithin(p, 5000);
    clearInterval(drip);
    expect(p.closedAfter(), "the server should have closed the connection").to.be.a("number");
    expect(p.closedAfter()!).to.be.below(3000);
    expect(p.received()).to.match(/^HTTP\/1\.1 408 /);
    expect(p.received()).to.include('"category":"request_timeout"');
  });

  it("headers sent a line at a time are cut off at headersTimeoutMs", async () => {
    await start({ headersTimeoutMs: 300, bodyTimeoutMs: 300 });
    const p = await open(srv!);
    p.socket.write(`GET /chat/slow/messages HTTP/1.1\r\nHost: ${new URL(srv!.url).host}\r\n`);
    const drip = setInterval(() => !p.socket.destroyed && p.socket.write("X-Slow: 1\r\n"), 100);
    await closedWithin(p, 5000);
    clearInterval(drip);
    expect(p.closedAfter(), "the server should have closed the connection").to.be.a("number");
    expect(p.closedAfter()!).to.be.below(3000);
  });

  it("an idle kept-alive connection is closed after idleTimeoutMs", async () => {
    await start({ idleTimeoutMs: 200 });
    const p = await open(srv!);
    p.socket.write(`GET /chat/idle/messages HTTP/1.1\r\nHost: ${new URL(srv!.url).host}\r\n\r\n`);
    await closedWithin(p, 2000);
    expect(p.received()).to.match(/^HTTP\/1\.1 200 /);
    expect(p.closedAfter(), "the server should have closed the idle connection").to.be.a("number");
  });

  it("connections past maxConnections are closed unanswered; a freed slot serves again", async () => {
    await start({ maxConnections: 2 });
    const host = new URL(srv!.url).host;
    const a = await open(srv!);
    const b = await open(srv!);
    const c = await open(srv!);
    c.socket.write(`GET /chat/x/messages HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await closedWithin(c, 2000);
    expect(c.closedAfter(), "the third connection should be refused").to.be.a("number");
    expect(c.received()).to.equal("");
    a.socket.write(`GET /chat/x/messages HTTP/1.1\r\nHost: ${host}\r\n\r\n`);
    await delay(200);
    expect(a.received()).to.match(/^HTTP\/1\.1 200 /);
    b.socket.destroy();
    await b.closed;
    await delay(50);
    const d = await open(srv!);
    d.socket.write(`GET /chat/x/messages HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
    await closedWithin(d, 2000);
    expect(d.received()).to.match(/^HTTP\/1\.1 200 /);
    a.socket.destroy();
  });

  it("an event stream outlives the request timeouts and carries a heartbeat every heartbeatMs", async () => {
    await start({ headersTimeoutMs: 200, bodyTimeoutMs: 200, idleTimeoutMs: 200, heartbeatMs: 100 });
    const p = await open(srv!);
    p.socket.write(`GET /chat/live/events HTTP/1.1\r\nHost: ${new URL(srv!.url).host}\r\n\r\n`);
    await delay(1500);
    expect(p.closedAfter(), "the event stream should stay open").to.equal(undefined);
    expect(p.received()).to.match(/^HTTP\/1\.1 200 /);
    expect((p.received().match(/^: ping$/gm) ?? []).length).to.be.at.least(5);
    p.socket.destroy();
  });

  it("a limit that is not a positive integer is harness_server_option_invalid", async () => {
    for (const bad of [{ bodyTimeoutMs: 0 }, { maxConnections: -1 }, { headersTimeoutMs: 1.5 }, { heartbeatMs: Number.NaN }]) {
      const e = await startHarnessServer({ chat: chat(), ...bad }).then(
        (s) => s.close().then(() => undefined),
        (err: unknown) => err,
      );
      expect(e, JSON.stringify(bad)).to.be.instanceOf(HarnessServerError);
      expect((e as HarnessServerError).category).to.equal("harness_server_option_invalid");
    }
  });
});
