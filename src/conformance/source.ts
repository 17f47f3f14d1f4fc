/**
 * A parsed fixture file that remembers where every value came from (conformance-adapter §8.2:
 * lossless, order-preserving parsing). Values are plain JS data; `locate(path)` maps a key path
 * back to its line and column for error messages.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { Document, isMap, isNode, isPair, isScalar, isSeq, LineCounter, parseDocument, type Node as YamlNode } from "yaml";
import { DEFAULT_MAX_FIXTURE_BYTES, FixtureSchemaInvalid, FixtureTooLarge, type FixtureLocation } from "./errors.ts";

/** Aliases a fixture may expand; more is an alias bomb and rejected. */
const MAX_ALIAS_COUNT = 100;

export type KeyPath = ReadonlyArray<string | number>;

export class FixtureSource {
  private constructor(
    /** The path the fixture is reported under (relative to its root when discovered). */
    readonly file: string,
    readonly text: string,
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    /** The document as plain data; mapping key order is the document's order. */
    readonly data: unknown,
  ) {}

  /** Parse `text`; any YAML problem is `fixture_schema_invalid` naming file, line and key path. */
  static parse(file: string, text: string): FixtureSource {
    const lines = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
    const problem = doc.errors[0];
    if (problem !== undefined) {
      const pos = lines.linePos(problem.pos[0]);
      const path = pathAtOffset(doc, problem.pos[0]);
      const what = problem.code === "DUPLICATE_KEY" ? "repeated mapping key" : "invalid YAML";
      throw new FixtureSchemaInvalid(`${what}: ${firstLine(problem.message)}`, { file, line: pos.line, column: pos.col, path });
    }
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (err) {
      throw new FixtureSchemaInvalid(`YAML could not be expanded: ${firstLine(String((err as Error).message ?? err))}`, { file, line: 1, path: [] }, { cause: err });
    }
    return new FixtureSource(file, text, doc, lines, data);
  }

  /**
   * Read and parse `absPath`. A file over `maxBytes` is `fixture_too_large`, decided from its size
   * before anything is read (and the read stops at `maxBytes + 1` bytes, should it grow meanwhile).
   */
  static read(absPath: string, reportAs: string = absPath, maxBytes: number = DEFAULT_MAX_FIXTURE_BYTES): FixtureSource {
    const at = { file: reportAs, path: [] };
    let bytes: Buffer;
    let fd: number | undefined;
    try {
      fd = openSync(absPath, "r");
      const size = fstatSync(fd).size;
      if (size > maxBytes) throw new FixtureTooLarge(size, maxBytes, at);
      bytes = readAtMost(fd, maxBytes + 1);
    } catch (err) {
      if (err instanceof FixtureTooLarge) throw err;
      throw new FixtureSchemaInvalid(`cannot read fixture: ${(err as Error).message}`, at, { cause: err });
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    if (bytes.length > maxBytes) throw new FixtureTooLarge(bytes.length, maxBytes, at);
    return FixtureSource.parse(reportAs, bytes.toString("utf8"));
  }

  /** The location of the value at `path` (or of its deepest existing ancestor). */
  locate(path: KeyPath): FixtureLocation {
    let node: unknown = this.doc.contents;
    let located: YamlNode | null = isNode(node) ? node : null;
    for (const seg of path) {
      if (isMap(node)) {
        const pair = node.items.find((p) => isPair(p) && keyOf(p.key) === String(seg));
        if (pair === undefined) break;
        if (isNode(pair.key)) located = pair.key;
        node = pair.value;
      } else if (isSeq(node) && typeof seg === "number") {
        node = node.items[seg];
        if (isNode(node)) located = node;
        else break;
      } else break;
    }
    const offset = located?.range?.[0];
    if (offset === undefined) return { file: this.file, path };
    const pos = this.lines.linePos(offset);
    return { file: this.file, line: pos.line, column: pos.col, path };
  }

  /** Leading `#` comment block of the document: the per-directory harness note, if any (§3.2). */
  get headerComment(): string {
    return this.doc.commentBefore ?? "";
  }
}

/** Up to `limit` bytes of the open file `fd`, from its start. */
function readAtMost(fd: number, limit: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < limit) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, limit - total));
    const n = readSync(fd, chunk, 0, chunk.length, total);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

function keyOf(key: unknown): string {
  if (isScalar(key)) return String(key.value);
  return String(key);
}

function firstLine(s: string): string {
  return s.split("\n")[0] ?? s;
}

/** Best-effort key path of the innermost mapping entry containing `offset`. */
function pathAtOffset(doc: Document.Parsed, offset: number): Array<string | number> {
  const path: Array<string | number> = [];
  let node: unknown = doc.contents;
  for (let depth = 0; depth < 64; depth++) {
    if (isMap(node)) {
      const pair = node.items.find((p) => {
        const k = isNode(p.key) ? p.key.range : undefined;
        const v = isNode(p.value) ? p.value.range : undefined;
        const start = k?.[0] ?? v?.[0];
        const end = v?.[2] ?? k?.[2];
        return start !== undefined && end !== undefined && offset >= start && offset <= end;
      });
      if (pair === undefined) break;
      path.push(keyOf(pair.key));
      node = pair.value;
    } else if (isSeq(node)) {
      const idx = node.items.findIndex((it) => isNode(it) && it.range != null && offset >= it.range[0] && offset <= it.range[2]);
      if (idx < 0) break;
      path.push(idx);
      node = node.items[idx];
    } else break;
  }
  return path;
}
