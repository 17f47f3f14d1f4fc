/** The scripted provider (ADR-0052 D4, D5): script model, matching, the real request / response paths, records. */
import { expect } from "chai";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { providers, LlmProviderError, type Message, type StreamEvent, type Tool } from "../../src/llm/index.ts";
import {
  Script,
  ScriptExhaustedError,
  ScriptInvalidError,
  ScriptedProvider,
  attachScript,
  calls,
  providerFromJson,
  providerFromText,
  providerFromYaml,
  scriptBuilder,
  scripted,
  scriptedConfig,
  scriptedClient,
  type ResponseEntry,
} from "../../src/testing/index.ts";
import { tempDir } from "../support/temp-dir.ts";

const user = (content: string): Message[] => [{ role: "user", content }];
const weather: Tool = { name: "get_weather", description: "weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
async function rejects(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a rejection");
}
const text = async (p: ScriptedProvider, prompt: string): Promise<string> => (await p.complete(user(prompt))).message.content as string;
async function collect(it: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const e of it) out.push(e);
  return out;
}

describe("testing: the Script model (D4)", () => {
  it("builds from a mapping, a list, a Script (deep copy), a YAML path and a JSON path", () => {
    const dir = tempDir("oa-script-");
    writeFileSync(join(dir, "s.yaml"), "mode: positional\nresponses:\n  - type: text\n    content: hi\n");
    writeFileSync(join(dir, "s.json"), JSON.stringify([{ type: "text", content: "j" }]));
    expect(Script.coerce({ responses: [{ type: "text", content: "a" }] }).mode).to.equal("auto");
    expect(Script.coerce([{ type: "text", content: "a" }]).responses).to.have.length(1);
    const yaml = Script.coerce(join(dir, "s.yaml"));
    expect([yaml.mode, yaml.version, (yaml.responses[0] as { content: string }).content]).to.deep.equal(["positional", 1, "hi"]);
    expect(Script.fromJson(join(dir, "s.json")).responses).to.deep.equal([{ type: "text", content: "j" }]);
    const data = { responses: [{ type: "text" as const, content: "x" }] };
    const s = new Script(data);
    data.responses[0]!.content = "mutated";
    expect((s.responses[0] as { content: string }).content).to.equal("x");
    expect(() => Script.coerce(42 as never)).to.throw(TypeError);
    expect(() => Script.coerce(join(dir, "missing.yaml"))).to.throw(ScriptInvalidError, /does not exist/);
  });
  it("rejects unknown discriminators, non-mapping entries and extra fields, naming the entry", () => {
    expect(() => new Script({ responses: [{ type: "text", content: "a" }, { type: "txt" } as never] })).to.throw(ScriptInvalidError, /responses\[1\]\.type: unknown response type "txt"/);
    expect(() => Script.coerce(["hello" as never])).to.throw(TypeError, /responses\[0\]: a response entry must be a mapping/);
    expect(() => Script.coerce([{ type: "text", content: "a", colour: 1 } as never])).to.throw(ScriptInvalidError, /responses\[0\]: unknown field 'colour'/);
    expect(() => Script.coerce({ responses: [], extra: 1 } as never)).to.throw(ScriptInvalidError, /script: unknown field 'extra'/);
    expect(() => Script.coerce({ mode: "random" } as never)).to.throw(ScriptInvalidError, /script\.mode/);
    expect(() => Script.coerce([{ type: "text", content: "a", when: { prompt_has: "x" } } as never])).to.throw(ScriptInvalidError, /responses\[0\]\.when: unknown field 'prompt_has'/);
    expect(() => Script.coerce([{ type: "error", kind: "oops" } as never])).to.throw(ScriptInvalidError, /responses\[0\]\.kind/);
    expect(() => Script.coerce([{ type: "stream", chunks: [{ type: "video" }] } as never])).to.throw(ScriptInvalidError, /responses\[0\]\.chunks\[0\]\.type/);
    expect(() => Script.coerce([{ type: "text", content: "a", when: { prompt_regex: "(" } }])).to.throw(ScriptInvalidError, /prompt_regex: invalid regex/);
  });
  it("never serializes the cursor; reset() clears cursor and served state", () => {
    const s = Script.coerce([{ type: "text", content: "a", when: { prompt_contains: "x" } }, { type: "text", content: "b" }]);
    const req = { lastUserMessage: "x", toolNames: [] };
    expect(s.next(req, 0).reason).to.equal('when[0]: prompt_contains="x"');
    expect(s.next(req, 1).reason).to.equal("positional[1]");
    expect(JSON.stringify(s)).to.equal(JSON.stringify({ version: 1, mode: "auto", responses: s.responses }));
    expect(() => s.next(req, 2)).to.throw(ScriptExhaustedError);
    s.reset();
    expect(s.next(req, 0).reason).to.equal('when[0]: prompt_contains="x"');
  });
});

describe("testing: matching and modes (D4)", () => {
  const req = (lastUserMessage: string | null, toolNames: string[] = []) => ({ lastUserMessage, toolNames });
  it("auto: conditional entries first (each at most once), positional fallback skips them", () => {
    const s = Script.coerce([
      { type: "text", content: "A" },
      { type: "text", content: "W", when: { prompt_contains: "WEATHER" } },
      { type: "text", content: "B" },
    ]);
    const served = ["what weather?", "weather again", "hi"].map((m, i) => (s.next(req(m), i).entry as { content: string }).content);
    expect(served).to.deep.equal(["W", "A", "B"]);
  });
  it("positional: conditions disabled, conditional entries skipped", () => {
    const s = Script.coerce({ mode: "positional", responses: [{ type: "text", content: "W", when: { prompt_contains: "w" } }, { type: "text", content: "A" }] });
    expect((s.next(req("w"), 0).entry as { content: string }).content).to.equal("A");
    expect(() => s.next(req("w"), 1)).to.throw(ScriptExhaustedError, /call #1: the script is exhausted \(1 positional response available, all served; positional mode\); last user message: "w"/);
  });
  it("when_only: no match raises naming the call index, the unmatched condition and the last user message", () => {
    const s = Script.coerce({ mode: "when_only", responses: [{ type: "text", content: "W", when: { prompt_contains: "weather" } }, { type: "text", content: "never" }] });
    const e = (() => {
      try {
        s.next(req("hello there"), 3);
      } catch (err) {
        return err as ScriptExhaustedError;
      }
      throw new Error("no throw");
    })();
    expect(e.message).to.match(/call #3: no unserved 'when' entry matched \(when_only script: 1 conditional entries, 1 unserved\); last user message: "hello there"/);
    expect([e.callIndex, e.lastUserMessage, e.category]).to.deep.equal([3, "hello there", "script_exhausted"]);
  });
  it("predicates: contains is case-insensitive, regex searches (capped at 4,096 chars), has_tool exact, gates on call index", () => {
    const one = (when: object, r: ReturnType<typeof req>, i = 0) => Script.coerce({ mode: "when_only", responses: [{ type: "text", content: "x", when }] }).next(r, i).reason;
    const fails = (when: object, r: ReturnType<typeof req>, i = 0) => expect(() => one(when, r, i)).to.throw(ScriptExhaustedError);
    expect(one({ prompt_contains: "PaRiS" }, req("to paris"))).to.match(/prompt_contains/);
    expect(one({ prompt_regex: "b+c" }, req("abbbcd"))).to.match(/prompt_regex/);
    fails({ prompt_regex: "^b" }, req("abc"));
    fails({ prompt_regex: "needle" }, req(`${"x".repeat(4096)}needle`));
    expect(one({ has_tool: "get_weather" }, req("", ["get_weather"]))).to.match(/has_tool/);
    fails({ has_tool: "get" }, req("", ["get_weather"]));
    expect(one({ call_index: 2 }, req(null), 2)).to.equal("when[0]: call_index=2");
    fails({ call_index: 2 }, req(null), 1);
    expect(one({ after_calls: 2 }, req(null), 3)).to.equal("when[0]: after_calls=2");
    fails({ after_calls: 2 }, req(null), 1);
  });
  it("several predicates are ANDed (the documented intent, not LionAGI's first-predicate-wins)", () => {
    const when = { prompt_contains: "weather", has_tool: "get_weather" };
    expect(() => Script.coerce({ mode: "when_only", responses: [{ type: "text", content: "x", when }] }).next(req("weather?", []), 0)).to.throw(ScriptExhaustedError);
    expect(Script.coerce({ mode: "when_only", responses: [{ type: "text", content: "x", when }] }).next(req("weather?", ["get_weather"]), 0).reason).to.equal(
      'prompt_contains="weather" and has_tool="get_weather"'.replace(/^/, "when[0]: "),
    );
  });
});

describe("testing: the scripted provider through the real OpenAI-compatible path (D5)", () => {
  it("is registered as `scripted` in the normal registry and serves a script passed through it", async () => {
    const entry = providers.lookup("scripted");
    expect(entry?.kind).to.equal("test");
    const p = providers.create("scripted", scriptedConfig([{ type: "text", content: "hello" }], "m1"));
    expect([p.name, p.api, p.model]).to.deep.equal(["scripted", "openai-chat", "m1"]);
    const r = await p.complete(user("hi"));
    expect([r.message.content, r.finish_reason, r.usage.total_tokens]).to.deep.equal(["hello", "stop", 0]);
    await p.ready();
  });
  it("records every call: the real request body, headers, response type and value, streamed flag, reason", async () => {
    const p = new ScriptedProvider({ script: [{ type: "text", content: "a" }], headers: { "x-test": "1" } });
    await p.complete(user("q"), { config: { temperature: 0.5 } });
    const [c] = calls(p);
    expect(c!.payload).to.deep.include({ model: "scripted-test", temperature: 0.5, messages: [{ role: "user", content: "q" }] });
    expect(c!.headers["x-test"]).to.equal("1");
    expect(c!.headers).to.not.have.property("authorization");
    expect([c!.index, c!.responseType, c!.streamed, c!.reason]).to.deep.equal([0, "text", false, "positional[0]"]);
    expect(c!.response).to.deep.equal({ type: "text", content: "a" });
  });
  it("tool calls: a generated call_ id, JSON arguments, validated against the call's tools by the real mapping", async () => {
    const p = scriptBuilder().respondWithTools("get_weather", { city: "Paris" }).respondWithTools("get_weather", { town: 1 }, { id: "call_fixed" }).provider();
    const r = await p.complete(user("weather?"), { tools: [weather] });
    expect(r.finish_reason).to.equal("tool_calls");
    expect(r.message.tool_calls![0]!.id).to.match(/^call_[0-9a-f]{24}$/);
    expect(r.message.tool_calls![0]).to.deep.include({ name: "get_weather", arguments: { city: "Paris" } });
    const bad = await rejects(p.complete(user("again"), { tools: [weather] }));
    expect((bad as LlmProviderError).category).to.equal("provider_invalid_response");
  });
  it("structured: JSON in the content, parsed and validated by the normal structured-output path", async () => {
    const schema = { type: "object", properties: { n: { type: "integer" } }, required: ["n"] };
    const p = scriptBuilder().respondStructured({ n: 3 }).respondStructured({ n: "x" }).provider();
    const r = await p.complete(user("n?"), { responseSchema: schema });
    expect(r.parsed).to.deep.equal({ n: 3 });
    expect(calls(p)[0]!.payload).to.have.property("response_format");
    expect(((await rejects(p.complete(user("n?"), { responseSchema: schema }))) as LlmProviderError).category).to.equal("structured_output_invalid");
  });
  it("streams: typed chunks become the real stream events; a stream without its end is completed", async () => {
    const p = scriptBuilder()
      .stream([
        { type: "system", content: "init" },
        { type: "thinking", content: "hmm" },
        { type: "text", content: "Hel" },
        { type: "text", content: "lo" },
        { type: "tool_use", tool_name: "get_weather", tool_input: { city: "Rome" }, tool_id: "call_1" },
        { type: "tool_result", tool_output: "sunny" },
      ])
      .respond("plain")
      .provider();
    const events = await collect(p.stream(user("go"), { tools: [weather] }));
    expect(events.map((e) => e.type)).to.deep.equal(["start", "reasoning_delta", "text_delta", "text_delta", "tool_call_start", "tool_call_delta", "tool_call_end", "done"]);
    const done = events.at(-1) as Extract<StreamEvent, { type: "done" }>;
    expect(done.response.finish_reason).to.equal("tool_calls");
    expect(done.response.message.tool_calls).to.deep.equal([{ id: "call_1", name: "get_weather", arguments: { city: "Rome" } }]);
    const plain = await collect(p.stream(user("go")));
    expect(plain.map((e) => e.type)).to.deep.equal(["start", "text_delta", "done"]);
    expect(calls(p).map((c) => c.streamed)).to.deep.equal([true, true]);
  });
  it("a stream entry on the non-stream path concatenates only its text chunks; complete({stream:true}) streams", async () => {
    const entries: ResponseEntry[] = [{ type: "stream", chunks: [{ type: "thinking", content: "t" }, { type: "text", content: "a" }, { type: "result" }, { type: "text", content: "b" }] }];
    expect(await text(new ScriptedProvider({ script: entries }), "x")).to.equal("ab");
    const seen: string[] = [];
    const p = new ScriptedProvider({ script: entries });
    const r = await p.complete(user("x"), { stream: true, onEvent: (e) => seen.push(e.type) });
    expect(seen).to.deep.equal(["start", "reasoning_delta", "text_delta", "done"]);
    expect(r.message.content).to.deep.equal([{ type: "thinking", text: "t" }, { type: "text", text: "a" }]);
  });
  it("an error chunk ends the stream with a failure after the events before it", async () => {
    const p = scriptBuilder().stream([{ type: "text", content: "par" }, { type: "error", content: "broke" }]).provider();
    const seen: string[] = [];
    const e = await rejects((async () => {
      for await (const ev of p.stream(user("x"))) seen.push(ev.type);
    })());
    expect((e as LlmProviderError).category).to.equal("provider_invalid_response");
    expect(e.message).to.match(/broke/);
  });
  it("scripted errors map onto the §7 categories; delay_ms waits first", async () => {
    const kinds = ["rate_limit", "server_error", "bad_request", "timeout", "value_error"] as const;
    const p = new ScriptedProvider({ script: kinds.map((kind) => ({ type: "error" as const, kind, message: `m-${kind}` })) });
    const got: string[] = [];
    for (const _ of kinds) got.push(((await rejects(p.complete(user("x")))) as LlmProviderError).category);
    expect(got).to.deep.equal(["provider_rate_limit", "provider_unavailable", "provider_invalid_request", "provider_unavailable", "provider_invalid_response"]);
    expect(calls(p).map((c) => c.responseType)).to.deep.equal(["error", "error", "error", "error", "error"]);
    const slow = scriptBuilder().fail("server_error", { delayMs: 60 }).provider();
    const t0 = Date.now();
    await rejects(slow.complete(user("x")));
    expect(Date.now() - t0).to.be.at.least(50);
    const streamed = scriptBuilder().fail("rate_limit").provider();
    expect(((await rejects(collect(streamed.stream(user("x"))))) as LlmProviderError).category).to.equal("provider_rate_limit");
  });
  it("running out raises ScriptExhaustedError (never repeats the last response), even under call-level retry", async () => {
    const p = providerFromText(["only"]);
    expect(await text(p, "1")).to.equal("only");
    const e = await rejects(p.complete(user("second question"), { retry: { maxAttempts: 3 } as never }));
    expect(e).to.be.instanceOf(ScriptExhaustedError);
    expect(e.message).to.match(/call #1: .*last user message: "second question"/);
    const s = await rejects(collect(providerFromText([]).stream(user("s"))));
    expect(s).to.be.instanceOf(ScriptExhaustedError);
  });
  it("no script and no OPENARMATURE_TEST_SCRIPT: a warning, and the first call raises", async () => {
    const saved = process.env.OPENARMATURE_TEST_SCRIPT;
    delete process.env.OPENARMATURE_TEST_SCRIPT;
    const warnings: string[] = [];
    const onWarning = (w: Error): void => void warnings.push(w.message);
    process.on("warning", onWarning);
    try {
      const p = new ScriptedProvider();
      await new Promise((r) => setImmediate(r));
      expect(warnings.some((w) => /no script given/.test(w))).to.equal(true);
      expect(await rejects(p.complete(user("x")))).to.be.instanceOf(ScriptExhaustedError);
    } finally {
      process.off("warning", onWarning);
      if (saved !== undefined) process.env.OPENARMATURE_TEST_SCRIPT = saved;
    }
  });
  it("reads OPENARMATURE_TEST_SCRIPT when no script option is given", async () => {
    const dir = tempDir("oa-env-");
    writeFileSync(join(dir, "s.yaml"), "- type: text\n  content: from env\n");
    const saved = process.env.OPENARMATURE_TEST_SCRIPT;
    process.env.OPENARMATURE_TEST_SCRIPT = join(dir, "s.yaml");
    try {
      expect(await text(new ScriptedProvider(), "x")).to.equal("from env");
    } finally {
      if (saved === undefined) delete process.env.OPENARMATURE_TEST_SCRIPT;
      else process.env.OPENARMATURE_TEST_SCRIPT = saved;
    }
  });
  it("clearCalls keeps the cursor; attachScript replaces and resets; copies never consume each other's entries", async () => {
    const p = providerFromText(["a", "b", "c"]);
    expect(await text(p, "1")).to.equal("a");
    p.clearCalls();
    expect(p.calls).to.have.length(0);
    expect(await text(p, "2")).to.equal("b");
    const clone = p.copy();
    expect(clone.calls).to.have.length(1);
    expect(await text(clone, "x")).to.equal("a");
    expect(await text(p, "3")).to.equal("c");
    expect(await text(clone, "y")).to.equal("b");
    expect(p.calls).to.have.length(2);
    expect(clone.calls).to.have.length(3);
    attachScript(p, [{ type: "text", content: "z" }]);
    expect(await text(p, "4")).to.equal("z");
  });
  it("helpers: from YAML / JSON, a model client, and scripted() refusing a real provider with TypeError", async () => {
    const dir = tempDir("oa-h-");
    writeFileSync(join(dir, "s.yaml"), "responses:\n  - content: y\n");
    writeFileSync(join(dir, "s.json"), '{"responses":[{"type":"text","content":"j"}]}');
    expect(await text(providerFromYaml(join(dir, "s.yaml")), "x")).to.equal("y");
    expect(await text(providerFromJson(join(dir, "s.json")), "x")).to.equal("j");
    const client = scriptedClient([{ type: "text", content: "reply" }], { system: "be brief" });
    expect(await client.ask("hello")).to.equal("reply");
    expect((client.provider.calls[0]!.payload["messages"] as unknown[])[0]).to.deep.equal({ role: "system", content: "be brief" });
    const real = providers.create("openai", { model: "gpt", apiKey: "k" });
    expect(() => scripted(real)).to.throw(TypeError, /not a scripted provider/);
    expect(() => calls(real)).to.throw(TypeError);
  });
  it("the builder's when option makes conditional entries", async () => {
    const p = scriptBuilder()
      .respond("default")
      .respond("sunny", { when: { prompt_contains: "weather" } })
      .provider();
    expect(await text(p, "weather?")).to.equal("sunny");
    expect(await text(p, "weather?")).to.equal("default");
    expect(scripted(p).calls.map((c) => c.reason)).to.deep.equal(['when[1]: prompt_contains="weather"', "positional[0]"]);
  });
});
