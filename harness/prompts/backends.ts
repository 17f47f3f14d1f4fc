/**
 * The prompt backends a prompt-management fixture declares (`backends:`), built from the library's
 * real backends:
 *
 * - the preloaded mock (default): the library's `InMemoryPromptBackend`, reading its store on every
 *   fetch, so `cache_ttl_seconds` is a no-op; its prompts' raw `sampling` / `token_budget` configs go
 *   through the library's §5 projection (`samplingConfigFrom`, `tokenBudgetFrom`) as a backend
 *   sourcing them would;
 * - `caching: true`: the caching prompt backend of conformance-adapter §6.8 — the library's
 *   `CachingPromptBackend` over that store, on a controllable clock (`advance_clock`), with the
 *   store's reads counted as source reads;
 * - `simulate_unavailable: true`: every fetch fails as an unreachable store would
 *   (`prompt_store_unavailable`), the failure injected at the store's edge.
 *
 * Every backend counts the fetches it receives (`backend_call_counts`).
 */
import {
  CachingPromptBackend,
  InMemoryPromptBackend,
  PromptStoreUnavailable,
  samplingConfigFrom,
  tokenBudgetFrom,
  type FetchOptions,
  type Prompt,
  type PromptBackend,
  type PromptInit,
} from "../../src/prompts/index.ts";

export interface DeclaredBackend {
  readonly name: string;
  readonly prompts: ReadonlyArray<Record<string, unknown>>;
  readonly caching: boolean;
  readonly unavailable: boolean;
}

/** A backend wrapper counting fetches (it changes nothing else). */
class Counting implements PromptBackend {
  count = 0;
  constructor(
    readonly inner: PromptBackend,
    readonly name: string,
  ) {}
  fetch(name: string, label: string, options?: FetchOptions): Promise<Prompt> {
    this.count += 1;
    return this.inner.fetch(name, label, options);
  }
}

/** A store whose every read fails the way an unreachable source does. */
class Unreachable implements PromptBackend {
  constructor(readonly name: string) {}
  async fetch(name: string, label: string): Promise<Prompt> {
    throw new PromptStoreUnavailable(name, label, this.name, "the store is unreachable (simulate_unavailable)", {
      cause: Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" }),
    });
  }
}

export class BuiltBackend {
  readonly backend: PromptBackend;
  readonly #calls: Counting;
  readonly #source: Counting;
  #clockMs = 0;

  constructor(readonly decl: DeclaredBackend) {
    const store: PromptBackend = decl.unavailable ? new Unreachable(decl.name) : new InMemoryPromptBackend(decl.prompts.map(toInit), { name: decl.name });
    this.#source = new Counting(store, decl.name);
    const served = decl.caching ? new CachingPromptBackend(this.#source, { now: () => this.#clockMs }) : this.#source;
    this.#calls = new Counting(served, decl.name);
    this.backend = this.#calls;
  }

  get calls(): number {
    return this.#calls.count;
  }
  get sourceReads(): number {
    return this.#source.count;
  }
  advanceClock(seconds: number): void {
    this.#clockMs += seconds * 1000;
  }
}

/** A fixture's prompt entry as the backend's store holds it. */
function toInit(p: Record<string, unknown>): PromptInit {
  const { sampling, token_budget, ...rest } = p;
  const init: Record<string, unknown> = { ...rest };
  const s = samplingConfigFrom(sampling);
  if (s !== undefined) init["sampling"] = s;
  const b = tokenBudgetFrom(token_budget);
  if (b !== undefined) init["token_budget"] = b;
  return init as unknown as PromptInit;
}
