/**
 * The chat load: `sessions` concurrent conversations of `turns` turns each against an HTTP harness
 * (`POST /chat/<session>/messages`), one turn at a time per session. Turn `t` of session `s` says
 * `<s{s}-t{t}>`; the scripted provider's script answers exactly that message with
 * `reply <s{s}-t{t}>` (a `when` entry served once), so a lost, duplicated or misrouted turn shows.
 * Shared by the load test (`test/harness/load.test.ts`, which checks every answer and history) and
 * the latency bench (`bench/http-harness.ts`, which times the turns).
 */
import type { ResponseEntry } from "../../src/testing/index.ts";

export const tag = (s: number, t: number): string => `<s${s}-t${t}>`;

/** One `when` entry per turn. */
export function loadScript(sessions: number, turns: number): ResponseEntry[] {
  const out: ResponseEntry[] = [];
  for (let s = 0; s < sessions; s++) for (let t = 0; t < turns; t++) out.push({ type: "text", content: `reply ${tag(s, t)}`, when: { prompt_contains: tag(s, t) } });
  return out;
}

export interface TurnRecord {
  readonly session: number;
  readonly turn: number;
  readonly status: number;
  readonly body: { readonly outcome?: string; readonly replies?: ReadonlyArray<{ role: string; content: unknown }> };
  /** Wall-clock ms from request to parsed body. */
  readonly ms: number;
}

/** Drive the load; resolves with every turn's record (in completion order). */
export async function runChatLoad(url: string, sessions: number, turns: number, sessionName: (s: number) => string = (s) => `load-${s}`): Promise<TurnRecord[]> {
  const records: TurnRecord[] = [];
  await Promise.all(
    Array.from({ length: sessions }, async (_, s) => {
      for (let t = 0; t < turns; t++) {
        const started = performance.now();
        const res = await fetch(`${url}/chat/${sessionName(s)}/messages`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ role: "user", content: `turn ${tag(s, t)}` }),
        });
        const body = (await res.json()) as TurnRecord["body"];
        records.push({ session: s, turn: t, status: res.status, body, ms: performance.now() - started });
      }
    }),
  );
  return records;
}
