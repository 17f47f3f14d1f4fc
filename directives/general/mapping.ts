/**
 * `mapping: <name>` (conformance-adapter §5.15; §5.16 names `mapping: gemini` for llm-provider): a
 * case-level scalar selecting the vendor wire mapping under test of the provider the case calls.
 * One definition for every directory, dispatching on the case's context
 * (harness/provider-context.ts), resolved once the whole case is configured:
 *
 * - a retrieval provider (a `<vendor>_embedding_provider` / `_rerank_provider` block, `mock_embedding`,
 *   `mock_rerank`): §5.15's `tei`, `jina`, `openai`, `cohere` (absent: the harness stand-in shape);
 * - a provider call (`call:` / `calls:`): llm-provider's `openai` (the default when absent),
 *   `anthropic`, `gemini`, `streaming_unsupported_stub` (another name: an unimplemented vendor,
 *   `harness_primitive_missing` when the case runs).
 *
 * A name that fits both providers a case calls (`openai` beside a `call:` and an embedding provider)
 * is ambiguous, and a name that fits none — or a mapping in a case calling no provider — is
 * `fixture_schema_invalid` at the `mapping:` line. (sessions' node-position `mapping` — a subgraph
 * projection — is a different position and unrelated.)
 */
import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { selectMapping } from "../../harness/provider-context.ts";

@directive({ name: "mapping", at: "case", home: "general", section: "conformance-adapter §5.15, §5.16", summary: "the wire mapping under test of the provider the case calls" })
export class Mapping {
  readonly schema = { type: "string", minLength: 1 };
  configure(value: string, ctx: ConfigureContext): void {
    selectMapping(ctx, value);
  }
}
