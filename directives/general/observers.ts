import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { CaseObservers } from "../../harness/graph/observer-decls.ts";

/**
 * `observers:` (conformance-adapter §5.5, §6.1): harness observers — `record`, `accumulate` or
 * `raise` — attached to the graph (`attach: graph`, on the `target` graph) or passed to one
 * invocation (`attach: invocation`), optionally phase-filtered and paced.
 */
@directive({ name: "observers", at: "case", home: "general", summary: "harness observers (record / accumulate / raise)" })
export class Observers {
  readonly schema = {
    type: "array",
    items: {
      type: "object",
      required: ["name", "behavior"],
      additionalProperties: false,
      properties: {
        name: { type: "string", minLength: 1 },
        attach: { enum: ["graph", "invocation"] },
        target: { type: "string", minLength: 1 },
        behavior: { enum: ["record", "accumulate", "raise"] },
        phases: { type: "array", items: { enum: ["started", "completed", "suspended"] } },
        sleep_ms_per_event: {
          oneOf: [
            { type: "number", minimum: 0 },
            {
              type: "object",
              required: ["first_invocation", "subsequent_invocations"],
              additionalProperties: false,
              properties: { first_invocation: { type: "number", minimum: 0 }, subsequent_invocations: { type: "number", minimum: 0 } },
            },
          ],
        },
      },
    },
  };
  configure(
    value: Array<{
      name: string;
      attach?: "graph" | "invocation";
      target?: string;
      behavior: "record" | "accumulate" | "raise";
      phases?: string[];
      sleep_ms_per_event?: number | { first_invocation: number; subsequent_invocations: number };
    }>,
    ctx: ConfigureContext,
  ): void {
    const decls = ctx.slot(CaseObservers);
    for (const [i, o] of value.entries()) {
      const path = [...ctx.self.path, i];
      if (decls.some((d) => d.name === o.name)) throw new FixtureSchemaInvalid(`observer name '${o.name}' is used twice`, ctx.locate([...path, "name"]));
      const pace = o.sleep_ms_per_event;
      decls.push({
        name: o.name,
        attach: o.attach ?? "graph",
        target: o.target ?? "outer",
        behavior: o.behavior,
        phases: o.phases,
        pace: pace === undefined ? 0 : typeof pace === "number" ? pace : { firstInvocation: pace.first_invocation, subsequentInvocations: pace.subsequent_invocations },
        path,
      });
    }
  }
}
