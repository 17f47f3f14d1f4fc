import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import * as F from "../../../harness/graph/facets.ts";
import { caughtEvents, notCompleted, ReasonedClaim } from "../../../harness/pipeline/claims.ts";

/**
 * `engine_does_not_see_exception` (fixtures 058, 061; §6.3 *Engine continuation*): a failure
 * isolation caught the node's exception (an event was emitted), invoke() returned normally, and
 * the engine ran the wrapped node as an ordinary execution (it — or, at any depth, the outermost
 * composite node holding it — is in the execution order).
 */
@directive({ name: "engine_does_not_see_exception", at: "invariant", home: "pipeline-utilities" })
export class EngineDoesNotSeeException extends ReasonedClaim(reason) {}

function reason(obs: Observation, ctx: CheckContext): string | null {
  const events = caughtEvents(obs, ctx);
  if (typeof events === "string") return events;
  const nc = notCompleted(obs, ctx);
  if (nc !== null) return `the exception reached the caller: ${nc}`;
  const order = obs.tryGet(F.ExecutionOrder) ?? [];
  // The wrapped node ran as an ordinary execution: an outermost node is in the execution order; a
  // node inside a subgraph, fan-out instance or branch is reached through the outermost composite
  // node its namespace starts with, which is in the order.
  const missing = events.find((e) => !order.includes(e.namespace[0] ?? e.nodeName));
  return missing ? `node '${missing.namespace[0] ?? missing.nodeName}' (${missing.namespace.length > 1 ? `holding '${missing.nodeName}'` : "the wrapped node"}) is not in the execution order [${order.join(", ")}]` : null;
}
