/**
 * The tool-calling agent loop (runAgentLoop / agentNode) against the scripted provider, which serves
 * its script through the real OpenAI-compatible mapping: the tool definitions and tool results
 * travel through real requests.
 */
import { expect } from "chai";
import { END, GraphBuilder, InvocationCancelledError, append, defineState, field, toSpecRecord, type ObserverEvent } from "../../src/graph/index.ts";
import { AgentLoopError, agentNode, defineTool, runAgentLoop, type LlmProviderError, type Message, type Provider } from "../../src/llm/index.ts";
import { calls, scriptBuilder } from "../../src/testing/index.ts";

const add = defineTool<{ a: number; b: number }>({
  name: "add",
  description: "Add two numbers.",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  run: ({ a, b }) => a + b,
});
const q: Message[] = [{ role: "user", content: "What is 2 + 3?" }];

describe("llm: the agent loop", () => {
  it("model call → tool call → model call: the transcript, the answer, the turn count; the tool's result reaches the model", async () => {
    const provider = scriptBuilder().respondWithTools("add", { a: 2, b: 3 }, { id: "call_1" }).respond("2 + 3 = 5").provider();
    const r = await runAgentLoop(q, { provider, tools: [add] });
    expect([r.text, r.turns, r.stop]).to.deep.equal(["2 + 3 = 5", 2, "answered"]);
    expect(r.messages.map((m) => m.role)).to.deep.equal(["user", "assistant", "tool", "assistant"]);
    expect(r.added).to.deep.equal(r.messages.slice(1));
    expect(r.messages[2]).to.deep.equal({ role: "tool", tool_call_id: "call_1", content: "5" });
    const [first, second] = calls(provider);
    // the definitions sent are the §4 records only (no `run`), at OpenAI's JSON path
    expect(first!.payload["tools"]).to.deep.equal([{ type: "function", function: { name: "add", description: "Add two numbers.", parameters: add.parameters } }]);
    expect((second!.payload["messages"] as { role: string; content: unknown }[]).at(-1)).to.deep.include({ role: "tool", content: "5" });
  });

  it("non-string results are JSON-encoded; tools run in the order the model called them", async () => {
    const seen: string[] = [];
    const lookup = defineTool<{ city: string }>({ name: "lookup", description: "Look a city up.", parameters: { type: "object", properties: { city: { type: "string" } } }, run: ({ city }) => (seen.push(city), { city, sunny: true }) });
    const provider = scriptBuilder().respondWithTools("lookup", { city: "Paris" }).respondWithTools("lookup", { city: "Rome" }).respond("Both sunny.").provider();
    const r = await runAgentLoop(q, { provider, tools: [lookup, add] });
    expect(seen).to.deep.equal(["Paris", "Rome"]);
    expect(r.messages[2]).to.deep.include({ content: '{"city":"Paris","sunny":true}' });
    expect(r.turns).to.equal(3);
  });

  it("maxTurns bounds the model calls: agent_max_turns with the transcript, or stop 'max_turns' when asked", async () => {
    const looping = () => scriptBuilder().respondWithTools("add", { a: 1, b: 1 }).respondWithTools("add", { a: 1, b: 1 }).respondWithTools("add", { a: 1, b: 1 }).provider();
    const provider = looping();
    const e = await runAgentLoop(q, { provider, tools: [add], maxTurns: 2 }).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(AgentLoopError);
    expect((e as AgentLoopError).category).to.equal("agent_max_turns");
    expect((e as AgentLoopError).messages.map((m) => m.role)).to.deep.equal(["user", "assistant", "tool", "assistant", "tool"]);
    expect(calls(provider)).to.have.length(2);
    const r = await runAgentLoop(q, { provider: looping(), tools: [add], maxTurns: 1, onMaxTurns: "return" });
    expect([r.stop, r.turns, r.text]).to.deep.equal(["max_turns", 1, ""]);
    expect(await runAgentLoop(q, { provider: looping(), tools: [add], maxTurns: 0 }).catch((x: unknown) => x)).to.be.instanceOf(RangeError);
  });

  it("an unknown tool and a failing tool: raised (categorized, cause kept) or reported back to the model", async () => {
    const boom = defineTool({ name: "boom", description: "Fails.", parameters: { type: "object" }, run: () => { throw new Error("disk full"); } });
    // Our mappings refuse a call to an undeclared tool as a malformed response...
    const refused = (await runAgentLoop(q, { provider: scriptBuilder().respondWithTools("nope").provider(), tools: [add] }).catch((x: unknown) => x)) as LlmProviderError;
    expect([refused.category, refused.message]).to.deep.equal(["provider_invalid_response", "OpenAI-compatible response: tool_calls[0].name 'nope' is not a tool of this call"]);
    // ...and the loop itself checks too, for a Provider implementation that does not.
    const lax = (name: string): Provider => {
      const inner = scriptBuilder().respond("(replaced)").respond("Sorry.").provider();
      let served = false;
      return { name: "lax", api: "custom", model: "m", ready: async () => undefined, stream: (m, o) => inner.stream(m, o),
        complete: async (m, o) => (served ? inner.complete(m, o) : ((served = true), { ...(await inner.complete(m, o)), message: { role: "assistant", content: null, tool_calls: [{ id: "c9", name, arguments: {} }] } })) };
    };
    const unknown = (await runAgentLoop(q, { provider: lax("nope"), tools: [add] }).catch((x: unknown) => x)) as AgentLoopError;
    expect(unknown.category).to.equal("agent_unknown_tool");
    expect(unknown.message).to.contain("'nope'").and.contain("(add)");
    const reportedUnknown = await runAgentLoop(q, { provider: lax("nope"), tools: [add], toolErrors: "report" });
    expect(reportedUnknown.messages[2]).to.deep.equal({ role: "tool", tool_call_id: "c9", content: "Error: no tool named 'nope' (tools: add)" });
    const failed = (await runAgentLoop(q, { provider: scriptBuilder().respondWithTools("boom").provider(), tools: [boom] }).catch((x: unknown) => x)) as AgentLoopError;
    expect([failed.category, (failed.cause as Error).message]).to.deep.equal(["agent_tool_failed", "disk full"]);
    const reported = await runAgentLoop(q, { provider: scriptBuilder().respondWithTools("boom").respond("Sorry.").provider(), tools: [boom], toolErrors: "report" });
    expect(reported.messages.filter((m) => m.role === "tool").map((m) => m.content)).to.deep.equal(["Error: disk full"]);
    expect(reported.text).to.equal("Sorry.");
  });

  it("callOptions reach every model call (streamed here, through the real SSE path)", async () => {
    const events: string[] = [];
    const provider = scriptBuilder().respondWithTools("add", { a: 2, b: 3 }).respond("5").provider();
    const r = await runAgentLoop(q, { provider, tools: [add], callOptions: { stream: true, onEvent: (e) => events.push(e.type) } });
    expect(r.text).to.equal("5");
    expect(calls(provider).map((c) => c.streamed)).to.deep.equal([true, true]);
    expect(events.filter((e) => e === "done")).to.have.length(2);
  });
});

describe("llm: agentNode in a graph", () => {
  it("is the whole agent node; update maps the result onto an append messages field", async () => {
    const State = defineState({ messages: field.any<Message[]>().reducer(append).default([]), answer: field.string().default("") });
    const provider = scriptBuilder().respondWithTools("add", { a: 2, b: 3 }).respond("2 + 3 = 5").provider();
    const graph = new GraphBuilder(State)
      .addNode("agent", agentNode({ provider, tools: [add], update: (r) => ({ messages: r.added, answer: r.text }) }))
      .addEdge("agent", END)
      .setEntry("agent")
      .compile();
    const { state } = await graph.invoke({ messages: q });
    expect(state.answer).to.equal("2 + 3 = 5");
    expect(state.messages.map((m) => m.role)).to.deep.equal(["user", "assistant", "tool", "assistant"]);
  });

  it("every tool execution is one instrumented tool call: ToolCallEvent / ToolCallFailedEvent with the model's tool_call_id", async () => {
    const State = defineState({ messages: field.any<Message[]>().default([]) });
    const boom = defineTool({ name: "boom", description: "Fails.", parameters: { type: "object" }, run: () => { throw new RangeError("disk full"); } });
    const provider = scriptBuilder().respondWithTools("add", { a: 2, b: 3 }, { id: "call_a" }).respondWithTools("boom", {}, { id: "call_b" }).respond("done").provider();
    const graph = new GraphBuilder(State).addNode("agent", agentNode({ provider, tools: [add, boom], toolErrors: "report" })).addEdge("agent", END).setEntry("agent").compile();
    const events: ObserverEvent[] = [];
    await graph.invoke({ messages: q }, { observers: [(e) => void events.push(e)] });
    await graph.drain();
    const tools = events.filter((e) => e.kind === "tool_call" || e.kind === "tool_call_failed").map((e) => toSpecRecord(e));
    expect(tools).to.have.length(2);
    expect(tools[0]).to.deep.include({ tool_name: "add", tool_call_id: "call_a", arguments: { a: 2, b: 3 }, result: 5, node_name: "agent" });
    expect(tools[1]).to.deep.include({ tool_name: "boom", tool_call_id: "call_b", error_type: "RangeError", error_message: "disk full" });
  });

  it("cancelling the invocation reaches a running tool through ctx.signal, and no model call follows", async () => {
    const State = defineState({ messages: field.any<Message[]>().default([]) });
    const controller = new AbortController();
    let toolSawAbort = false;
    const wait = defineTool({
      name: "wait",
      description: "Waits until cancelled.",
      parameters: { type: "object" },
      run: (_args, { signal }) =>
        new Promise((_, reject) => {
          signal.addEventListener("abort", () => ((toolSawAbort = true), reject(signal.reason)));
          controller.abort(new Error("user pressed stop"));
        }),
    });
    const provider = scriptBuilder().respondWithTools("wait").respond("never served").provider();
    const graph = new GraphBuilder(State).addNode("agent", agentNode({ provider, tools: [wait] })).addEdge("agent", END).setEntry("agent").compile();
    const e = await graph.invoke({ messages: q }, { signal: controller.signal }).catch((x: unknown) => x);
    expect(e).to.be.instanceOf(InvocationCancelledError);
    expect(toolSawAbort).to.equal(true);
    expect(calls(provider)).to.have.length(1);
  });
});
