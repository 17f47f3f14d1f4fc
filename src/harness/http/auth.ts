/**
 * The HTTP runtime's token (the one credential every route checks when the server has one).
 *
 * A client proves it knows the token either with `Authorization: Bearer <token>` or with the page
 * cookie: `GET /?token=<token>` (the URL the CLI prints once) answers `303 See Other` to the same
 * URL without the token and sets an `HttpOnly; SameSite=Strict; Path=/` cookie, so the web page's
 * own same-origin requests carry it — the token never appears in the page's HTML or script, and the
 * browser's address bar and history keep only the token-less URL. The cookie's value is an HMAC of
 * the token (not the token itself), its name carries the port (cookies are not port-scoped, and two
 * servers on one host must not overwrite each other's). Comparisons are constant-time: both sides
 * are hashed to 32 bytes and compared with `timingSafeEqual`, so neither the content nor the
 * length of the token leaks through timing.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HarnessServerError, RequestRefused } from "./errors.ts";

/** The shortest accepted token (a shorter one is `harness_server_option_invalid`). */
export const TOKEN_MIN_LENGTH = 16;
/** The environment variable `openarmature serve` reads the token from (when `--token` is not given). */
export const TOKEN_ENV = "OPENARMATURE_TOKEN";

/** Refuse a token that is too short or would not survive a header (visible ASCII only, no spaces). */
export function checkToken(token: string): void {
  if (token.length < TOKEN_MIN_LENGTH) {
    throw new HarnessServerError("harness_server_option_invalid", `the server token must be at least ${TOKEN_MIN_LENGTH} characters (got ${token.length}); generate one with: node -e "console.log(crypto.randomBytes(24).toString('base64url'))"`);
  }
  if (!/^[\x21-\x7e]+$/.test(token)) throw new HarnessServerError("harness_server_option_invalid", "the server token must be visible ASCII characters only (no spaces or control characters)");
}

const digest = (s: string): Buffer => createHash("sha256").update(s, "utf8").digest();
/** Constant-time string equality (hashing first makes the lengths equal). */
export function safeEqual(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

const unauthenticated = (message: string): RequestRefused =>
  new RequestRefused("request_unauthenticated", 401, message, { "www-authenticate": 'Bearer realm="openarmature"' });

/** Checks a request's credentials against the server's token. */
export class TokenGate {
  readonly #token: string;
  readonly #cookieValue: string;

  constructor(token: string) {
    checkToken(token);
    this.#token = token;
    this.#cookieValue = createHmac("sha256", token).update("openarmature web page cookie").digest("base64url");
  }

  /** The page cookie's name for a server on `port`. */
  static cookieName(port: number): string {
    return `openarmature_auth_${port}`;
  }

  /** Does `candidate` equal the token (constant-time)? */
  matches(candidate: string): boolean {
    return safeEqual(candidate, this.#token);
  }

  /** Throws `request_unauthenticated` (401) unless the request carries the Bearer token or the page cookie. */
  require(req: IncomingMessage, port: number): void {
    const authorization = req.headers["authorization"];
    if (authorization !== undefined) {
      const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
      if (m !== null && this.matches(m[1]!)) return;
      throw unauthenticated("the Authorization header does not carry this server's token (expected 'Authorization: Bearer <token>')");
    }
    const cookie = cookieOf(req, TokenGate.cookieName(port));
    if (cookie !== undefined && safeEqual(cookie, this.#cookieValue)) return;
    throw unauthenticated("this server needs its token: send 'Authorization: Bearer <token>', or open the page once at /?token=<token> (the URL the server printed)");
  }

  /**
   * `GET /?token=...`: a matching token answers 303 to the same URL without it, setting the page
   * cookie; a wrong one is 401.
   */
  exchange(url: URL, port: number): { status: 303; headers: Record<string, string> } {
    const given = url.searchParams.get("token") ?? "";
    if (!this.matches(given)) throw unauthenticated("the token in the URL is not this server's token");
    const rest = new URLSearchParams(url.searchParams);
    rest.delete("token");
    const query = rest.toString();
    return {
      status: 303,
      headers: {
        location: `${url.pathname}${query === "" ? "" : `?${query}`}`,
        "set-cookie": `${TokenGate.cookieName(port)}=${this.#cookieValue}; HttpOnly; SameSite=Strict; Path=/`,
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      },
    };
  }
}

/** The value of cookie `name` in the request's `Cookie` header. */
function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers["cookie"];
  if (header === undefined) return undefined;
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}
