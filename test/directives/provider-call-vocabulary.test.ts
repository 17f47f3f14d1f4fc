/**
 * The three §5 rows that used to be registered per directory now have one general definition each,
 * dispatching on the case's context (issue: vocab): `call` (§5.11), `raises` under `expected:`
 * (§5.8 / §5.12 / §5.13) and `mapping` (§5.15). Each is exercised in every context it has — valid
 * snippets pass, a wrong observation fails, an ambiguous or invalid use is fixture_schema_invalid
 * naming the key — through the real interpreter, providers and mock `fetch`.
 */
import { expect } from "chai";
import { loadConformance } from "../../src/conformance/setup.ts";
import { runCaseToResult, type CaseResult } from "../../src/conformance/run.ts";
import { casesOf } from "../conformance/helpers.ts";
import { directiveTester, oneNode } from "./tester.ts";
import { chatCompletion } from "./templates.ts";

const ok = chatCompletion("hello");
const unavailable = `
    - status: 503
      body: {error: {type: server_error, message: down}}`;

/** One complete() call on the §5.11 mock; `block` is the case-level rest (expected:, mapping:, ...). */
const mockCall = (block: string, responses = ok) => `
mock_provider:
  responses:${responses}
call:
  messages: [{role: user, content: "hi"}]
${block}
`;

/** One call on testing's scripted provider. */
const scriptedCall = (block: string) => `
script:
  responses:
    - {type: error, kind: rate_limit, message: slow down}
call:
  messages: [{role: user, content: "hi"}]
${block}
`;

/** A one-node graph embedding [a] through the TEI mapping (`mapping` is the caller's). */
const embedGraph = (block: string, provider = `tei_embedding_provider: {base_url: "http://tei.invalid", model: tei-e}`) => `
${provider}
state:
  fields:
    r: {type: record, default: null}
entry: n
nodes:
  n:
    calls_embed: {input: [a], stores_response_in: r}
edges:
  - {from: n, to: END}
initial_state: {}
mock_embedding:
  - status: 200
    body: [[0.1, 0.2]]
${block}
`;

const graph = oneNode;

// `call:` is general: recognized, run and asserted in directories whose notes never defined it.
for (const capability of ["graph-engine", "observability", "pipeline-utilities"]) {
  directiveTester(`call (§5.11) under ${capability}`, {
    capability,
    template: (b) => mockCall(b),
    valid: ["expected_wire_request_count: 1\nexpected:\n  wire_requests: [{}]", "expected_wire_url: https://mock-provider.openarmature.test/v1/chat/completions"],
    invalid: [
      { code: "expected_wire_request_count: 2", message: "expected_wire_request_count" },
      { code: "expected:\n  wire_requests: [{}, {}]", message: "wire_requests" },
    ],
  });
}

directiveTester("call keys: the general llm_call vocabulary", {
  capability: "graph-engine",
  template: (b) => b,
  valid: [mockCall("expected_wire_request_includes: {temperature: 0.3}").replace(`messages: [{role: user, content: "hi"}]`, `operation: complete\n  messages: [{role: user, content: "hi"}]\n  config: {temperature: 0.3}`)],
  invalid: [
    { code: mockCall("expected_wire_request_count: 1").replace("messages:", "mesages:"), category: "fixture_directive_unknown", message: "did you mean 'messages'" },
    { code: mockCall("expected_wire_request_count: 1").replace("messages:", "operation: stream\n  messages:"), category: "fixture_schema_invalid", message: "operation" },
    { code: mockCall("expected_wire_request_includes: {temperature: 0.9}").replace(`messages: [{role: user, content: "hi"}]`, `messages: [{role: user, content: "hi"}]\n  config: {temperature: 0.3}`), message: "temperature" },
  ],
});

directiveTester("call: the provider the case declares (testing: script or mock_provider, not both)", {
  capability: "testing",
  template: (b) => b,
  valid: [scriptedCall("expected:\n  raises: {category: provider_rate_limit}"), mockCall("expected_wire_request_count: 1")],
  invalid: [
    { code: `${scriptedCall("expected:\n  raises: {category: provider_rate_limit}")}mock_provider:\n  responses:${ok}\n`, category: "fixture_schema_invalid", message: ["two providers", "'script'", "'mock_provider'"] },
    { code: scriptedCall("mapping: anthropic\nexpected:\n  raises: {category: provider_rate_limit}"), category: "fixture_schema_invalid", message: "OpenAI-compatible mapping only" },
    // The scripted provider answers in-process: its requests are not observed, so a wire assertion cannot pass vacuously.
    { code: scriptedCall("expected_wire_request_count: 0"), category: "harness_primitive_missing", message: "answers in-process" },
    { code: scriptedCall("expected:\n  wire_requests: []"), category: "harness_primitive_missing", message: "answers in-process" },
  ],
});

// `raises` under expected: — one definition, read from whichever call the block belongs to.
directiveTester("raises (§5.8) on the §5.11 mock's call, under graph-engine", {
  capability: "graph-engine",
  template: (b) => mockCall(b, unavailable),
  valid: ["expected:\n  raises: {category: provider_unavailable}", "expected:\n  raises: {category: provider_unavailable, carries: {status: 503, message_mentions: down}}"],
  invalid: [
    { code: "expected:\n  raises: {category: provider_rate_limit}", message: 'expected.raises.category: expected "provider_rate_limit", got "provider_unavailable"' },
    { code: "expected:\n  raises: {category: provider_unavailable, carries: {status: 500}}", message: "expected.raises.carries.status" },
    { code: "expected:\n  raises: {category: provider_unavailable, carries: {no_such_field: 1}}", message: "exposes no field 'no_such_field'" },
    { code: "expected:\n  raises: {category: provider_unavailable, carries: {message_mentions: []}}", category: "fixture_schema_invalid", message: "raises" },
  ],
});

directiveTester("raises: a call that returned fails it (llm-provider)", {
  capability: "llm-provider",
  template: (b) => mockCall(b),
  valid: ["expected:\n  response: {finish_reason: stop}"],
  invalid: [{ code: "expected:\n  raises: {category: provider_unavailable}", message: ["expected the complete call to raise provider_unavailable", "the call returned"] }],
});

directiveTester("raises on testing's scripted call", {
  capability: "testing",
  template: (b) => scriptedCall(b),
  valid: ["expected:\n  raises: {category: provider_rate_limit, carries: {status: 429}}"],
  invalid: [
    { code: "expected:\n  raises: {category: provider_unavailable}", message: "expected.raises.category" },
    { code: "expected:\n  raises: {category: provider_rate_limit, carries: {status: 500}}", message: "expected.raises.carries.status" },
  ],
});

directiveTester("raises on a prompt-management call", {
  capability: "prompt-management",
  template: (b) => `
backends:
  - name: primary
    prompts:
      - {name: greeting, label: production, version: v1, template: "Hello, {{ user }}!"}
calls:
  - target: {backend: primary}
    operation: fetch
    name: greeting
    label: production
  - target: manager
    operation: render
    fetched_prompt: {name: greeting, label: production}
    variables: {}
    expected:
${b.replace(/^/gm, "      ")}
`,
  valid: ["raises: {category: prompt_render_error, carries: {message_mentions: user}}"],
  invalid: [
    { code: "raises: {category: prompt_not_found}", message: 'got "prompt_render_error"' },
    { code: "raises: {category: prompt_render_error, carries: {message_mentions: nobody}}", message: "carries.message" },
  ],
});

directiveTester("raises where the case makes no provider / prompt call", {
  capability: "graph-engine",
  template: (b) => graph(b),
  valid: ["expected:\n  final_state: {v: 1}"],
  invalid: [
    { code: "expected:\n  raises: {category: node_exception}", category: "fixture_schema_invalid", message: ["'raises' under expected:", "makes no such call", "expected_error"] },
    { code: "expected:\n  raises: {message: boom}", category: "fixture_schema_invalid", message: "category" },
  ],
});

// `mapping` — dispatched on the provider the case calls.
directiveTester("mapping selects the llm-provider call's wire mapping (any directory)", {
  capability: "observability",
  template: (b) => b,
  valid: [
    `mapping: anthropic\nmock_provider:\n  responses:\n    - status: 200\n      body: {type: message, id: m1, model: test-model, role: assistant, content: [{type: text, text: ok}], stop_reason: end_turn, usage: {input_tokens: 3, output_tokens: 1}}\ncall:\n  messages: [{role: user, content: hi}]\n  config: {max_tokens: 5}\nexpected_wire_url: https://mock-provider.openarmature.test/v1/messages`,
    mockCall("mapping: openai\nexpected_wire_url: https://mock-provider.openarmature.test/v1/chat/completions"),
  ],
  invalid: [
    // A wrong observation: openai's URL is not the anthropic mapping's.
    { code: mockCall("mapping: anthropic\nexpected_wire_url: https://mock-provider.openarmature.test/v1/chat/completions").replace(`content: "hi"}]`, `content: "hi"}]\n  config: {max_tokens: 5}`), message: "expected_wire_url" },
    { code: mockCall("mapping: tei\nexpected_wire_request_count: 1"), category: "fixture_schema_invalid", message: ["'mapping: tei' names no wire mapping", "llm-provider call"] },
    { code: mockCall("mapping: bedrock\nexpected_wire_request_count: 1"), category: "harness_primitive_missing", message: "'bedrock' wire mapping is not implemented" },
  ],
});

directiveTester("mapping selects the retrieval provider's wire mapping (any directory)", {
  capability: "graph-engine",
  template: (b) => b,
  valid: [embedGraph("mapping: tei\nexpected_wire_url: http://tei.invalid/embed")],
  invalid: [
    { code: embedGraph("mapping: tei\nexpected_wire_url: http://tei.invalid/v1/embeddings"), message: "expected_wire_url" },
    { code: embedGraph("mapping: anthropic\nexpected_wire_request_count: 1"), category: "fixture_schema_invalid", message: ["'mapping: anthropic' names no wire mapping", "retrieval provider"] },
    { code: embedGraph("mapping: jina\nexpected_wire_request_count: 1"), category: "fixture_schema_invalid", message: ["a tei provider block does not match 'mapping: jina'", "tei_embedding_provider"] },
  ],
});

directiveTester("mapping: ambiguous or without a provider", {
  capability: "graph-engine",
  template: (b) => b,
  valid: [],
  invalid: [
    {
      code: `${mockCall("mapping: openai\nexpected_wire_request_count: 1")}openai_embedding_provider: {base_url: "https://oa.invalid", model: e, api_key: k}\n`,
      category: "fixture_schema_invalid",
      message: ["'mapping: openai' is ambiguous", "call", "openai_embedding_provider"],
    },
    { code: graph("mapping: openai\nexpected:\n  final_state: {v: 1}"), category: "fixture_schema_invalid", message: ["'mapping: openai'", "this case calls none"] },
    { code: graph("mapping: 3\nexpected:\n  final_state: {v: 1}"), category: "fixture_schema_invalid", message: "mapping" },
  ],
});

async function run(text: string, capability: string, strictVocabulary: boolean): Promise<CaseResult> {
  const registry = await loadConformance();
  const [c] = casesOf(text, capability);
  return runCaseToResult(c!, registry, { strictVocabulary, caseTimeoutMs: 20_000 });
}

describe("raises: a field beside category (no version defines it)", function () {
  this.timeout(30_000);
  const beside = mockCall("expected:\n  raises: {category: provider_unavailable, status: 503}", unavailable);

  it("is read as the carries key it stands for and counted as a deprecation", async () => {
    const r = await run(beside, "llm-provider", false);
    expect(r.status, `${r.category}: ${r.message}`).to.equal("passed");
    expect(r.deprecations.map((d) => [d.directive, d.replacement])).to.deep.equal([["raises.status", "carries: {status: ...}"]]);
    const wrong = await run(beside.replace("status: 503}", "status: 500}"), "llm-provider", false);
    expect(wrong.status).to.equal("failed");
    expect(wrong.message).to.contain("expected.raises.status");
  });

  it("is refused under the strict vocabulary, naming the replacement", async () => {
    const r = await run(beside, "llm-provider", true);
    expect(r.status).to.equal("failed");
    expect(r.category).to.equal("fixture_directive_unknown");
    expect(r.message).to.contain("write carries: {status: ...} instead");
  });
});

describe("general definitions: call, raises and mapping resolve to one class in every directory", () => {
  it("looks each up under every built directory", async () => {
    const registry = await loadConformance();
    const dirs = ["graph-engine", "pipeline-utilities", "suspension", "sessions", "observability", "llm-provider", "retrieval-provider", "prompt-management", "testing", "harness", "harness-chat"];
    for (const dir of dirs) {
      expect(registry.lookup("case", "call", dir)?.meta.home, `call under ${dir}`).to.equal("general");
      expect(registry.lookup("case", "mapping", dir)?.meta.home, `mapping under ${dir}`).to.equal("general");
      expect(registry.lookup("expected", "raises", dir)?.meta.home, `raises under ${dir}`).to.equal("general");
      expect(registry.lookup("llm_call", "retry", dir)?.meta.home, `call.retry under ${dir}`).to.equal("general");
    }
    expect(registry.lookup("prompt_call_expected", "raises", "prompt-management")?.meta.home).to.equal("general");
  });
});
