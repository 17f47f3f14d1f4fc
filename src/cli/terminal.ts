/**
 * Text from outside — fixture names, messages, values a failure echoes, file and key paths — is
 * escaped before it reaches the terminal, so a fixture cannot move the cursor, clear the screen,
 * retitle the window, hide a line behind `\r` or reorder text with a bidi override. Every C0
 * control (`\x00`–`\x1f`, except `\n` where a block may span lines), DEL, every C1 control
 * (`\x80`–`\x9f`, whose `\x9b` is a one-byte CSI) and the Unicode bidi controls become visible
 * escapes: `\r`, `\t`, `\x1b`, `\u202e`. Everything else, other Unicode included, is kept.
 */

/** C0 (less `\n`, handled separately), DEL, C1, and the bidi embedding / override / isolate controls. */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Readonly<Record<string, string>> = { "\r": "\\r", "\t": "\\t" };

function escapeOne(c: string): string {
  const named = NAMED[c];
  if (named !== undefined) return named;
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * `text` with its control characters escaped (see the module comment). `multiline: true` keeps
 * `\n` (a block of lines); otherwise `\n` is escaped too, so the text stays on one line.
 */
export function escapeForTerminal(text: string, options: { readonly multiline?: boolean } = {}): string {
  const escaped = text.replace(CONTROL, escapeOne);
  return options.multiline === true ? escaped : escaped.replace(/\n/g, "\\n");
}
