// The two-player board of a game page: the server holds the game and the rules; this draws what it
// is sent (board geometry, pictures, legal click paths) and turns clicks, taps and drags into moves.
// A unit moved while the opponent is to move is a premove: it is played as soon as it is your move,
// if it is legal then.  live.js owns the connection and the rest of the page (ui.send, the hooks).
"use strict";

const SQ = 64;          // units per square in the board's drawing (it is scaled to the screen)
const MARGIN = 22;      // room for the coordinates

const ui = {
  hello: null,          // {variants: [the game's board]}
  game: null,           // the last state the server sent
  view: null,           // ply shown while browsing history (null: the live position)
  flipped: false,
  clicks: [],           // squares clicked so far towards a move
  premove: null,        // [from, to] made during the opponent's move
  receivedAt: 0,
  send: null,           // set by live.js
  mySide: () => null,   // the side this page plays when it is not to move (live.js)
};

function onState(state) {
  const oldPlies = ui.game ? ui.game.sans.length : -1;
  const first = !ui.game;
  ui.game = state;
  ui.receivedAt = performance.now();
  if (state.sans.length !== oldPlies) {
    ui.clicks = []; ui.view = null; closeChooser();
    if (!first && state.sans.length > oldPlies) sound.play(state.result ? "end" : sound.forMove(state.sans[state.sans.length - 1]));
    else if (!first && state.result) sound.play("end");
  }
  render();
  playPremove();
  document.body.dataset.plies = String(state.sans.length);     // after drawing: tests wait on it
}

function variantInfo(name) {
  return ui.hello.variants.find((v) => v.name === name);
}

// FEN placement -> {square name: letter}; ranks from the top, runs of empty squares as numbers.
function placement(fen, info) {
  const out = {};
  const rows = fen.split(" ")[0].split("/");
  rows.forEach((row, i) => {
    const rank = info.ranks - i;
    let file = 0;
    const tokens = row.match(/\d+|./g) || [];
    for (const t of tokens) {
      if (/\d/.test(t)) { file += parseInt(t, 10); continue; }
      out[String.fromCharCode(97 + file) + rank] = t;
      file += 1;
    }
  });
  return out;
}

function live() { return ui.view === null || ui.view === ui.game.sans.length; }
function shownPly() { return ui.view === null ? ui.game.sans.length : ui.view; }

function render() {
  if (!ui.hello || !ui.game) return;
  renderBoard();
  renderPanel();
  if (ui.afterRender) ui.afterRender();     // live.js adds the seats, offers, arrows
}

function renderBoard() {
  const g = ui.game;
  const info = variantInfo(g.variant);
  const ply = shownPly();
  const pieces = placement(g.fens[ply], info);
  const width = info.files * SQ, height = info.ranks * SQ;
  const svg = el("svg", { viewBox: `0 0 ${width + MARGIN} ${height + MARGIN}`, id: "board-svg",
                          "data-variant": g.variant, "data-flipped": ui.flipped ? "1" : "0" });
  const defs = el("defs", {}, svg);
  const glow = el("radialGradient", { id: "check-glow" }, defs);
  el("stop", { offset: "0%", "stop-color": "rgb(255,0,0)", "stop-opacity": "1" }, glow);
  el("stop", { offset: "100%", "stop-color": "rgb(255,0,0)", "stop-opacity": "0" }, glow);
  const board = el("g", { transform: `translate(${MARGIN},0)` }, svg);
  const xy = (f, r) => [ui.flipped ? info.files - 1 - f : f, ui.flipped ? r : info.ranks - 1 - r];
  const isLive = live();
  const last = ply > 0 ? g.lastSquares[ply - 1] : null;
  const next = nextSquares();
  const heldSet = new Set(isLive ? g.held : []);
  const forbidden = new Set(isLive ? g.forbidden : []);
  const premove = new Set(isLive && ui.premove ? ui.premove : []);
  for (const [name, f, r] of info.squares) {
    const [x, y] = xy(f, r);
    const px = x * SQ, py = y * SQ;
    const cell = el("g", { "data-square": name, class: "square" }, board);
    el("rect", { x: px, y: py, width: SQ, height: SQ, class: (f + r) % 2 === 0 ? "sq-dark" : "sq-light" }, cell);
    if (last && (last[0] === name || last[1] === name)) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-last" }, cell);
    if (premove.has(name)) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-premove" }, cell);
    if (isLive && ui.clicks.includes(name)) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-selected" }, cell);
    if (isLive && g.check === name) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-check" }, cell);
    const letter = pieces[name];
    if (letter) {
      const picture = info.pictures[letter];
      const img = el("image", { href: `/piece/${picture}`, x: px, y: py, width: SQ, height: SQ, "data-piece": letter }, cell);
      // A lancer's picture points where it faces: on a flipped board it is turned with the board.
      if (ui.flipped && picture.startsWith("lancer-")) img.setAttribute("transform", `rotate(180 ${px + SQ / 2} ${py + SQ / 2})`);
    }
    if (heldSet.has(name)) el("rect", { x: px + 3, y: py + 3, width: SQ - 6, height: SQ - 6, rx: 6, class: "mark-held" }, cell)
      .appendChild(titleNode("held by a jailer: cannot move"));
    if (forbidden.has(name)) {
      el("path", { d: `M ${px + 14} ${py + 14} L ${px + SQ - 14} ${py + SQ - 14} M ${px + SQ - 14} ${py + 14} L ${px + 14} ${py + SQ - 14}`,
                   class: "mark-forbidden" }, cell).appendChild(titleNode("the pushed unit may not move here this move"));
    }
    if (next.has(name)) {
      if (letter) el("circle", { cx: px + SQ / 2, cy: py + SQ / 2, r: SQ / 2 - 4, class: "mark-target-ring" }, cell);
      else el("circle", { cx: px + SQ / 2, cy: py + SQ / 2, r: SQ / 7, class: "mark-target" }, cell);
      cell.setAttribute("data-target", "1");
    }
  }
  for (let f = 0; f < info.files; f++) {
    const [x] = xy(f, 0);
    const t = el("text", { x: MARGIN + x * SQ + SQ / 2 - 4, y: height + 16, class: "coord" }, svg);
    t.textContent = String.fromCharCode(97 + f);
  }
  for (let r = 0; r < info.ranks; r++) {
    const [, y] = xy(0, r);
    const t = el("text", { x: 4, y: y * SQ + SQ / 2 + 5, class: "coord" }, svg);
    t.textContent = String(r + 1);
  }
  $("board").replaceChildren(svg);
}

// ----------------------------------------------------------------- pointer input
// Pressing on a square is a click on it; releasing on another square (a drag) is a click there
// too, so a unit can be clicked (or tapped) from and to, or dragged, with a mouse or a finger.  A
// dragged unit's picture follows the pointer.  The right button (or live.js's arrow mode) draws arrows.
const drag = { from: null, ghost: null, turned: false, id: null };

function squareAt(event) {
  const hit = document.elementFromPoint(event.clientX, event.clientY);
  const cell = hit && hit.closest ? hit.closest("[data-square]") : null;
  return cell ? cell.dataset.square : null;
}

function svgPoint(event) {
  const svg = $("board-svg");
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const scale = vb.width / box.width;
  return [(event.clientX - box.left) * scale, (event.clientY - box.top) * scale];
}

function onPointerDown(event) {
  if (event.button !== 0 || (ui.arrowMode && ui.arrowMode())) return;
  const name = squareAt(event);
  if (!name) return;
  event.preventDefault();
  onSquare(name);
  drag.from = name;
  drag.id = event.pointerId;
  const selected = (ui.clicks.length === 1 && ui.clicks[0] === name) || (ui.premoveFrom === name);
  const image = selected ? document.querySelector(`[data-square="${name}"] image`) : null;
  if (image) {
    drag.turned = !!image.getAttribute("transform");
    drag.ghost = image.cloneNode();
    drag.ghost.removeAttribute("data-piece");
    drag.ghost.style.pointerEvents = "none";
    drag.ghost.style.opacity = "0.8";
    $("board-svg").appendChild(drag.ghost);
  }
}

function onPointerMove(event) {
  if (!drag.ghost || event.pointerId !== drag.id) return;
  const [px, py] = svgPoint(event);
  const x = px - SQ / 2, y = py - SQ / 2;
  drag.ghost.setAttribute("x", x);
  drag.ghost.setAttribute("y", y);
  if (drag.turned) drag.ghost.setAttribute("transform", `rotate(180 ${x + SQ / 2} ${y + SQ / 2})`);
}

function onPointerUp(event) {
  if (drag.from === null || event.pointerId !== drag.id) return;
  const from = drag.from;
  if (drag.ghost) { drag.ghost.remove(); drag.ghost = null; }
  drag.from = null;
  const name = squareAt(event);
  if (name && name !== from && (ui.clicks.length || ui.premoveFrom)) onSquare(name);
  else render();
}

function titleNode(text) {
  const t = document.createElementNS(SVGNS, "title");
  t.textContent = text;
  return t;
}

// The squares that continue a move from the clicks so far.
function nextSquares() {
  const g = ui.game;
  const out = new Set();
  if (!live() || !g.humanToMove || ui.clicks.length === 0) return out;
  for (const t of g.targets) {
    if (startsWith(t.path, ui.clicks) && t.path.length > ui.clicks.length) out.add(t.path[ui.clicks.length]);
  }
  return out;
}

function onSquare(name) {
  const g = ui.game;
  if (!live()) { ui.view = null; render(); return; }
  if (g.result) { showMessage("The game is over"); return; }
  const refused = ui.refuseClick ? ui.refuseClick() : "";
  if (refused === "premove") { onPremoveSquare(name); return; }
  if (refused) { showMessage(refused); return; }
  if (!g.humanToMove) { showMessage("Wait: it is the engine's move"); return; }
  const step = clickOnPath(ui.clicks, name, g.targets);
  showMessage(step.refused ? refusal(name) : "");
  ui.clicks = step.clicks;
  if (step.options && step.options.length === 1) sendMove(step.options[0].text);
  else if (step.options) openChooser(step.options);
  render();
}

// Why a click makes no move, in words.
function refusal(name) {
  const g = ui.game;
  const info = variantInfo(g.variant);
  const pieces = placement(g.fens[g.sans.length], info);
  const letter = pieces[name];
  if (!letter) return ui.clicks.length ? "Not a legal move" : "";
  const ours = (letter === letter.toUpperCase()) === (g.turn === "w");
  if (!ours) return ui.clicks.length ? "Not a legal move" : `It is ${g.turn === "w" ? "White" : "Black"}'s move`;
  if (g.held.includes(name)) return `The unit on ${name} is held by a jailer and cannot move`;
  return `The unit on ${name} has no legal move`;
}

// ----------------------------------------------------------------- premoves
// While the opponent is to move: a unit of yours, then a square, is a premove (shown in blue);
// clicking its first square again, Escape or a right click cancels it.
function onPremoveSquare(name) {
  const g = ui.game;
  const side = ui.mySide();
  const info = variantInfo(g.variant);
  const letter = placement(g.fens[g.sans.length], info)[name];
  const mine = letter && (letter === letter.toUpperCase()) === (side === 0);
  if (ui.premoveFrom) {
    if (name === ui.premoveFrom) { cancelPremove(); return; }
    if (mine && !ui.premove) { ui.premoveFrom = name; render(); return; }
    ui.premove = [ui.premoveFrom, name];
    ui.premoveFrom = null;
    showMessage(`Premove ${ui.premove.join("-")}: played when it is your move, if it is legal then`);
  } else if (mine) {
    ui.premove = null;
    ui.premoveFrom = name;
    showMessage("");
  } else {
    return;
  }
  ui.clicks = ui.premoveFrom ? [ui.premoveFrom] : [];
  render();
  document.body.dataset.premove = ui.premove ? ui.premove.join("-") : "";
}

function cancelPremove() {
  if (!ui.premove && !ui.premoveFrom) return;
  ui.premove = null; ui.premoveFrom = null; ui.clicks = [];
  document.body.dataset.premove = "";
  showMessage("Premove cancelled");
  render();
}

// It is your move now: a premove waiting is played if a legal move goes that way (a promotion to
// the first piece the chooser offers, the queen in chess); a push's third square is left to click.
function playPremove() {
  if (!ui.premove || !ui.game.humanToMove || (ui.refuseClick && ui.refuseClick())) return;
  const path = ui.premove;
  ui.premove = null; ui.premoveFrom = null;
  document.body.dataset.premove = "";
  const exact = ui.game.targets.filter((t) => t.path.length === 2 && t.path[0] === path[0] && t.path[1] === path[1]);
  if (exact.length) {
    const options = exact[0].options;
    const queen = options.find((o) => /=Q/.test(o.san)) || options[0];
    ui.clicks = [];
    sendMove(queen.text);
    showMessage("");
    return;
  }
  if (ui.game.targets.some((t) => startsWith(t.path, path))) { ui.clicks = path.slice(); render(); return; }
  ui.clicks = [];
  showMessage(`Premove ${path.join("-")} is not legal now: cancelled`);
  render();
}

function sendMove(text) {
  ui.send({ type: "move", move: text });
}

function openChooser(options) {
  showChoices(options, (o) => (o.picture ? `/piece/${o.picture}` : ""), (o) => o.san, sendMove);
}

// ----------------------------------------------------------------- the panel beside the board
function renderPanel() {
  const g = ui.game;
  const bottom = ui.flipped ? 1 : 0;
  for (const [id, side] of [["player-bottom", bottom], ["player-top", 1 - bottom]]) $(id).dataset.side = String(side);
  renderClocks();
  let status;
  if (g.result) status = `${g.result} — ${g.reason}`;
  else status = `${g.turn === "w" ? "White" : "Black"} to move${g.check ? " (check)" : ""}`;
  if (!live()) status += `  [viewing move ${shownPly()} of ${g.sans.length}]`;
  $("status").textContent = status;
  $("note").textContent = g.note || "";
  const list = $("moves");
  list.replaceChildren();
  const blackFirst = g.fens[0].split(" ")[1] === "b";
  let number = parseInt(g.fens[0].split(" ")[5] || "1", 10);
  let li = null;
  g.sans.forEach((san, i) => {
    const white = (i % 2 === 0) !== blackFirst;
    if (white || li === null) { li = document.createElement("li"); li.value = number; list.appendChild(li);
      if (!white) { const gap = document.createElement("span"); gap.textContent = "…"; li.appendChild(gap); } }
    const span = document.createElement("span");
    span.textContent = san;
    span.dataset.ply = String(i + 1);
    if (i + 1 === shownPly()) span.className = "current";
    span.addEventListener("click", () => { ui.view = i + 1 === g.sans.length ? null : i + 1; ui.clicks = []; render(); });
    li.appendChild(span);
    if (!white) number += 1;
  });
  const current = list.querySelector(".current");
  if (current) scrollIntoList(list, current);
  $("pass").hidden = !g.canPass;
  $("pass").disabled = !(live() && g.humanToMove && g.canPass);
}

function renderClocks() {
  const g = ui.game;
  for (const id of ["player-bottom", "player-top"]) {
    const side = parseInt($(id).dataset.side, 10);
    const clock = $(id).querySelector(".clock");
    if (!g.hasClock) { clock.textContent = ""; clock.hidden = true; continue; }
    clock.hidden = false;
    const running = g.running === side;
    let left = (g.clockValues || g.clocks)[side];
    if (running) left -= (performance.now() - ui.receivedAt) / 1000;
    clock.textContent = formatClock(left);
    clock.classList.toggle("running", running);
    clock.classList.toggle("low", left < 10);
    if (ui.onClock) ui.onClock(side, left, running);
  }
}

function showMessage(text) {
  $("message").textContent = text || "";
}

function setupBoard() {
  $("board").addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  document.addEventListener("pointercancel", onPointerUp);
  $("flip").onclick = () => { ui.flipped = !ui.flipped; render(); };
  $("pass").onclick = () => sendMove("@@@@");
  $("type-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("type-move").value.trim();
    if (!text) return;
    const refused = ui.refuseClick ? ui.refuseClick() : "";
    if (refused && refused !== "premove") { showMessage(refused); return; }
    if (refused === "premove") { showMessage("Type your move when it is your move"); return; }
    sendMove(text);
    $("type-move").value = "";
  };
  $("first").onclick = () => { ui.view = 0; ui.clicks = []; render(); };
  $("prev").onclick = () => { ui.view = Math.max(0, shownPly() - 1); ui.clicks = []; render(); };
  $("next").onclick = () => { const n = shownPly() + 1; ui.view = n >= ui.game.sans.length ? null : n; render(); };
  $("live").onclick = () => { ui.view = null; render(); };
  $("chooser-cancel").onclick = () => { closeChooser(); };
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "TEXTAREA" || e.target.tagName === "SELECT") return;
    if (e.key === "Escape") { closeChooser(); cancelPremove(); ui.clicks = []; render(); }
    else if (e.key === "ArrowLeft") $("prev").click();
    else if (e.key === "ArrowRight") $("next").click();
    else if (e.key === "Home") $("first").click();
    else if (e.key === "End") $("live").click();
    else if (e.key === "f") $("flip").click();
  });
  setInterval(() => { if (ui.game) renderClocks(); }, 100);
}

setupBoard();
