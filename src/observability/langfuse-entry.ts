/**
 * The `openarmature/langfuse` package entry (its `default` condition; the types are
 * langfuse.ts's): checks the optional peer dependencies first — one error naming every missing
 * peer and the install command — then re-exports langfuse.ts (test/peer-dependencies.test.ts keeps
 * the list complete).
 */
import { LANGFUSE_PEERS, requirePeers } from "../peer-dependencies.ts";

requirePeers("openarmature/langfuse", LANGFUSE_PEERS, (s) => import.meta.resolve(s));

export const {
  LANGFUSE_DIAGNOSTICS,
  LLM_SPAN,
  LangfuseObserver,
  LangfuseProviderIsolationError,
  isGlobalTracerProvider,
  langfuseTraceId,
  renderInvocation,
  withInvocationLabel,
} = await import("./langfuse.ts");
