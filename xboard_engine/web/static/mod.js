// The moderators' page (/mod): the open reports with their evidence, an action form for each
// reported player (and for any player by number), and the moderator log, from /mod.json.
// User text is only ever shown through textContent.
"use strict";

function option(value, text) { const o = document.createElement("option"); o.value = value; o.textContent = text; return o; }

// The fields of one action: what, for how long, the new name, why; sent to /mod/action.
function actionForm(form, player, reports, data) {
  const action = document.createElement("select");
  action.className = "act-action";
  action.append(...data.actions.map((a) => option(a, a)));
  const minutes = document.createElement("select");
  minutes.className = "act-minutes";
  minutes.append(...data.timeouts.map((m) => option(m, `${m} minutes`)));
  const kind = document.createElement("select");
  kind.className = "act-kind";
  kind.append(...["timeout", "mute", "troll", "engine", "booster"].map((k) => option(k, `lift ${k}`)));
  const name = document.createElement("input");
  name.className = "act-name";
  name.placeholder = "new name";
  name.maxLength = 24;
  const reason = document.createElement("input");
  reason.className = "act-reason";
  reason.placeholder = "reason (required)";
  reason.maxLength = 500;
  const go = document.createElement("button");
  go.type = "submit";
  go.textContent = "Apply";
  const shown = () => {
    minutes.hidden = action.value !== "timeout";
    kind.hidden = action.value !== "lift";
    name.hidden = action.value !== "rename";
  };
  action.onchange = shown;
  shown();
  form.append(action, minutes, kind, name, reason, go);
  form.onsubmit = async (event) => {
    event.preventDefault();
    const body = { player: player() , action: action.value, reason: reason.value, reports };
    if (action.value === "timeout") body.minutes = Number(minutes.value);
    if (action.value === "lift") body.kind = kind.value;
    if (action.value === "rename") body.name = name.value;
    const response = await fetch("/mod/action", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
    $("mod-message").textContent = answer.error || `Done (log entry ${answer.log}).`;
    if (!answer.error) load();
  };
}

function reportBox(r, data) {
  const box = document.createElement("div");
  box.className = "report";
  box.dataset.report = r.id;
  const head = document.createElement("p");
  head.append(playerLink(r.playerName || `#${r.player}`, r.player), ` reported for ${r.reason} by `,
              playerLink(r.reporterName || `#${r.reporter}`, r.reporter), ` on ${new Date(r.at * 1000).toLocaleString()}`);
  box.append(head);
  if (r.note) { const p = document.createElement("p"); p.textContent = `“${r.note}”`; box.append(p); }
  if (r.game && r.game.slug) {
    const p = document.createElement("p");
    const a = document.createElement("a");
    a.href = `/g/${r.game.slug}`;
    a.textContent = "the game";
    p.append(a);
    box.append(p);
    const chat = document.createElement("ul");
    chat.className = "report-chat";
    for (const line of r.game.chat) {
      const li = document.createElement("li");
      li.textContent = `${line.name}${line.channel === "all" ? "" : ` (${line.channel})`}: ${line.text}`;
      chat.append(li);
    }
    box.append(chat);
  }
  const evidence = document.createElement("p");
  evidence.className = "hint";
  const games = r.evidence.games.map((g) => `${g.status}${g.rated ? " rated" : ""}${g.result && g.result.reason ? ` (${g.result.reason})` : ""}`);
  evidence.textContent = `Recent games: ${games.join(", ") || "none"}. ` +
    (r.evidence.flags.length ? `Flags: ${r.evidence.flags.join("; ")}. ` : "") +
    (Object.keys(r.evidence.sanctions).length ? `In force: ${Object.keys(r.evidence.sanctions).join(", ")}.` : "");
  box.append(evidence);
  const form = document.createElement("form");
  actionForm(form, () => r.player, [r.id], data);
  box.append(form);
  return box;
}

async function load() {
  const response = await fetch("/mod.json", { cache: "no-store" });
  const data = await response.json().catch(() => ({ error: "the server's answer was not understood" }));
  if (data.error) { $("mod-message").textContent = data.error; document.body.dataset.ready = "1"; return; }
  $("report-count").textContent = `(${data.reports.length})`;
  $("reports").replaceChildren(...data.reports.map((r) => reportBox(r, data)));
  const form = $("act-form");
  if (!form.dataset.made) {
    form.dataset.made = "1";
    actionForm(form, () => Number($("act-player").value), [], data);
  }
  tableRows("mod-log", data.log.map((e) => [new Date(e.at * 1000).toLocaleString(), e.moderatorName || e.moderator,
                                             playerLink(e.playerName || `#${e.player}`, e.player), e.action, e.reason]),
            5, "Nothing yet");
  document.body.dataset.ready = "1";
}

load();
