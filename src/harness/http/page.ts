/**
 * The web chat page the HTTP runtime serves at `GET /` (when it has a chat harness): one HTML
 * document, no build step and no third-party script. It keeps a session id in the URL
 * (`?session=…`, minted on first load), loads the history (`GET /chat/<session>/messages`),
 * sends each message as `POST /chat/<session>/messages` with `Accept: text/event-stream` and
 * renders the reply as its `delta` events arrive; a suspended turn shows its pending messages and
 * Approve / Reject buttons that resume it (`POST /chat/signals`, streamed the same way) — or
 * Continue, for a turn the server checkpointed while shutting down. On load it rebuilds those
 * buttons from the history response's `pending` list (the session's turns still waiting), so a
 * reload never strands a paused turn.
 *
 * A message the server did not take (an errored turn — e.g. `chat_turn_pending`, sent while a turn
 * waits for approval — saves nothing) is marked unsent and put back in the input box; the text in
 * the box is kept in `sessionStorage` per session, so a reload keeps it too.
 */
export const CHAT_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>openarmature chat</title>
<style>
  body { font: 15px/1.45 system-ui, sans-serif; max-width: 46rem; margin: 0 auto; padding: 1rem; color: #222; }
  #log { display: flex; flex-direction: column; gap: .5rem; margin-bottom: 1rem; }
  .msg { padding: .5rem .75rem; border-radius: .5rem; white-space: pre-wrap; }
  .user { background: #dbeafe; align-self: flex-end; }
  .assistant { background: #f1f5f9; align-self: flex-start; }
  .system { background: #fee2e2; align-self: center; font-size: 13px; }
  .unsent { opacity: .55; text-decoration: line-through; }
  .approval { display: flex; gap: .5rem; align-self: flex-start; }
  form { display: flex; gap: .5rem; }
  #text { flex: 1; padding: .5rem; font: inherit; }
  #status { color: #64748b; font-size: 13px; min-height: 1.2em; }
</style>
</head>
<body>
<h1>openarmature chat</h1>
<div id="log" aria-live="polite"></div>
<div id="status"></div>
<form id="send"><input id="text" autocomplete="off" placeholder="Message" required><button id="send-button">Send</button></form>
<script type="module">
const params = new URLSearchParams(location.search);
let session = params.get("session");
if (!session) { session = crypto.randomUUID(); params.set("session", session); history.replaceState(null, "", "?" + params); }
const base = "chat/" + encodeURIComponent(session);
const log = document.getElementById("log"), form = document.getElementById("send"), input = document.getElementById("text"), status = document.getElementById("status");
const textOf = (m) => typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((b) => b.text ?? "").join("") : "";
function bubble(role, text) {
  const div = document.createElement("div");
  div.className = "msg " + role;
  div.dataset.role = role;
  div.textContent = text;
  log.appendChild(div);
  return div;
}
function show(messages) { for (const m of messages) if (m.role !== "tool") bubble(m.role, textOf(m)); }
// The unsent text of the input box, per session (survives a reload, not the tab).
const draftKey = "openarmature-draft:" + session;
const draft = {
  get() { try { return sessionStorage.getItem(draftKey) || ""; } catch { return ""; } },
  set(text) { try { if (text) sessionStorage.setItem(draftKey, text); else sessionStorage.removeItem(draftKey); } catch { /* storage off: the box still holds it */ } },
};
input.value = draft.get();
input.addEventListener("input", () => draft.set(input.value));
/** POST \`body\` and render the streamed answer; resolves with the outcome ("completed", "suspended", "errored", …, or "failed"). */
async function stream(path, body) {
  status.textContent = "…";
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body: JSON.stringify(body) }).catch(() => null);
  if (!res || !res.ok || !res.body) {
    const err = res ? await res.json().catch(() => ({})) : {};
    bubble("system", (err.error && err.error.message) || (res ? "request failed: " + res.status : "the server cannot be reached"));
    status.textContent = "";
    return "failed";
  }
  let live = null, buffer = "", outcome = "failed";
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut;
    while ((cut = buffer.indexOf("\\n\\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = (block.match(/^event: (.*)$/m) || [])[1];
      const data = JSON.parse((block.match(/^data: (.*)$/m) || [, "null"])[1]);
      if (event === "delta") { live = live || bubble("assistant", ""); live.classList.add("streaming"); live.textContent += data.text; continue; }
      if (live) live.remove();
      live = null;
      outcome = event;
      if (event === "completed") show(data.replies);
      else if (event === "suspended") { show(data.pending_messages); approval(data.invocation_id, (data.signal_descriptor.metadata || {}).kind); }
      else if (event === "errored") bubble("system", textOf(data.reply));
      else if (data && data.error) bubble("system", data.error.message);
    }
  }
  status.textContent = "";
  return outcome;
}
function approval(invocationId, kind) {
  const box = document.createElement("div");
  box.className = "approval";
  // A turn the server checkpointed while shutting down ("interrupted") just continues.
  const choices = kind === "interrupted" ? [["continue", "Continue", {}]] : [["approve", "Approve", { decision: "approve" }], ["reject", "Reject", { decision: "reject" }]];
  for (const [decision, label, payload] of choices) {
    const b = document.createElement("button");
    b.textContent = label;
    b.dataset.decision = decision;
    b.onclick = async () => { box.remove(); await stream("chat/signals", { invocation_id: invocationId, payload }); };
    box.appendChild(b);
  }
  log.appendChild(box);
}
form.onsubmit = async (e) => {
  e.preventDefault();
  const text = input.value;
  input.value = "";
  const mine = bubble("user", text);
  const outcome = await stream(base + "/messages", { role: "user", content: text });
  if (outcome === "completed" || outcome === "suspended") return void draft.set(input.value);
  // Not taken (nothing of an errored turn is saved): keep the text for another try.
  mine.classList.add("unsent");
  mine.title = "not sent";
  if (input.value === "") input.value = text;
  draft.set(input.value);
};
fetch(base + "/messages").then((r) => r.json()).then((h) => {
  show(h.messages || []);
  // Turns still waiting for a signal get their buttons back (after a reload, a lost answer).
  for (const p of h.pending || []) approval(p.invocation_id, (p.signal_descriptor.metadata || {}).kind);
});
</script>
</body>
</html>
`;
