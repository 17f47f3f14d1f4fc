/**
 * The lexer: template source to tokens. Text between tags is one `text` token; `{{ ... }}` and
 * `{% ... %}` become begin / end markers around expression tokens; `{# ... #}` is dropped.
 * Whitespace control (`{%-`, `-%}`, `{{-`, `-}}`, `{#-`, `-#}`) trims the adjacent text, and
 * `{% raw %}...{% endraw %}` is emitted as text. A hand-written scanner: linear in the source, no regex
 * backtracking on template text.
 */
import { TemplateFailure } from "./failure.ts";

export type TokenKind = "text" | "var_begin" | "var_end" | "block_begin" | "block_end" | "name" | "string" | "number" | "op" | "eof";

export interface Token {
  readonly kind: TokenKind;
  readonly value: string;
  /** For `number` tokens, the parsed value. */
  readonly num?: number;
  readonly line: number;
}

const OPERATORS = ["//", "**", "==", "!=", "<=", ">=", "+", "-", "*", "/", "%", "~", "<", ">", "=", "(", ")", "[", "]", "{", "}", ",", ".", ":", "|"];
const CLOSING: Readonly<Record<string, string>> = { "(": ")", "[": "]", "{": "}" };

function isSpace(c: string): boolean {
  return c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v";
}
function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}
function isNameStart(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}
function isNameChar(c: string): boolean {
  return isNameStart(c) || isDigit(c);
}

export function syntaxError(line: number, message: string): TemplateFailure {
  return new TemplateFailure(`template does not parse: line ${line}: ${message}`);
}

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  let line = 1;
  /** Set by a `-%}` / `-}}` / `-#}`: the next text token loses its leading whitespace. */
  let trimNext = false;

  const pushText = (text: string, textLine: number): void => {
    if (trimNext) {
      let i = 0;
      while (i < text.length && isSpace(text[i]!)) i++;
      text = text.slice(i);
      trimNext = false;
    }
    if (text !== "") tokens.push({ kind: "text", value: text, line: textLine });
  };
  const trimPrevious = (): void => {
    const last = tokens[tokens.length - 1];
    if (last?.kind !== "text") return;
    let end = last.value.length;
    while (end > 0 && isSpace(last.value[end - 1]!)) end--;
    if (end === last.value.length) return;
    tokens.pop();
    if (end > 0) tokens.push({ ...last, value: last.value.slice(0, end) });
  };
  const countLines = (from: number, to: number): void => {
    for (let i = from; i < to; i++) if (source.charCodeAt(i) === 10) line++;
  };

  while (pos < source.length) {
    // Text up to the next tag opener.
    let next = pos;
    let opener = "";
    for (;;) {
      next = source.indexOf("{", next);
      if (next < 0 || next + 1 >= source.length) {
        next = -1;
        break;
      }
      const c = source[next + 1]!;
      if (c === "{" || c === "%" || c === "#") {
        opener = c;
        break;
      }
      next++;
    }
    const textEnd = next < 0 ? source.length : next;
    const textLine = line;
    const text = source.slice(pos, textEnd);
    countLines(pos, textEnd);
    pushText(text, textLine);
    if (next < 0) break;

    pos = next + 2;
    const tagLine = line;
    let trimBefore = false;
    if (source[pos] === "-") {
      trimBefore = true;
      pos++;
    } else if (source[pos] === "+") pos++;
    if (trimBefore) trimPrevious();

    if (opener === "#") {
      const end = source.indexOf("#}", pos);
      if (end < 0) throw syntaxError(tagLine, "unclosed comment ({# without #})");
      trimNext = end > pos && source[end - 1] === "-";
      countLines(pos, end);
      pos = end + 2;
      continue;
    }

    const isBlock = opener === "%";
    tokens.push({ kind: isBlock ? "block_begin" : "var_begin", value: isBlock ? "{%" : "{{", line: tagLine });
    const startIndex = tokens.length;
    const closer = isBlock ? "%}" : "}}";
    const brackets: string[] = [];
    let closed = false;
    while (pos < source.length) {
      const c = source[pos]!;
      if (isSpace(c)) {
        if (c === "\n") line++;
        pos++;
        continue;
      }
      if (brackets.length === 0) {
        if (source.startsWith(closer, pos) || ((c === "-" || c === "+") && source.startsWith(closer, pos + 1))) {
          if (c === "-") trimNext = true;
          pos += c === "-" || c === "+" ? 3 : 2;
          closed = true;
          break;
        }
      }
      if (c === "'" || c === '"') {
        const [value, end] = readString(source, pos, line);
        countLines(pos, end);
        tokens.push({ kind: "string", value, line });
        pos = end;
        continue;
      }
      if (isDigit(c)) {
        let end = pos;
        while (end < source.length && (isDigit(source[end]!) || source[end] === "_")) end++;
        if (source[end] === "." && isDigit(source[end + 1] ?? "")) {
          end++;
          while (end < source.length && (isDigit(source[end]!) || source[end] === "_")) end++;
        }
        if ((source[end] === "e" || source[end] === "E") && (isDigit(source[end + 1] ?? "") || ((source[end + 1] === "+" || source[end + 1] === "-") && isDigit(source[end + 2] ?? "")))) {
          end += 2;
          while (end < source.length && isDigit(source[end]!)) end++;
        }
        const text = source.slice(pos, end);
        tokens.push({ kind: "number", value: text, num: Number(text.replaceAll("_", "")), line });
        pos = end;
        continue;
      }
      if (isNameStart(c)) {
        let end = pos + 1;
        while (end < source.length && isNameChar(source[end]!)) end++;
        tokens.push({ kind: "name", value: source.slice(pos, end), line });
        pos = end;
        continue;
      }
      const op = OPERATORS.find((o) => source.startsWith(o, pos));
      if (op === undefined) throw syntaxError(line, `unexpected character ${JSON.stringify(c)}`);
      if (op in CLOSING) brackets.push(CLOSING[op]!);
      else if (op === ")" || op === "]" || op === "}") {
        if (brackets.pop() !== op) throw syntaxError(line, `unbalanced '${op}'`);
      }
      tokens.push({ kind: "op", value: op, line });
      pos += op.length;
    }
    if (!closed) throw syntaxError(tagLine, `unclosed tag (${isBlock ? "{%" : "{{"} without ${closer})`);
    tokens.push({ kind: isBlock ? "block_end" : "var_end", value: closer, line });

    // {% raw %} ... {% endraw %}: the body is text, tags and all.
    if (isBlock && tokens.length === startIndex + 2 && tokens[startIndex]!.kind === "name" && tokens[startIndex]!.value === "raw") {
      tokens.splice(startIndex - 1, 3);
      const found = findEndRaw(source, pos);
      if (found === undefined) throw syntaxError(tagLine, "{% raw %} without {% endraw %}");
      let body = source.slice(pos, found.start);
      if (found.trimBefore) {
        let end = body.length;
        while (end > 0 && isSpace(body[end - 1]!)) end--;
        body = body.slice(0, end);
      }
      const bodyLine = line;
      countLines(pos, found.end);
      pushText(body, bodyLine);
      trimNext = found.trimAfter;
      pos = found.end;
    }
  }
  tokens.push({ kind: "eof", value: "", line });
  return tokens;
}

function readString(source: string, start: number, line: number): [string, number] {
  const quote = source[start]!;
  let out = "";
  let i = start + 1;
  while (i < source.length) {
    const c = source[i]!;
    if (c === quote) return [out, i + 1];
    if (c === "\\" && i + 1 < source.length) {
      const e = source[i + 1]!;
      const simple: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'", '"': '"', "0": "\0", "\n": "" };
      if (e in simple) {
        out += simple[e];
        i += 2;
        continue;
      }
      const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
      const hex = width ? source.slice(i + 2, i + 2 + width) : "";
      if (width && /^[0-9a-fA-F]+$/.test(hex) && hex.length === width) {
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) throw syntaxError(line, `invalid escape \\${e}${hex}`);
        out += String.fromCodePoint(code);
        i += 2 + width;
        continue;
      }
      out += c;
      i++;
      continue;
    }
    out += c;
    i++;
  }
  throw syntaxError(line, "unterminated string literal");
}

function findEndRaw(source: string, from: number): { start: number; end: number; trimBefore: boolean; trimAfter: boolean } | undefined {
  let at = from;
  for (;;) {
    const start = source.indexOf("{%", at);
    if (start < 0) return undefined;
    let i = start + 2;
    const trimBefore = source[i] === "-";
    if (trimBefore || source[i] === "+") i++;
    while (i < source.length && isSpace(source[i]!)) i++;
    if (source.startsWith("endraw", i) && !isNameChar(source[i + 6] ?? "")) {
      i += 6;
      while (i < source.length && isSpace(source[i]!)) i++;
      const trimAfter = source[i] === "-";
      if (trimAfter || source[i] === "+") i++;
      if (source.startsWith("%}", i)) return { start, end: i + 2, trimBefore, trimAfter };
    }
    at = start + 2;
  }
}
