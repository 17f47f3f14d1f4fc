/**
 * Secrets in errors (issue 26 item 4b): a provider error keeps a redacted, truncated excerpt of the
 * body and no credential anywhere — not in its message, stack, body, nor along its cause chain — so
 * `util.inspect(err)` and `JSON.stringify(err)` show no key, even one the server echoed back. The
 * server is an injected `fetch` (the network edge).
 */
import { expect } from "chai";
import { inspect } from "node:util";
import { LlmProviderError, providers, type Provider } from "../../src/llm/index.ts";
import { BODY_EXCERPT_CHARS } from "../../src/llm/errors.ts";
import { vendorErrorType } from "../../src/llm/wire-errors.ts";
import { embeddingProviders } from "../../src/retrieval/index.ts";
import { fakeFetch, type Reply } from "./fake-fetch.ts";

const KEY = "sk-live-SECRET-0123456789abcdef";

async function failure(p: Promise<unknown> | AsyncIterable<unknown>): Promise<LlmProviderError> {
  try {
    if (Symbol.asyncIterator in p) for await (const _ of p as AsyncIterable<unknown>) void _;
    else await p;
  } catch (e) {
    expect(e).to.be.instanceOf(LlmProviderError);
    return e as LlmProviderError;
  }
  throw new Error("expected a failure");
}

/** Every way the error could be printed or logged. */
function renderings(e: Error): string[] {
  return [inspect(e, { depth: Infinity, showHidden: true }), inspect(e), JSON.stringify(e), String(e), e.stack ?? "", JSON.stringify(Object.entries(e))];
}

function expectNoKey(e: LlmProviderError, secret = KEY): void {
  for (const r of renderings(e)) expect(r).to.not.contain(secret);
  for (const part of secret.split("-").filter((p) => p.length >= 8)) for (const r of renderings(e)) expect(r).to.not.contain(part);
}

const MESSAGES = [{ role: "user" as const, content: "hi" }];
const BIG = "x".repeat(100_000);

/** Per native mapping: a body that is JSON but not the §6 shape, echoing the key. */
const NOT_THE_SHAPE: Record<string, unknown> = {
  openai: { echo: KEY, padding: BIG },
  anthropic: { type: "message", content: "not a list", echo: KEY, padding: BIG },
  gemini: { echo: KEY, padding: BIG },
};

describe("llm errors: no secret, no whole body", () => {
  for (const name of ["openai", "anthropic", "gemini"]) {
    const make = (replies: Reply[]): Provider => providers.create(name, { model: "m", apiKey: KEY, fetch: fakeFetch(replies).fetch });
    const complete = (p: Provider): Promise<unknown> => p.complete(MESSAGES, { config: { max_tokens: 16 } });

    it(`${name}: provider_invalid_response for a malformed body keeps a ≤ ${BODY_EXCERPT_CHARS}-char excerpt and no key`, async () => {
      const e = await failure(complete(make([{ status: 200, json: NOT_THE_SHAPE[name] }])));
      expect(e.category).to.equal("provider_invalid_response");
      expect(e.body).to.be.a("string");
      expect(e.body!.length).to.be.at.most(BODY_EXCERPT_CHARS);
      expectNoKey(e);
    });

    it(`${name}: a body that is not JSON (its cause: the parser's error) shows no key`, async () => {
      const e = await failure(complete(make([{ status: 200, text: `${KEY} is not json ${BIG}` }])));
      expect(e.category).to.equal("provider_invalid_response");
      expect(e.cause).to.be.instanceOf(SyntaxError);
      expect(e.body!.length).to.be.at.most(BODY_EXCERPT_CHARS);
      expectNoKey(e);
    });

    it(`${name}: an HTTP 401 echoing the key, and a streamed event that is not JSON, show no key`, async () => {
      const auth = await failure(complete(make([{ status: 401, json: { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error", code: "invalid_api_key" } } }])));
      expect(auth.category).to.equal("provider_authentication");
      expectNoKey(auth);
      const sse = async (): Promise<Response> => new Response(`data: {"broken ${KEY}\n\n`, { status: 200, headers: { "content-type": "text/event-stream" } });
      const streaming = providers.create(name, { model: "m", apiKey: KEY, fetch: sse, capabilities: { streaming: true } });
      const e = await failure(streaming.stream(MESSAGES, { config: { max_tokens: 16 } }));
      expect(e.category).to.equal("provider_invalid_response");
      expectNoKey(e);
    });
  }

  it("a credential given as a configured authorization header is redacted too", async () => {
    const token = "tok-proxy-9876543210fedcba";
    const p = providers.create("vllm", { model: "m", headers: { authorization: `Bearer ${token}` }, fetch: fakeFetch([{ status: 200, json: { echo: token } }]).fetch });
    const e = await failure(p.complete(MESSAGES));
    expect(e.category).to.equal("provider_invalid_response");
    expectNoKey(e, token);
  });

  it("the vendor error type survives a body longer than the excerpt (graph-engine §6 error_type)", async () => {
    const p = providers.create("openai", { model: "m", apiKey: KEY, fetch: fakeFetch([{ status: 400, json: { error: { message: "bad", type: "invalid_request_error", details: [{ padding: BIG }] } } }]).fetch });
    const e = await failure(p.complete(MESSAGES));
    expect(e.body!.length).to.be.at.most(BODY_EXCERPT_CHARS);
    expect(vendorErrorType(e)).to.equal("invalid_request_error");
  });

  it("retrieval: an embedding response of the wrong shape shows no key", async () => {
    const p = embeddingProviders.create("openai", { model: "m", apiKey: KEY, fetch: fakeFetch([{ status: 200, json: { data: "nope", echo: KEY } }]).fetch });
    const e = await failure(p.embed(["a"]));
    expect(e.category).to.equal("provider_invalid_response");
    expectNoKey(e);
    const notJson = embeddingProviders.create("openai", { model: "m", apiKey: KEY, fetch: fakeFetch([{ status: 200, text: `oops ${KEY}` }]).fetch });
    expectNoKey(await failure(notJson.embed(["a"])));
  });
});
