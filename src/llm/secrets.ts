/**
 * Credentials and how they are kept out of what is stored or shown: the cassettes (`cassette.ts`)
 * and provider errors (`errors.ts` `redactError`) both use these.
 *
 * A credential is found where a request carries it — an auth header (`authorization` with or
 * without a `Bearer ` / `Basic ` scheme, `x-api-key`, `x-goog-api-key`, ...) or a `key=` /
 * `api_key=` / `access_token=` query parameter — or is configured by the caller. It is then
 * scrubbed in the forms it takes in text: as-is, percent-encoded (a URL) and JSON-escaped (a body).
 */

export const REDACTED = "[redacted]";

/**
 * A credential taken from a request or an endpoint is scrubbed from free text only from this
 * length on: a shorter one ("k", "sk-test") is a placeholder, and replacing it everywhere would
 * mangle the text ("max_to[redacted]ens"). Auth headers and auth query values are redacted whole
 * at any length.
 */
export const MIN_CREDENTIAL_LENGTH = 8;

/** Headers whose value is a credential (compared lower-case). */
export const AUTH_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "x-api-key",
  "x-goog-api-key",
  "api-key",
  "cookie",
  "set-cookie",
]);

/** Query parameters whose value is a credential (compared lower-case). */
export const AUTH_PARAMS: ReadonlySet<string> = new Set(["key", "api_key", "apikey", "api-key", "access_token", "token"]);

/**
 * Secrets a request carries in its auth headers and query parameters: each header value, the
 * token after its scheme, and for `Basic` the decoded password.
 */
export function credentialsOf(url: string, headers: Readonly<Record<string, string>>): string[] {
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!AUTH_HEADERS.has(name.toLowerCase()) || value === "") continue;
    out.push(value);
    const scheme = /^\s*(\w+)\s+(\S.*?)\s*$/.exec(value);
    if (scheme) {
      out.push(scheme[2]!);
      if (scheme[1]!.toLowerCase() === "basic") {
        const decoded = Buffer.from(scheme[2]!, "base64").toString("utf8");
        const colon = decoded.indexOf(":");
        if (colon >= 0) out.push(decoded.slice(colon + 1));
      }
    }
  }
  for (const [, value] of authParams(url)) if (value !== "") out.push(value);
  return out;
}

function authParams(url: string): Array<[string, string]> {
  const q = url.indexOf("?");
  if (q < 0) return [];
  const params = new URLSearchParams(url.slice(q + 1).split("#")[0]);
  return [...params].filter(([k]) => AUTH_PARAMS.has(k.toLowerCase()));
}

/** `url` with the value of every auth query parameter replaced by {@link REDACTED}, whatever its length. */
export function redactAuthParams(url: string): string {
  const q = url.indexOf("?");
  if (q < 0) return url;
  return url.slice(0, q + 1) + url.slice(q + 1).replace(/(^|&)([^=&#]*)=([^&#]*)/g, (all, sep: string, key: string) => {
    let name = key;
    try {
      name = decodeURIComponent(key);
    } catch {
      // a malformed escape: compare the raw name
    }
    return AUTH_PARAMS.has(name.toLowerCase()) ? `${sep}${key}=${REDACTED}` : all;
  });
}

/** The forms of `secret` that can appear in text: as-is, percent-encoded, JSON-escaped. */
export function secretForms(secret: string): string[] {
  const forms = new Set([secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)]);
  return [...forms].filter((f) => f.length > 0);
}

/** Replaces known secrets, in every form {@link secretForms} lists, by {@link REDACTED}. */
export class Scrubber {
  /** Longest first, so a secret that contains another is replaced whole. */
  readonly #forms: string[];

  constructor(secrets: Iterable<string>) {
    const forms = new Set<string>();
    for (const s of secrets) if (s.length > 0) for (const f of secretForms(s)) forms.add(f);
    this.#forms = [...forms].sort((a, b) => b.length - a.length);
  }

  get empty(): boolean {
    return this.#forms.length === 0;
  }

  /** Does `text` hold a secret? */
  finds(text: string): boolean {
    return this.#forms.some((f) => text.includes(f));
  }

  text(text: string): string {
    let out = text;
    for (const f of this.#forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
    return out;
  }

  /**
   * `chunks` with every secret replaced, also one split across chunk boundaries: the chunks are
   * scanned as one byte sequence; a secret is replaced in the chunk where it starts and its bytes in
   * later chunks are dropped. Chunk count and the boundaries outside secrets stay as they were.
   */
  chunks(chunks: ReadonlyArray<Uint8Array>): Uint8Array[] {
    if (this.#forms.length === 0) return chunks.map((c) => c);
    const all = Buffer.concat(chunks.map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength)));
    const spans: Array<[number, number]> = [];
    for (const f of this.#forms) {
      const needle = Buffer.from(f, "utf8");
      for (let at = all.indexOf(needle); at >= 0; at = all.indexOf(needle, at + needle.length)) spans.push([at, at + needle.length]);
    }
    if (spans.length === 0) return chunks.map((c) => c);
    spans.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    const merged: Array<[number, number]> = [];
    for (const s of spans) {
      const last = merged[merged.length - 1];
      if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
      else merged.push([s[0], s[1]]);
    }
    const marker = Buffer.from(REDACTED, "utf8");
    const out: Uint8Array[] = [];
    let start = 0;
    let k = 0;
    for (const c of chunks) {
      const end = start + c.byteLength;
      const parts: Buffer[] = [];
      let at = start;
      while (at < end) {
        while (k < merged.length && merged[k]![1] <= at) k++;
        const span = merged[k];
        if (span === undefined || span[0] >= end) {
          parts.push(all.subarray(at, end));
          break;
        }
        if (span[0] > at) parts.push(all.subarray(at, span[0]));
        if (span[0] >= start) parts.push(marker); // the chunk where the secret starts carries the marker
        at = Math.min(span[1], end);
      }
      out.push(new Uint8Array(Buffer.concat(parts)));
      start = end;
    }
    return out;
  }
}
