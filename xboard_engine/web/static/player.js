// A player's page (/p/ID): their name, results per variant (8 Player Chess per mode), the games
// they play now and their finished games, each with its page and its PGN or record.  Games not
// open to everyone are listed only to the player themselves.
"use strict";

function tableRows(id, rows, columns, empty) {
  const body = $(id).querySelector("tbody");
  body.replaceChildren();
  if (!rows.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = columns;
    td.className = "empty";
    td.textContent = empty;
    tr.appendChild(td);
    body.appendChild(tr);
  }
  for (const cells of rows) {
    const tr = document.createElement("tr");
    for (const c of cells) {
      const td = document.createElement("td");
      if (c instanceof Node) td.appendChild(c); else td.textContent = String(c);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

function words(g) { return g.kind === "eight" ? `8 Player Chess, ${g.mode}` : g.variant; }

function players(g) {
  const span = document.createElement("span");
  (g.seats || []).forEach((s, i) => {
    if (i) span.append(", ");
    span.append(`${s.label}: `, playerLink(s.name || (s.kind === "open" ? "open" : "—"), s.kind === "player" ? s.player : null));
  });
  return span;
}

function gameLink(g, text) {
  const a = document.createElement("a");
  a.href = `/g/${g.gameId}`;
  a.textContent = text;
  return a;
}

function outcome(g, data) {
  if (g.kind === "two") return g.result || "";
  if (g.draw) return "draw";
  const held = g.seatsHeld || [];
  return (g.winners || []).some((w) => held.includes(w)) ? "won" : g.result || "";
}

async function load() {
  const id = location.pathname.split("/").pop();
  const response = await fetch(`/p/${id}.json`);
  if (!response.ok) { $("player-message").textContent = "There is no such player."; return; }
  const data = await response.json();
  document.title = `${data.name} — xboard-engine`;
  $("player-name").textContent = data.name + (data.you ? " (you)" : "");
  $("player-since").textContent = `Here since ${new Date(data.since * 1000).toLocaleDateString()}`;
  tableRows("results", Object.entries(data.results).map(([name, r]) => [name, r.played, r.won, r.drawn, r.lost]), 5,
            "No finished games yet");
  tableRows("player-playing", data.playing.map((g) => [words(g), g.tc || "", players(g), gameLink(g, g.status === "open" ? "Open" : "Watch")]),
            4, "Nothing now");
  tableRows("player-finished", data.finished.map((g) => {
    const links = document.createElement("span");
    links.append(gameLink(g, "View"), " ");
    const a = document.createElement("a");
    a.href = `/g/${g.gameId}.${g.kind === "two" ? "pgn" : "txt"}`;
    a.download = "";
    a.textContent = g.kind === "two" ? "PGN" : "Record";
    links.append(a);
    return [words(g), players(g), outcome(g, data), links];
  }), 4, "None yet");
  document.body.dataset.ready = "1";
}

setupSwitches();
load();
