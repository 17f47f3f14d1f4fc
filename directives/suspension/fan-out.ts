import { directive } from "../../src/conformance/registry.ts";
import { FixtureSchemaInvalid } from "../../src/conformance/errors.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { BuildEnv, NodeAssembly } from "../../harness/graph/node-directive.ts";
import { FanOut } from "../general/fan-out.ts";

type FanOutValue = Parameters<FanOut["contribute"]>[0];

/**
 * `fan_out:` (conformance-adapter §5.4), as the suspension fixtures write it: fixture 007 omits
 * `collect_field` (its instances suspend, so nothing is ever collected). The instance's
 * `item_field` is collected then — the general definition governs everything else.
 */
@directive({ name: "fan_out", at: "node", home: "suspension", summary: "fan-out; collect_field defaults to item_field" })
export class SuspensionFanOut extends FanOut {
  override readonly schema = { ...new FanOut().schema, required: ["subgraph", "target_field"] };
  override contribute(v: FanOutValue, node: NodeAssembly, env: BuildEnv, at: KeyPath): void {
    if (v.collect_field === undefined) {
      if (v.item_field === undefined) throw new FixtureSchemaInvalid("fan_out needs collect_field (or item_field to collect)", env.locate(at));
      v = { ...v, collect_field: v.item_field };
    }
    super.contribute(v, node, env, at);
  }
}
