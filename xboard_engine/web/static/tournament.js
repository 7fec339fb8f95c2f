// A tournament's page (/t/ID): what it is and when, Join and Withdraw, the live standings and the
// games being played; when the server pairs you, a sound and an alert, then your game's page.
// User text is only ever shown through textContent.
"use strict";

const tour = { view: null, timer: null };
const slug = location.pathname.split("/").pop();

const socket = liveSocket(`/ws/t/${slug}`, {
  message: (msg) => {
    if (msg.type === "tournament") { tour.view = msg; tour.skew = msg.now - Date.now() / 1000; render(); }
    else if (msg.type === "paired") onPaired(msg);
    else if (msg.type === "error") $("t-message").textContent = msg.message;
  },
  lost: () => { $("t-message").textContent = "Connection to the server lost; reconnecting…"; },
  open: () => { $("t-message").textContent = ""; },
});

function send(message) { if (!socket.send(message)) $("t-message").textContent = "Not connected to the server"; }

function onPaired(msg) {
  sound.play("alert");
  alerts.notify("Your tournament game begins", msg.path);
  document.body.dataset.paired = msg.gameId;
  location.href = msg.path;
}

const KIND_WORDS = { arena: "Arena", swiss: "Swiss", eight: "8 Player Chess rounds" };

function clockText(tc) {
  const [base, inc] = String(tc).split("+");
  if (tour.view.kind === "eight") return `${base} min + ${inc || 0} s`;
  const s = parseFloat(base);
  return `${s % 60 === 0 ? `${s / 60} min` : `${s} s`} + ${inc || 0} s`;
}

function span(seconds) {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h ? `${h} h ${m} min` : m ? `${m} min ${r} s` : `${r} s`;
}

function whenText(v) {
  const now = Date.now() / 1000 + (tour.skew || 0);
  if (v.status === "waiting") return `Starts in ${span(v.starts - now)} (${new Date(v.starts * 1000).toLocaleTimeString()})`;
  if (v.status === "cancelled") return "Cancelled: fewer than two players at the start";
  if (v.status === "over") return `Finished${v.ended ? ` at ${new Date(v.ended * 1000).toLocaleTimeString()}` : ""}`;
  if (v.kind === "arena") return v.ends > now ? `Playing: ${span(v.ends - now)} left` : "Time is up: the last games are being finished";
  return `Round ${v.round} of ${v.rounds}`;
}

function resultText(r) { return r === 1 ? "1" : r === 0 ? "0" : r === 0.5 ? "½" : String(r); }

function render() {
  const v = tour.view;
  if (!v) return;
  document.title = `${v.config.name} — xboard-engine`;
  $("t-name").textContent = v.config.name;
  const game = v.kind === "eight" ? `8 Player Chess, ${v.config.mode}` : v.config.variant;
  const length = v.kind === "arena" ? `${v.config.minutes} minutes` : `${v.rounds} rounds`;
  $("t-what").textContent = `${KIND_WORDS[v.kind]} · ${game} · ${clockText(v.config.tc)} · ${v.config.rated ? "rated" : "casual"} · ${length}`;
  $("t-when").textContent = whenText(v);
  $("t-rules").textContent = {
    arena: "Paired again as soon as your game ends, while this page or your game's page is open. Win 2, draw 1; after two wins in a row you are on fire: a win 4, a draw 2.",
    swiss: "Every round pairs players with the same points who have not met, colours balanced; an odd player out gets a bye (1 point).",
    eight: "Each round seats tables of 8 from the standings (bots fill the seats nobody takes). Places score 8, 6, 5, 4, 3, 2, 1, 0.",
  }[v.kind];
  $("join").hidden = v.entered || !v.joinable;
  $("withdraw").hidden = !v.entered;
  $("start-now").hidden = !(v.status === "waiting" && v.you !== null && v.you === v.creator);
  $("cancel-tournament").hidden = !((v.status === "waiting" || v.status === "running") && v.you !== null && v.you === v.creator);
  const yours = $("your-game");
  yours.hidden = !v.yourGame;
  if (v.yourGame) yours.href = `/g/${v.yourGame}`;
  tableRows("standings", v.standings.map((s) => {
    const who = document.createElement("span");
    who.append(playerLink(s.name, s.player));
    if (s.withdrawn) who.append(" (withdrawn)");
    if (s.fire) who.append(" 🔥");
    if (s.marked) who.append(" (marked by a moderator: no place)");
    return [s.rank === null ? "—" : s.rank, who, s.rating, s.points, v.kind === "arena" ? "" : s.tiebreak, s.games,
            s.results.map(resultText).join(" ")];
  }), 7, "Nobody has joined yet");
  $("t-playing-count").textContent = v.playing.length ? `(${v.playing.length})` : "";
  tableRows("t-playing", v.playing.map((g) => {
    const a = document.createElement("a");
    a.href = `/g/${g.gameId}`;
    a.textContent = "Watch";
    return [g.round || "", g.names.join(" – "), a];
  }), 3, "No games now");
  document.body.dataset.status = v.status;
  document.body.dataset.entered = v.entered ? "1" : "0";
  document.body.dataset.ready = "1";
}

setupSwitches();
$("join").onclick = () => send({ type: "join" });
$("withdraw").onclick = () => send({ type: "withdraw" });
$("start-now").onclick = () => send({ type: "start" });
$("cancel-tournament").onclick = () => { if (confirm("Cancel the tournament? No more games will be paired.")) send({ type: "cancel" }); };
setInterval(() => { if (tour.view) $("t-when").textContent = whenText(tour.view); }, 1000);
