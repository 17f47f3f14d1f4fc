/**
 * The testing note's provider source (spec/testing/conformance/README.md): `script:` declares the
 * `scripted` provider, created through the normal registry, as what answers the case's general
 * `call:` / `calls:` (the provider-call runner, harness/llm/case.ts, makes the calls through the
 * real request path). Each call's observation also gets the provider's records so far
 * ({@link ScriptedCallsFacet}).
 */
import type { KeyPath } from "../../src/conformance/source.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { Facet } from "../../src/conformance/observation.ts";
import { providers } from "../../src/llm/index.ts";
import { scripted, scriptedConfig, type RecordedCall, type ScriptData } from "../../src/testing/index.ts";
import type { ProviderSource } from "../llm/case.ts";

/** The scripted provider's call records after the call. */
export const ScriptedCallsFacet = new Facet<ReadonlyArray<RecordedCall>>("scripted provider call records");

/** `script:` as the case's provider source. The scripted provider speaks the OpenAI-compatible mapping only. */
export function scriptSource(script: ScriptData, path: KeyPath): ProviderSource {
  return {
    key: "script",
    path,
    open(state, ctx) {
      if (state.mappingPath.length > 0 && state.mapping !== "openai") {
        throw new FixtureSchemaInvalid(`the scripted provider speaks the OpenAI-compatible mapping only; 'mapping: ${state.mapping}' cannot select another`, ctx.locate(state.mappingPath));
      }
      const provider = scripted(providers.create("scripted", scriptedConfig(script)));
      return { provider, annotate: (obs) => obs.set(ScriptedCallsFacet, provider.calls) };
    },
  };
}
