/**
 * Secrets at rest (issue 26 item 4a): a cassette recorded against a server that echoes the API key —
 * in a response header, a JSON body, a streamed body split across chunks, a query parameter — holds
 * the key in none of its forms once saved, with or without `secrets` configured. The server is an
 * injected `fetch` (the network edge); the cassette is the real file on disk.
 */
import { expect } from "chai";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { cassetteFetch, loadCassette, providers, saveCassette, type Cassette } from "../../src/llm/index.ts";
import { Scrubber } from "../../src/llm/secrets.ts";
import { tempDir } from "../support/temp-dir.ts";

const KEY = "sk-live-0123456789abcdefECHO";
const FORMS = [KEY, encodeURIComponent(KEY), JSON.stringify(KEY).slice(1, -1), "0123456789abcdefECHO"];
const dir = tempDir("oa-cassette-secrets-");

/** Saves `c` and returns the file's text. */
function onDisk(name: string, c: Cassette): string {
  const file = join(dir, `${name}.json`);
  saveCassette(file, c);
  return readFileSync(file, "utf8");
}

function expectNoKey(text: string): void {
  for (const f of FORMS) expect(text).to.not.contain(f);
}

/** A chat-completion server that echoes the key it was sent in a header and in its answer. */
function echoingServer(): (url: string, init: RequestInit) => Promise<Response> {
  return async (_url, init) => {
    const sent = new Headers(init.headers).get("authorization")?.replace(/^Bearer /, "") ?? "";
    const body = JSON.stringify({ choices: [{ index: 0, message: { role: "assistant", content: `your key is ${sent}` }, finish_reason: "stop" }] });
    return new Response(body, { status: 200, headers: { "content-type": "application/json", "x-echo-key": sent, "x-debug": `auth=Bearer ${sent}`, "set-cookie": `session=${sent}` } });
  };
}

/** An SSE server that streams the key split across two chunks. */
function streamingServer(): (url: string, init: RequestInit) => Promise<Response> {
  return async () => {
    const chunk = (content: string, finish: string | null): string => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;
    const text = chunk(`key ${KEY}`, null) + chunk(" done", "stop") + "data: [DONE]\n\n";
    const cut = text.indexOf(KEY) + 10; // inside the key
    const parts = [text.slice(0, cut), text.slice(cut)].map((s) => new TextEncoder().encode(s));
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        const next = parts.shift();
        if (next === undefined) c.close();
        else c.enqueue(next);
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream", "x-request-key": KEY } });
  };
}

describe("llm cassettes: no secret at rest", () => {
  for (const configured of [true, false]) {
    const how = configured ? "with `secrets` configured" : "without `secrets` (the key the request carried)";

    it(`record: a key echoed in a response header and body is not on disk, ${how}`, async () => {
      const rec = cassetteFetch(undefined, { mode: "record", fetch: echoingServer(), provenance: "unit test", ...(configured ? { secrets: [KEY] } : {}) });
      const llm = providers.create("openai", { model: "m", apiKey: KEY, fetch: rec });
      const r = await llm.complete([{ role: "user", content: "hi" }]);
      expect(r.message.content).to.equal(`your key is ${KEY}`); // the caller sees the real bytes
      const text = onDisk(`echo-${configured}`, rec.recorded());
      expectNoKey(text);
      const stored = loadCassette(join(dir, `echo-${configured}.json`)).interactions[0]!;
      expect(stored.response.headers["x-echo-key"]).to.equal("[redacted]");
      expect(stored.response.headers["x-debug"]).to.equal("auth=[redacted]"); // the whole header value the request sent
      expect(stored.response.headers["set-cookie"]).to.equal("[redacted]");
      expect(stored.request.headers["authorization"]).to.equal("[redacted]");
      // ...and it plays back.
      const again = await providers.create("openai", { model: "m", fetch: cassetteFetch(rec.recorded()) }).complete([{ role: "user", content: "x" }]);
      expect(again.message.content).to.equal("your key is [redacted]");
    });

    it(`record: a streamed body carrying the key split across two chunks is not on disk, ${how}`, async () => {
      const rec = cassetteFetch(undefined, { mode: "record", fetch: streamingServer(), provenance: "unit test", ...(configured ? { secrets: [KEY] } : {}) });
      const llm = providers.create("openai", { model: "m", apiKey: KEY, fetch: rec });
      let text = "";
      for await (const e of llm.stream([{ role: "user", content: "hi" }])) if (e.type === "text_delta") text += e.delta;
      expect(text).to.equal(`key ${KEY} done`);
      const disk = onDisk(`stream-${configured}`, rec.recorded());
      expectNoKey(disk);
      const stored = rec.recorded().interactions[0]!;
      expect(stored.response.chunks).to.have.length(2); // boundaries outside the secret kept
      let replayed = "";
      for await (const e of providers.create("openai", { model: "m", fetch: cassetteFetch(rec.recorded()) }).stream([{ role: "user", content: "x" }])) {
        if (e.type === "text_delta") replayed += e.delta;
      }
      expect(replayed).to.equal("key [redacted] done");
    });
  }

  it("record: a key in a `key=` query parameter (and echoed percent-encoded) is not on disk", async () => {
    const key = "AIza+key/with=odd&chars0123";
    const rec = cassetteFetch(undefined, {
      mode: "record",
      provenance: "unit test",
      fetch: async (url) => new Response(JSON.stringify({ url, escaped: encodeURIComponent(key) }), { status: 200, headers: { location: url } }),
    });
    const url = `https://generativelanguage.googleapis.com/v1beta/models?pageSize=5&key=${encodeURIComponent(key)}`;
    await (await rec(url, { method: "GET" })).text();
    const disk = onDisk("query", rec.recorded());
    for (const f of [key, encodeURIComponent(key), "with=odd"]) expect(disk).to.not.contain(f);
    expect(rec.recorded().interactions[0]!.request.url).to.equal("https://generativelanguage.googleapis.com/v1beta/models?pageSize=5&key=[redacted]");
    // Playback matches the same URL with the key in it.
    const play = cassetteFetch(rec.recorded(), { strict: true });
    expect((await (await play(url, { method: "GET" })).json()) as object).to.have.property("url");
  });

  it("record: x-api-key and x-goog-api-key credentials are scrubbed from what the server echoes", async () => {
    for (const header of ["x-api-key", "x-goog-api-key"]) {
      const rec = cassetteFetch(undefined, { mode: "record", provenance: "unit test", fetch: async () => new Response(`{"echo":"${KEY}"}`, { status: 401, headers: { "www-authenticate": `key ${KEY}` } }) });
      await (await rec("https://api.example/v1", { method: "POST", headers: { [header]: KEY }, body: "{}" })).text();
      expectNoKey(onDisk(header, rec.recorded()));
    }
  });
});

describe("Scrubber.chunks", () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  const dec = (cs: Uint8Array[]): string[] => cs.map((c) => new TextDecoder().decode(c));
  const s = new Scrubber(["SECRET"]);

  it("replaces a secret inside one chunk, split across two, and spanning three", () => {
    expect(dec(s.chunks([enc("a SECRET b")]))).to.deep.equal(["a [redacted] b"]);
    expect(dec(s.chunks([enc("a SEC"), enc("RET b")]))).to.deep.equal(["a [redacted]", " b"]);
    expect(dec(s.chunks([enc("SE"), enc("CR"), enc("ET!")]))).to.deep.equal(["[redacted]", "", "!"]);
    expect(dec(s.chunks([enc("SECRETSECRET"), enc("x")]))).to.deep.equal(["[redacted]", "x"]);
    expect(dec(s.chunks([enc("nothing"), enc(" here")]))).to.deep.equal(["nothing", " here"]);
  });
});
