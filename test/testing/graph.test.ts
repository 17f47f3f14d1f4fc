/** Graph test helpers: a scripted multi-step tool loop through a real graph, asserted in a line or two. */
import { expect } from "chai";
import { AssertionError } from "node:assert";
import { END, GraphBuilder, defineState, field } from "../../src/graph/index.ts";
import type { Message, Provider, Tool } from "../../src/llm/index.ts";
import { runScriptedGraph, scriptBuilder, ScriptExhaustedError } from "../../src/testing/index.ts";

const weather: Tool = { name: "get_weather", description: "weather", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

function agent(llm: Provider) {
  const State = defineState({ messages: field.any<Message[]>().default([]), answer: field.string().default("") });
  return new GraphBuilder(State)
    .addNode("ask", async (s) => {
      const r = await llm.complete(s.messages, { tools: [weather] });
      return { messages: [...s.messages, r.message], answer: typeof r.message.content === "string" ? r.message.content : "" };
    })
    .addNode("tool", async (s) => {
      const last = s.messages[s.messages.length - 1]!;
      const results = (last.role === "assistant" ? (last.tool_calls ?? []) : []).map((c) => ({ role: "tool" as const, tool_call_id: c.id, content: `sunny in ${String(c.arguments?.["city"])}` }));
      return { messages: [...s.messages, ...results] };
    })
    .addConditionalEdge("ask", (s) => {
      const last = s.messages[s.messages.length - 1]!;
      return last.role === "assistant" && (last.tool_calls?.length ?? 0) > 0 ? "tool" : END;
    })
    .addEdge("tool", "ask")
    .setEntry("ask")
    .compile();
}

const question = { messages: [{ role: "user" as const, content: "Weather in Paris?" }] };

describe("testing: graph helpers", () => {
  it("run a scripted tool loop and assert order, state and calls", async () => {
    const script = scriptBuilder().respondWithTools("get_weather", { city: "Paris" }).respond("It is sunny in Paris.").build();
    const run = await runScriptedGraph(agent, script, question);
    run
      .expectOrder(["ask", "tool", "ask"])
      .expectState({ answer: "It is sunny in Paris." })
      .expectCalls(2, (c) => expect(c.responseType).to.equal("tool_call"), (c) => expect((c.payload["messages"] as unknown[]).at(-1)).to.deep.include({ role: "tool", content: "sunny in Paris" }));
    run.expectScriptConsumed({ positional: true });
  });
  it("each assertion fails loudly on a mismatch", async () => {
    const run = await runScriptedGraph(agent, scriptBuilder().respond("hi").respond("unused").build(), question);
    expect(() => run.expectOrder(["ask", "tool"])).to.throw(AssertionError, /execution order/);
    expect(() => run.expectState({ answer: "bye" })).to.throw(AssertionError, /final state field 'answer'/);
    expect(() => run.expectCalls(2)).to.throw(AssertionError, /recorded calls: text \(positional\[0\]\)/);
    expect(() => run.expectScriptConsumed({ positional: true })).to.throw(AssertionError, /positional/);
  });
  it("a loop that outruns its script fails with ScriptExhaustedError, not a repeated reply", async () => {
    const script = scriptBuilder().respondWithTools("get_weather", { city: "Paris" }).build();
    try {
      await runScriptedGraph(agent, script, question);
      expect.fail("should have raised");
    } catch (e) {
      let c: unknown = e;
      while (c && !(c instanceof ScriptExhaustedError)) c = (c as { cause?: unknown }).cause;
      expect(c, String(e)).to.be.instanceOf(ScriptExhaustedError);
      expect((c as ScriptExhaustedError).callIndex).to.equal(1);
    }
  });
});
