// The browser board of xboard-engine web.  The server holds the game and the rules; this page
// draws what it is sent (board geometry, pictures, legal click paths) and sends what is clicked.
"use strict";

const SQ = 64;          // pixels per square
const MARGIN = 22;      // room for the coordinates

const ui = {
  hello: null,          // variants, engines, time controls
  game: null,           // the last state the server sent
  view: null,           // ply shown while browsing history (null: the live position)
  flipped: false,
  clicks: [],           // squares clicked so far towards a move
  thinking: null,
  receivedAt: 0,
  ws: null,
};

function connect() {
  const ws = new WebSocket(`ws://${location.host}/ws`);
  ui.ws = ws;
  ws.onmessage = (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") { ui.hello = msg; fillForms(); }
    else if (msg.type === "state") { onState(msg); }
    else if (msg.type === "thinking") { ui.thinking = msg; renderThinking(); }
    else if (msg.type === "error") { showMessage(msg.message); }
  };
  ws.onclose = () => {
    showMessage("Connection to the server lost; reconnecting...");
    setTimeout(connect, 1000);
  };
  ws.onopen = () => showMessage("");
}

function send(message) {
  if (!ui.ws || ui.ws.readyState !== WebSocket.OPEN) { showMessage("Not connected to the server"); return; }
  ui.ws.send(JSON.stringify(message));
}

function onState(state) {
  const oldId = ui.game && ui.game.id;
  const oldPlies = ui.game ? ui.game.sans.length : -1;
  ui.game = state;
  ui.receivedAt = performance.now();
  if (state.id !== oldId) { ui.view = null; ui.thinking = null;
    const humans = state.players.map((p) => p === "human");
    ui.flipped = humans[1] && !humans[0]; }
  if (state.sans.length !== oldPlies) { ui.clicks = []; ui.view = null; ui.thinking = null; closeChooser(); }
  render();
  document.body.dataset.plies = String(state.sans.length);     // after drawing: tests wait on it
  document.body.dataset.gameId = String(state.id);
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
  if (ui.afterRender) ui.afterRender();     // the live server's page adds its own marks
}

function renderBoard() {
  const g = ui.game;
  const info = variantInfo(g.variant);
  const ply = shownPly();
  const pieces = placement(g.fens[ply], info);
  const width = info.files * SQ, height = info.ranks * SQ;
  const svg = el("svg", { width: width + MARGIN, height: height + MARGIN, viewBox: `0 0 ${width + MARGIN} ${height + MARGIN}`,
                          id: "board-svg", "data-variant": g.variant, "data-flipped": ui.flipped ? "1" : "0" });
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
  for (const [name, f, r] of info.squares) {
    const [x, y] = xy(f, r);
    const px = x * SQ, py = y * SQ;
    const cell = el("g", { "data-square": name, class: "square" }, board);
    el("rect", { x: px, y: py, width: SQ, height: SQ, class: (f + r) % 2 === 0 ? "sq-dark" : "sq-light" }, cell);
    if (last && (last[0] === name || last[1] === name)) el("rect", { x: px, y: py, width: SQ, height: SQ, class: "mark-last" }, cell);
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
  const holder = $("board");
  holder.replaceChildren(svg);
}

// Pointer input: pressing on a square is a click on it; releasing on another square (a drag) is a
// click there too, so a unit can be clicked from and to, or dragged.  A dragged unit's picture
// follows the pointer.
const drag = { from: null, ghost: null, turned: false };

function squareAt(event) {
  const hit = document.elementFromPoint(event.clientX, event.clientY);
  const cell = hit && hit.closest ? hit.closest("[data-square]") : null;
  return cell ? cell.dataset.square : null;
}

function onPointerDown(event) {
  if (event.button !== 0) return;
  const name = squareAt(event);
  if (!name) return;
  event.preventDefault();
  onSquare(name);
  drag.from = name;
  const selected = ui.clicks.length === 1 && ui.clicks[0] === name;
  const image = selected ? document.querySelector(`[data-square="${name}"] image`) : null;
  if (image) {
    drag.turned = !!image.getAttribute("transform");
    drag.ghost = image.cloneNode();
    drag.ghost.removeAttribute("data-piece");
    drag.ghost.style.pointerEvents = "none";
    drag.ghost.style.opacity = "0.8";
    document.getElementById("board-svg").appendChild(drag.ghost);
  }
}

function onPointerMove(event) {
  if (!drag.ghost) return;
  const svg = document.getElementById("board-svg");
  const box = svg.getBoundingClientRect();
  const x = event.clientX - box.left - MARGIN - SQ / 2, y = event.clientY - box.top - SQ / 2;
  drag.ghost.setAttribute("x", x);
  drag.ghost.setAttribute("y", y);
  if (drag.turned) drag.ghost.setAttribute("transform", `rotate(180 ${x + SQ / 2} ${y + SQ / 2})`);
}

function onPointerUp(event) {
  const from = drag.from;
  if (drag.ghost) { drag.ghost.remove(); drag.ghost = null; }
  drag.from = null;
  const name = squareAt(event);
  if (from && name && name !== from && ui.clicks.length) onSquare(name);
  else if (from) render();
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
  if (!g.humanToMove) { showMessage("Wait: it is the engine's move"); return; }
  const refused = ui.refuseClick && ui.refuseClick();     // the live page: not your seat's move
  if (refused) { showMessage(refused); return; }
  const clicks = ui.clicks.concat([name]);
  const candidates = g.targets.filter((t) => startsWith(t.path, clicks));
  if (candidates.length === 0) {
    if (ui.clicks.length && ui.clicks[ui.clicks.length - 1] === name) { ui.clicks = []; showMessage(""); render(); return; }
    if (g.targets.some((t) => t.path[0] === name)) { ui.clicks = [name]; showMessage(""); render(); return; }
    showMessage(refusal(name));
    ui.clicks = [];
    render();
    return;
  }
  showMessage("");
  const exact = candidates.filter((t) => t.path.length === clicks.length);
  if (exact.length) {
    ui.clicks = [];
    const options = exact[0].options;
    if (options.length === 1) sendMove(options[0].text);
    else openChooser(options);
  } else {
    ui.clicks = clicks;
  }
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

function sendMove(text) {
  send({ type: "move", move: text });
}

function openChooser(options) {
  const box = $("choices");
  box.replaceChildren();
  for (const o of options) {
    const b = document.createElement("button");
    b.dataset.move = o.text;
    if (o.picture) { const img = document.createElement("img"); img.src = `/piece/${o.picture}`; img.alt = o.san; b.appendChild(img); }
    const label = document.createElement("span");
    label.textContent = o.san;
    b.appendChild(label);
    b.addEventListener("click", () => { closeChooser(); sendMove(o.text); });
    box.appendChild(b);
  }
  $("chooser").hidden = false;
  box.firstChild.focus();
}

function closeChooser() { $("chooser").hidden = true; }

function renderPanel() {
  const g = ui.game;
  const bottom = ui.flipped ? 1 : 0;
  for (const [id, side] of [["player-bottom", bottom], ["player-top", 1 - bottom]]) {
    $(id).querySelector(".name").textContent = `${side === 0 ? "White" : "Black"}: ${g.names[side]}`;
    $(id).dataset.side = String(side);
  }
  renderClocks();
  let status;
  if (g.result) status = `${g.result} — ${g.reason}`;
  else if (g.thinkingSide !== null && g.thinkingSide !== undefined) status = `${g.names[g.thinkingSide]} is thinking…`;
  else status = `${g.turn === "w" ? "White" : "Black"} to move${g.check ? " (check)" : ""}`;
  if (!live()) status += `  [viewing move ${shownPly()} of ${g.sans.length}]`;
  $("status").textContent = status;
  if (g.note) showMessage(g.note, true);
  renderThinking();
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
  const humanMove = live() && g.humanToMove;
  $("pass").hidden = !g.canPass;
  $("pass").disabled = !(humanMove && g.canPass);
  const humans = g.players.filter((p) => p === "human").length;
  $("takeback").disabled = !(humans && g.sans.length && (g.thinkingSide === null || g.thinkingSide === undefined));
  $("resign").disabled = !(humans && !g.result);
  const otherOffered = g.drawOffer && g.drawOffer !== g.turn;
  $("draw").textContent = otherOffered ? "Accept draw" : "Offer draw";
  $("draw").disabled = !(humanMove && !g.result);
}

function renderClocks() {
  const g = ui.game;
  for (const id of ["player-bottom", "player-top"]) {
    const side = parseInt($(id).dataset.side, 10);
    const clock = $(id).querySelector(".clock");
    if (!g.hasClock) { clock.textContent = ""; clock.hidden = true; continue; }
    clock.hidden = false;
    const running = g.running === side;
    let left = g.clocks[side];
    if (running) left -= (performance.now() - ui.receivedAt) / 1000;
    clock.textContent = formatClock(left);
    clock.classList.toggle("running", running);
    clock.classList.toggle("low", left < 10);
  }
}

function renderThinking() {
  const t = ui.thinking;
  const g = ui.game;
  if (!t || !g || t.id !== g.id) { $("thinking").textContent = ""; return; }
  $("thinking").textContent = `${t.engine}: depth ${t.depth}  score ${t.score}  ${t.pv.join(" ")}`;
}

function showMessage(text, note) {
  $("message").textContent = text || "";
  $("message").style.color = note ? "#cde" : "";
}

function fillForms() {
  const h = ui.hello;
  const variant = $("variant");
  variant.replaceChildren(...h.variants.map((v) => new Option(v.name, v.name)));
  const players = ["human"].concat(h.engines);
  for (const id of ["white", "black"]) {
    $(id).replaceChildren(...players.map((p) => new Option(p === "human" ? "Human" : p, p)));
  }
  $("white").value = "human";
  $("black").value = h.defaultEngine;
  $("tc").replaceChildren(...h.timeControls.map((t) => new Option(describeTc(t), t)));
  variant.onchange = updateNumber;
  updateNumber();
}

function describeTc(t) {
  if (t.startsWith("st=")) return `${t.slice(3)} s a move (engines)`;
  if (t.startsWith("depth=")) return `depth ${t.slice(6)} (engines)`;
  const m = t.match(/^(?:(\d+)\/)?(\d+)(?:\+([\d.]+))?$/);
  if (!m) return t;
  const base = parseInt(m[2], 10);
  const text = base % 60 === 0 ? `${base / 60} min` : `${base} s`;
  return (m[1] ? `${m[1]} moves in ` : "") + text + (m[3] ? ` + ${m[3]} s` : "");
}

function updateNumber() {
  const info = variantInfo($("variant").value);
  $("number-label").hidden = !info.setups;
  if (info.setups) $("number").max = String(info.setups - 1);
}

function gameSettings() {
  const custom = $("tc-custom").value.trim();
  return { white: $("white").value, black: $("black").value, tc: custom || $("tc").value };
}

function setupButtons() {
  $("board").addEventListener("pointerdown", onPointerDown);
  document.addEventListener("pointermove", onPointerMove);
  document.addEventListener("pointerup", onPointerUp);
  $("flip").onclick = () => { ui.flipped = !ui.flipped; render(); };
  $("pass").onclick = () => sendMove("@@@@");
  $("takeback").onclick = () => send({ type: "takeback" });
  $("resign").onclick = () => { if (confirm("Resign this game?")) send({ type: "resign" }); };
  $("draw").onclick = () => send({ type: "draw" });
  $("new-form").onsubmit = (e) => {
    e.preventDefault();
    const info = variantInfo($("variant").value);
    const number = info.setups ? $("number").value.trim() : "";
    send(Object.assign({ type: "new", variant: info.name, number: number === "" ? null : number }, gameSettings()));
  };
  $("load-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("load-text").value.trim();
    const isFen = !text.includes("[") && text.split("/").length >= 7;
    const message = Object.assign({ type: "load" }, gameSettings());
    if (isFen) { message.fen = text; message.variant = $("variant").value; } else { message.pgn = text; }
    send(message);
  };
  $("type-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("type-move").value.trim();
    if (!text) return;
    if (!ui.game.humanToMove) { showMessage("Wait: it is not a human's move"); return; }
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
    if (e.key === "Escape") { closeChooser(); ui.clicks = []; render(); }
    else if (e.key === "ArrowLeft") $("prev").click();
    else if (e.key === "ArrowRight") $("next").click();
    else if (e.key === "Home") $("first").click();
    else if (e.key === "End") $("live").click();
    else if (e.key === "f") $("flip").click();
  });
  setInterval(() => { if (ui.game) renderClocks(); }, 100);
}

setupButtons();
if (!document.body.dataset.live) connect();      // a live game page (live.js) makes its own connection
