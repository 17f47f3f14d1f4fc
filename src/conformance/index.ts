/** The conformance interpreter's public surface: run fixtures programmatically, or extend it. */
export { directive, directiveDecorator, DirectiveRegistry, defaultRegistry } from "./registry.ts";
export type { Directive, DirectiveMeta, Position, Home, Resolved, ConfigureContext, CheckContext, Configures, Asserts, CaseExecutor, RunContext, CallRecord } from "./directive.ts";
export { SlotKey } from "./directive.ts";
export { Facet, Observation } from "./observation.ts";
export { InvocationPlan } from "./invocation-plan.ts";
export { loadConformance } from "./setup.ts";
export { loadBundle, loadProjectBundles } from "./bundles.ts";
export { discoverFixtures, resolveRoots, type DiscoveredFixture, type DiscoveryFilter } from "./discovery.ts";
export { prepareFixture, prepareFixtureWith, runCaseToResult, caseTitle, fixtureErrorResult, type CaseResult, type CaseStatus, type RunOptions, type PrepareOptions } from "./run.ts";
export { formatSummary, summarize, writeJsonReport, type JsonReport, formatDeprecations, summarizeDeprecations, type DeprecationSummary } from "./report.ts";
export { strictVocabularyFromEnv, STRICT_VOCABULARY_ENV, type DeprecationUse, type Retirement } from "./deprecation.ts";
export {
  AssertionFailed,
  CapabilitySkip,
  ConformanceError,
  FixtureDirectiveUnknown,
  FixtureSchemaInvalid,
  FixtureVersionUnsupported,
  FixtureTooLarge,
  DEFAULT_MAX_FIXTURE_BYTES,
  HarnessPrimitiveMissing,
  type AdapterErrorCategory,
  type FixtureLocation,
} from "./errors.ts";
export { ADAPTER_CAPABILITIES } from "./capabilities.ts";
export { ADAPTER_VERSION, SPEC_VERSION } from "./version.ts";
export * from "./matcher/index.ts";
