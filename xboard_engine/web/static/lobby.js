// The lobby (/): your name, the open challenges (the newest first), the games being played and the
// recent ones, your own games (with a Cancel for your challenges), and the form that creates a game
// (two-player variant or 8 Player Chess; a start position from a FEN or PGN; each seat yours, open to
// anyone, kept for an invite link, or a bot), and the bots online (engines playing as bot accounts,
// each with a Challenge button).  Updated live by the server's `lobby` messages.  User text is only
// ever shown through textContent.
"use strict";

const lobby = { hello: null, view: null, seen: {}, seeking: new Set(),
                filter: { variant: "", speed: "", rated: "", page: 0 }, page: null };

const socket = liveSocket("/ws/lobby", {
  message: (msg) => {
    if (msg.type === "hello") onHello(msg);
    else if (msg.type === "lobby") { onLobby(msg); }
    else if (msg.type === "challenges") { lobby.page = msg; renderChallenges(); }
    else if (msg.type === "you") showYou(msg.you);
    else if (msg.type === "created") onCreated(msg);
    else if (msg.type === "paired") onPaired(msg);
    else if (msg.type === "tournamentCreated") location.href = msg.path;
    else if (msg.type === "error") showMessage(msg.message);
  },
  lost: () => showMessage("Connection to the server lost; reconnecting…"),
  open: () => showMessage(""),
});

function send(message) {
  if (!socket.send(message)) showMessage("Not connected to the server");
}

function showMessage(text) { $("lobby-message").textContent = text || ""; }

function showYou(you) {
  if (lobby.hello) lobby.hello.you = you;
  $("you").textContent = you ? `You are ${you.name}` : "You have no name yet (a guest name is given when you play)";
  $("you-link").replaceChildren(...(you ? [playerLink(you.name, you.id)] : []));
  if (you && document.activeElement !== $("name")) $("name").value = you.name;
  document.body.dataset.you = you ? you.name : "";
  $("account-link").textContent = you && you.account ? "Account" : "Sign in";
}

function onHello(hello) {
  const first = !lobby.hello;
  lobby.hello = hello;
  showYou(hello.you);
  if (first) { fillForm(); setupChallengeFilter(); }
  document.body.dataset.ready = "1";
  document.body.dataset.local = hello.local ? "1" : "";
}

// After a game is made: its invite links kept for its page to show, then to the page.
function onCreated(msg) {
  if (msg.invites.length) settings.set(`invites:${msg.gameId}`, msg.invites);
  location.href = msg.path;
}

// A seek of yours was matched: the game begins at once (a sound, an alert, then its page).
function onPaired(msg) {
  sound.play("alert");
  alerts.notify("Opponent found: the game begins", msg.path);
  document.body.dataset.paired = msg.gameId;
  location.href = msg.path;
}

// A challenge of yours that someone took: a sound and an alert (and a notification if allowed).
function onLobby(view) {
  const before = lobby.seen;
  lobby.seen = {};
  for (const e of view.mine || []) {
    lobby.seen[e.gameId] = e.status;
    if (before[e.gameId] === "open" && e.status === "playing") {
      sound.play("alert");
      alerts.notify("Your challenge was taken: the game begins", `/g/${e.gameId}`);
      showMessage("Your challenge was taken: the game begins");
      document.body.dataset.taken = e.gameId;
    }
  }
  lobby.view = view;
  if (filtering()) askChallenges();
  renderLists();
  renderSeeks();
  renderTournaments();
  renderBots();
}

// ----------------------------------------------------------------- the lists
function clockWords(kind, tc) {
  if (!tc || tc === "none") return "no clock";
  if (tc.startsWith("st=")) return `${tc.slice(3)} s a move`;
  if (tc.startsWith("depth=")) return `depth ${tc.slice(6)}`;
  if (kind === "eight") { const [base, inc] = tc.split("+"); return `${base} min + ${inc || 0} s`; }
  const m = tc.match(/^(?:(\d+)\/)?([\d.]+)(?:\+([\d.]+))?$/);
  if (!m) return tc;
  const s = parseFloat(m[2]);
  return (m[1] ? `${m[1]} moves in ` : "") + (s % 60 === 0 ? `${s / 60} min` : `${s} s`) + ` + ${m[3] || 0} s`;
}

function gameWords(entry) {
  return (entry.kind === "eight" ? `8 Player Chess, ${entry.mode}` : entry.variant) + (entry.rated ? " · rated" : "");
}

function playersNode(entry) {
  const span = document.createElement("span");
  if (!entry.seats) { span.textContent = "—"; return span; }
  const count = (kind) => entry.seats.filter((s) => s.kind === kind).length;
  if (entry.kind === "eight") {                  // names, then how many seats are open, invited, bots
    const people = entry.seats.filter((s) => s.kind === "player");
    people.forEach((s, i) => {
      if (i) span.append(", ");
      span.append(playerLink(s.name, s.player), ...(s.botAccount ? [botBadge()] : []), ` (${s.label})`);
    });
    for (const [kind, words] of [["open", "open"], ["invite", "invited"], ["bot", "bots"]]) {
      if (count(kind)) span.append(`${span.childNodes.length ? ", " : ""}${count(kind)} ${kind === "bot" && count(kind) === 1 ? "bot" : words}`);
    }
    if (entry.status === "open" && entry.botsAfter) {
      const left = Math.max(0, Math.round(entry.created + entry.botsAfter - Date.now() / 1000));
      span.append(` (bots fill it in ${left < 60 ? `${left} s` : `${Math.round(left / 60)} min`})`);
    }
    return span;
  }
  entry.seats.forEach((s, i) => {
    if (i) span.append(", ");
    span.append(`${s.label}: `);
    if (s.kind === "open") span.append("open");
    else if (s.kind === "invite") span.append("invited");
    else if (s.kind === "closed") span.append("—");
    else span.append(playerLink(s.name || "?", s.kind === "player" ? s.player : null));
    if (s.botAccount) span.append(botBadge());
  });
  return span;
}

function cell(tr, content, cls) {
  const td = document.createElement("td");
  if (content instanceof Node) td.appendChild(content); else td.textContent = content;
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

function row(body, e) {
  const tr = document.createElement("tr");
  tr.dataset.game = e.gameId;
  body.appendChild(tr);
  return tr;
}

function renderLists() {
  const v = lobby.view;
  const mine = v.mine || [];
  $("mine-area").hidden = !mine.length;
  let body = fillTable("mine", mine, 4, "");
  for (const e of mine) {
    const tr = row(body, e);
    cell(tr, gameWords(e));
    cell(tr, clockWords(e.kind, e.tc), "tc");
    cell(tr, playersNode(e));
    const td = cell(tr, link(e.status === "open" ? "Open (waiting for players)" : "Play", `/g/${e.gameId}`));
    if (e.status === "open" && e.creator) {
      const b = document.createElement("button");
      b.textContent = "Cancel";
      b.className = "cancel";
      b.onclick = () => send({ type: "cancel", gameId: e.gameId });
      td.append(" ", b);
    }
  }
  renderChallenges();
  body = fillTable("playing", v.playing, 5, "No games being played");
  for (const e of v.playing) {
    const tr = row(body, e);
    cell(tr, gameWords(e));
    cell(tr, clockWords(e.kind, e.tc), "tc");
    cell(tr, playersNode(e));
    cell(tr, e.plies === undefined ? "" : String(e.plies));
    cell(tr, link("Watch", `/g/${e.gameId}`));
  }
  body = fillTable("finished", v.finished, 4, "No finished games yet");
  for (const e of v.finished) {
    const tr = row(body, e);
    cell(tr, gameWords(e));
    cell(tr, playersNode(e));
    cell(tr, e.result || "");
    const td = cell(tr, link("View", `/g/${e.gameId}`));
    td.append(" ", e.kind === "two" ? link("PGN", `/g/${e.gameId}.pgn`, true) : link("Record", `/g/${e.gameId}.txt`, true));
  }
  const count = (n, shown) => (n > shown ? `(${shown} newest of ${n})` : n ? `(${n})` : "");
  $("playing-count").textContent = count(v.playingCount || 0, v.playing.length);
  document.body.dataset.mine = String(mine.length);
  document.body.dataset.playing = String(v.playing.length);
}

// The open challenges: the lobby's first page as the server orders them, or (a filter chosen, or
// another page) the page the server answered a `challenges` request with.
function filtering() {
  const f = lobby.filter;
  return Boolean(f.variant || f.speed || f.rated || f.page);
}

function askChallenges() {
  const f = lobby.filter;
  send({ type: "challenges", variant: f.variant || null, speed: f.speed || null, rated: f.rated || null, page: f.page });
}

function setupChallengeFilter() {
  const select = $("cf-variant");
  for (const name of [...lobby.hello.variants, "8 Player Chess"]) {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = name;
    select.appendChild(o);
  }
  const changed = () => {
    Object.assign(lobby.filter, { variant: $("cf-variant").value, speed: $("cf-speed").value, rated: $("cf-rated").value, page: 0 });
    lobby.page = null;
    if (filtering()) askChallenges(); else renderChallenges();
  };
  for (const id of ["cf-variant", "cf-speed", "cf-rated"]) $(id).addEventListener("change", changed);
  const turn = (by) => {
    lobby.filter.page = Math.max(0, lobby.filter.page + by);
    lobby.page = null;
    if (filtering()) askChallenges(); else renderChallenges();
  };
  $("cf-prev").onclick = () => turn(-1);
  $("cf-next").onclick = () => turn(1);
}

function renderChallenges() {
  const v = lobby.view;
  if (!v) return;
  const paged = filtering() ? lobby.page : null;
  if (filtering() && !paged) return;                   // (its page is on the way)
  const list = paged ? paged.challenges : v.challenges;
  const total = paged ? paged.count : v.challengeCount || 0;
  const pages = paged ? paged.pages : Math.max(1, Math.ceil(total / 50));
  const page = paged ? paged.page : 0;
  const mine = v.mine || [];
  const own = new Set(mine.map((e) => e.gameId));
  const body = fillTable("challenges", list, 4, filtering() ? "No open challenges of this kind" : "No open challenges: create one");
  for (const e of list) {
    const tr = row(body, e);
    cell(tr, gameWords(e));
    cell(tr, clockWords(e.kind, e.tc), "tc");
    cell(tr, playersNode(e));
    const td = cell(tr, own.has(e.gameId) ? "yours" : "");
    for (const seat of own.has(e.gameId) ? [] : e.free || []) {
      const b = document.createElement("button");
      b.textContent = `Join as ${e.seats ? e.seats[seat].label : `seat ${seat}`}`;
      b.className = "join";
      b.dataset.seat = String(seat);
      b.onclick = () => { location.href = `/g/${e.gameId}#seat=${seat}`; };
      td.appendChild(b);
    }
  }
  $("challenge-count").textContent = total > list.length ? `(${list.length} of ${total})` : total ? `(${total})` : "";
  $("challenge-pages").hidden = pages <= 1;
  $("cf-page").textContent = `page ${page + 1} of ${pages}`;
  $("cf-prev").disabled = page === 0;
  $("cf-next").disabled = page + 1 >= pages;
  document.body.dataset.challenges = String(list.length);
}

// ----------------------------------------------------------------- quick pairing and seeks
function seekKey(variant, tc, rated) { return `${variant} ${tc} ${rated ? "rated" : "casual"}`; }

function myId() { return lobby.hello && lobby.hello.you ? lobby.hello.you.id : null; }

function renderSeeks() {
  const v = lobby.view, h = lobby.hello;
  if (!v || !h || h.local) return;
  const variant = $("quick-variant").value, rated = $("quick-rated").checked;
  const mine = (v.seeks || []).filter((s) => s.player === myId());
  const box = $("quick-buttons");
  box.replaceChildren(...(v.quickClocks || []).map((tc) => {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "quick";
    b.dataset.tc = tc;
    const waiting = (v.seekCounts || {})[seekKey(variant, tc, rated)] || 0;
    const own = mine.find((s) => s.variant === variant && s.tc === tc && s.rated === rated);
    b.classList.toggle("on", !!own);
    b.setAttribute("aria-pressed", own ? "true" : "false");
    const big = document.createElement("strong");
    big.textContent = tc;
    const small = document.createElement("span");
    small.textContent = own ? "looking…" : `${waiting} waiting`;
    b.append(big, small);
    b.onclick = () => {
      showMessage("");
      if (own) send({ type: "unseek", seek: own.id });
      else {
        const message = { type: "seek", variant, tc, rated };
        const low = $("quick-min").value.trim(), high = $("quick-max").value.trim();
        if (low) message.min = parseInt(low, 10);
        if (high) message.max = parseInt(high, 10);
        send(message);
      }
    };
    return b;
  }));
  $("seek-count").textContent = v.seekCount ? `(${v.seekCount} looking)` : "";
  const body = fillTable("seeks", v.seeks || [], 5, "Nobody is looking for a game now");
  for (const s of v.seeks || []) {
    const tr = document.createElement("tr");
    tr.dataset.seek = s.id;
    body.appendChild(tr);
    cell(tr, playerLink(s.name, s.player));
    cell(tr, `${s.rating}${s.provisional ? "?" : ""}`);
    cell(tr, `${s.variant} · ${s.rated ? "rated" : "casual"}`);
    cell(tr, clockWords("two", s.tc), "tc");
    if (s.player === myId()) {
      const b = document.createElement("button");
      b.textContent = "Withdraw";
      b.className = "cancel";
      b.onclick = () => send({ type: "unseek", seek: s.id });
      cell(tr, b);
    } else {
      const b = document.createElement("button");
      b.textContent = "Play";
      b.className = "join";
      b.onclick = () => send({ type: "accept", seek: s.id });
      cell(tr, b);
    }
  }
  document.body.dataset.seeks = String((v.seeks || []).length);
  document.body.dataset.mySeeks = String(mine.length);
}

// ----------------------------------------------------------------- tournaments
function renderTournaments() {
  const list = lobby.view.tournaments || [];
  const body = fillTable("tournaments", list, 5, "No tournaments now: create one");
  const now = Date.now() / 1000;
  for (const t of list) {
    const tr = document.createElement("tr");
    tr.dataset.tournament = t.id;
    body.appendChild(tr);
    cell(tr, `${t.name} (${t.kind === "eight" ? "8 Player rounds" : t.kind})`);
    cell(tr, `${t.kind === "eight" ? `8 Player Chess, ${t.mode}` : t.variant} · ${t.tc}${t.rated ? " · rated" : ""}`);
    cell(tr, t.status === "waiting" ? `starts in ${Math.max(0, Math.round((t.starts - now) / 60))} min`
      : t.kind === "arena" ? `${Math.max(0, Math.round((t.ends - now) / 60))} min left` : `round ${t.round} of ${t.rounds}`);
    cell(tr, String(t.players));
    cell(tr, link("Open", `/t/${t.id}`));
  }
}

// ----------------------------------------------------------------- bots online
// Engines playing as bot accounts: each one's variants, the clocks it takes (base + 40 increments)
// and its games now; Challenge sends the variant and clock chosen in the New game form.
function botClocks(b) {
  const words = (s) => (s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);
  return `${words(b.minTc)} to ${words(b.maxTc)}`;
}

function renderBots() {
  const bots = lobby.view.bots || [];
  $("bots-area").hidden = !bots.length || !!(lobby.hello && lobby.hello.local);
  const body = fillTable("bots", bots, 5, "");
  for (const b of bots) {
    const tr = document.createElement("tr");
    tr.dataset.bot = String(b.player);
    body.appendChild(tr);
    const who = document.createElement("span");
    who.append(playerLink(b.name, b.player), botBadge());
    if (b.engine) {
      const engine = document.createElement("span");
      engine.className = "engine";
      engine.textContent = b.engine;
      who.append(engine);
    }
    cell(tr, who);
    cell(tr, b.variants.join(", "));
    cell(tr, `${botClocks(b)} · ${b.rated === "both" ? "rated or casual" : b.rated}`, "tc");
    cell(tr, `${b.playing} of ${b.maxGames}`);
    if (b.player === myId()) { cell(tr, "you"); continue; }
    const button = document.createElement("button");
    button.textContent = "Challenge";
    button.className = "join";
    button.onclick = () => { showMessage(""); send(botChallenge(b)); };
    cell(tr, button);
  }
  $("bot-count").textContent = bots.length ? `(${bots.length})` : "";
  document.body.dataset.bots = String(bots.length);
}

function botChallenge(b) {
  return { type: "create", kind: "two", variant: $("variant").value, tc: $("tc-custom").value.trim() || $("two-tc").value,
           seats: [{ kind: "me" }, { kind: "account", name: b.name }], rated: false };
}

function tournamentMessage() {
  const kind = $("t-kind").value;
  const message = { type: "tournament", kind, name: $("t-name-input").value.trim(), tc: $("t-tc").value.trim(),
                    rated: $("t-rated").checked, startsIn: parseFloat($("t-starts").value || "0") };
  if (kind === "eight") message.mode = $("t-mode").value; else message.variant = $("t-variant").value;
  if (kind === "arena") message.minutes = parseFloat($("t-minutes").value || "30");
  else message.rounds = parseInt($("t-rounds").value || "5", 10);
  return message;
}

function updateTournamentForm() {
  const kind = $("t-kind").value;
  $("t-variant-label").hidden = kind === "eight";
  $("t-mode-label").hidden = kind !== "eight";
  $("t-minutes-label").hidden = kind !== "arena";
  $("t-rounds-label").hidden = kind === "arena";
  if (kind === "eight" && $("t-tc").value.includes("180")) $("t-tc").value = "5+3";
  if (kind !== "eight" && $("t-tc").value === "5+3") $("t-tc").value = "180+2";
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
  $("rated-label").hidden = h.local;
  $("bots-after-label").hidden = h.local;
  $("quick").hidden = h.local;
  $("new-tournament").hidden = h.local;
  $("t-variant").replaceChildren(...h.variants.map((name) => new Option(name, name)));
  $("t-mode").replaceChildren(...h.modes.map((m) => new Option(m, m)));
  $("t-kind").onchange = updateTournamentForm;
  $("quick-variant").replaceChildren(...h.variants.map((name) => new Option(name, name)));
  $("quick-variant").onchange = renderSeeks;
  $("quick-rated").onchange = renderSeeks;
  $("seat-hint").textContent = h.local
    ? "This is your own server: take as many seats as you like (hot-seat), or let engines play each other."
    : `A game with other people: one seat each. A challenge waits ${h.limits.challengeMinutes ? h.limits.challengeMinutes + " minutes" : "until taken"} ` +
      `(at most ${h.limits.challenges} of yours at once)` + (h.limits.firstMove ? `; a first move not made within ${h.limits.firstMove} s aborts the game.` : ".");
  updateForm();
}

function seatLabels() {
  if (kind() === "two") return [{ colour: "White", fill: "#fff" }, { colour: "Black", fill: "#000" }];
  return lobby.hello.eightSeats;
}

function seatDescription(s) {
  if (kind() === "two") return s.colour;
  const mode = $("mode").value;
  if (mode === "pairs") return `${s.colour} (partner ${lobby.hello.eightSeats[s.partner].colour})`;
  if (mode === "teams") return `${s.colour} (team ${s.team === 0 ? "Odd" : "Even"})`;
  return s.colour;
}

function updateForm() {
  const two = kind() === "two";
  const local = lobby.hello.local;
  $("two-settings").hidden = !two;
  $("start-position").hidden = !two;
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
      who.append(new Option("me", "me"));
      if (!local) who.append(new Option("open to anyone", "open"), new Option("invite link", "invite"));
      who.append(new Option("bot", "bot"));
      who.value = i === 0 ? "me" : two && !local ? "open" : "bot";
      const level = document.createElement("select");
      level.id = `level-${i}`;
      level.append(...levels.map((l) => new Option(l.words, l.name)));
      level.value = two ? "medium" : "fast";
      // Two-player bot seats may be another engine the server runs (its own strength, no level).
      const engine = document.createElement("select");
      engine.id = `engine-${i}`;
      engine.append(...lobby.hello.engines.map((e) => new Option(e, e)));
      who.onchange = showBotChoices;
      engine.onchange = showBotChoices;
      const seatRow = document.createElement("div");
      seatRow.className = "seat-row";
      seatRow.append(name, who, engine, level);
      rows.appendChild(seatRow);
    }
  }
  showBotChoices();
  seatLabels().forEach((s, i) => {
    const name = $(`seat-name-${i}`);
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = s.fill;
    name.replaceChildren(swatch, seatDescription(s));
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
  const rated = !lobby.hello.local && $("rated").checked;
  if (two) {
    const message = { type: "create", kind: "two", variant: $("variant").value,
                      tc: $("tc-custom").value.trim() || $("two-tc").value, seats, rated };
    const number = $("number").value.trim();
    if (!$("number-label").hidden && number !== "") message.number = parseInt(number, 10);
    const start = $("start-text").value.trim();
    if (start) {
      const isFen = !start.includes("[") && !/\d\.\s*\S/.test(start) && start.split("/").length >= 7;
      if (isFen) message.fen = start; else message.pgn = start;
    }
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
  const message = { type: "create", kind: "eight", mode, options, tc: $("eight-tc").value, seats, rated };
  const wait = parseInt($("bots-after").value, 10);
  if (wait && seats.some((s) => s.kind === "open" || s.kind === "invite")) message.botsAfter = wait;
  return message;
}

function setup() {
  setupSwitches();
  $("name-form").onsubmit = (e) => {
    e.preventDefault();
    const name = $("name").value.trim();
    if (name) send({ type: "name", name });
  };
  $("create-form").onsubmit = (e) => { e.preventDefault(); showMessage(""); send(createMessage()); };
  $("tournament-form").onsubmit = (e) => { e.preventDefault(); showMessage(""); send(tournamentMessage()); };
  $("new-game-link").onclick = (e) => { e.preventDefault(); $("new").scrollIntoView({ block: "start" }); $("variant").focus(); };
}

setup();
