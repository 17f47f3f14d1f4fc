/**
 * Graph test helpers: run a graph built around a scripted provider and assert on its execution
 * order, final state and recorded calls in a line or two.
 *
 * ```ts
 * const run = await runScriptedGraph((llm) => buildAgent(llm), ["It is sunny."], { question: "Weather?" });
 * run.expectOrder(["ask"]).expectState({ answer: "It is sunny." }).expectCalls(1);
 * ```
 */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import type { ScriptSource } from "./script.ts";
import { ScriptedProvider, type RecordedCall, type ScriptedProviderOptions } from "./scripted-provider.ts";

/** What a graph helper needs of a compiled graph. */
export interface InvocableGraph<S, I> {
  invoke(input: I): Promise<{ readonly state: S; readonly executionOrder: ReadonlyArray<string> }>;
}

export class GraphRun<S> {
  readonly state: S;
  readonly executionOrder: ReadonlyArray<string>;
  readonly provider: ScriptedProvider;

  constructor(state: S, executionOrder: ReadonlyArray<string>, provider: ScriptedProvider) {
    this.state = state;
    this.executionOrder = executionOrder;
    this.provider = provider;
  }
  get calls(): ReadonlyArray<RecordedCall> {
    return this.provider.calls;
  }
  /** The nodes ran in exactly this order. */
  expectOrder(order: ReadonlyArray<string>): this {
    deepStrictEqual([...this.executionOrder], [...order], `execution order: ${JSON.stringify(this.executionOrder)}`);
    return this;
  }
  /** Each given field of the final state deep-equals the expected value (other fields unchecked). */
  expectState(expected: Partial<S>): this {
    const state = this.state as Record<string, unknown>;
    for (const [k, v] of Object.entries(expected)) deepStrictEqual(state[k], v, `final state field '${k}'`);
    return this;
  }
  /** The provider served exactly `count` calls (and, optionally, each check holds for its call). */
  expectCalls(count: number, ...checks: Array<(call: RecordedCall) => void>): this {
    strictEqual(this.calls.length, count, `recorded calls: ${this.calls.map((c) => `${c.responseType} (${c.reason})`).join(", ") || "none"}`);
    checks.forEach((check, i) => check(this.calls[i]!));
    return this;
  }
  /** Every conditional entry of the script was served (and, with `positional`, every positional one). */
  expectScriptConsumed(options: { readonly positional?: boolean } = {}): this {
    strictEqual(this.provider.script.unservedConditional(), 0, "unserved 'when' entries remain");
    if (options.positional) strictEqual(this.provider.script.remainingPositional(), 0, "unserved positional entries remain");
    return this;
  }
}

/** Run `graph` (which uses `provider`) on `input`. */
export async function runGraph<S, I>(graph: InvocableGraph<S, I>, input: I, provider: ScriptedProvider): Promise<GraphRun<S>> {
  const result = await graph.invoke(input);
  return new GraphRun(result.state, result.executionOrder, provider);
}

/** Build a graph around a fresh scripted provider over `script`, run it on `input`. */
export async function runScriptedGraph<S, I>(
  build: (provider: ScriptedProvider) => InvocableGraph<S, I>,
  script: ScriptSource,
  input: I,
  options: Omit<ScriptedProviderOptions, "script"> = {},
): Promise<GraphRun<S>> {
  const provider = new ScriptedProvider({ ...options, script });
  return runGraph(build(provider), input, provider);
}
