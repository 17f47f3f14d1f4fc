/**
 * A compact form for named claims (issue 14 *Several hundred named claims, readable*): a table of
 * predicates, one entry per claim — its name, positions, the observation it reads, the check and
 * the explanation on failure — registered through the ordinary directive registry, so a
 * directory's claims read as a list.
 */
import { directive } from "../../src/conformance/registry.ts";
import type { CheckContext, ConfigureContext, JsonSchema, Position } from "../../src/conformance/directive.ts";
import type { Observation } from "../../src/conformance/observation.ts";
import { claim, show } from "../suspension/claims.ts";
import { useOtelCapture } from "./capture.ts";

/** One row of a claim table: `V` the fixture value, `O` what the claim reads. */
export interface ClaimRow<O, V = unknown> {
  /** The claim's name, or a family of names whose named groups (e.g. a node) parameterize it. */
  readonly name: string | RegExp;
  /** The fixture prose defining it (e.g. `observability 001`). */
  readonly section: string;
  readonly summary: string;
  readonly at?: Position | readonly Position[];
  /** Value schema; default a boolean (a `true` / `false` claim). */
  readonly schema?: JsonSchema;
  /**
   * The check: `null` when the claim holds, else the explanation. For a boolean claim the value is
   * what the fixture asserts: `false` asserts the claim does not hold. `groups` are a name
   * family's named groups (empty for a plain name).
   */
  check(observed: O, value: V, groups: Readonly<Record<string, string>>): string | null;
}

/**
 * Register every row: each becomes a directive reading `read(obs, ctx)` (null: already reported).
 * `configure` runs when a case uses one of the rows (e.g. to compose the capture its reading needs).
 */
export function registerClaims<O>(
  home: string,
  read: (obs: Observation, ctx: CheckContext) => O | null,
  rows: readonly ClaimRow<O>[],
  configure?: (ctx: ConfigureContext) => void,
): void {
  for (const row of rows) {
    const boolean = row.schema === undefined;
    const cls = class {
      readonly schema: JsonSchema = row.schema ?? { type: "boolean" };
      configure(_value: unknown, ctx: ConfigureContext): void {
        // conformance-adapter §6.3: the OTel collector capture (spans, log records, §6.9 metrics)
        // is invoked automatically for every observability case, whatever its claims read.
        if (ctx.capability === "observability") useOtelCapture(ctx);
        configure?.(ctx);
      }
      check(value: unknown, obs: Observation, ctx: CheckContext): void {
        const observed = read(obs, ctx);
        if (observed === null) return;
        const why = row.check(observed, value, ctx.self.groups);
        if (boolean) claim(ctx, value as boolean, why === null, () => why ?? "");
        else if (why !== null) ctx.fail(`${ctx.self.key}: ${why} (asserted ${show(value)})`);
      }
    };
    Object.defineProperty(cls, "name", { value: typeof row.name === "string" ? row.name : row.name.source });
    directive({ name: row.name, at: row.at ?? "invariant", home, summary: row.summary, section: row.section })(cls);
  }
}
