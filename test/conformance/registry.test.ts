import { expect } from "chai";
import { fileURLToPath } from "node:url";
import { DirectiveRegistry, directiveDecorator } from "../../src/conformance/registry.ts";
import { loadBundle } from "../../src/conformance/bundles.ts";
import { bundleRegistry } from "./fixtures/bundle-registry.ts";
import { thrown } from "./helpers.ts";

describe("directive registry (§5 Definition homes)", () => {
  it("finds a general directive from any directory", () => {
    const reg = new DirectiveRegistry();
    const directive = directiveDecorator(reg);
    @directive({ name: "update", at: "node", home: "general" })
    class Update { configure(): void {} }
    expect(reg.lookup("node", "update", "graph-engine")!.directive).to.be.instanceOf(Update);
    expect(reg.lookup("node", "update", "sessions")!.directive).to.be.instanceOf(Update);
    expect(reg.lookup("case", "update", "graph-engine"), "other position").to.equal(undefined);
  });

  it("recognizes a per-directory directive only under its own directory", () => {
    const reg = new DirectiveRegistry();
    const directive = directiveDecorator(reg);
    @directive({ name: "mock_llm", at: "case", home: "observability" })
    class MockLlm { configure(): void {} }
    expect(reg.lookup("case", "mock_llm", "observability")!.directive).to.be.instanceOf(MockLlm);
    expect(reg.lookup("case", "mock_llm", "llm-provider")).to.equal(undefined);
  });

  it("a per-directory definition of a general name must refine (extend) the general class", () => {
    const reg = new DirectiveRegistry();
    const directive = directiveDecorator(reg);
    @directive({ name: "calls_llm", at: "node", home: "general" })
    class General { configure(): void {} }
    @directive({ name: "calls_llm", at: "node", home: "observability" })
    class Refined extends General {}
    expect(reg.lookup("node", "calls_llm", "observability")!.directive).to.be.instanceOf(Refined);
    expect(reg.lookup("node", "calls_llm", "graph-engine")!.directive).to.not.be.instanceOf(Refined);
    const err = thrown(() => {
      @directive({ name: "calls_llm", at: "node", home: "llm-provider" })
      class Conflicting { configure(): void {} }
      return Conflicting;
    });
    expect(err.message).to.contain("must refine the general definition");
  });

  it("rejects registering two classes under one name, position and home", () => {
    const reg = new DirectiveRegistry();
    const directive = directiveDecorator(reg);
    @directive({ name: "x", at: "case", home: "general" })
    class A { configure(): void {} }
    expect(A).to.be.a("function");
    expect(thrown(() => directive({ name: "x", at: "case", home: "general" })(class B { configure(): void {} })).message).to.contain("registered twice");
  });

  it("matches a pattern-named claim and exposes its groups, exact names first", () => {
    const reg = new DirectiveRegistry();
    const directive = directiveDecorator(reg);
    @directive({ name: /(?<node>.+)_node_events_count/, at: "invariant", home: "general" })
    class NodeEventsCount { check(): void {} }
    @directive({ name: "inner_node_events_count", at: "invariant", home: "general" })
    class Special { check(): void {} }
    const hit = reg.lookup("invariant", "pre_node_events_count", "graph-engine")!;
    expect(hit.directive).to.be.instanceOf(NodeEventsCount);
    expect(hit.groups).to.deep.equal({ node: "pre" });
    expect(reg.lookup("invariant", "inner_node_events_count", "x")!.directive).to.be.instanceOf(Special);
    expect(reg.lookup("invariant", "node_events_count_x", "x")).to.equal(undefined);
  });

  it("registers one class at several positions", () => {
    const reg = new DirectiveRegistry();
    const directive = directiveDecorator(reg);
    @directive({ name: "initial_state", at: ["case", "invocation"], home: "general" })
    class InitialState { configure(): void {} }
    expect(reg.lookup("case", "initial_state", "x")!.directive).to.be.instanceOf(InitialState);
    expect(reg.lookup("invocation", "initial_state", "x")!.directive).to.be.instanceOf(InitialState);
    expect(reg.list().map((r) => r.meta.at)).to.deep.equal(["case", "invocation"]);
  });
});

describe("bundles", () => {
  it("loading a folder imports every file in it, recursively", async () => {
    const dir = fileURLToPath(new URL("./fixtures/bundle-a", import.meta.url));
    const files = await loadBundle(dir);
    expect(files.map((f) => f.slice(dir.length))).to.deep.equal(["/one.ts", "/sub/two.ts"]);
    expect(bundleRegistry.lookup("case", "bundle_one", "graph-engine")).to.not.equal(undefined);
    expect(bundleRegistry.lookup("expected", "bundle_two", "observability")).to.not.equal(undefined);
    expect(bundleRegistry.lookup("expected", "bundle_two", "graph-engine")).to.equal(undefined);
    await loadBundle(dir); // idempotent: no double registration
  });

  it("a missing bundle folder is an error naming it", async () => {
    let err: Error | null = null;
    try { await loadBundle("/no/such/bundle"); } catch (e) { err = e as Error; }
    expect(err!.message).to.contain("/no/such/bundle");
  });
});
