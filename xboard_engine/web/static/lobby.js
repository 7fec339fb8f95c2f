// The live server's lobby (xboard-engine serve, /): your name, the open challenges, the games being
// played and the recent ones, and the form that creates a game (two-player variant or 8 Player
// Chess; each seat yours, open to anyone, kept for an invite link, or a bot).  Updated live by the
// server's `lobby` messages.  User text is only ever shown through textContent.
"use strict";

const $ = (id) => document.getElementById(id);

const lobby = { hello: null, view: null, ws: null, retry: 0 };

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
  lobby.ws = ws;
  ws.onopen = () => { lobby.retry = 0; showMessage(""); };
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") onHello(msg);
    else if (msg.type === "lobby") { lobby.view = msg; renderLists(); }
    else if (msg.type === "you") showYou(msg.you);
    else if (msg.type === "created") onCreated(msg);
    else if (msg.type === "error") showMessage(msg.message);
  };
  ws.onclose = () => {
    if (lobby.ws !== ws) return;
    showMessage("Connection to the server lost; reconnecting…");
    setTimeout(connect, Math.min(8000, 500 * 2 ** lobby.retry++));
  };
}

function send(message) {
  if (!lobby.ws || lobby.ws.readyState !== WebSocket.OPEN) { showMessage("Not connected to the server"); return; }
  lobby.ws.send(JSON.stringify(message));
}

function showMessage(text) { $("lobby-message").textContent = text || ""; }

function showYou(you) {
  if (lobby.hello) lobby.hello.you = you;
  $("you").textContent = you ? `You are ${you.name}` : "You have no name yet (a guest name is given when you play)";
  if (you && document.activeElement !== $("name")) $("name").value = you.name;
  document.body.dataset.you = you ? you.name : "";
}

function onHello(hello) {
  const first = !lobby.hello;
  lobby.hello = hello;
  showYou(hello.you);
  if (first) fillForm();
  document.body.dataset.ready = "1";
}

// After a game is made: its invite links kept for its page to show, then to the page.
function onCreated(msg) {
  if (msg.invites.length) localStorage.setItem(`invites:${msg.gameId}`, JSON.stringify(msg.invites));
  location.href = msg.path;
}

// ----------------------------------------------------------------- the lists
function clockWords(kind, tc) {
  if (!tc || tc === "none") return "no clock";
  const [base, inc] = tc.split("+");
  if (kind === "eight") return `${base} min + ${inc || 0} s`;
  const s = parseInt(base, 10);
  return (s % 60 === 0 ? `${s / 60} min` : `${s} s`) + ` + ${inc || 0} s`;
}

function gameWords(entry) {
  return entry.kind === "eight" ? `8 Player Chess, ${entry.mode}` : entry.variant;
}

function playersWords(entry) {
  if (!entry.seats) return "—";
  if (entry.kind === "eight") {                  // names, then how many seats are open, invited, bots
    const count = (kind) => entry.seats.filter((s) => s.kind === kind).length;
    const parts = entry.seats.filter((s) => s.kind === "player").map((s) => `${s.name} (${s.label})`);
    for (const [kind, words] of [["open", "open"], ["invite", "invited"], ["bot", "bots"]]) {
      if (count(kind)) parts.push(`${count(kind)} ${kind === "bot" && count(kind) === 1 ? "bot" : words}`);
    }
    return parts.join(", ");
  }
  return entry.seats.map((s) => `${s.label}: ${s.kind === "open" ? "open" : s.kind === "invite" ? "invited" : s.name}`)
    .join(", ");
}

function cell(tr, text, cls) {
  const td = document.createElement("td");
  if (text instanceof Node) td.appendChild(text); else td.textContent = text;
  if (cls) td.className = cls;
  tr.appendChild(td);
  return td;
}

function link(text, href, download) {
  const a = document.createElement("a");
  a.textContent = text;
  a.href = href;
  if (download) a.download = "";
  return a;
}

function fillTable(id, entries, columns, emptyText) {
  const body = $(id).querySelector("tbody");
  body.replaceChildren();
  if (!entries.length) {
    const tr = document.createElement("tr");
    cell(tr, emptyText, "empty").colSpan = columns;
    body.appendChild(tr);
  }
  return body;
}

function renderLists() {
  const v = lobby.view;
  const mine = v.mine || [];
  $("mine-area").hidden = !mine.length;
  let body = fillTable("mine", mine, 4, "");
  for (const e of mine) {
    const tr = document.createElement("tr");
    tr.dataset.game = String(e.id);
    cell(tr, gameWords(e));
    cell(tr, clockWords(e.kind, e.tc), "tc");
    cell(tr, playersWords(e));
    cell(tr, link(e.status === "open" ? "Open (waiting for players)" : "Play", `/g/${e.id}`));
    body.appendChild(tr);
  }
  const own = new Set(mine.map((e) => e.id));
  body = fillTable("challenges", v.challenges, 4, "No open challenges: create one");
  for (const e of v.challenges) {
    const tr = document.createElement("tr");
    tr.dataset.game = String(e.id);
    cell(tr, gameWords(e));
    cell(tr, clockWords(e.kind, e.tc), "tc");
    cell(tr, playersWords(e));
    const td = cell(tr, own.has(e.id) ? "yours" : "");
    for (const seat of own.has(e.id) ? [] : e.free || []) {
      const b = document.createElement("button");
      const label = e.seats ? e.seats[seat].label : `seat ${seat}`;
      b.textContent = `Join as ${label}`;
      b.className = "join";
      b.dataset.seat = String(seat);
      b.onclick = () => { location.href = `/g/${e.id}#seat=${seat}`; };
      td.appendChild(b);
    }
    body.appendChild(tr);
  }
  body = fillTable("playing", v.playing, 5, "No games being played");
  for (const e of v.playing) {
    const tr = document.createElement("tr");
    tr.dataset.game = String(e.id);
    cell(tr, gameWords(e));
    cell(tr, clockWords(e.kind, e.tc), "tc");
    cell(tr, playersWords(e));
    cell(tr, e.plies === undefined ? "" : String(e.plies));
    cell(tr, link("Watch", `/g/${e.id}`));
    body.appendChild(tr);
  }
  body = fillTable("finished", v.finished, 4, "No finished games yet");
  for (const e of v.finished) {
    const tr = document.createElement("tr");
    tr.dataset.game = String(e.id);
    cell(tr, gameWords(e));
    cell(tr, playersWords(e));
    cell(tr, e.result || "");
    const td = cell(tr, link("View", `/g/${e.id}`));
    td.append(" ", e.kind === "two" ? link("PGN", `/g/${e.id}.pgn`, true) : link("Record", `/g/${e.id}.txt`, true));
    body.appendChild(tr);
  }
  document.body.dataset.challenges = String(v.challenges.length);
  document.body.dataset.mine = String(mine.length);
  document.body.dataset.playing = String(v.playing.length);
}

// ----------------------------------------------------------------- the create form
function kind() { return document.querySelector('input[name="kind"]:checked').value; }

function fillForm() {
  const h = lobby.hello;
  $("variant").replaceChildren(...h.variants.map((name) => new Option(name, name)));
  $("two-tc").replaceChildren(...h.twoClocks.map((t) => new Option(clockWords("two", t), t)));
  $("eight-tc").replaceChildren(...h.eightClocks.map((t) => new Option(clockWords("eight", t), t)));
  $("mode").replaceChildren(...h.modes.map((m) => new Option(m, m)));
  const options = $("options");
  for (const o of h.options) {
    const label = document.createElement("label");
    label.dataset.option = o.name;
    label.title = o.help;
    let input;
    if (o.name === "custom_points") { input = document.createElement("input"); input.placeholder = "P1,N3,B3,R5,Q9,K25"; input.size = 20; }
    else if (o.name === "checkmates_needed") {
      input = document.createElement("select");
      input.append(new Option("default", ""), ...["1", "2", "3", "4"].map((n) => new Option(n, n)));
    } else { input = document.createElement("input"); input.type = "checkbox"; }
    input.id = `option-${o.name}`;
    label.append(input, ` ${o.name.replace(/_/g, " ")}: ${o.help}`);
    options.appendChild(label);
  }
  for (const radio of document.querySelectorAll('input[name="kind"]')) radio.onchange = updateForm;
  $("variant").onchange = updateForm;
  $("mode").onchange = updateForm;
  updateForm();
}

function seatLabels() {
  if (kind() === "two") return [{ colour: "White", fill: "#fff" }, { colour: "Black", fill: "#000" }];
  return lobby.hello.eightSeats;
}

function seatDescription(s, i) {
  if (kind() === "two") return s.colour;
  const mode = $("mode").value;
  if (mode === "pairs") return `${s.colour} (partner ${lobby.hello.eightSeats[s.partner].colour})`;
  if (mode === "teams") return `${s.colour} (team ${s.team === 0 ? "Odd" : "Even"})`;
  return s.colour;
}

function updateForm() {
  const two = kind() === "two";
  $("two-settings").hidden = !two;
  $("eight-settings").hidden = two;
  const setups = lobby.hello.setups || {};
  $("number-label").hidden = !setups[$("variant").value];
  if (setups[$("variant").value]) $("number").max = String(setups[$("variant").value] - 1);
  const mode = $("mode").value;
  for (const o of lobby.hello.options) {
    document.querySelector(`[data-option="${o.name}"]`).hidden = !o.modes.includes(mode);
  }
  const rows = $("seat-rows");
  const wanted = two ? 2 : 8;
  if (rows.dataset.kind !== kind()) {
    rows.dataset.kind = kind();
    rows.replaceChildren();
    const levels = two ? lobby.hello.twoLevels : lobby.hello.eightLevels;
    for (let i = 0; i < wanted; i++) {
      const name = document.createElement("span");
      name.id = `seat-name-${i}`;
      const who = document.createElement("select");
      who.id = `seat-${i}`;
      who.append(new Option("me", "me"), new Option("open to anyone", "open"), new Option("invite link", "invite"),
                 new Option("bot", "bot"));
      who.value = i === 0 ? "me" : two ? "open" : "bot";
      const level = document.createElement("select");
      level.id = `level-${i}`;
      level.append(...levels.map((l) => new Option(l.words, l.name)));
      level.value = two ? "medium" : "fast";
      // Two-player bot seats may be another engine the server runs (its own strength, no level).
      const engine = document.createElement("select");
      engine.id = `engine-${i}`;
      engine.append(...lobby.hello.engines.map((e) => new Option(e, e)));
      who.onchange = () => {
        if (two && who.value === "me" && $(`seat-${1 - i}`).value === "me") $(`seat-${1 - i}`).value = "open";
        showBotChoices();
      };
      engine.onchange = showBotChoices;
      const row = document.createElement("div");
      row.className = "seat-row";
      row.append(name, who, engine, level);
      rows.appendChild(row);
    }
  }
  showBotChoices();
  seatLabels().forEach((s, i) => {
    const name = $(`seat-name-${i}`);
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = s.fill;
    name.replaceChildren(swatch, seatDescription(s, i));
  });
}

// Each seat's engine (two-player, when the server has more than its own) and level, for bot seats.
function showBotChoices() {
  const two = kind() === "two";
  for (let i = 0; i < (two ? 2 : 8); i++) {
    const bot = $(`seat-${i}`).value === "bot";
    const engine = $(`engine-${i}`);
    engine.hidden = !(bot && two && lobby.hello.engines.length > 1);
    $(`level-${i}`).hidden = !(bot && (engine.hidden || engine.value === lobby.hello.engines[0]));
  }
}

function createMessage() {
  const two = kind() === "two";
  const seats = [];
  for (let i = 0; i < (two ? 2 : 8); i++) {
    const entry = { kind: $(`seat-${i}`).value };
    if (entry.kind === "bot") {
      const engine = $(`engine-${i}`);
      if (!engine.hidden && engine.value !== lobby.hello.engines[0]) entry.engine = engine.value;
      else entry.level = $(`level-${i}`).value;
    }
    seats.push(entry);
  }
  if (two) {
    const message = { type: "create", kind: "two", variant: $("variant").value, tc: $("two-tc").value, seats };
    const number = $("number").value.trim();
    if (!$("number-label").hidden && number !== "") message.number = parseInt(number, 10);
    return message;
  }
  const mode = $("mode").value;
  const options = {};
  for (const o of lobby.hello.options) {
    if (!o.modes.includes(mode)) continue;
    const input = $(`option-${o.name}`);
    if (input.type === "checkbox") { if (input.checked) options[o.name] = true; }
    else if (input.value.trim()) options[o.name] = input.value.trim();
  }
  return { type: "create", kind: "eight", mode, options, tc: $("eight-tc").value, seats };
}

function setup() {
  $("name-form").onsubmit = (e) => {
    e.preventDefault();
    const name = $("name").value.trim();
    if (name) send({ type: "name", name });
  };
  $("create-form").onsubmit = (e) => { e.preventDefault(); showMessage(""); send(createMessage()); };
  connect();
}

setup();
