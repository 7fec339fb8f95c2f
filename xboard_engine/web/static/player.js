// A player's page (/@/NAME): their name, ratings (with a graph of each pool's history), results per variant (8 Player Chess per mode), the games
// they play now and their finished games, each with its page and its PGN or record.  Games not
// open to everyone are listed only to the player themselves.
"use strict";

function words(g) { return g.kind === "eight" ? `8 Player Chess, ${g.mode}` : g.variant; }

function players(g) {
  const span = document.createElement("span");
  (g.seats || []).forEach((s, i) => {
    if (i) span.append(", ");
    span.append(`${s.label}: `, playerLink(s.name || (s.kind === "open" ? "open" : "—"), s.kind === "player" ? s.player : null));
    if (s.botAccount) span.append(botBadge());
  });
  return span;
}

// A bot account's line under its name: "Bot account (engine)", what it plays, online or not.
function showBot(bot) {
  if (!bot) return;
  $("player-name").append(botBadge());
  const line = document.createElement("p");
  line.id = "player-bot";
  const clock = (s) => (s >= 60 && s % 60 === 0 ? `${s / 60} min` : `${s} s`);
  line.textContent = `Bot account (${bot.engine || "engine"}) · plays ${bot.variants.join(", ")}; clocks of ` +
    `${clock(bot.minTc)} to ${clock(bot.maxTc)} (base + 40 increments); ` +
    `${bot.rated === "both" ? "rated or casual" : bot.rated} · ${bot.online ? "online now" : "offline"}`;
  if (bot.owner) line.append(" · owned by ", playerLink(bot.owner, true));
  $("player-name").after(line);
  document.body.dataset.bot = "1";
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

function ratingText(r) { return `${r.rating}${r.provisional ? "?" : ""}`; }

// The history of one pool as a line graph: time across, rating up; each point a game (its title
// gives the date and rating).
function drawHistory(points) {
  const W = 600, H = 200, pad = 36;
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-graph", role: "img" });
  const low = Math.min(...points.map((p) => p.rating)) - 20, high = Math.max(...points.map((p) => p.rating)) + 20;
  const x = (i) => pad + (points.length > 1 ? (i * (W - 2 * pad)) / (points.length - 1) : (W - 2 * pad) / 2);
  const y = (r) => H - pad / 2 - ((r - low) * (H - pad)) / (high - low);
  for (const r of [low + 20, high - 20]) {
    el("line", { x1: pad, x2: W - pad / 2, y1: y(r), y2: y(r), stroke: "#555" }, svg);
    el("text", { x: 2, y: y(r) + 4, fill: "#aaa", "font-size": 11 }, svg).textContent = String(Math.round(r));
  }
  el("polyline", { points: points.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), fill: "none",
                   stroke: "#6a8", "stroke-width": 2 }, svg);
  points.forEach((p, i) => {
    const dot = el("circle", { cx: x(i), cy: y(p.rating), r: 3, fill: "#9cf", "data-rating": p.rating }, svg);
    el("title", {}, dot).textContent = `${new Date(p.at * 1000).toLocaleString()}: ${p.rating}`;
  });
  return svg;
}

function showHistory(data) {
  const pools = data.ratings.map((r) => r.key).filter((k) => data.history.some((h) => h.key === k));
  $("rating-graph-area").hidden = !pools.length;
  if (!pools.length) return;
  const select = $("graph-pool");
  select.replaceChildren(...pools.map((k) => {
    const o = document.createElement("option");
    o.value = k;
    o.textContent = data.ratings.find((r) => r.key === k).words;
    return o;
  }));
  const draw = () => $("rating-graph").replaceChildren(drawHistory(data.history.filter((h) => h.key === select.value)));
  select.onchange = draw;
  draw();
}

// Roles, marks and a closed account; and, on someone else's page, Block and Report.
function showStanding(data) {
  const marks = [];
  if (data.roles.includes("moderator") || data.roles.includes("administrator")) marks.push(data.roles.includes("administrator") ? "Administrator" : "Moderator");
  if (data.closed) marks.push(`This account is closed: ${data.closed}`);
  if (data.marked) marks.push("This player's ratings are hidden by the moderators.");
  $("player-marks").textContent = marks.join(" · ");
  $("player-marks").className = data.roles.length ? "mod-mark" : "";
  $("player-actions").hidden = data.you || !!data.bot;
  $("report-reason").replaceChildren(...data.reasons.map((r) => { const o = document.createElement("option"); o.value = r; o.textContent = r; return o; }));
  const send = async (path, body, done) => {
    const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const answer = await response.json().catch(() => ({ error: `the server answered ${response.status}` }));
    $("player-message").textContent = answer.error || done;
    return !answer.error;
  };
  $("block").onclick = () => send("/block", { player: data.id, on: true }, `You blocked ${data.name}: no games, seeks or chat between you.`);
  $("report-form").onsubmit = async (event) => {
    event.preventDefault();
    const game = $("report-game").value.trim().replace(/^.*\/g\//, "").replace(/[^A-Za-z0-9].*$/, "");
    const body = { player: data.id, reason: $("report-reason").value, note: $("report-note").value };
    if (game) body.game = game;
    if (await send("/report", body, "Thank you: the moderators have your report.")) $("report-area").open = false;
  };
  const from = location.hash.match(/report=([A-Za-z0-9]{1,40})/);      // "report" beside a name in a game
  if (from && !data.you && !data.bot) {
    $("report-game").value = from[1];
    $("report-area").open = true;
  }
}

async function load() {
  const response = await fetch(`${location.pathname}.json`);
  if (!response.ok) { $("player-message").textContent = "There is no such player."; return; }
  const data = await response.json();
  document.title = `${data.name} — xboard-engine`;
  $("player-name").textContent = data.name + (data.you ? " (you)" : "");
  showBot(data.bot);
  showStanding(data);
  $("player-since").textContent = `Here since ${new Date(data.since * 1000).toLocaleDateString()}`;
  tableRows("ratings", data.ratings.map((r) => [r.words, ratingText(r), r.games]), 3, "No rated games yet");
  showHistory(data);
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
