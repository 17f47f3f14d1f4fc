/**
 * `openarmature/testing/mocha`: a mocha root-hooks plugin (`mocha --require openarmature/testing/mocha`,
 * or `require` in .mocharc). Before each test a fresh scripted provider (an empty script, or the
 * `OPENARMATURE_TEST_SCRIPT` file) is available as `this.scripted` and from {@link currentScripted};
 * attach the test's script with `attachScript`. With `OPENARMATURE_STRICT_SCRIPTS=1`, or after
 * {@link requireScriptConsumed} in a test, a test that leaves `when` entries of a `when_only` script
 * unserved fails.
 */
import { ScriptedProvider } from "./scripted-provider.ts";

export const STRICT_SCRIPTS_ENV = "OPENARMATURE_STRICT_SCRIPTS";

let current: ScriptedProvider | undefined;
let strict = false;

/** The current test's scripted provider. */
export function currentScripted(): ScriptedProvider {
  if (current === undefined) throw new Error("openarmature/testing/mocha: no current test (is the plugin loaded with --require, and is this inside a test?)");
  return current;
}
/** Fail this test if it leaves a `when_only` script with unserved `when` entries. */
export function requireScriptConsumed(): void {
  strict = true;
}

interface HookContext {
  scripted?: ScriptedProvider;
  test?: { error?(err: Error): void };
  currentTest?: { title?: string; state?: string };
}

/** An unconsumed-script failure for `provider`, or null. */
export function unconsumedFailure(provider: ScriptedProvider): Error | null {
  const script = provider.script;
  if (script.mode !== "when_only") return null;
  const left = script.unservedConditional();
  return left === 0 ? null : new Error(`scripted provider: the when_only script has ${left} unserved 'when' entr${left === 1 ? "y" : "ies"} at the end of the test`);
}

export const mochaHooks = {
  beforeEach(this: HookContext): void {
    const env = process.env[STRICT_SCRIPTS_ENV];
    strict = env === "1" || env === "true";
    // An empty script warns once per process; the test attaches its own.
    current = new ScriptedProvider({ script: process.env["OPENARMATURE_TEST_SCRIPT"] || [] });
    this.scripted = current;
  },
  afterEach(this: HookContext): void {
    const provider = current;
    current = undefined;
    if (!strict || provider === undefined || this.currentTest?.state === "failed") return;
    const failure = unconsumedFailure(provider);
    // Hook.error() fails the current test (not the hook), so the rest of the suite still runs.
    if (failure !== null) this.test?.error?.(failure);
  },
};
