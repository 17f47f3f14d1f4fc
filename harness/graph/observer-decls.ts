/** The case's `observers:` declarations (conformance-adapter §5.5), gathered before the run. */
import { SlotKey } from "../../src/conformance/directive.ts";
import type { KeyPath } from "../../src/conformance/source.ts";
import type { ObserverBehavior, Pace } from "../observers.ts";

export interface ObserverDecl {
  readonly name: string;
  readonly attach: "graph" | "invocation";
  readonly target: string;
  readonly behavior: ObserverBehavior;
  readonly phases: readonly string[] | undefined;
  readonly pace: Pace;
  readonly path: KeyPath;
}

export const CaseObservers = new SlotKey<ObserverDecl[]>("case observers", () => []);
