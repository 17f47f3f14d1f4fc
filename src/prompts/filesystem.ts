/**
 * The filesystem `PromptBackend` (prompt-management §5's minimum reference). Layout under `root`,
 * the label being a subdirectory:
 *
 * ```
 * <root>/<label>/<name>.j2            a Text prompt (the template text)
 * <root>/<label>/<name>.chat.json     a Chat prompt (a JSON list of §3.1 segments)
 * <root>/<label>/<name>.config.json   optional per-prompt sidecar: a SamplingConfig (+ token_budget)
 * <root>/prompt_configs.json          optional unified sidecar, read at construction: {<name>: SamplingConfig}
 * ```
 *
 * Both §5 sidecar conventions are supported; a per-prompt sidecar wins over the unified entry.
 * Unrecognized sampling keys go to `extras`; `token_budget` keeps only its recognized bounds and a
 * malformed budget is dropped (§5, proposal 0109). `version` is `sha-` plus the first 12 hex digits of
 * the template hash (distinct contents, distinct versions); `metadata.path` is the template file.
 * The backend reads the files on every fetch, so `cacheTtlSeconds` is a no-op (wrap it in
 * {@link CachingPromptBackend} to cache).
 *
 * Containment: every file is read at its real path, and only when that path is inside the real
 * path of the root. A symlink (to a file, or a label directory) that resolves outside the root is
 * refused as `prompt_not_found` — the store holds no prompt there, as with a name that is not a safe
 * relative path — naming the file and the refusal (never its content). A symlink that stays inside
 * the root, and a root that is itself reached through a symlink, work. Files are opened without
 * following a final symlink and without blocking (a FIFO is refused, not waited on), and read only
 * up to `maxFileBytes`.
 *
 * Errors: no template for `(name, label)` (or a name that is not a safe relative path, or a file
 * that resolves outside the root) is `prompt_not_found` naming the files looked for; a missing root
 * or an I/O failure is `prompt_store_unavailable`; a malformed chat file or sidecar, or a file over
 * `maxFileBytes`, is `prompt_config_invalid`.
 */
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from "node:fs";
import { open, realpath, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { checkCacheTtl, type FetchOptions, type PromptBackend } from "./backend.ts";
import { PromptConfigInvalid, PromptNotFound, PromptStoreUnavailable } from "./errors.ts";
import { createPrompt, templateHash, type ChatSegment, type Prompt } from "./prompt.ts";
import { samplingConfigFrom, tokenBudgetFrom, type SamplingConfig, type TokenBudget } from "./sampling.ts";

const SEGMENT = "[A-Za-z0-9_][A-Za-z0-9_.-]*";
const NAME = new RegExp(`^${SEGMENT}(?:/${SEGMENT})*$`);
const LABEL = new RegExp(`^${SEGMENT}$`);

export interface FilesystemPromptBackendOptions {
  readonly root: string;
  readonly name?: string;
  /** The largest template or sidecar file read, in bytes (default 8 MiB); a larger one is `prompt_config_invalid`. */
  readonly maxFileBytes?: number;
}

export const DEFAULT_MAX_PROMPT_FILE_BYTES = 8 * 1024 * 1024;

/** Open read-only, not following a final symlink, not blocking on a FIFO (flags absent on a platform are 0). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** Is `target` (a real path) inside `root` (a real path)? */
function inside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel !== "" && !isAbsolute(rel) && rel.split(sep)[0] !== "..";
}

/** Why a file is not read: it is outside the root, not a regular file, or too large. */
type Refusal = { readonly kind: "outside" } | { readonly kind: "not-a-file" } | { readonly kind: "too-large"; readonly size: number };

function errnoOf(e: unknown): string | undefined {
  return typeof e === "object" && e !== null ? ((e as { code?: unknown }).code as string | undefined) : undefined;
}

export class FilesystemPromptBackend implements PromptBackend {
  readonly name: string;
  readonly root: string;
  readonly maxFileBytes: number;
  readonly #unified: Readonly<Record<string, unknown>>;

  constructor(options: FilesystemPromptBackendOptions) {
    this.root = resolve(options.root);
    this.name = options.name ?? `filesystem:${this.root}`;
    const max = options.maxFileBytes ?? DEFAULT_MAX_PROMPT_FILE_BYTES;
    if (!Number.isSafeInteger(max) || max <= 0) throw new RangeError(`maxFileBytes must be a positive integer, got ${String(max)}`);
    this.maxFileBytes = max;
    const unifiedPath = join(this.root, "prompt_configs.json");
    let text: string | undefined;
    try {
      text = this.#readSync(unifiedPath);
    } catch (e) {
      if (isRefusal(e)) throw new PromptConfigInvalid("*", "*", unifiedPath, this.#refusalText(unifiedPath, e));
      if (errnoOf(e) !== "ENOENT" && errnoOf(e) !== "ENOTDIR") throw new PromptStoreUnavailable("*", "*", this.name, `cannot read ${unifiedPath}: ${(e as Error).message}`, { cause: e });
    }
    let unified: unknown = {};
    if (text !== undefined) {
      try {
        unified = JSON.parse(text);
      } catch (e) {
        throw new PromptConfigInvalid("*", "*", unifiedPath, `not JSON: ${(e as Error).message}`, { cause: e });
      }
      if (typeof unified !== "object" || unified === null || Array.isArray(unified)) {
        throw new PromptConfigInvalid("*", "*", unifiedPath, "must be a JSON object mapping prompt name to config");
      }
    }
    this.#unified = unified as Record<string, unknown>;
  }

  async fetch(name: string, label: string, options: FetchOptions = {}): Promise<Prompt> {
    checkCacheTtl(options.cacheTtlSeconds);
    if (!NAME.test(name) || name.split("/").includes("..")) throw new PromptNotFound(name, label, `'${name}' is not a valid prompt file name in backend '${this.name}'`);
    if (!LABEL.test(label)) throw new PromptNotFound(name, label, `'${label}' is not a valid label directory in backend '${this.name}'`);
    const base = join(this.root, label, name);
    const textPath = `${base}.j2`;
    const chatPath = `${base}.chat.json`;
    const [text, chat] = await Promise.all([this.#read(textPath, name, label), this.#read(chatPath, name, label)]);
    if (text === undefined && chat === undefined) {
      const rootOk = await stat(this.root).then((s) => s.isDirectory(), () => false);
      if (!rootOk) throw new PromptStoreUnavailable(name, label, this.name, `root directory ${this.root} does not exist`);
      throw new PromptNotFound(name, label, `no ${textPath} or ${chatPath}`);
    }
    if (text !== undefined && chat !== undefined) throw new PromptConfigInvalid(name, label, base, "both a .j2 and a .chat.json template exist; keep one");
    const { sampling, token_budget } = await this.#config(name, label, `${base}.config.json`);
    const extra: { sampling?: SamplingConfig; token_budget?: TokenBudget } = {};
    if (sampling !== undefined) extra.sampling = sampling;
    if (token_budget !== undefined) extra.token_budget = token_budget;
    if (text !== undefined) {
      const hash = templateHash(text);
      return createPrompt({ name, label, version: versionOf(hash), template: text, template_hash: hash, metadata: { path: textPath }, ...extra });
    }
    let segments: unknown;
    try {
      segments = JSON.parse(chat as string);
    } catch (e) {
      throw new PromptConfigInvalid(name, label, chatPath, `not JSON: ${(e as Error).message}`, { cause: e });
    }
    if (!Array.isArray(segments) || segments.some((s) => typeof s !== "object" || s === null || Array.isArray(s))) {
      throw new PromptConfigInvalid(name, label, chatPath, "must be a JSON list of segments ({role, content} or {placeholder})");
    }
    const hash = templateHash(segments as ChatSegment[]);
    return createPrompt({ name, label, version: versionOf(hash), chat_template: segments as ChatSegment[], template_hash: hash, metadata: { path: chatPath }, ...extra });
  }

  async #read(path: string, name: string, label: string): Promise<string | undefined> {
    try {
      const real = await realpath(path);
      if (!inside(await realpath(this.root), real)) throw refusal({ kind: "outside" });
      const handle = await open(real, OPEN_FLAGS);
      try {
        const info = await handle.stat();
        if (!info.isFile()) throw refusal({ kind: "not-a-file" });
        if (info.size > this.maxFileBytes) throw refusal({ kind: "too-large", size: info.size });
        // Read at most one byte past the limit: a file that grew since the stat is still bounded.
        const buffer = Buffer.alloc(Math.min(info.size, this.maxFileBytes) + 1);
        let length = 0;
        for (;;) {
          const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
          if (bytesRead === 0) break;
          length += bytesRead;
          if (length === buffer.length) break;
        }
        if (length > this.maxFileBytes) throw refusal({ kind: "too-large", size: length });
        return buffer.subarray(0, length).toString("utf8");
      } finally {
        await handle.close();
      }
    } catch (e) {
      if (isRefusal(e)) {
        const text = this.#refusalText(path, e);
        if (e.refusal.kind === "outside") throw new PromptNotFound(name, label, text);
        if (e.refusal.kind === "too-large") throw new PromptConfigInvalid(name, label, path, text);
        throw new PromptStoreUnavailable(name, label, this.name, text);
      }
      const code = errnoOf(e);
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw new PromptStoreUnavailable(name, label, this.name, `cannot read ${path}: ${(e as Error).message}`, { cause: e });
    }
  }

  /** The synchronous read for the unified sidecar at construction (same containment and bound). */
  #readSync(path: string): string {
    const real = realpathSync(path);
    if (!inside(realpathSync(this.root), real)) throw refusal({ kind: "outside" });
    const fd = openSync(real, OPEN_FLAGS);
    try {
      const info = fstatSync(fd);
      if (!info.isFile()) throw refusal({ kind: "not-a-file" });
      if (info.size > this.maxFileBytes) throw refusal({ kind: "too-large", size: info.size });
      const buffer = Buffer.alloc(Math.min(info.size, this.maxFileBytes) + 1);
      let length = 0;
      for (;;) {
        const n = readSync(fd, buffer, length, buffer.length - length, null);
        if (n === 0) break;
        length += n;
        if (length === buffer.length) break;
      }
      if (length > this.maxFileBytes) throw refusal({ kind: "too-large", size: length });
      return buffer.subarray(0, length).toString("utf8");
    } finally {
      closeSync(fd);
    }
  }

  #refusalText(path: string, e: RefusalError): string {
    switch (e.refusal.kind) {
      case "outside":
        return `${path} resolves outside the prompt root ${this.root} (through a symlink) and is refused`;
      case "not-a-file":
        return `${path} is not a regular file`;
      case "too-large":
        return `${path} is ${e.refusal.size} bytes or more, over maxFileBytes (${this.maxFileBytes})`;
    }
  }

  async #config(name: string, label: string, sidecar: string): Promise<{ sampling?: SamplingConfig; token_budget?: TokenBudget }> {
    const text = await this.#read(sidecar, name, label);
    let raw: unknown;
    let source: string;
    if (text !== undefined) {
      source = sidecar;
      try {
        raw = JSON.parse(text);
      } catch (e) {
        throw new PromptConfigInvalid(name, label, sidecar, `not JSON: ${(e as Error).message}`, { cause: e });
      }
    } else {
      source = `${join(this.root, "prompt_configs.json")} entry '${name}'`;
      raw = this.#unified[name];
    }
    if (raw === undefined || raw === null) return {};
    try {
      const out: { sampling?: SamplingConfig; token_budget?: TokenBudget } = {};
      const sampling = samplingConfigFrom(raw);
      if (sampling !== undefined) out.sampling = sampling;
      const budget = tokenBudgetFrom((raw as Record<string, unknown>)["token_budget"]);
      if (budget !== undefined) out.token_budget = budget;
      return out;
    } catch (e) {
      throw new PromptConfigInvalid(name, label, source, (e as Error).message, { cause: e });
    }
  }
}

class RefusalError extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.kind);
  }
}
function refusal(r: Refusal): RefusalError {
  return new RefusalError(r);
}
function isRefusal(e: unknown): e is RefusalError {
  return e instanceof RefusalError;
}

function versionOf(hash: string): string {
  return `sha-${hash.slice("sha256:".length, "sha256:".length + 12)}`;
}
