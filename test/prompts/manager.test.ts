/** PromptManager (§6, §7, §9): label resolution, cache-TTL precedence, fallback, get ≡ render∘fetch. */
import { expect } from "chai";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  InMemoryPromptBackend,
  PromptManager,
  PromptNotFound,
  PromptStoreUnavailable,
  StaticLabelResolver,
  type FallbackEvent,
  type FetchOptions,
  type Prompt,
  type PromptBackend,
} from "../../src/prompts/index.ts";
import { rejection } from "./helpers.ts";
import { tempDir } from "../support/temp-dir.ts";

/** A real backend whose fetches are recorded (label, TTL) before they reach it. */
class Recorded implements PromptBackend {
  readonly seen: { name: string; label: string; ttl: number | null | undefined }[] = [];
  constructor(readonly inner: PromptBackend) {}
  get name(): string {
    return this.inner.name;
  }
  fetch(name: string, label: string, options: FetchOptions = {}): Promise<Prompt> {
    this.seen.push({ name, label, ttl: options.cacheTtlSeconds });
    return this.inner.fetch(name, label, options);
  }
}

/** A store that cannot be reached (the network edge fails). */
const down = (name: string): PromptBackend => ({
  name,
  fetch: async (n, l) => {
    throw new PromptStoreUnavailable(n, l, name, "connect ECONNREFUSED");
  },
});

const greeting = (label = "production", version = "v1") => ({ name: "greeting", label, version, template: "Hello, {{ user }}!" });


describe("prompts: PromptManager", () => {
  it("resolves the label: explicit > resolver (per name > default) > production", async () => {
    const b = new Recorded(new InMemoryPromptBackend([greeting("production"), greeting("staging"), greeting("canary"), { ...greeting("variant-a"), name: "other" }]));
    const plain = new PromptManager({ backends: [b] });
    await plain.fetch("greeting");
    const resolved = new PromptManager({ backends: [b], labelResolver: new StaticLabelResolver({ default: "staging", other: "variant-a" }) });
    await resolved.fetch("greeting");
    await resolved.fetch("other");
    await resolved.fetch("greeting", { label: "canary" });
    expect(b.seen.map((s) => `${s.name}@${s.label}`)).to.deep.equal(["greeting@production", "greeting@staging", "other@variant-a", "greeting@canary"]);
    expect(new StaticLabelResolver({}).resolve("x")).to.equal("production");
  });

  it("reads a prompt_labels.json-style resolver file; a missing or malformed one is refused, naming it", () => {
    const dir = tempDir("oa-labels-");
    const file = join(dir, "prompt_labels.json");
    writeFileSync(file, JSON.stringify({ default: "production", segment_semantic: "staging" }));
    const r = StaticLabelResolver.fromFile(file);
    expect([r.resolve("segment_semantic"), r.resolve("other")]).to.deep.equal(["staging", "production"]);
    expect(() => StaticLabelResolver.fromFile(join(dir, "nope.json"))).to.throw(/nope\.json/);
    writeFileSync(file, JSON.stringify({ x: 1 }));
    expect(() => StaticLabelResolver.fromFile(file)).to.throw(TypeError, /label for 'x'/);
  });

  it("threads cache_ttl_seconds: per-call > manager default > absent; negative is a RangeError", async () => {
    const b = new Recorded(new InMemoryPromptBackend([greeting()]));
    await new PromptManager({ backends: [b] }).fetch("greeting");
    const m = new PromptManager({ backends: [b], defaultCacheTtlSeconds: 60 });
    await m.fetch("greeting");
    await m.fetch("greeting", { cacheTtlSeconds: 0 });
    await m.get("greeting", { variables: { user: "a" }, cacheTtlSeconds: 5 });
    expect(b.seen.map((s) => s.ttl)).to.deep.equal([undefined, 60, 0, 5]);
    expect(() => new PromptManager({ backends: [b], defaultCacheTtlSeconds: -1 })).to.throw(RangeError);
    expect((await rejection(m.fetch("greeting", { cacheTtlSeconds: -5 }))).name).to.equal("RangeError");
  });

  it("stops at prompt_not_found without consulting the next backend (§9)", async () => {
    const secondary = new Recorded(new InMemoryPromptBackend([greeting()]));
    const m = new PromptManager({ backends: [new InMemoryPromptBackend([]), secondary] });
    const e = await rejection(m.fetch("greeting"));
    expect(e).to.be.instanceOf(PromptNotFound);
    expect(e.message).to.contain("'greeting'").and.contain("'production'");
    expect(secondary.seen).to.have.length(0);
  });

  it("falls back past an unavailable backend and reports the fallback", async () => {
    const events: FallbackEvent[] = [];
    const m = new PromptManager({ backends: [down("primary"), new InMemoryPromptBackend([greeting("production", "local")], { name: "local" })], onFallback: (e) => events.push(e) });
    const p = await m.fetch("greeting");
    expect(p.version).to.equal("local");
    expect(events).to.have.length(1);
    expect(events[0]?.servedBy).to.equal("local");
    expect(events[0]?.failed.map((f) => f.backend)).to.deep.equal(["primary"]);
  });

  it("raises prompt_store_unavailable only after every backend was unavailable, naming each", async () => {
    const e = await rejection(new PromptManager({ backends: [down("a"), down("b")], onFallback: () => {} }).fetch("greeting"));
    expect(e.category).to.equal("prompt_store_unavailable");
    expect(e.message).to.contain("a: ").and.contain("b: ");
    expect((e as PromptStoreUnavailable & { cause?: unknown }).cause).to.be.instanceOf(PromptStoreUnavailable);
  });

  it("propagates an uncategorized backend failure instead of treating it as unavailable", async () => {
    const broken: PromptBackend = { name: "broken", fetch: async () => { throw new TypeError("bug"); } };
    const next = new Recorded(new InMemoryPromptBackend([greeting()]));
    expect((await rejection(new PromptManager({ backends: [broken, next] }).fetch("greeting"))).name).to.equal("TypeError");
    expect(next.seen).to.have.length(0);
  });

  it("get() equals render(fetch()) on every content field", async () => {
    const m = new PromptManager({ backends: [new InMemoryPromptBackend([greeting()])] });
    const a = m.render(await m.fetch("greeting"), { user: "A" });
    const b = await m.get("greeting", { variables: { user: "A" } });
    for (const f of ["name", "version", "label", "template_hash", "rendered_hash", "messages", "variables"] as const) expect(b[f]).to.deep.equal(a[f]);
  });

  it("an in-memory backend names the labels it does have when the label is unknown", async () => {
    const e = await rejection(new InMemoryPromptBackend([greeting("staging")]).fetch("greeting", "production"));
    expect(e.category).to.equal("prompt_not_found");
    expect(e.message).to.contain("'staging'");
  });
});
