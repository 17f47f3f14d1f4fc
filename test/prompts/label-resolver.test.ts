/**
 * The LabelResolver fallback chain through the PromptManager (prompt-management §6 label
 * resolution, §7) — the subject of the held-back upstream fixture
 * `015-label-resolver-fallback-chain` ("three-step precedence + explicit-bypass +
 * no-resolver-configured cases"). No directive of the 0.120.1 seed or of the directory's harness
 * note configures a resolver, so this is a library test (spec/prompt-management/conformance has no
 * own fixture for it).
 */
import { expect } from "chai";
import {
  InMemoryPromptBackend,
  PromptManager,
  PromptStoreUnavailable,
  StaticLabelResolver,
  type FetchOptions,
  type LabelResolver,
  type Prompt,
  type PromptBackend,
} from "../../src/prompts/index.ts";
import { rejection } from "./helpers.ts";

const entry = (name: string, label: string) => ({ name, label, version: `${name}-${label}`, template: `${name} at ${label}: {{ x }}` });

/** Every (name, label) the tests ask for, in the labels the chain can pick. */
const store = () =>
  new InMemoryPromptBackend([
    entry("classify", "production"),
    entry("classify", "staging"),
    entry("classify", "variant-a"),
    entry("classify", "canary"),
    entry("extract", "production"),
    entry("extract", "staging"),
    entry("summarize", "production"),
  ]);

/** Counts its resolve() calls: an explicit label must bypass it entirely. */
class Counting implements LabelResolver {
  readonly asked: string[] = [];
  constructor(private readonly inner: LabelResolver) {}
  resolve(name: string): string {
    this.asked.push(name);
    return this.inner.resolve(name);
  }
}

/** Records the label each fetch reached it with. */
class Seen implements PromptBackend {
  readonly labels: string[] = [];
  constructor(readonly inner: PromptBackend) {}
  get name(): string {
    return this.inner.name;
  }
  fetch(name: string, label: string, options?: FetchOptions): Promise<Prompt> {
    this.labels.push(`${name}@${label}`);
    return this.inner.fetch(name, label, options);
  }
}

describe("prompts: LabelResolver fallback chain (§6, §7)", () => {
  it("resolve(): per-name override > default override > 'production'", () => {
    const withDefault = new StaticLabelResolver({ default: "staging", classify: "variant-a" });
    expect(withDefault.resolve("classify")).to.equal("variant-a"); // step 1
    expect(withDefault.resolve("extract")).to.equal("staging"); // step 2
    const noDefault = new StaticLabelResolver({ classify: "variant-a" });
    expect(noDefault.resolve("extract")).to.equal("production"); // step 3
    expect(new StaticLabelResolver({}).resolve("classify")).to.equal("production");
  });

  it("fetch / get without a label use the resolver's label; the Prompt carries it", async () => {
    const resolver = new Counting(new StaticLabelResolver({ default: "staging", classify: "variant-a" }));
    const m = new PromptManager({ backends: [store()], labelResolver: resolver });
    const perName = await m.fetch("classify");
    const byDefault = await m.fetch("extract");
    const viaGet = await m.get("classify", { variables: { x: 1 } });
    expect([perName.label, perName.version]).to.deep.equal(["variant-a", "classify-variant-a"]);
    expect([byDefault.label, byDefault.version]).to.deep.equal(["staging", "extract-staging"]);
    expect([viaGet.label, viaGet.version]).to.deep.equal(["variant-a", "classify-variant-a"]);
    expect(resolver.asked).to.deep.equal(["classify", "extract", "classify"]);
  });

  it("a resolver without an entry or a default falls back to 'production'", async () => {
    const m = new PromptManager({ backends: [store()], labelResolver: new StaticLabelResolver({ classify: "canary" }) });
    expect((await m.fetch("summarize")).label).to.equal("production");
    expect((await m.fetch("classify")).label).to.equal("canary");
  });

  it("an explicit label bypasses the resolver (it is not consulted); null counts as no label", async () => {
    const resolver = new Counting(new StaticLabelResolver({ default: "staging", classify: "variant-a" }));
    const m = new PromptManager({ backends: [store()], labelResolver: resolver });
    expect((await m.fetch("classify", { label: "production" })).label).to.equal("production");
    expect((await m.get("classify", { label: "canary", variables: { x: 2 } })).label).to.equal("canary");
    expect(resolver.asked).to.deep.equal([]);
    expect((await m.fetch("classify", { label: null })).label).to.equal("variant-a");
    expect(resolver.asked).to.deep.equal(["classify"]);
  });

  it("no resolver configured: a fetch without a label uses 'production'", async () => {
    const m = new PromptManager({ backends: [store()] });
    expect((await m.fetch("classify")).label).to.equal("production");
    expect((await m.get("extract", { variables: { x: 3 } })).label).to.equal("production");
    expect(m.resolveLabel("anything")).to.equal("production");
  });

  it("the resolved label is the one every backend of the §9 fallback chain receives", async () => {
    const first = new Seen({
      name: "remote",
      fetch: async (n, l) => {
        throw new PromptStoreUnavailable(n, l, "remote", "connect ECONNREFUSED");
      },
    });
    const second = new Seen(store());
    const m = new PromptManager({ backends: [first, second], labelResolver: new StaticLabelResolver({ extract: "staging" }), onFallback: () => {} });
    expect((await m.fetch("extract")).label).to.equal("staging");
    expect([first.labels, second.labels]).to.deep.equal([["extract@staging"], ["extract@staging"]]);
  });

  it("a resolved label that no backend holds is prompt_not_found naming it — never a silent fall back to 'production'", async () => {
    const m = new PromptManager({ backends: [store()], labelResolver: new StaticLabelResolver({ summarize: "staging" }) });
    const e = await rejection(m.fetch("summarize"));
    expect(e.category).to.equal("prompt_not_found");
    expect(e.message).to.contain("'summarize'").and.to.contain("'staging'");
  });
});
