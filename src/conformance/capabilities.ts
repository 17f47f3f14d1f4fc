/**
 * Capability gates (conformance-adapter §5.17). The adapter's capabilities are declared here and
 * nowhere else; an undeclared capability is false. A case whose `requires_capability` is unmet is
 * a recognized skip whose reason names the capability.
 */
import { FixtureSchemaInvalid, type FixtureLocation } from "./errors.ts";
import { isMapping } from "./fixture-model.ts";

/** What this adapter declares (`adapter_capabilities`). */
export const ADAPTER_CAPABILITIES: Readonly<Record<string, boolean>> = Object.freeze({
  langfuse_bound_provider_detection: true,
  // The OpenAI mapping sends strict: true exactly when the schema meets strict mode (src/llm/strict-schema.ts).
  llm_strict_native_schema: true,
  // Every mapping takes its static fallback when constructed with capabilities.nativeStructuredOutput: false.
  llm_prompt_augmentation_fallback: true,
});

/** null when the case applies; otherwise the skip reason. */
export function unmetCapability(
  required: unknown,
  where: FixtureLocation,
  declared: Readonly<Record<string, boolean>> = ADAPTER_CAPABILITIES,
): string | null {
  if (required === undefined) return null;
  if (!isMapping(required)) throw new FixtureSchemaInvalid("'requires_capability' must be a mapping of capability name to boolean", where);
  const unmet: string[] = [];
  for (const [name, want] of Object.entries(required)) {
    if (typeof want !== "boolean") throw new FixtureSchemaInvalid(`requires_capability.${name} must be a boolean`, where);
    const have = declared[name] ?? false;
    if (have !== want) unmet.push(`${name}: ${want} (adapter declares ${have})`);
  }
  return unmet.length === 0 ? null : `requires capability ${unmet.join(", ")}`;
}
