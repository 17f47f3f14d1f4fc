/** Which field of a subgraph's state a fan-out seeds with each instance's item (per subgraph name). */
import { SlotKey } from "../../src/conformance/directive.ts";

export const FanOutItemFields = new SlotKey<Map<string, string>>("fan-out item fields", () => new Map());
