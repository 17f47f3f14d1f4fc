/**
 * Error policies of fan-out (pipeline-utilities §9.5) and parallel branches (§11.5), and the records
 * `collect` writes into the configured errors field.
 *
 * - `"fail_fast"` (default): the first failing instance / branch cancels its siblings (cooperatively,
 *   see `cancellation.ts`) and its error propagates as the node's `node_exception`; nothing merges.
 * - `"collect"`: everything runs to completion; successes merge, failures are recorded (when an
 *   errors field is configured) and the node itself never raises.
 */
import { messageOf } from "../graph/index.ts";
import { categoryOf } from "./errors.ts";

/** §9.5 / §11.5 error policy. */
export type ErrorPolicy = "fail_fast" | "collect";

/** The accepted {@link ErrorPolicy} values. */
export const ERROR_POLICIES: readonly ErrorPolicy[] = Object.freeze(["fail_fast", "collect"]);

/** One failed fan-out instance under `collect` (§9.5). */
export interface InstanceFailure {
  /** The instance's `fan_out_index`. */
  readonly fanOutIndex: number;
  /** The error the instance raised (for a subgraph instance: the inner node's `node_exception`). */
  readonly error: unknown;
}

/** One failed branch under `collect` (§11.5). */
export interface BranchFailure {
  readonly branchName: string;
  readonly error: unknown;
}

/**
 * The default fan-out error record: `{ fan_out_index, category, message }` — the instance's index
 * (a number), the surface category of its error (`node_exception` for a failing inner node) and the
 * error's message, like the branch record. §9.5 leaves the record to the implementation; the errors
 * field must admit it (`list<dict>`, `list<any>`, or a record with an int `fan_out_index` and string
 * `category` / `message`). Pass `errorRecord` for another shape.
 */
export interface FanOutErrorRecord {
  readonly fan_out_index: number;
  readonly category: string;
  readonly message: string;
}

/** The default branch error record: `{ branch_name, category, message }` (§11.1 SHOULD). */
export interface BranchErrorRecord {
  readonly branch_name: string;
  readonly category: string;
  readonly message: string;
}

/** Build the default {@link FanOutErrorRecord}. */
export function fanOutErrorRecord(f: InstanceFailure): FanOutErrorRecord {
  return { fan_out_index: f.fanOutIndex, category: categoryOf(f.error), message: messageOf(f.error) };
}

/** Build the default {@link BranchErrorRecord}. */
export function branchErrorRecord(f: BranchFailure): BranchErrorRecord {
  return { branch_name: f.branchName, category: categoryOf(f.error), message: messageOf(f.error) };
}
