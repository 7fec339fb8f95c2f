// The leaderboards (/leaderboard): every rating pool's top ten, or one pool's top fifty, from
// /leaderboard.json.  User text is only ever shown through textContent.
"use strict";

function board(b) {
  const section = document.createElement("section");
  section.className = "board";
  section.dataset.pool = b.key;
  const h = document.createElement("h2");
  h.textContent = b.words;
  const table = document.createElement("table");
  table.id = `board-${b.key.replace(/[^A-Za-z0-9]/g, "-")}`;
  const head = table.createTHead().insertRow();
  for (const title of ["#", "Player", "Rating", "Games"]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.appendChild(th);
  }
  table.appendChild(document.createElement("tbody"));
  section.append(h, table);
  $("boards").appendChild(section);
  tableRows(table.id, b.players.map((p, i) => [i + 1, playerLink(p.name, p.player),
                                               `${p.rating}${p.provisional ? "?" : ""}`, p.games]), 4, "Nobody yet");
}

async function load() {
  const pool = $("pool").value;
  const response = await fetch(pool ? `/leaderboard.json?pool=${encodeURIComponent(pool)}` : "/leaderboard.json");
  if (!response.ok) { $("leaders-message").textContent = "Could not load the leaderboards."; return; }
  const data = await response.json();
  const select = $("pool");
  if (select.options.length === 1) {
    for (const p of data.pools) {
      const o = document.createElement("option");
      o.value = p.key;
      o.textContent = p.words;
      select.appendChild(o);
    }
  }
  $("leaders-rule").textContent = data.rule || "";
  $("boards").replaceChildren();
  data.boards.forEach(board);
  if (!data.boards.length) $("leaders-message").textContent = "No rated games have been played yet.";
  document.body.dataset.ready = "1";
}

setupSwitches();
$("pool").addEventListener("change", load);
load();
