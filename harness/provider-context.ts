/**
 * Which provider a case calls, for the directives whose meaning depends on it (conformance-adapter
 * §5.11, §5.15): `mapping:` selects the wire mapping of *the case's* provider — an llm-provider
 * mapping (`openai`, `anthropic`, `gemini`, ...) for a case that makes a `call:` / `calls:`, a
 * retrieval mapping (§5.15: `tei`, `jina`, `openai`, `cohere`) for a case that constructs an
 * embedding / rerank provider or mocks one. The directives that put a provider in the case mark it
 * here (with the key that did, for messages); `mapping` is resolved once the whole case is
 * configured ({@link resolveMapping}), so it does not depend on the order keys are written in.
 */
import { SlotKey, type ConfigureContext } from "../src/conformance/directive.ts";
import { FixtureSchemaInvalid, formatPath } from "../src/conformance/errors.ts";
import type { KeyPath } from "../src/conformance/source.ts";
import { LLM_CASE, LLM_MAPPINGS } from "./llm/case.ts";
import { RETRIEVAL_CASE, RETRIEVAL_MAPPINGS } from "./retrieval/case.ts";

/** The provider kinds a case can call: an LLM provider's complete() / ready(), or an embedding / rerank provider. */
export type ProviderKind = "llm" | "retrieval";

const NAMES: Readonly<Record<ProviderKind, ReadonlyArray<string>>> = { llm: LLM_MAPPINGS, retrieval: RETRIEVAL_MAPPINGS };
const WHAT: Readonly<Record<ProviderKind, string>> = {
  llm: "an llm-provider call",
  retrieval: "a retrieval provider (§5.15)",
};

class ProviderContext {
  /** Each kind the case calls → the first key that put it in the case. */
  readonly uses = new Map<ProviderKind, KeyPath>();
  mapping: { readonly value: string; readonly path: KeyPath } | undefined;
  resolving = false;
}
const PROVIDER_CONTEXT = new SlotKey("provider context", () => new ProviderContext());

/** Mark that the case calls a provider of `kind` (the key being configured is the one that does). */
export function usesProvider(ctx: ConfigureContext, kind: ProviderKind): void {
  const state = ctx.slot(PROVIDER_CONTEXT);
  if (!state.uses.has(kind)) state.uses.set(kind, ctx.self.path);
}

/** Whether the case calls a provider of `kind` (meaningful once the case is configured). */
export function callsProvider(ctx: ConfigureContext, kind: ProviderKind): boolean {
  return ctx.slot(PROVIDER_CONTEXT).uses.has(kind);
}

/**
 * `mapping: <name>`: remember it and, once the case is configured, hand it to the provider it
 * selects. The kind is the one the case calls whose mappings include the name; a name two kinds the
 * case calls both define (`openai` beside a `call:` and an embedding provider) is ambiguous, and a
 * name no kind the case calls defines — or a mapping in a case that calls no provider — is
 * `fixture_schema_invalid` at the `mapping:` line. Never a silent default.
 */
export function selectMapping(ctx: ConfigureContext, value: string): void {
  const state = ctx.slot(PROVIDER_CONTEXT);
  state.mapping = { value, path: ctx.self.path };
  if (state.resolving) return;
  state.resolving = true;
  ctx.whenConfigured(() => resolveMapping(ctx));
}

function resolveMapping(ctx: ConfigureContext): void {
  const state = ctx.slot(PROVIDER_CONTEXT);
  const { value, path } = state.mapping!;
  const where = ctx.locate(path);
  const used = [...state.uses.keys()];
  if (used.length === 0) {
    throw new FixtureSchemaInvalid(
      `'mapping: ${value}' selects the wire mapping of the case's provider, but this case calls none (no call: / calls:, no embedding or rerank provider)`,
      where,
    );
  }
  const fits = used.filter((k) => NAMES[k].includes(value));
  if (fits.length > 1) {
    const by = fits.map((k) => `${WHAT[k]} (${formatPath(state.uses.get(k)!)})`).join(" and ");
    throw new FixtureSchemaInvalid(`'mapping: ${value}' is ambiguous: this case calls both ${by}, and '${value}' names a wire mapping of each`, where);
  }
  // One kind called and the name is none of its mappings: llm-provider reports an unimplemented
  // vendor at run time (harness_primitive_missing); any other mismatch is the fixture's error.
  const kind = fits[0] ?? (used.length === 1 && used[0] === "llm" && !NAMES.retrieval.includes(value) ? "llm" : undefined);
  if (kind === undefined) {
    const known = used.map((k) => `${WHAT[k]}: ${NAMES[k].join(", ")}`).join("; ");
    throw new FixtureSchemaInvalid(`'mapping: ${value}' names no wire mapping of the provider this case calls (${known})`, where);
  }
  if (kind === "llm") {
    const llm = ctx.slot(LLM_CASE);
    llm.mapping = value;
    llm.mappingPath = path;
  } else {
    const retrieval = ctx.slot(RETRIEVAL_CASE);
    // A construction block of another vendor is the fixture's error, reported here rather than from inside the node that builds the provider.
    for (const block of [retrieval.embedding, retrieval.rerank]) {
      if (block !== undefined && block.vendor !== value) throw new FixtureSchemaInvalid(`a ${block.vendor} provider block does not match 'mapping: ${value}' (${formatPath(path)})`, block.where);
    }
    retrieval.mapping = value;
  }
}
