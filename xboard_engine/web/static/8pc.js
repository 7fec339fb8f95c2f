// The 8 Player Chess board of a game page: the server holds the game and the rules; this draws what
// it is sent (the 516 squares, the units, the legal moves as clicks, the scoreboard) and sends what
// is clicked, tapped or typed.  live.js owns the connection and the rest of the page.
"use strict";

const SQ = 30;              // pixels per square
const KIND_LETTERS = " PNBRQKQ";
// The quarter turns of the board (screenCell: each takes the bottom edge to the left, the left to
// the top, the top to the right) that bring an army to the bottom of the screen, by the way its
// pawns go (the hello's seat direction): an army going east starts on the left edge, three turns.
const TURNS_FOR_DIRECTION = { north: 0, west: 1, south: 2, east: 3 };

const ui = {
  hello: null,
  game: null,
  seats: [],                // the seats this page may act for (live.js)
  turns: 0,                 // quarter turns of the board
  clicks: [],
  past: null,               // a past board shown instead of the game's (analysis.js), or null
  receivedAt: 0,
  send: null,               // set by live.js
};

function onHello(hello) {
  ui.hello = hello;
  render();
}

function onState(state) {
  const old = ui.game;
  ui.game = state;
  ui.receivedAt = performance.now();
  if (!old || old.version !== state.version) { ui.clicks = []; closeChooser(); }
  if (old && state.moves.length > old.moves.length) {
    const last = state.moves[state.moves.length - 1];
    sound.play(state.result ? "end" : last[2] === "move" ? sound.forMove(last[3]) : "alert");
  }
  render();
  document.body.dataset.actions = String(state.moves.length);   // after drawing: tests wait on these
  document.body.dataset.version = String(state.version);
}

function seatName(seat) { return ui.hello.seats[seat].colour; }
function seatLabel(seat) {
  const s = ui.hello.seats[seat];
  return $("numerals").checked ? s.numeral : s.letter;
}

// May this page make the move now?
function canAct() {
  const g = ui.game;
  return !!g && g.humanToMove && ui.seats.includes(g.turn);
}

function render() {
  if (!ui.hello || !ui.game) return;
  renderBoard();
  renderPanel();
  if (ui.afterRender) ui.afterRender();     // the live server's page adds its own marks
}

// Board cell (file, rank) -> screen cell (x, y), one cell of margin around for the coordinates.
function screenCell(f, r) {
  const n = ui.hello.files;
  let x = f, y = n - 1 - r;                     // White at the bottom
  for (let i = 0; i < ui.turns % 4; i++) { const nx = n - 1 - y; y = x; x = nx; }
  return [x + 1, y + 1];
}

function renderBoard() {
  const g = ui.past || ui.game, h = ui.hello;
  const size = (h.files + 2) * SQ;
  const svg = el("svg", { viewBox: `0 0 ${size} ${size}`, id: "board-svg",
                          "data-turns": String(ui.turns % 4) });
  const defs = el("defs", {}, svg);
  const glow = el("radialGradient", { id: "check-glow" }, defs);
  el("stop", { offset: "0%", "stop-color": "rgb(255,0,0)", "stop-opacity": "1" }, glow);
  el("stop", { offset: "100%", "stop-color": "rgb(255,0,0)", "stop-opacity": "0" }, glow);
  const next = nextSquares();
  const last = g.lastMove || [];
  const checks = new Set(g.check);
  for (const [name, f, r] of h.squares) {
    const [x, y] = screenCell(f, r);
    const px = x * SQ, py = y * SQ;
    const cell = el("g", { "data-square": name, class: "square" }, svg);
    el("rect", { x: px, y: py, width: SQ, height: SQ, class: (f + r) % 2 === 0 ? "sq-dark" : "sq-light" }, cell);
    if (last.includes(name)) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-last" }, cell);
    if (ui.clicks.includes(name)) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-selected" }, cell);
    if (checks.has(name)) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-check", "data-check": "1" }, cell);
    const unit = g.pieces[name];
    if (unit) {
      const [army, kind] = unit;
      el("image", { href: `/piece8/${army}-${kind}.svg`, x: px, y: py, width: SQ, height: SQ,
                    "data-piece": `${army === 8 ? "x" : h.seats[army].letter}${kind === 7 ? "D" : KIND_LETTERS[kind]}` }, cell);
    }
    if (next.has(name)) {
      if (unit) el("circle", { cx: px + SQ / 2, cy: py + SQ / 2, r: SQ / 2 - 2, class: "mark-target-ring" }, cell);
      else el("circle", { cx: px + SQ / 2, cy: py + SQ / 2, r: SQ / 7, class: "mark-target" }, cell);
      cell.setAttribute("data-target", "1");
    }
  }
  const n = h.files;
  for (let i = 0; i < n; i++) {                  // file letters under and over, rank numbers beside
    for (const [f, r, text] of [[i, -1, String.fromCharCode(97 + i)], [i, n, String.fromCharCode(97 + i)],
                                [-1, i, String(i + 1)], [n, i, String(i + 1)]]) {
      const [x, y] = screenCell(f, r);
      el("text", { x: x * SQ + SQ / 2, y: y * SQ + SQ / 2, class: "coord" }, svg).textContent = text;
    }
  }
  $("board").replaceChildren(svg);
}

function nextSquares() {
  const out = new Set();
  if (!canAct() || ui.clicks.length === 0 || ui.past) return out;
  for (const t of ui.game.targets) {
    if (startsWith(t.path, ui.clicks) && t.path.length > ui.clicks.length) out.add(t.path[ui.clicks.length]);
  }
  return out;
}

function onSquare(name) {
  const g = ui.game;
  if (g.result) { showMessage("The game is over"); return; }
  if (!g.humanToMove) { showMessage(`Wait: it is ${seatName(g.turn)}'s move (a bot)`); return; }
  if (!canAct()) { showMessage(ui.refuseClick ? ui.refuseClick() : `It is ${seatName(g.turn)}'s move`); return; }
  const step = clickOnPath(ui.clicks, name, g.targets);
  showMessage(step.refused ? refusal(name) : "");
  ui.clicks = step.clicks;
  if (step.options && step.options.length === 1) sendMove(step.options[0].text);
  else if (step.options) openChooser(step.options, g.turn);
  render();
}

function refusal(name) {
  const g = ui.game;
  const unit = g.pieces[name];
  if (!unit) return ui.clicks.length ? "Not a legal move" : "";
  if (unit[0] !== g.turn) return ui.clicks.length ? "Not a legal move" : `It is ${seatName(g.turn)}'s move`;
  return `The unit on ${name} has no legal move`;
}

function sendMove(text) {
  ui.send({ type: "move", move: text, seat: ui.game.turn });
}

function openChooser(options, seat) {
  showChoices(options, (o) => `/piece8/${seat}-${KIND_LETTERS.indexOf(o.promotion)}.svg`, (o) => o.text, sendMove);
}

function creditWords(seat, credit) {
  // The creditor is null when nobody made it (a resignation left the player without a move).
  const who = credit.creditor === null ? "nobody" : seatName(credit.creditor);
  return `${seatName(seat)}: ${credit.kind} in waiting, credit ${who}`;
}

function renderPanel() {
  const g = ui.game, h = ui.hello;
  let status;
  if (g.result) {
    const winners = g.result.winners.map(seatName).join(", ");
    status = `Game over: ${g.result.reason}` + (g.result.draw ? " (draw)" : winners ? ` — winner: ${winners}` : "");
  } else {
    status = `${seatName(g.turn)} to move` + (g.players[g.turn] === "human" ? "" : " (bot thinking)");
    if (canAct()) status += " — your move";
  }
  $("status").textContent = status;
  $("status").dataset.turn = g.turn === null ? "" : String(g.turn);
  $("note").textContent = g.note || "";
  renderScores();
  renderMoves();
  $("resign").disabled = !canAct();
  $("claim").hidden = !g.claimAllowed;
  $("claim").disabled = !(canAct() && g.claimAllowed);
  $("type-move").disabled = !canAct();
}

function renderScores() {
  const g = ui.game, h = ui.hello;
  const body = $("scores").querySelector("tbody");
  body.replaceChildren();
  const total = g.mode === "pairs";
  $("total-head").hidden = !total;
  const winners = new Set(g.result ? g.result.winners : []);
  g.seats.forEach((s, i) => {
    const tr = document.createElement("tr");
    tr.dataset.seat = String(i);
    if (g.turn === i) tr.classList.add("to-move");
    if (s.status !== "active" && s.status !== "zombie") tr.classList.add("out");
    if (winners.has(i)) tr.classList.add("winner");
    const cells = [
      ["swatch", ""], ["seat", `${h.seats[i].colour} (${seatLabel(i)})` + (ui.seats.includes(i) ? " — you" : "")],
      ["player", s.name], ["points", String(s.score)], ["total", total ? String(s.pairScore) : ""],
      ["status", s.status], ["clock", ""]];
    for (const [cls, text] of cells) {
      const td = document.createElement("td");
      td.className = cls;
      td.textContent = text;
      if (cls === "total" && !total) td.hidden = true;
      if (cls === "swatch") {
        const sw = document.createElement("span");
        sw.className = "swatch";
        sw.style.background = h.seats[i].fill;
        td.appendChild(sw);
      }
      if (cls === "clock") { const c = document.createElement("span"); c.className = "clock"; td.appendChild(c); }
      tr.appendChild(td);
    }
    body.appendChild(tr);
  });
  renderClocks();
  const teams = $("team-scores");
  teams.textContent = g.teamScores ? g.teamScores.map((p, t) => `Team ${h.teamNames[t]}: ${p}`).join("   ") : "";
  const credits = $("credits");
  credits.replaceChildren();
  g.seats.forEach((s, i) => {
    if (!s.credit) return;
    const li = document.createElement("li");
    li.textContent = creditWords(i, s.credit);
    credits.appendChild(li);
  });
}

function renderClocks() {
  const g = ui.game;
  if (!g) return;
  document.querySelectorAll("#scores tbody tr").forEach((tr) => {
    const seat = parseInt(tr.dataset.seat, 10);
    const clock = tr.querySelector(".clock");
    if (!g.hasClock) { clock.textContent = "—"; return; }
    const running = g.running === seat;
    let left = g.seats[seat].clock;
    if (running) left -= (performance.now() - ui.receivedAt) / 1000;
    clock.textContent = formatClock(left);
    clock.classList.toggle("running", running);
    clock.classList.toggle("low", left < 10);
  });
}

// The moves as the text writes them ("1 w. h3"), with the referee's words where they were said.
function renderMoves() {
  const g = ui.game;
  const list = $("moves");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.replaceChildren();
  const notes = {};
  for (const [index, words] of g.log) (notes[index] = notes[index] || []).push(words);
  const addNotes = (index) => {
    for (const words of notes[index] || []) {
      const li = document.createElement("li");
      li.className = "log";
      li.textContent = `{${words}}`;
      list.appendChild(li);
    }
  };
  addNotes(0);
  let shownSet = 0;
  g.moves.forEach(([set, seat, kind, text], i) => {
    if (set !== shownSet) {                       // a row per set: its number, then a column per seat
      const number = document.createElement("li");
      number.className = "set";
      number.textContent = String(set);
      list.appendChild(number);
      shownSet = set;
    }
    const li = document.createElement("li");
    li.className = (kind === "move" ? "move" : "move leave") + (ui.past && ui.past.ply === i + 1 ? " shown" : "");
    li.dataset.index = String(i);
    li.dataset.text = `${set} ${seatLabel(seat)}. ${text}`;      // the text's notation: "1 w. h3"
    li.title = li.dataset.text;
    li.style.gridColumn = String(seat + 2);
    li.textContent = `${seatLabel(seat)}. ${text}`;
    list.appendChild(li);
    addNotes(i + 1);
  });
  if (atBottom || g.result) list.scrollTop = list.scrollHeight;
}

function showMessage(text) { $("message").textContent = text || ""; }

function setupBoard() {
  $("board").addEventListener("click", (event) => {
    if (ui.arrowMode && ui.arrowMode()) return;
    const cell = event.target.closest ? event.target.closest("[data-square]") : null;
    if (cell && ui.game) onSquare(cell.dataset.square);
  });
  $("turn-board").onclick = () => { ui.turns = (ui.turns + 1) % 4; render(); };
  $("numerals").onchange = () => render();
  $("type-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("type-move").value.trim();
    if (!text) return;
    if (!canAct()) { showMessage(ui.refuseClick ? ui.refuseClick() : "Not your move"); return; }
    sendMove(text);
    $("type-move").value = "";
  };
  $("chooser-cancel").onclick = closeChooser;
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
    if (e.key === "Escape") { closeChooser(); ui.clicks = []; render(); }
    else if (e.key === "t") $("turn-board").click();
  });
  setInterval(renderClocks, 100);
}

setupBoard();
