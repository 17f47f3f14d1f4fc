/**
 * Which names the server answers to, and which pages may drive it.
 *
 * - **Host allow-list** (against DNS rebinding: a hostile page whose name is re-pointed at
 *   127.0.0.1 reaches the server with `Host: evil.example`): a request's `Host` must be one of
 *   `localhost`, `127.0.0.1`, `[::1]` or the bound address, with the server's port — when bound to
 *   a wildcard address (`0.0.0.0`, `::`), every local interface address and the machine's host
 *   name too — or an `allowedHosts` entry (`name`, any port; `name:port`, that port). Anything else
 *   is 403 `request_forbidden`.
 * - **Origin check** (against other origins in the user's browser, CSRF): a request carrying an
 *   `Origin` header — browsers send one on every cross-origin request and on every POST — must come
 *   from the server's own origin (the origin's host and port equal the request's `Host`) or an
 *   `allowedOrigins` entry; `Origin: null` (sandboxed frames, files) never passes. Else 403.
 *   Requests without `Origin` (curl, server-side clients) are not affected.
 */
import type { IncomingMessage } from "node:http";
import { hostname, networkInterfaces } from "node:os";
import { isIP } from "node:net";
import { HarnessServerError, RequestRefused } from "./errors.ts";

/** Is `host` (a bind address or name) a loopback address, reachable only from this machine? */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1");
  if (h === "localhost" || h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  const v4 = h.startsWith("::ffff:") ? h.slice(7) : h;
  return isIP(v4) === 4 && v4.startsWith("127.");
}

/** Is `host` a wildcard bind address (every interface)? */
export function isWildcardHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, "$1");
  return h === "0.0.0.0" || h === "::" || h === "0:0:0:0:0:0:0:0";
}

/** `host` as it appears in a URL / `Host` header (IPv6 bracketed, lower case). */
export function urlHost(host: string): string {
  const h = host.toLowerCase();
  return isIP(h) === 6 ? `[${h}]` : h;
}

interface HostPort {
  readonly name: string;
  readonly port: number | undefined;
}

/** `name[:port]` (IPv6 bracketed) → lower-case name and port; `undefined` when malformed. */
function parseHostPort(value: string): HostPort | undefined {
  const v = value.trim().toLowerCase();
  let name: string;
  let rest: string;
  if (v.startsWith("[")) {
    const end = v.indexOf("]");
    if (end < 0) return undefined;
    name = v.slice(0, end + 1);
    rest = v.slice(end + 1);
  } else {
    const colon = v.lastIndexOf(":");
    if (colon >= 0 && v.indexOf(":") !== colon) return isIP(v) === 6 ? { name: `[${v}]`, port: undefined } : undefined; // a bare IPv6 entry
    name = colon >= 0 ? v.slice(0, colon) : v;
    rest = colon >= 0 ? v.slice(colon) : "";
  }
  if (name === "" || name === "[]") return undefined;
  if (rest === "") return { name, port: undefined };
  if (!/^:\d{1,5}$/.test(rest)) return undefined;
  const port = Number(rest.slice(1));
  return port <= 65535 ? { name, port } : undefined;
}

export interface HostCheckOptions {
  /**
   * More names the server answers to, besides the defaults (loopback names and the bound address,
   * with the port): `"chat.example.com"` (any port — behind a proxy) or `"chat.example.com:8443"`.
   */
  readonly allowedHosts?: readonly string[];
  /** More origins that may send requests (`"https://app.example.com"`); the server's own origin always may. */
  readonly allowedOrigins?: readonly string[];
}

const forbidden = (message: string): RequestRefused => new RequestRefused("request_forbidden", 403, message);

/** The Host allow-list and the Origin check of one listening server. */
export class HostCheck {
  /** Entries whose port is `undefined` match any port; `"listening"`, the server's. */
  readonly #hosts: readonly { readonly name: string; readonly port: number | undefined | "listening" }[];
  readonly #origins: ReadonlySet<string>;

  /** Validates the options (`harness_server_option_invalid`) before the server listens. */
  constructor(options: HostCheckOptions, bound: string) {
    const names = ["localhost", "127.0.0.1", "[::1]", urlHost(bound)];
    if (isWildcardHost(bound)) {
      names.push(hostname().toLowerCase());
      for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.push(urlHost(a.address.split("%")[0]!));
    }
    const hosts: { name: string; port: number | undefined | "listening" }[] = names.map((name) => ({ name, port: "listening" }));
    for (const entry of options.allowedHosts ?? []) {
      const parsed = parseHostPort(entry);
      if (parsed === undefined) throw new HarnessServerError("harness_server_option_invalid", `allowedHosts: '${entry}' is not a host name or host:port`);
      hosts.push(parsed);
    }
    this.#hosts = hosts;
    const origins = new Set<string>();
    for (const entry of options.allowedOrigins ?? []) {
      let origin: string;
      try {
        origin = new URL(entry).origin;
      } catch {
        origin = "null";
      }
      if (origin === "null") throw new HarnessServerError("harness_server_option_invalid", `allowedOrigins: '${entry}' is not an origin (scheme://host[:port])`);
      origins.add(origin);
    }
    this.#origins = origins;
  }

  /** Throws `request_forbidden` (403) for a `Host` not on the list or a foreign `Origin`. */
  check(req: IncomingMessage, port: number): void {
    const header = req.headers["host"];
    const host = header === undefined ? undefined : parseHostPort(header);
    // No port in Host: the scheme's default (http, as node:http serves).
    const allowed = host !== undefined && this.#hosts.some((h) => h.name === host.name && (h.port === undefined || (h.port === "listening" ? port : h.port) === (host.port ?? 80)));
    if (!allowed) throw forbidden(`this server does not answer to Host ${JSON.stringify(header ?? "")} (add it to allowedHosts / --allowed-host if it is yours)`);
    const origin = req.headers["origin"];
    if (origin === undefined) return;
    let url: URL | undefined;
    try {
      url = new URL(origin);
    } catch {
      url = undefined;
    }
    if (url !== undefined && url.origin !== "null") {
      if (this.#origins.has(url.origin)) return;
      const defaultPort = url.protocol === "https:" ? 443 : 80;
      const same = url.hostname.toLowerCase() === host.name && (url.port === "" ? defaultPort : Number(url.port)) === (host.port ?? defaultPort);
      if (same && (url.protocol === "http:" || url.protocol === "https:")) return;
    }
    throw forbidden(`requests from origin ${JSON.stringify(origin)} are not accepted (add it to allowedOrigins / --allowed-origin if it is yours)`);
  }
}
