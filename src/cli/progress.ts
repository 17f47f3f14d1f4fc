/**
 * A one-line progress bar on a terminal; plain output elsewhere (CI logs stay readable). What
 * `log()` prints is escaped (`terminal.ts`): only the bar's own drawing writes control sequences.
 */
import type { CaseResult } from "../conformance/run.ts";
import { escapeForTerminal } from "./terminal.ts";

export class Progress {
  private n = 0;
  private passed = 0;
  private failed = 0;
  private skipped = 0;
  private readonly tty: boolean;

  constructor(private readonly total: number, private readonly out: NodeJS.WriteStream) {
    this.tty = out.isTTY === true;
  }

  tick(r: CaseResult): void {
    this.n++;
    this[r.status]++;
    if (this.tty) this.draw();
  }

  /** Print a line (or a block of lines) above the bar, control characters escaped. */
  log(text: string): void {
    if (this.tty) this.out.write("\r\x1b[K");
    process.stdout.write(escapeForTerminal(text, { multiline: true }));
    if (this.tty) this.draw();
  }

  done(): void {
    if (this.tty) this.out.write("\r\x1b[K");
  }

  private draw(): void {
    const width = 30;
    const filled = this.total === 0 ? width : Math.round((this.n / this.total) * width);
    const bar = "█".repeat(filled) + "░".repeat(width - filled);
    this.out.write(`\r\x1b[K${bar} ${this.n}/${this.total}  ✓ ${this.passed}  ✗ ${this.failed}  ○ ${this.skipped}`);
  }
}
