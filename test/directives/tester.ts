/**
 * A directive tester in the spirit of ESLint's RuleTester: each assertion directive is run over
 * snippets that must pass and snippets that must fail with a named mismatch, through the real
 * interpreter, registry and engine.
 */
import { expect } from "chai";
import { loadConformance } from "../../src/conformance/setup.ts";
import { runCaseToResult, type CaseResult } from "../../src/conformance/run.ts";
import { casesOf } from "../conformance/helpers.ts";

export async function runSnippet(yaml: string, capability = "graph-engine"): Promise<CaseResult[]> {
  const registry = await loadConformance();
  const out: CaseResult[] = [];
  for (const c of casesOf(yaml, capability)) out.push(await runCaseToResult(c, registry, { caseTimeoutMs: 20_000 }));
  return out;
}

export interface InvalidCase {
  /** The fixture text (or the block to splice into the template). */
  readonly code: string;
  /** The category it must fail with (default `assertion_failed`). */
  readonly category?: string;
  /** Substrings the failure message must contain. */
  readonly message: string | readonly string[];
}

export interface TesterSpec {
  /** Builds the whole fixture from a block (usually the `expected:` contents). */
  readonly template: (block: string) => string;
  readonly valid: readonly string[];
  readonly invalid: readonly InvalidCase[];
  readonly capability?: string;
}

/** Declare mocha tests: every `valid` block passes; every `invalid` block fails as named. */
export function directiveTester(name: string, spec: TesterSpec): void {
  describe(`directive ${name}`, function () {
    this.timeout(30_000);
    for (const [i, block] of spec.valid.entries()) {
      it(`valid #${i + 1} passes`, async () => {
        const results = await runSnippet(spec.template(block), spec.capability);
        for (const r of results) expect(r.status, `${r.category}: ${r.message}`).to.equal("passed");
      });
    }
    for (const [i, bad] of spec.invalid.entries()) {
      it(`invalid #${i + 1} fails with ${bad.category ?? "assertion_failed"}`, async () => {
        const results = await runSnippet(spec.template(bad.code), spec.capability);
        const failed = results.find((r) => r.status === "failed");
        expect(failed, "the case must fail").to.not.equal(undefined);
        expect(failed!.category, failed!.message ?? "").to.equal(bad.category ?? "assertion_failed");
        for (const m of typeof bad.message === "string" ? [bad.message] : bad.message) expect(failed!.message).to.contain(m);
      });
    }
  });
}

/** A one-node graph (`a` sets `v` to 1, then END), followed by `rest` (case keys). */
export const oneNode = (rest: string): string => `
state:
  fields:
    v: {type: int, default: 0}
entry: a
nodes:
  a: {update: {v: 1}}
edges:
  - {from: a, to: END}
${rest}
`;

/** A three-node linear graph with an append log, for blocks that go under `expected:`. */
export const linear = (expected: string, extra = ""): string => `
state:
  fields:
    v: {type: int, default: 0}
    log: {type: list<string>, reducer: append, default: []}
entry: a
nodes:
  a: {update: {v: 1, log: [a]}}
  b: {update: {v: 2, log: [b]}}
  c: {update: {v: 3, log: [c]}}
edges:
  - {from: a, to: b}
  - {from: b, to: c}
  - {from: c, to: END}
initial_state: {}
${extra}
expected:
${indent(expected, 2)}
`;

export function indent(text: string, n: number): string {
  const pad = " ".repeat(n);
  return text.split("\n").map((l) => (l.trim() === "" ? l : pad + l)).join("\n");
}
