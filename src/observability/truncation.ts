/**
 * The payload truncation contract (observability §5.5.5): a per-attribute UTF-8 byte cap (64 KiB
 * by default), a marker carrying the pre-truncation size, and a prefix cut at a code-point
 * boundary so the result is always valid UTF-8.
 */

/** §5.5.5 default per-attribute cap. */
export const DEFAULT_PAYLOAD_BYTE_CAP = 65_536;

/** §5.5.5 smallest cap an observer accepts (room for the marker plus a useful preview). */
export const MIN_PAYLOAD_BYTE_CAP = 256;

/** The marker appended to a truncated value: `…[truncated, M bytes total]`. */
export function truncationMarker(totalBytes: number): string {
  return `\u2026[truncated, ${totalBytes} bytes total]`;
}

/**
 * `value` unchanged when its UTF-8 encoding fits `cap` bytes; otherwise its longest prefix ending
 * on a code-point boundary that, followed by the marker, fits the cap.
 */
export function truncatePayload(value: string, cap: number = DEFAULT_PAYLOAD_BYTE_CAP): string {
  if (!Number.isInteger(cap) || cap <= 0) throw new RangeError(`payload byte cap must be a positive integer, got ${cap}`);
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length <= cap) return value;
  const marker = truncationMarker(bytes.length);
  let n = cap - Buffer.byteLength(marker, "utf8");
  if (n < 0) n = 0;
  // Back up over continuation bytes (10xxxxxx) to the start of the sequence the cut falls in.
  while (n > 0 && n < bytes.length && (bytes[n]! & 0xc0) === 0x80) n--;
  return bytes.subarray(0, n).toString("utf8") + marker;
}

/**
 * A structured payload value within `cap` (§5.5.5 applied to a value written directly, §8.7): the
 * value itself when its JSON serialization fits, else that serialization truncated — a string,
 * no longer parseable JSON, which is the truncation signal.
 */
export function capPayloadValue(value: unknown, cap: number = DEFAULT_PAYLOAD_BYTE_CAP): unknown {
  const json = JSON.stringify(value) ?? "null";
  return Buffer.byteLength(json, "utf8") <= cap ? value : truncatePayload(json, cap);
}
