import { expect } from "chai";
import { DirectiveRegistry, directiveDecorator } from "../../src/conformance/registry.ts";
import { runCaseToResult, prepareFixture } from "../../src/conformance/run.ts";
import { runCase } from "../../src/conformance/interpreter.ts";
import { ADAPTER_CAPABILITIES } from "../../src/conformance/capabilities.ts";
import { Facet, Observation } from "../../src/conformance/observation.ts";
import { SlotKey, type CheckContext, type ConfigureContext, type RunContext, type CallRecord } from "../../src/conformance/directive.ts";
import { discoverFixtures } from "../../src/conformance/discovery.ts";
import { casesOf, fixtureRoot, rejected } from "./helpers.ts";

/** A toy capability: `value: N` sets a number, `expected.value` asserts it, `backend` names a primitive. */
const reg = new DirectiveRegistry();
const directive = directiveDecorator(reg);
const ValueSlot = new SlotKey("value", () => ({ n: 0 }));
const Value = new Facet<number>("value");

@directive({ name: "value", at: "case", home: "general" })
class ValueDirective {
  readonly schema = { type: "integer" };
  configure(v: number, ctx: ConfigureContext): void {
    ctx.slot(ValueSlot).n = v;
    ctx.setExecutor({
      name: "toy",
      async run(rc: RunContext): Promise<CallRecord[]> {
        const n = rc.slot(ValueSlot).n;
        const plans = rc.invocations.length > 0 ? rc.invocations : [rc.casePlan];
        return plans.map((plan) => ({ plan, observation: new Observation(plan.name).set(Value, n + (plan.input<number>("add") ?? 0)) }));
      },
    });
  }
}
@directive({ name: "expected", at: ["case", "invocation"], home: "general" })
class Expected {
  readonly schema = { type: "object" };
  configure(v: Record<string, unknown>, ctx: ConfigureContext): Promise<void> {
    return ctx.configureAll(ctx.resolve("expected", v, ctx.self.path));
  }
}
@directive({ name: "value", at: "expected", home: "general" })
class ExpectedValue {
  check(v: number, obs: Observation, ctx: CheckContext): void {
    ctx.match(v, obs.get(Value, ctx.locate(ctx.self.path)), null);
  }
}
@directive({ name: "spans", at: "expected", home: "general" })
class Spans {
  readonly scope = "call" as const;
  check(_v: unknown, obs: Observation, ctx: CheckContext): void {
    obs.get(new Facet<unknown>("spans"), ctx.locate(ctx.self.path));
  }
}
@directive({ name: "invocations", at: "case", home: "general" })
class Invocations {
  readonly schema = { type: "array", items: { type: "object" } };
  async configure(v: Array<Record<string, unknown>>, ctx: ConfigureContext): Promise<void> {
    for (const [i, inv] of v.entries()) {
      const path = [...ctx.self.path, i];
      const plan = ctx.newPlan(String(inv.name ?? i), path);
      const { name: _n, ...rest } = inv;
      await ctx.configureAll(ctx.resolve("invocation", rest, path), plan);
    }
  }
}
@directive({ name: "add", at: "invocation", home: "general" })
class Add {
  configure(v: number, ctx: ConfigureContext): void {
    ctx.plan.setInput("add", v);
  }
}
@directive({ name: "local_only", at: "case", home: "observability" })
class LocalOnly {
  configure(): void {}
}
@directive({ name: "capture", at: "case", home: "general" })
class Capture {
  configure(label: string, ctx: ConfigureContext): void {
    ctx.declareLabel(label);
  }
}
@directive({ name: "<capture_as label>", at: "expected", home: "general" })
class CaptureLabel {
  check(v: unknown, _obs: Observation, ctx: CheckContext): void {
    ctx.match(v, `captured:${ctx.self.groups.label}`, null);
  }
}
@directive({ name: "record", at: "expected", home: "general" })
class RecordAssertion {
  check(v: Record<string, unknown>, _obs: Observation, ctx: CheckContext): void {
    const observed: Record<string, unknown> = { a: 1, b: 2 };
    ctx.match(v, observed, null);
    for (const k of ctx.self.absentKeys ?? []) if (k in observed) ctx.fail(`key '${k}' must be absent`);
  }
}
void [ValueDirective, Expected, ExpectedValue, Spans, Invocations, Add, LocalOnly, Capture, CaptureLabel, RecordAssertion];

const run = (text: string, capability = "graph-engine") => runCaseToResult(casesOf(text, capability)[0]!, reg);

describe("interpreter", () => {
  it("runs a case: configure, execute, check — and passes when the assertion holds", async () => {
    const r = await run("value: 3\nexpected: {value: 3}\n");
    expect(r).to.include({ status: "passed", category: null, fixture: "graph-engine/900-test", case: null });
  });

  it("fails with assertion_failed naming the path and both values when it does not", async () => {
    const r = await run("value: 3\nexpected: {value: 4}\n");
    expect(r.status).to.equal("failed");
    expect(r.category).to.equal("assertion_failed");
    expect(r.message).to.contain("expected.value");
  });

  it("raises fixture_directive_unknown naming every unknown key and its location", async () => {
    const r = await run("value: 3\nbogus: 1\nexpected:\n  value: 3\n  nonsense: true\n");
    expect(r.category).to.equal("fixture_directive_unknown");
    expect(r.message).to.contain("'bogus'").and.contain("900-test.yaml:2:1");
    expect(r.message).to.contain("'nonsense'").and.contain("(expected.nonsense)");
  });

  it("points each mismatch at the line of the key that asserted it, in every block and case", async () => {
    const text = [
      "value: 3", //                      1
      "invocations:", //                  2
      "  - name: one", //                 3
      "    expected: {value: 3}", //      4
      "  - name: two", //                 5
      "    add: 1", //                    6
      "    expected:", //                 7
      "      value: 5", //                8
      "expected:", //                     9
      "  record: {a: 1, b: 2}", //        10
      "  record_absent_keys: [b]", //     11
      "",
    ].join("\n");
    const r = await run(text);
    expect(r.category).to.equal("assertion_failed");
    expect(r.message).to.contain("invocations[1].expected.value: expected 5, got 4 (graph-engine/900-test.yaml:8:7)");
    expect(r.message).to.contain("expected.record: key 'b' must be absent (graph-engine/900-test.yaml:10:3)"); // a direct fail()
    expect(r.message).to.match(/at graph-engine\/900-test\.yaml:\d+:\d+ \(/);
    expect(r.message).to.not.contain(":1:1");
    const second = casesOf("cases:\n  - name: a\n    value: 1\n    expected: {value: 1}\n  - name: b\n    value: 1\n    expected:\n      value: 2\n");
    const b = await runCaseToResult(second[1]!, reg);
    expect(b.message).to.contain("expected.value: expected 2, got 1 (graph-engine/900-test.yaml:8:7)");
  });

  it("suggests the nearest directive known at that position and in that directory", async () => {
    const typo = await run("value: 3\nexpected: {valeu: 3}\n");
    expect(typo.message).to.contain("no directive 'valeu' is recognized at position 'expected' (did you mean 'value'?)");
    const local = await run("value: 1\nlocal_onl: x\nexpected: {value: 1}\n", "observability");
    expect(local.message).to.contain("(did you mean 'local_only'?)");
    const elsewhere = await run("value: 1\nlocal_onl: x\nexpected: {value: 1}\n", "graph-engine");
    expect(elsewhere.message).to.not.contain("did you mean"); // local_only is not recognized under graph-engine
    const label = await run("value: 1\ncapture: greeting\nexpected: {greting: 'captured:greeting'}\n");
    expect(label.message).to.contain("(did you mean 'greeting'?)"); // a declared capture_as label
    const gate = await run("value: 1\nrequires_capabilty: {x: true}\nexpected: {value: 1}\n");
    expect(gate.message).to.contain("(did you mean 'requires_capability'?)"); // a key the interpreter handles itself
  });

  it("recognizes a per-directory directive only under its directory", async () => {
    expect((await run("value: 1\nlocal_only: x\nexpected: {value: 1}\n", "observability")).status).to.equal("passed");
    expect((await run("value: 1\nlocal_only: x\n", "graph-engine")).category).to.equal("fixture_directive_unknown");
  });

  it("turns an ajv violation into fixture_schema_invalid with the key's line", async () => {
    const r = await run("expected: {value: 3}\nvalue: three\n");
    expect(r.category).to.equal("fixture_schema_invalid");
    expect(r.message).to.contain("'value' must be integer").and.contain(":2:");
  });

  it("a case with nothing to run is fixture_schema_invalid", async () => {
    expect((await run("expected: {value: 3}\n")).category).to.equal("fixture_schema_invalid");
  });

  it("a case that asserts nothing is fixture_schema_invalid, never a vacuous pass", async () => {
    const r = await run("value: 3\n");
    expect(r.category).to.equal("fixture_schema_invalid");
    expect(r.message).to.contain("asserts nothing");
  });

  it("a non-string name or description is fixture_schema_invalid", async () => {
    expect((await run("description: 5\nvalue: 3\nexpected: {value: 3}\n")).category).to.equal("fixture_schema_invalid");
  });

  it("an observation the run did not produce is harness_primitive_missing", async () => {
    const r = await run("value: 1\nexpected: {spans: []}\n");
    expect(r.category).to.equal("harness_primitive_missing");
  });

  it("checks each invocation's block against its own call", async () => {
    const ok = await run("value: 10\ninvocations:\n  - {name: a, add: 1, expected: {value: 11}}\n  - {name: b, add: 2, expected: {value: 12}}\n");
    expect(ok.status).to.equal("passed");
    const bad = await run("value: 10\ninvocations:\n  - {name: a, add: 1, expected: {value: 12}}\n");
    expect(bad.category).to.equal("assertion_failed");
  });

  it("rejects a call-scoped assertion in the case-level block of a multi-invocation case", async () => {
    const r = await run("value: 1\ninvocations: [{name: a}]\nexpected: {spans: []}\n");
    expect(r.category).to.equal("fixture_schema_invalid");
    expect(r.message).to.contain("reads one call's output");
  });

  it("a requires_capability gate the adapter does not meet is a skip naming the capability (undeclared means false)", async () => {
    const r = await run("requires_capability: {some_undeclared_capability: true}\nvalue: 1\nexpected: {value: 1}\n");
    expect(r.status).to.equal("skipped");
    expect(r.message).to.contain("some_undeclared_capability");
    const met = await runCaseToResult(casesOf("requires_capability: {some_undeclared_capability: false}\nvalue: 1\nexpected: {value: 1}\n")[0]!, reg);
    expect(met.status).to.equal("passed");
  });

  it("the adapter declares the two llm-provider SHOULD capabilities it implements (§5.17)", async () => {
    expect(ADAPTER_CAPABILITIES).to.include({ llm_strict_native_schema: true, llm_prompt_augmentation_fallback: true });
    expect((await run("requires_capability: {llm_strict_native_schema: true, llm_prompt_augmentation_fallback: true}\nvalue: 1\nexpected: {value: 1}\n")).status).to.equal("passed");
    const absent = await run("requires_capability: {llm_prompt_augmentation_fallback: false}\nvalue: 1\nexpected: {value: 1}\n");
    expect(absent.status).to.equal("skipped");
    expect(absent.message).to.contain("llm_prompt_augmentation_fallback: false (adapter declares true)");
  });

  it("a malformed requires_capability is fixture_schema_invalid, not a skip", async () => {
    expect((await run("requires_capability: [x]\nvalue: 1\n")).category).to.equal("fixture_schema_invalid");
  });

  it("a capture_as label declared in the case is an assertion key at expected:, and only then", async () => {
    expect((await run("value: 1\ncapture: greeting\nexpected: {greeting: 'captured:greeting'}\n")).status).to.equal("passed");
    expect((await run("value: 1\ncapture: greeting\nexpected: {greeting: 'wrong'}\n")).category).to.equal("assertion_failed");
    expect((await run("value: 1\nexpected: {greeting: 'captured:greeting'}\n")).category).to.equal("fixture_directive_unknown");
    expect((await run("value: 1\ncapture: x_absent_keys\nexpected: {value: 1}\n")).category).to.equal("fixture_schema_invalid");
  });

  it("pairs <key>_absent_keys with its sibling key and rejects an orphan one", async () => {
    expect((await run("value: 1\nexpected: {record: {a: 1}, record_absent_keys: [c]}\n")).status).to.equal("passed");
    const r = await run("value: 1\nexpected: {record: {a: 1}, record_absent_keys: [b]}\n");
    expect(r.category).to.equal("assertion_failed");
    expect(r.message).to.contain("key 'b' must be absent");
    expect((await run("value: 1\nexpected: {value: 1, other_absent_keys: [b]}\n")).category).to.equal("fixture_directive_unknown");
    expect((await run("value: 1\nexpected: {record: {a: 1}, record_absent_keys: b}\n")).category).to.equal("fixture_schema_invalid");
  });

  it("runCase itself throws the categorized error", async () => {
    const err = await rejected(runCase(casesOf("nope: 1\n")[0]!, reg));
    expect((err as { category?: string }).category).to.equal("fixture_directive_unknown");
  });
});

describe("fixture version pinning (§4.4)", () => {
  it("accepts conformance_version at or below the adapter's and rejects one above", () => {
    const root = fixtureRoot({
      "graph-engine/001-old.yaml": 'conformance_version: "0.48.0"\nvalue: 1\n',
      "graph-engine/002-new.yaml": 'conformance_version: "9.0.0"\nvalue: 1\n',
      "graph-engine/003-bad.yaml": "conformance_version: latest\nvalue: 1\n",
    });
    const [old, newer, bad] = discoverFixtures([root]).map(prepareFixture);
    expect(old!.error).to.equal(null);
    expect((newer!.error as { category?: string }).category).to.equal("fixture_version_unsupported");
    expect(newer!.error!.message).to.contain("9.0.0");
    expect((bad!.error as { category?: string }).category).to.equal("fixture_schema_invalid");
  });
});

describe("discovery", () => {
  it("walks <root>/<capability>/conformance/**/*.yaml over several roots, filtered by capability and grep", () => {
    const a = fixtureRoot({ "graph-engine/001-a.yaml": "x: 1\n", "graph-engine/nested/002-b.yaml": "x: 1\n", "sessions/001-s.yaml": "x: 1\n" });
    const b = fixtureRoot({ "observability/005-o.yaml": "x: 1\n" });
    expect(discoverFixtures([a, b]).map((f) => f.id)).to.deep.equal([
      "graph-engine/001-a",
      "graph-engine/nested/002-b",
      "sessions/001-s",
      "observability/005-o",
    ]);
    expect(discoverFixtures([a, b], { capabilities: ["sessions"] }).map((f) => f.id)).to.deep.equal(["sessions/001-s"]);
    expect(discoverFixtures([a], { grep: /002/ }).map((f) => f.id)).to.deep.equal(["graph-engine/nested/002-b"]);
  });
  it("a root that is not a directory is an error naming it", () => {
    expect(() => discoverFixtures(["/no/such/root"])).to.throw("/no/such/root");
  });
});
