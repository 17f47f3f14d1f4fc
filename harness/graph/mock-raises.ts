/**
 * The exceptions the case's fixture failure mocks raised (conformance-adapter §5.1 *Failure-mock
 * directives*, `raises:`), for `expected_error.cause: {raised_by_mock: <mock>}` (§5.8): a mock is
 * named by the node it sits under (`nodes.<node_name>:`), and every exception it throws is recorded,
 * per call, by identity — the assertion checks the raised error's cause chain links to that very
 * object, not to an equal-looking one.
 */
import { Facet, type Observation } from "../../src/conformance/observation.ts";
import { SlotKey } from "../../src/conformance/directive.ts";
import type { BuildEnv } from "./node-directive.ts";
import { GraphCaseHooksSlot } from "./extensions.ts";

/** Per call: the exceptions each named mock raised, in the order it raised them. */
export const MockRaises = new Facet<Map<string, Error[]>>("exceptions the fixture mocks raised");
/** Per call: the names of the failure mocks the case declares (in any graph of the case). */
export const DeclaredMocks = new Facet<ReadonlySet<string>>("declared failure mocks");

const Declared = new SlotKey<{ names: Set<string>; hooked: boolean }>("declared failure mocks", () => ({ names: new Set(), hooked: false }));

/** Called by a failure-mock directive at build time: `node` hosts a mock. */
export function declareMock(env: BuildEnv, node: string): void {
  const d = env.slot(Declared);
  d.names.add(node);
  if (d.hooked) return;
  d.hooked = true;
  env.slot(GraphCaseHooksSlot).beforeCall.push((ctx) => {
    ctx.observation.set(DeclaredMocks, d.names);
  });
}

/** Record that mock `node` raised `error` in the current call; returns `error` (to throw). */
export function raisedByMock<E extends Error>(env: BuildEnv, node: string, error: E): E {
  const obs: Observation = env.currentCall().observation;
  let m = obs.tryGet(MockRaises);
  if (m === undefined) obs.set(MockRaises, (m = new Map()));
  const list = m.get(node) ?? [];
  list.push(error);
  m.set(node, list);
  return error;
}
