/**
 * The HTTP runtime's own categories (project categories: the harness spec leaves the transport to
 * implementations). Two families:
 *
 * - A request refused before (or instead of) a turn — answered `{error: {category, message}}`:
 *   `request_invalid` (400 / 404 / 405 / 413 / 415: the server cannot read it),
 *   `request_unauthenticated` (401 with `WWW-Authenticate: Bearer`: no or a wrong token),
 *   `request_forbidden` (403: a `Host` not on the allow-list, an `Origin` that is not the server's),
 *   `request_timeout` (408: the body did not arrive within `bodyTimeoutMs`).
 * - The server refusing to start — thrown by `startHarnessServer` as a {@link HarnessServerError}:
 *   `harness_server_token_required` (a non-loopback address without a token),
 *   `harness_server_option_invalid` (a malformed token or limit),
 *   `harness_server_store_unavailable` (the SQLite file for sessions / paused turns cannot be
 *   opened, when the store's own error carries no category), `harness_server_listen_failed`
 *   (the address is taken or not ours).
 */

export type RequestErrorCategory = "request_invalid" | "request_unauthenticated" | "request_forbidden" | "request_timeout";

/** A request the server refuses: its HTTP status, category and any headers to answer with. */
export class RequestRefused extends Error {
  override name = "RequestRefused";
  constructor(
    readonly category: RequestErrorCategory,
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

/** `request_invalid`: a request the server cannot read (a client's mistake, never a 500). */
export class RequestInvalid extends RequestRefused {
  override name = "RequestInvalid";
  constructor(status: number, message: string, headers: Readonly<Record<string, string>> = {}) {
    super("request_invalid", status, message, headers);
  }
}

export const HARNESS_SERVER_ERROR_CATEGORIES = [
  "harness_server_token_required",
  "harness_server_option_invalid",
  "harness_server_store_unavailable",
  "harness_server_listen_failed",
] as const;
export type HarnessServerErrorCategory = (typeof HARNESS_SERVER_ERROR_CATEGORIES)[number];

/** Why `startHarnessServer` refused to start (see the module comment for the categories). */
export class HarnessServerError extends Error {
  override name = "HarnessServerError";
  constructor(readonly category: HarnessServerErrorCategory, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
