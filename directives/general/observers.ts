import { directive } from "../../src/conformance/registry.ts";
import type { ConfigureContext } from "../../src/conformance/directive.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import { CaseObservers } from "../../harness/graph/observer-decls.ts";
import { configureOtelObserverBehavior } from "../legacy/retirements.ts";

/**
 * `observers:` (conformance-adapter §5.5, §6.1): harness observers — `record`, `accumulate` or
 * `raise` — attached to the graph (`attach: graph`, on the `target` graph) or passed to one
 * invocation (`attach: invocation`; a `target` other than `outer` scopes it to that graph's runs
 * through the engine's `invoke({ observers: [{ graph }] })`), optionally phase-filtered and paced. The 0.109 form
 * `behavior: otel` (OTel emission as an observer behavior, which §5.5 rules out) is the legacy
 * bundle's: counted as a deprecation and translated to the §6.3 OTel capture.
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
        behavior: { enum: ["record", "accumulate", "raise", "otel"] },
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
  async configure(
    value: Array<{
      name: string;
      attach?: "graph" | "invocation";
      target?: string;
      behavior: "record" | "accumulate" | "raise" | "otel";
      phases?: string[];
      sleep_ms_per_event?: number | { first_invocation: number; subsequent_invocations: number };
    }>,
    ctx: ConfigureContext,
  ): Promise<void> {
    const decls = ctx.slot(CaseObservers);
    const names = new Set<string>();
    for (const [i, o] of value.entries()) {
      const path = [...ctx.self.path, i];
      if (names.has(o.name) || decls.some((d) => d.name === o.name)) throw new FixtureSchemaInvalid(`observer name '${o.name}' is used twice`, ctx.locate([...path, "name"]));
      names.add(o.name);
      if (o.behavior === "otel") {
        await configureOtelObserverBehavior(o.name, path, ctx);
        continue;
      }
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
