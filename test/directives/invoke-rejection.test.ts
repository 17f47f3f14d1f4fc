/**
 * `expected_invoke_rejection` (this project's observability note): invoke() rejecting its
 * arguments at the API boundary (observability §3.4 reserved metadata keys) is the call's outcome
 * only when the case asserts it; otherwise an uncategorized error out of invoke() stays an
 * adapter defect.
 */
import { expect } from "chai";
import { directiveTester, runSnippet } from "./tester.ts";

const OBS = "observability";

const graph = (metadata: string, block: string): string => `
state:
  fields:
    v: {type: int, default: 0}
entry: n
nodes:
  n: {update_pure: {v: 1}}
edges:
  - {from: n, to: END}
initial_state: {}
caller_metadata: ${metadata}
${block}
`;

directiveTester("expected_invoke_rejection", {
  capability: OBS,
  template: (b) => graph("{openarmature.tenant: x}", b),
  valid: [
    "expected_invoke_rejection: {error_type: RangeError}",
    "expected_invoke_rejection: {error_type: RangeError, message_mentions: openarmature.tenant}\nexpected: {span_tree: [], outcome: errored}",
  ],
  invalid: [
    { code: "expected_invoke_rejection: {error_type: TypeError}", message: 'expected_invoke_rejection.error_type: expected "TypeError", got "RangeError"' },
    { code: "expected_invoke_rejection: {error_type: RangeError, message_mentions: [tenant, gen_ai]}", message: 'does not contain "gen_ai"' },
    { code: "expected_invoke_rejection: {error_type: RangeError, message_mentions: []}", category: "fixture_schema_invalid", message: "message_mentions" },
  ],
});

directiveTester("expected_invoke_rejection (a call invoke() accepted)", {
  capability: OBS,
  template: (b) => graph("{tenantId: acme}", b),
  valid: ["expected: {outcome: completed}"],
  invalid: [{ code: "expected_invoke_rejection: {error_type: RangeError}", message: "expected invoke() to reject its arguments with a RangeError, but it completed" }],
});

describe("an uncategorized invoke() error without expected_invoke_rejection", () => {
  it("is still an adapter defect, not an outcome an assertion can accept", async () => {
    const [r] = await runSnippet(graph("{openarmature.tenant: x}", "expected: {outcome: errored}"), OBS);
    expect(r!.status).to.equal("failed");
    expect(r!.category).to.equal("adapter_defect");
    expect(r!.message).to.contain("openarmature.tenant");
  });
});
