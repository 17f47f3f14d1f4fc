/**
 * The llm-provider mock's capability flags (conformance-adapter 0.120.1 §5.11 *Mock capabilities*)
 * and the mappings that define each: `supports_native_response_format` is the OpenAI mapping's
 * (llm-provider §8.1.5.1), `supports_native_structured_output` the Anthropic and Gemini mappings'
 * (§8.2.5.1, §8.3.5.1), `supports_image_input` every mapping's. An absent flag means the
 * capability is present. A flag the case's mapping does not define is `fixture_schema_invalid`:
 * read as the other structured-output flag it would silently switch the path (or, ignored, leave
 * the case testing the native path while its author meant the fallback).
 *
 * `streaming_unsupported_stub` (llm-provider fixture 060) is a synthetic mapping, not the OpenAI
 * one, though this adapter realizes it over the OpenAI-compatible wire: it defines only the flag
 * every mapping has. `mock_llm` (§5.5) presents an OpenAI-compatible provider, so it takes the
 * OpenAI mapping's flags.
 */
import { FixtureSchemaInvalid, type FixtureLocation } from "../../src/conformance/errors.ts";
import type { ProviderCapabilities } from "../../src/llm/index.ts";

/** Each §5.11 flag and the mappings that define it. */
export const CAPABILITY_FLAGS: Readonly<Record<string, { readonly mappings: ReadonlyArray<string>; readonly provider: keyof ProviderCapabilities }>> = {
  supports_native_response_format: { mappings: ["openai"], provider: "nativeStructuredOutput" },
  supports_native_structured_output: { mappings: ["anthropic", "gemini"], provider: "nativeStructuredOutput" },
  supports_image_input: { mappings: ["openai", "anthropic", "gemini", "streaming_unsupported_stub"], provider: "imageInput" },
};

/** The flags `mapping` defines, in table order. */
export function flagsOf(mapping: string): string[] {
  return Object.keys(CAPABILITY_FLAGS).filter((f) => CAPABILITY_FLAGS[f]!.mappings.includes(mapping));
}

/**
 * The provider capabilities a mock's flags ask for under `mapping`. `block` names the mock block
 * (`mock_provider`, `mock_llm`) in messages; `where(flag)` locates a flag in the fixture. Throws
 * {@link FixtureSchemaInvalid} for a flag the mapping does not define.
 */
export function mockCapabilities(mapping: string, flags: Readonly<Record<string, boolean>>, block: string, where: (flag: string) => FixtureLocation): ProviderCapabilities {
  const out: Record<string, boolean> = { nativeStructuredOutput: true, imageInput: true };
  for (const [flag, value] of Object.entries(flags)) {
    const def = CAPABILITY_FLAGS[flag];
    if (def === undefined || !def.mappings.includes(mapping)) {
      const owners = def === undefined ? "no mapping: it is not a §5.11 capability flag" : `the ${def.mappings.join(" / ")} mapping${def.mappings.length > 1 ? "s" : ""}`;
      throw new FixtureSchemaInvalid(
        `${block}.capabilities.${flag} is not a capability of the '${mapping}' mapping (it defines ${flagsOf(mapping).join(", ")}); ${flag} belongs to ${owners} (conformance-adapter §5.11)`,
        where(flag),
      );
    }
    out[def.provider] = value;
  }
  return out as ProviderCapabilities;
}
