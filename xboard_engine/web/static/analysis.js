// Learning from a two-player game (its page, /g/ID): the computer analysis (asked for once the game
// is over; everyone who opens the game sees it): a graph of the score after every move, each side's
// inaccuracies, mistakes and blunders, and each marked move with the engine's better one; our
// engine's lines on the position shown; and an analysis board (your own hot-seat game) from it.
// Loaded after live.js; user text is only ever shown through textContent.
"use strict";

const study = { analysis: null, lines: null };

function finishedGame() { return room.state && (room.state.status === "over" || room.state.status === "aborted"); }

function ownBoard() { return room.hello && room.hello.config && room.hello.config.analysis; }

window.renderAnalysisTools = function renderAnalysisTools() {
  const over = finishedGame(), own = ownBoard();
  $("analysis-area").hidden = !(over || own);
  const a = study.analysis;
  $("request-analysis").hidden = !over || !room.state.sans.length || (a && a.status && a.status !== "failed");
  $("analysis-board").hidden = !over;
  $("engine-lines").hidden = !(over || own);
};

function scoreText(p) {
  if (p.final) return p.final;
  if (p.mate !== null && p.mate !== undefined) return `#${p.mate}`;
  return `${p.cp >= 0 ? "+" : ""}${(p.cp / 100).toFixed(2)}`;
}

function pawns(p) {
  if (p.mate !== null && p.mate !== undefined) return p.mate > 0 ? 10 : -10;
  return Math.max(-10, Math.min(10, p.cp / 100));
}

// The score after every move, White's advantage up (clamped to +-10 pawns); a marked move's point is
// coloured by its judgement; a click on a point shows that position.
function drawGraph(data) {
  const W = 600, H = 140, points = [data.start].concat(data.plies);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "eval-graph", role: "img", "aria-label": "Evaluation graph" });
  const x = (i) => (i * W) / Math.max(1, points.length - 1);
  const y = (p) => H / 2 - (pawns(p) * (H / 2 - 4)) / 10;
  el("rect", { x: 0, y: 0, width: W, height: H / 2, fill: "#eee", opacity: 0.12 }, svg);
  el("line", { x1: 0, x2: W, y1: H / 2, y2: H / 2, stroke: "#777" }, svg);
  el("polyline", { points: points.map((p, i) => `${x(i)},${y(p)}`).join(" "), fill: "none", stroke: "#9cf", "stroke-width": 2 }, svg);
  const colours = { inaccuracy: "#e6c84f", mistake: "#e69f4f", blunder: "#e55" };
  points.forEach((p, i) => {
    const dot = el("circle", { cx: x(i), cy: y(p), r: p.judgement ? 4 : 2.5, fill: colours[p.judgement] || "#9cf",
                               "data-ply": i, class: "eval-point" }, svg);
    el("title", {}, dot).textContent = i ? `${p.san}: ${scoreText(p)}${p.judgement ? ` (${p.judgement})` : ""}` : `Start: ${scoreText(p)}`;
    dot.addEventListener("click", () => showPly(i));
  });
  return svg;
}

function showPly(i) {
  ui.view = i >= ui.game.sans.length ? null : i;
  ui.clicks = [];
  render();
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
    $("analysis-counts").textContent = `White: ${words(d.counts[0])}. Black: ${words(d.counts[1])}.`;
    $("analysis-notes").replaceChildren(...d.plies.filter((p) => p.judgement).map((p) => {
      const li = document.createElement("li");
      li.className = `note-${p.judgement}`;
      li.dataset.ply = String(p.ply);
      const a = document.createElement("a");
      a.href = "#";
      a.textContent = `${moveNumber(p.ply)} ${p.san}`;
      a.onclick = (e) => { e.preventDefault(); showPly(p.ply); };
      li.append(a, ` is ${p.judgement === "inaccuracy" ? "an" : "a"} ${p.judgement} (${scoreText(p)}); better was ${p.best}`);
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
    box.dataset.done = "1";
    box.append(document.createElement("br"), `Done: ${best}${scoreText({ cp: msg.cp, mate: msg.mate })}`);
    return;
  }
  box.dataset.done = "";
  box.textContent = `After ${msg.ply} plies — depth ${msg.depth}, score ${msg.score}: ${msg.pv.join(" ")}`;
};

$("request-analysis").onclick = () => ui.send({ type: "analyse" });
$("engine-lines").onclick = () => { $("lines-box").textContent = "Thinking…"; $("lines-box").hidden = false; ui.send({ type: "lines", ply: shownPly() }); };
$("analysis-board").onclick = () => ui.send({ type: "board", ply: shownPly() });
