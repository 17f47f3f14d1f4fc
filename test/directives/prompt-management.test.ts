/**
 * The prompt-management directives (directives/prompt-management): each assertion passes on a true
 * observation and fails, naming the mismatch, on a wrong one — run through the real interpreter,
 * harness and library.
 */
import { directiveTester } from "./tester.ts";

const capability = "prompt-management";

const backends = `
backends:
  - name: primary
    prompts:
      - {name: greeting, label: production, version: v1, template: "Hello, {{ user }}!", template_hash: "sha256:abc"}
      - name: chat
        label: production
        version: v2
        chat_template:
          - {role: system, content: "Rules."}
          - {role: user, content: "Q: {{ q }}"}
        template_hash: "sha256:chat"
        sampling: {temperature: 0.5, top_k: 3}
  - name: secondary
    prompts:
      - {name: greeting, label: production, version: v9, template: "Hi!"}
  - name: cached
    caching: true
    prompts:
      - {name: greeting, label: production, version: v1, template: "Hello, {{ user }}!"}
manager:
  backends: [primary, secondary]
`;

/** One call (its keys written `k: v; k: v`) whose `expected:` is the block. */
const call = (head: string) => (block: string): string => `${backends}
calls:
  - ${head.split("; ").join("\n    ")}
    expected:
${block.replace(/^/gm, "      ")}
`;

directiveTester("prompt", {
  capability,
  template: call("target: {backend: primary}; operation: fetch; name: greeting; label: production"),
  valid: ["prompt: {name: greeting, version: v1, template: 'Hello, {{ user }}!', template_hash: 'sha256:abc', sampling_absent: true}"],
  invalid: [
    { code: "prompt: {version: v2}", message: ["expected.prompt.version", "v2"] },
    { code: "prompt: {template_hash_present: false}", message: "to be absent" },
    { code: "prompt: {observability_entities: {langfuse_prompt: x}}", message: "observability_entities" },
  ],
});

directiveTester("prompt_result", {
  capability,
  template: call("target: manager; operation: get; name: chat; label: production; variables: {q: why}"),
  valid: [
    "prompt_result: {messages: [{role: system, content: Rules.}, {role: user, content: 'Q: why'}], sampling: {temperature: 0.5, extras: {top_k: 3}}, rendered_hash_non_empty_string: true, variables: {q: why}}",
  ],
  invalid: [
    { code: "prompt_result: {messages: [{role: user, content: 'Q: why'}]}", message: "messages" },
    { code: "prompt_result: {rendered_hash_absent: true}", message: "to be absent" },
    { code: "prompt_result: {sampling: {temperature: 0.7}}", message: "sampling.temperature" },
  ],
});

directiveTester("raises", {
  capability,
  template: call("target: manager; operation: render; fetched_prompt: {name: greeting, label: production}; variables: {}"),
  valid: ["raises: {category: prompt_render_error, carries: {name: greeting, version: v1, label: production, description_mentions: user, variables: {}}}"],
  invalid: [
    { code: "raises: {category: prompt_not_found}", message: ['raises.category: expected "prompt_not_found", got "prompt_render_error"'] },
    { code: "raises: {category: prompt_render_error, carries: {description_mentions: day}}", message: "to mention \"day\"" },
    { code: "raises: {category: prompt_render_error, carries: {version: v2}}", message: "carries.version" },
    { code: "raises: {category: prompt_render_error, carries: {no_such_field: 1}}", message: "exposes no field 'no_such_field'" },
    { code: "raises: {category: prompt_render_error, carries: {description_mentions: []}}", category: "fixture_schema_invalid", message: "non-empty list" },
  ],
});

directiveTester("raises (on a call that returned)", {
  capability,
  template: call("target: manager; operation: get; name: greeting; label: production; variables: {user: A}"),
  valid: ["prompt_result: {messages: [{role: user, content: 'Hello, A!'}]}"],
  invalid: [{ code: "raises: {category: prompt_render_error}", message: "returned without raising" }],
});

directiveTester("an unexpected raise", {
  capability,
  template: call("target: manager; operation: fetch; name: missing; label: production"),
  valid: ["raises: {category: prompt_not_found}"],
  invalid: [{ code: "primary_backend_call_count: 1", message: ["raised prompt_not_found", "no expected.raises"] }],
});

directiveTester("backend_call_counts / <backend>_backend_call_count", {
  capability,
  template: call("target: manager; operation: fetch; name: greeting; label: production"),
  valid: ["backend_call_counts: {primary: 1, secondary: 0}\nsecondary_backend_call_count: 0\nprompt: {version: v1}"],
  invalid: [
    { code: "backend_call_counts: {primary: 2}", message: "backend_call_counts.primary" },
    { code: "secondary_backend_call_count: 1", message: "secondary_backend_call_count" },
    { code: "backend_call_counts: {tertiary: 0}", message: "no backend named 'tertiary'" },
  ],
});

/** Several calls with captures; the block is the case-level tail (expected: and its siblings). */
const captured = (block: string): string => `${backends}
calls:
  - {target: manager, operation: get, name: chat, label: production, variables: {q: one}, capture_as: a}
  - {target: manager, operation: get, name: chat, label: production, variables: {q: one}, capture_as: b}
  - {target: manager, operation: get, name: chat, label: production, variables: {q: two}, capture_as: c}
  - {target: {backend: cached}, operation: fetch, name: greeting, label: production}
  - {target: {backend: cached}, operation: advance_clock, seconds: 30}
  - {target: {backend: cached}, operation: fetch, name: greeting, label: production, cache_ttl_seconds: 10}
  - {target: manager, operation: fetch, name: greeting, label: production, capture_as: p}
${block}
`;

directiveTester("capture_as labels", {
  capability,
  template: captured,
  valid: ["expected:\n  a: {name: chat, messages: [{role: system, content: Rules.}, {role: user, content: 'Q: one'}]}\n  p: {version: v1}"],
  invalid: [
    { code: "expected:\n  c: {messages: [{role: system, content: Rules.}, {role: user, content: 'Q: one'}]}", message: "expected.c.messages" },
    { code: "expected:\n  zz: {name: chat}", category: "fixture_directive_unknown", message: "zz" },
  ],
});

directiveTester("result_equivalence", {
  capability,
  template: captured,
  valid: ["expected:\n  result_equivalence: {of: [a, b], fields_must_match: [messages, rendered_hash, variables], fields_may_differ: [rendered_at]}"],
  invalid: [
    { code: "expected:\n  result_equivalence: {of: [a, c], fields_must_match: [messages]}", message: "'a' and 'c' differ on 'messages'" },
    { code: "expected:\n  result_equivalence: {of: [a, b], fields_must_match: [nonsense]}", category: "fixture_schema_invalid", message: "not a PromptResult field" },
  ],
});

directiveTester("rendered_hash_equal / rendered_hash_different", {
  capability,
  template: captured,
  valid: ["expected:\n  rendered_hash_equal: [[a, b]]\n  rendered_hash_different: [[a, c]]"],
  invalid: [
    { code: "expected:\n  rendered_hash_equal: [[a, c]]", message: "to share one rendered_hash" },
    { code: "expected:\n  rendered_hash_different: [[a, b]]", message: "distinct rendered_hash" },
  ],
});

directiveTester("expected_backend_state", {
  capability,
  template: captured,
  valid: ["expected_backend_state: {cached: {source_read_count: 2}}"],
  invalid: [
    { code: "expected_backend_state: {cached: {source_read_count: 1}}", message: "expected_backend_state.cached.source_read_count" },
    { code: "expected_backend_state: {primary: {source_read_count: 0}}", message: "not a declared caching backend" },
  ],
});

directiveTester("expected_shared_prefix", {
  capability,
  template: captured,
  valid: ["expected_shared_prefix: {between: [a, c], message_index: 1, prefix: 'Q: '}"],
  invalid: [
    { code: "expected_shared_prefix: {between: [a, c], message_index: 1, prefix: 'Q: o'}", message: "'c'.messages[1] does not start with the shared prefix" },
    { code: "expected_shared_prefix: {between: [a, c], message_index: 5, prefix: 'Q'}", message: "has no message 5" },
  ],
});

directiveTester("expected_message_equal", {
  capability,
  template: captured,
  valid: ["expected_message_equal: {between: [a, c], message_indices: [0]}"],
  invalid: [{ code: "expected_message_equal: {between: [a, c], message_indices: [0, 1]}", message: "messages[1] of 'a' and 'c' differ" }],
});

directiveTester("construct_prompt_group", {
  capability,
  template: (block) => `${captured("")}
  - target: construct_prompt_group
    group_name: g
    members_refs: ${block}
    expected:
      raises: {category: prompt_group_invalid}
`,
  valid: ["[a]", "[]"],
  invalid: [{ code: "[a, b]", message: "returned without raising" }],
});

/**
 * §6.8 caching backend: `cache_ttl_seconds: null` is the default, the same as omitting it
 * (prompt-management §6) — a manager with a default resolves it to that default; a backend
 * fetched directly serves a cached entry. `manager.default_cache_ttl_seconds: null` is no default.
 */
const ttlCase = (managerTtl: string, ttl: string) => `
backends:
  - name: cached
    caching: true
    prompts:
      - {name: greeting, label: production, version: v1, template: "Hello!"}
manager:
  default_cache_ttl_seconds: ${managerTtl}
calls:
  - {target: {manager: true}, operation: fetch, name: greeting, label: production}
  - {target: {backend: cached}, operation: advance_clock, seconds: 30}
  - {target: {manager: true}, operation: fetch, name: greeting, label: production, cache_ttl_seconds: ${ttl}}
  - {target: {backend: cached}, operation: fetch, name: greeting, label: production, cache_ttl_seconds: ${ttl}}
`;

directiveTester("cache_ttl_seconds: null (conformance-adapter §6.8)", {
  capability,
  template: (b) => b,
  valid: [
    // null → the manager default 60: the 30 s old entry is served; the direct fetch serves it too.
    `${ttlCase("60", "null")}expected_backend_state: {cached: {source_read_count: 1}}`,
    // No manager default (null): the backend's own null default serves the cached entry.
    `${ttlCase("null", "null")}expected_backend_state: {cached: {source_read_count: 1}}`,
  ],
  invalid: [
    // null is not 0: a force-fresh read would count two more source reads.
    { code: `${ttlCase("60", "null")}expected_backend_state: {cached: {source_read_count: 3}}`, message: "source_read_count" },
    { code: `${ttlCase("60", "0")}expected_backend_state: {cached: {source_read_count: 1}}`, message: "source_read_count" },
    // null resolves to the default 10 here, so the 30 s old entry is stale: a read.
    { code: `${ttlCase("10", "null")}expected_backend_state: {cached: {source_read_count: 1}}`, message: "source_read_count" },
  ],
});
