import { directive } from "../../../src/conformance/registry.ts";
import type { CheckContext } from "../../../src/conformance/directive.ts";
import type { Observation } from "../../../src/conformance/observation.ts";
import { caughtEvents, firstReason, settle, walkedChain } from "../../../harness/pipeline/claims.ts";

/**
 * `caught_exception_message_captures_str_exc` (fixture 063; §6.3 *Observability*): the event's
 * `caught_exception.message` is the caught error's own message (Python's `str(exc)`; the
 * error's `message` here) — the raised error's, not an engine wrapper's, non-empty.
 */
@directive({ name: "caught_exception_message_captures_str_exc", at: "invariant", home: "pipeline-utilities" })
export class CaughtExceptionMessageCapturesStrExc {
  readonly schema = { type: "boolean" };
  check(value: boolean, obs: Observation, ctx: CheckContext): void {
    const events = caughtEvents(obs, ctx);
    settle(value, ctx, typeof events === "string" ? events : firstReason(events, (e) => {
      const raised = walkedChain(e.exception).find((l) => !l.carrier);
      if (raised === undefined) return "the caught error's chain has no non-carrier link";
      if (raised.message === "") return "the caught error has an empty message";
      return e.caughtException.message === raised.message ? null : `caught_exception.message is ${JSON.stringify(e.caughtException.message)}, the error says ${JSON.stringify(raised.message)}`;
    }));
  }
}
