// Learning from a game (its page, /g/ID, both kinds): the computer analysis (asked for once the
// game is over; everyone who opens the game sees it): a graph of the score after every move (8
// Player Chess: a line per seat, its side's chances at its moves), each side's inaccuracies,
// mistakes and blunders, and each marked move with the engine's better one; our engine's lines on
// the position shown; and an analysis board (your own hot-seat game) from it.  An 8 Player page
// cannot replay the rules, so it asks the server for a past board (a "position" message).
// Loaded after live.js; user text is only ever shown through textContent.
"use strict";

const study = { analysis: null, lines: null };
const eight = room.kind === "eight";

// The tools' section, the same on both kinds of page but for the words (an 8 Player page adds
// buttons to step through the game's past boards).
function buildAnalysisArea() {
  const area = $("analysis-area");
  const el = (name, attrs, parent) => {              // HTML elements (page.js's el makes SVG ones)
    const node = document.createElement(name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    parent.appendChild(node);
    return node;
  };
  const button = (id, text, title, parent) => {
    const b = el("button", { id, type: "button", title }, parent);
    b.textContent = text;
    return b;
  };
  const div = (attrs) => el("div", attrs, area);
  el("h3", {}, area).textContent = "Learn from the game";
  if (eight) {
    const nav = div({ class: "row", id: "past-nav", hidden: "" });
    button("past-first", "|<", "The board at the start", nav);
    button("past-prev", "<", "The board one action back", nav);
    button("past-next", ">", "The board one action on", nav);
    button("past-live", ">|", "The board at the end", nav);
    el("span", { class: "hint" }, nav).textContent = "or click a move";
  }
  const row = div({ class: "row" });
  button("request-analysis", "Request computer analysis", eight
    ? "Our bots judge every move from its mover's side; everyone who opens the game sees it"
    : "Our engine scores every move; everyone who opens the game sees it", row);
  button("engine-lines", "Engine lines", eight ? "Our bots' lines for the seat to move on the board shown"
    : "Our engine's lines on the position shown", row);
  button("analysis-board", "Analysis board", eight ? "Your own board from the position shown: every seat yours, ask for lines"
    : "Your own board from the position shown: move both sides, ask for lines", row);
  div({ id: "analysis-status", class: "hint", role: "status" });
  div({ id: "lines-box", hidden: "" });
  div({ id: "analysis-graph" });
  el("p", { id: "analysis-counts", class: "hint" }, area);
  el("ol", { id: "analysis-notes" }, area);
}
buildAnalysisArea();

function finishedGame() { return room.state && (room.state.status === "over" || room.state.status === "aborted"); }

function ownBoard() { return room.hello && room.hello.config && room.hello.config.analysis; }

// Plies (8 Player Chess: actions) in the game, and the number of them before the board shown.
function plyCount() { return eight ? ui.game.moves.length : room.state.sans.length; }
function shownAt() { return eight ? (ui.past ? ui.past.ply : plyCount()) : shownPly(); }

window.renderAnalysisTools = function renderAnalysisTools() {
  const over = finishedGame(), own = ownBoard();
  $("analysis-area").hidden = !(over || own);
  const a = study.analysis;
  $("request-analysis").hidden = !over || !plyCount() || (a && a.status && a.status !== "failed");
  $("analysis-board").hidden = !over;
  $("engine-lines").hidden = !(over || own);
  if (eight) {
    $("past-nav").hidden = !over;
    $("moves").classList.toggle("steps", over);       // a click on a move shows the board after it
  }
};

function scoreText(p) {
  if (p.final) return p.final;
  if (p.mate !== null && p.mate !== undefined) return `#${p.mate}`;
  return `${p.cp >= 0 ? "+" : ""}${(p.cp / 100).toFixed(2)}`;
}

function seatScoreText(p) { return `${p.played >= 0 ? "+" : ""}${(p.played / 100).toFixed(2)}`; }

function pawns(p) {
  if (p.mate !== null && p.mate !== undefined) return p.mate > 0 ? 10 : -10;
  return Math.max(-10, Math.min(10, p.cp / 100));
}

const JUDGED_COLOURS = { inaccuracy: "#e6c84f", mistake: "#e69f4f", blunder: "#e55" };

// 8 Player Chess: a line per seat in its army's colour, its side's chances (-1 to 1) after each of
// its moves; a marked move's point is coloured by its judgement; a click shows the board after it.
function drawSeatsGraph(data) {
  const W = 600, H = 140, total = Math.max(1, data.plies.length);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", role: "img", "aria-label": "Evaluation graph, a line per seat" });
  const x = (p) => (p.ply * W) / total;
  const y = (p) => H / 2 - p.chance * (H / 2 - 4);
  el("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: "#777" }, svg);
  for (let seat = 0; seat < 8; seat++) {
    const judged = data.plies.filter((p) => p.seat === seat && p.chance !== undefined);
    const fill = ui.hello.seats[seat].fill;
    el("polyline", { points: judged.map((p) => `${x(p)},${y(p)}`).join(" "), fill: "none", stroke: fill,
                     "stroke-width": 1.5, "data-seat": String(seat) }, svg);
    judged.forEach((p) => {
      const dot = el("circle", { cx: x(p), cy: y(p), r: p.judgement ? 4 : 2, fill: JUDGED_COLOURS[p.judgement] || fill,
                                 "data-ply": p.ply, class: "eval-point" }, svg);
      el("title", {}, dot).textContent = `${moveLabel(p)}: ${seatScoreText(p)}${p.judgement ? ` (${p.judgement})` : ""}`;
      dot.addEventListener("click", () => showPly(p.ply));
    });
  }
  return svg;
}

// The score after every move, White's advantage up (clamped to +-10 pawns); a marked move's point is
// coloured by its judgement; a click on a point shows that position.
function drawGraph(data) {
  if (data.eight) return drawSeatsGraph(data);
  const W = 600, H = 140, points = [data.start].concat(data.plies);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", role: "img", "aria-label": "Evaluation graph" });
  const x = (i) => (i * W) / Math.max(1, points.length - 1);
  const y = (p) => H / 2 - (pawns(p) * (H / 2 - 4)) / 10;
  el("rect", { x: 0, y: 0, width: W, height: H / 2, fill: "#eee", opacity: 0.12 }, svg);
  el("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: "#777" }, svg);
  el("polyline", { points: points.map((p, i) => `${x(i)},${y(p)}`).join(" "), fill: "none", stroke: "#9cf", "stroke-width": 2 }, svg);
  points.forEach((p, i) => {
    const dot = el("circle", { cx: x(i), cy: y(p), r: p.judgement ? 4 : 2.5, fill: JUDGED_COLOURS[p.judgement] || "#9cf",
                               "data-ply": i, class: "eval-point" }, svg);
    el("title", {}, dot).textContent = i ? `${p.san}: ${scoreText(p)}${p.judgement ? ` (${p.judgement})` : ""}` : `Start: ${scoreText(p)}`;
    dot.addEventListener("click", () => showPly(i));
  });
  return svg;
}

function showPly(i) {
  if (eight) {
    if (i >= plyCount() || i < 0) { ui.past = null; render(); }
    else ui.send({ type: "position", ply: i });
    return;
  }
  ui.view = i >= ui.game.sans.length ? null : i;
  ui.clicks = [];
  render();
}

// A past board of an 8 Player game, from the server.
window.onPosition = function onPosition(msg) {
  ui.past = msg.ply >= plyCount() ? null : msg;
  render();
  document.body.dataset.shown = String(msg.ply);
};

// A judged move as the move list writes it: "3. e4" or (8 Player Chess) "2 w. Rd3".
function moveLabel(p) {
  if (!eight) return `${moveNumber(p.ply)} ${p.san}`;
  const [set, seat] = ui.game.moves[p.ply - 1] || [0, p.seat];
  return `${set} ${seatLabel(seat)}. ${p.san}`;
}

function moveNumber(ply) {
  const whiteFirst = !(room.state.fens[0] || "").split(" ")[1] || room.state.fens[0].split(" ")[1] === "w";
  const n = ply - 1 + (whiteFirst ? 0 : 1);
  return `${Math.floor(n / 2) + 1}${n % 2 ? "…" : "."}`;
}

window.onAnalysis = function onAnalysis(msg) {
  study.analysis = msg;
  const status = $("analysis-status");
  if (msg.status === "queued") status.textContent = `Analysis requested: ${msg.ahead || 0} game(s) ahead in the queue`;
  else if (msg.status === "running") status.textContent = `Analysing: position ${msg.done + 1} of ${msg.total}`;
  else if (msg.status === "failed") status.textContent = "The analysis failed; you may ask again";
  else status.textContent = msg.status === "done" ? `Analysed by ${msg.data.engine}, ${msg.data.seconds} s a position` : "";
  if (msg.status === "done") {
    const d = msg.data;
    $("analysis-graph").replaceChildren(drawGraph(d));
    const words = (c) => `${c.inaccuracy} inaccuracies, ${c.mistake} mistakes, ${c.blunder} blunders`;
    const sides = eight ? ui.hello.seats.map((s) => s.colour) : ["White", "Black"];
    $("analysis-counts").textContent = d.counts.map((c, i) => `${sides[i]}: ${words(c)}.`).join(" ");
    $("analysis-notes").replaceChildren(...d.plies.filter((p) => p.judgement).map((p) => {
      const li = document.createElement("li");
      li.className = `note-${p.judgement}`;
      li.dataset.ply = String(p.ply);
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = moveLabel(p);
      a.onclick = (e) => { e.preventDefault(); showPly(p.ply); };
      li.append(a, ` is ${p.judgement === "inaccuracy" ? "an" : "a"} ${p.judgement} (${eight ? seatScoreText(p) : scoreText(p)}); better was ${p.best}`);
      return li;
    }));
    document.body.dataset.analysis = "done";
  }
  renderAnalysisTools();
};

window.onLines = function onLines(msg) {
  const box = $("lines-box");
  box.hidden = false;
  if (msg.done) {
    const best = msg.best ? `best ${msg.best}, ` : "";
    const side = eight && msg.seat !== null && msg.seat !== undefined ? ` for ${ui.hello.seats[msg.seat].colour}` : "";
    box.dataset.done = "1";
    box.append(document.createElement("br"), `Done: ${best}${scoreText({ cp: msg.cp, mate: msg.mate })}${side}`);
    return;
  }
  box.dataset.done = "";
  box.textContent = `After ${msg.ply} plies — depth ${msg.depth}, score ${msg.score}: ${msg.pv.join(" ")}`;
};

$("request-analysis").onclick = () => ui.send({ type: "analyse" });
$("engine-lines").onclick = () => { $("lines-box").textContent = "Thinking…"; $("lines-box").hidden = false; ui.send({ type: "lines", ply: shownAt() }); };
$("analysis-board").onclick = () => ui.send({ type: "board", ply: shownAt() });
if (eight) {
  $("past-first").onclick = () => showPly(0);
  $("past-prev").onclick = () => showPly(Math.max(0, shownAt() - 1));
  $("past-next").onclick = () => showPly(shownAt() + 1);
  $("past-live").onclick = () => showPly(plyCount());
  $("moves").addEventListener("click", (e) => {      // a move of a finished game: the board after it
    const item = e.target.closest ? e.target.closest("li[data-index]") : null;
    if (item && finishedGame()) showPly(Number(item.dataset.index) + 1);
  });
}
