/** escapeForTerminal: what a fixture supplies cannot drive the terminal (issue 26 item 5d). */
import { expect } from "chai";
import { escapeForTerminal } from "../../src/cli/terminal.ts";

describe("escapeForTerminal", () => {
  it("escapes ESC sequences, \\r, \\t, other C0, DEL, C1 and bidi controls; keeps other text", () => {
    expect(escapeForTerminal("a\x1b[2Jb\rc\td\x00e\x7ff\x9b31mg\u202eh ✓ é 日本")).to.equal("a\\x1b[2Jb\\rc\\td\\x00e\\x7ff\\x9b31mg\\u202eh ✓ é 日本");
  });

  it("keeps newlines only in a multi-line block", () => {
    expect(escapeForTerminal("one\ntwo\r\n")).to.equal("one\\ntwo\\r\\n");
    expect(escapeForTerminal("one\ntwo\r\n", { multiline: true })).to.equal("one\ntwo\\r\n");
  });

  it("is idempotent (escaping twice changes nothing)", () => {
    const once = escapeForTerminal("x\x1b]0;t\x07\u0085", { multiline: true });
    expect(escapeForTerminal(once, { multiline: true })).to.equal(once);
    expect(once).to.equal("x\\x1b]0;t\\x07\\x85");
  });
});
