/** CachingPromptBackend (§5 cache_ttl_seconds): absent serves cached, 0 reads the source, N bounds age. */
import { expect } from "chai";
import { CachingPromptBackend, InMemoryPromptBackend, type FetchOptions, type Prompt, type PromptBackend } from "../../src/prompts/index.ts";

class CountingSource implements PromptBackend {
  reads = 0;
  readonly name = "source";
  constructor(readonly inner: InMemoryPromptBackend) {}
  fetch(name: string, label: string, options?: FetchOptions): Promise<Prompt> {
    this.reads += 1;
    return this.inner.fetch(name, label, options);
  }
}

function setup(defaultTtlSeconds?: number) {
  const store = new InMemoryPromptBackend([{ name: "g", label: "production", version: "v1", template: "Hi" }]);
  const source = new CountingSource(store);
  let now = 0;
  const cache = new CachingPromptBackend(source, { now: () => now, ...(defaultTtlSeconds !== undefined ? { defaultTtlSeconds } : {}) });
  return { store, source, cache, advance: (s: number) => (now += s * 1000) };
}

describe("prompts: CachingPromptBackend", () => {
  it("absent TTL serves the cached entry whatever its age", async () => {
    const { source, cache, advance } = setup();
    await cache.fetch("g", "production");
    advance(10_000);
    await cache.fetch("g", "production");
    expect(source.reads).to.equal(1);
  });

  it("TTL 0 reads the source every time", async () => {
    const { source, cache } = setup();
    await cache.fetch("g", "production", { cacheTtlSeconds: 0 });
    await cache.fetch("g", "production", { cacheTtlSeconds: 0 });
    expect(source.reads).to.equal(2);
  });

  it("TTL N serves an entry at most N seconds old, then re-reads; the default TTL applies when none is given", async () => {
    const { source, cache, advance } = setup(60);
    await cache.fetch("g", "production");
    advance(30);
    await cache.fetch("g", "production");
    expect(source.reads).to.equal(1);
    advance(31);
    await cache.fetch("g", "production");
    expect(source.reads).to.equal(2);
    advance(5);
    await cache.fetch("g", "production", { cacheTtlSeconds: 1 });
    expect(source.reads).to.equal(3);
  });

  it("a cache hit keeps the original fetched_at and template_hash; a fresh read sees new content", async () => {
    const { store, cache, advance } = setup();
    const first = await cache.fetch("g", "production");
    advance(5);
    const hit = await cache.fetch("g", "production");
    expect(hit.fetched_at).to.equal(first.fetched_at);
    expect(hit.template_hash).to.equal(first.template_hash);
    store.put({ name: "g", label: "production", version: "v2", template: "Hello" });
    const fresh = await cache.fetch("g", "production", { cacheTtlSeconds: 0 });
    expect(fresh.version).to.equal("v2");
    expect(fresh.template_hash).to.not.equal(first.template_hash);
  });

  it("never caches an error, rejects a negative TTL, and shares one read between concurrent misses", async () => {
    const { source, cache, store } = setup();
    let failed = false;
    await cache.fetch("missing", "production").catch(() => (failed = true));
    expect(failed).to.equal(true);
    store.put({ name: "missing", label: "production", version: "v1", template: "x" });
    expect((await cache.fetch("missing", "production")).version).to.equal("v1");
    let range = false;
    await cache.fetch("g", "production", { cacheTtlSeconds: -1 }).catch((e: unknown) => (range = e instanceof RangeError));
    expect(range).to.equal(true);
    source.reads = 0;
    await Promise.all([cache.fetch("g", "production"), cache.fetch("g", "production"), cache.fetch("g", "production")]);
    expect(source.reads).to.equal(1);
  });
});
