/**
 * Attempt-keyed node behaviour under retry (observability 045, the directory's harness note in its
 * prose): `retry_middleware` wraps the node in the library's real retry middleware, and
 * `per_attempt_behavior` gives each attempt its own body — node directives in document order, then
 * `raises: <message>` (the test's transient error) or `succeeds: true`.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { JsonSchema } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import { currentNodeContext, type StateRecord } from "../../src/graph/index.ts";
import { constantBackoff, retry } from "../../src/pipeline/middleware/index.ts";
import { assembleBody } from "../../harness/graph/build.ts";
import type { BuildEnv, NodeAssembly, NodeStep } from "../../harness/graph/node-directive.ts";
import { FixtureNodeError } from "../general/raises.ts";

const HOME = "observability";

/** The error a `per_attempt_behavior` entry's `raises:` throws: what the `transient_marker` classifier retries. */
export class TransientMarkerError extends FixtureNodeError {
  override name = "TransientMarkerError";
}

function carriesMarker(e: unknown): boolean {
  for (let x: unknown = e, depth = 0; x instanceof Error && depth < 32; x = x.cause, depth++) if (x instanceof TransientMarkerError) return true;
  return false;
}

/** The named classifiers `retry_middleware` takes. */
const CLASSIFIERS: Readonly<Record<string, (e: unknown) => boolean>> = {
  /** Retry exactly the test's transient error (a `per_attempt_behavior` `raises:`), nothing else. */
  transient_marker: carriesMarker,
};

/** `retry_middleware: {max_attempts, classifier}`: the node runs inside the library's retry middleware, with no backoff wait. */
@directive({ name: "retry_middleware", at: "node", home: HOME, summary: "retry middleware with a named classifier", section: "observability 045" })
export class RetryMiddleware {
  readonly schema: JsonSchema = {
    type: "object",
    required: ["max_attempts", "classifier"],
    additionalProperties: false,
    properties: { max_attempts: { type: "integer", minimum: 1 }, classifier: { enum: Object.keys(CLASSIFIERS) } },
  };
  contribute(value: { max_attempts: number; classifier: string }, node: NodeAssembly): void {
    node.middleware.push(retry({ maxAttempts: value.max_attempts, classifier: CLASSIFIERS[value.classifier]!, backoff: constantBackoff(0) }));
  }
}

interface AttemptEntry {
  readonly attempt: number;
  readonly raises?: string;
  readonly succeeds?: true;
  readonly [directive: string]: unknown;
}

/** `per_attempt_behavior: [{attempt: <i>, <node directives>..., raises: <msg> | succeeds: true}]`: attempt i runs entry i's body. */
@directive({ name: "per_attempt_behavior", at: "node", home: HOME, summary: "a different node body per retry attempt", section: "observability 045" })
export class PerAttemptBehavior {
  readonly schema: JsonSchema = {
    type: "array",
    minItems: 1,
    items: {
      type: "object",
      required: ["attempt"],
      properties: { attempt: { type: "integer", minimum: 0 }, raises: { type: "string" }, succeeds: { const: true } },
    },
  };
  contribute(value: AttemptEntry[], node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    const bodies = new Map<number, NodeStep[]>();
    for (const [i, entry] of value.entries()) {
      const path = [...at, i];
      if (bodies.has(entry.attempt)) throw new FixtureSchemaInvalid(`attempt ${entry.attempt} is described twice`, env.locate([...path, "attempt"]));
      if ((entry.raises === undefined) === (entry.succeeds === undefined)) {
        throw new FixtureSchemaInvalid("each per_attempt_behavior entry ends in exactly one of 'raises' or 'succeeds: true'", env.locate(path));
      }
      const steps: NodeStep[] = [];
      for (const [key, v] of Object.entries(entry)) {
        if (key === "attempt" || key === "succeeds") continue;
        if (key === "raises") {
          const message = v as string;
          steps.push(() => {
            throw new TransientMarkerError(message);
          });
          continue;
        }
        const body = assembleBody(node.name, [...path, key], env.resolve("node", { [key]: v }, path), env);
        steps.push(body);
      }
      bodies.set(entry.attempt, steps);
    }
    node.steps.push(async (state: Readonly<StateRecord>, ctx) => {
      const attempt = currentNodeContext()?.attemptIndex ?? ctx.attemptIndex;
      const steps = bodies.get(attempt);
      if (!steps) throw new Error(`per_attempt_behavior describes no attempt ${attempt} of node '${node.name}'`);
      let update: Record<string, unknown> = {};
      for (const step of steps) update = { ...update, ...((await step(state, ctx)) ?? {}) };
      return update;
    });
  }
}
