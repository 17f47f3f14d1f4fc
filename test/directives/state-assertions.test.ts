import { directiveTester, linear } from "./tester.ts";

directiveTester("final_state", {
  template: (b) => linear(b),
  valid: ["final_state: {v: 3, log: [a, b, c]}"],
  invalid: [
    { code: "final_state: {v: 4, log: [a, b, c]}", message: "expected.final_state.v: expected 4, got 3" },
    { code: "final_state: {v: 3}", message: ["expected.final_state", "log"] },
    { code: "final_state: {v: 3, log: [a, b, c], extra: 1}", message: "extra" },
    { code: "final_state: {v: 3, log: [a, c, b]}", message: "expected.final_state.log" },
    { code: "final_state: {v: true, log: [a, b, c]}", message: "expected.final_state.v" },
  ],
});

directiveTester("final_state_bounds", {
  template: (b) => linear(b),
  valid: ["final_state_bounds: {v: {min: 3, max: 3}}", "final_state_bounds: {v: {min: 0}}"],
  invalid: [
    { code: "final_state_bounds: {v: {max: 2}}", message: "expected <= 2, got 3" },
    { code: "final_state_bounds: {v: {min: 4}}", message: "expected >= 4, got 3" },
    { code: "final_state_bounds: {log: {min: 0}}", message: "expected a number" },
    { code: "final_state_bounds: {v: {}}", category: "fixture_schema_invalid", message: "final_state_bounds" },
  ],
});

directiveTester("execution_order", {
  template: (b) => linear(b),
  valid: ["execution_order: [a, b, c]"],
  invalid: [
    { code: "execution_order: [a, c, b]", message: "expected.execution_order" },
    { code: "execution_order: [a, b]", message: "expected.execution_order" },
    { code: "execution_order: [a, b, c, c]", message: "expected.execution_order" },
  ],
});

directiveTester("outcome", {
  template: (b) => linear(b),
  valid: ["outcome: completed"],
  invalid: [
    { code: "outcome: errored", message: "expected errored, but it completed" },
    { code: "outcome: finished", category: "fixture_schema_invalid", message: "must be one of" },
  ],
});
