// A game page (/g/ID), for both kinds of game.  Loaded after board.js (two players) or 8pc.js (8
// Player Chess), whose drawing and clicking it reuses through small hooks (ui.send, ui.afterRender,
// ui.refuseClick, ui.seats, ui.mySide, ui.arrowMode); it holds the connection and adds the seats
// (take, invite links, who is connected), the players' buttons and offers (abort, draw, takeback,
// resign, claim, rematch), the engines' lines, the chat (with muting), the arrows (right-drag, or
// the arrow switch and a long press by touch), sounds and alerts.
"use strict";

const room = {
  kind: document.body.dataset.live,          // "two" or "eight"
  gameId: location.pathname.split("/").pop(),
  hello: null,
  state: null,
  yourSeats: [],
  seatsKey: null,                              // yourSeats as text, to see a change
  chatIds: new Set(),
  arrows: {},                                  // seat (or "local" for a watcher) -> [[from, to], ...]
  arrowFrom: null,
  arrowMode: false,                            // the arrow switch: taps and drags draw arrows
  thinking: null,
  lowWarned: false,
  leaving: false,
};

const socket = liveSocket(`/ws/g/${room.gameId}`, {
  message: onLiveMessage,
  lost: () => showMessage("Connection to the server lost; reconnecting…"),
  open: () => showMessage(""),
});
ui.send = (message) => { if (!socket.send(message)) showMessage("Not connected to the server"); };

// A state whose history (the lists that only grow with the game) comes as what changed at its end:
// made whole from the last state (xboard_engine/web/rooms/wire.py, whole_state); null if out of step.
function wholeState(msg, last) {
  if (!msg.history) return msg;
  for (const [key, [kept, tail]] of Object.entries(msg.history)) {
    const had = last && last[key];
    if (!had || had.length < kept) return null;
    msg[key] = had.slice(0, kept).concat(tail);
  }
  delete msg.history;
  return msg;
}

function onLiveMessage(msg) {
  if (msg.type === "hello") onLiveHello(msg);
  else if (msg.type === "state") {
    const state = wholeState(msg, room.state);
    if (state) onLiveState(state);
    else socket.reopen();                      // out of step (never expected): the whole state again
  }
  else if (msg.type === "chat") addChat(msg);
  else if (msg.type === "arrows") { room.arrows[msg.seat] = msg.arrows; drawArrows(); }
  else if (msg.type === "thinking") { room.thinking = msg; renderThinking(); }
  else if (msg.type === "you") { room.hello.you = msg.you; renderYou(); }
  else if (msg.type === "error") { showMessage(msg.message); document.body.dataset.error = msg.message; }
  else if (msg.type === "paired") onTournamentPairing(msg);
  else if (msg.type === "analysis" && window.onAnalysis) window.onAnalysis(msg);
  else if (msg.type === "lines" && window.onLines) window.onLines(msg);
  else if (msg.type === "position" && window.onPosition) window.onPosition(msg);
  else if (msg.type === "created") location.href = msg.path;        // an analysis board made from here
}

function onLiveHello(hello) {
  room.hello = hello;
  room.yourSeats = hello.yourSeats;
  if (room.kind === "two") ui.hello = { variants: [hello.info] };
  else onHello(hello.info);
  setSeats();
  takeInvite();
  renderYou();
  const back = $("tournament-link");
  back.hidden = !hello.config.tournament;
  if (hello.config.tournament) back.href = `/t/${hello.config.tournament}`;
  if (room.state) render();
  document.body.dataset.seats = hello.yourSeats.join(",");
  document.body.dataset.gameId = hello.gameId;
}

// A tournament's next game for this player: a sound, an alert, then its page.
function onTournamentPairing(msg) {
  sound.play("alert");
  alerts.notify("Your next tournament game begins", msg.path);
  location.href = msg.path;
}

// An invite link's seat (`#seat=N&invite=SECRET`) or a seat joined from the lobby (`#seat=N`):
// taken once, then the fragment removed.
function takeInvite() {
  const params = new URLSearchParams(location.hash.slice(1));
  if (!params.has("seat")) return;
  history.replaceState(null, "", location.pathname + location.search);
  const seat = parseInt(params.get("seat"), 10);
  const message = { type: "take", seat };
  if (params.has("invite")) message.secret = params.get("invite");
  if (!room.yourSeats.includes(seat)) ui.send(message);
}

function onLiveState(state) {
  const before = room.state;
  room.state = state;
  setSeats();
  if (before && before.status === "open" && state.status === "playing" && room.hello.creator) {
    sound.play("alert");
    alerts.notify("Your challenge was taken: the game begins", location.pathname);
  }
  if (room.kind === "two" && before && state.sans.length !== before.sans.length) room.thinking = null;
  onState(state);                              // board.js / 8pc.js draw it (and call renderLive)
  if (!before) orient();
  if (state.status === "over" && before && before.status !== "over") alerts.notify(`Game over: ${resultWords()}`, location.pathname);
  document.body.dataset.status = state.status;
  document.body.dataset.watchers = String(state.watchers);
  followRematch();
}

// The seats this page may act for (8pc.js's canAct reads ui.seats), and the board turned to them.
function setSeats() {
  const playing = room.state && room.state.status === "playing";
  ui.seats = playing ? room.yourSeats : [];
  const key = room.yourSeats.join(",");
  if (key !== room.seatsKey) { room.seatsKey = key; if (room.state) orient(); }
}

function orient() {
  const mine = room.yourSeats;
  if (room.kind === "two") ui.flipped = mine.length === 1 && mine[0] === 1;
  else if (mine.length) ui.turns = TURNS_FOR_DIRECTION[ui.hello.seats[mine[0]].direction];
  if (ui.game) render();
}

function seatToMove() {
  const s = room.state;
  if (!s || s.status !== "playing" || s.result) return null;
  return room.kind === "two" ? (s.turn === "w" ? 0 : 1) : s.turn;
}

function seatLabelOf(seat) { return room.hello.seatLabels[seat]; }
function mine() { return room.yourSeats; }
function playing() { return room.state && room.state.status === "playing" && !room.state.result; }

// Why a click on the board makes no move here (board.js and 8pc.js ask); "" when it may, and
// "premove" in a two-player game when it is the opponent's move.
ui.refuseClick = () => {
  const s = room.state;
  if (!s || !room.hello) return "Connecting…";
  if (!mine().length) {
    return "You are watching this game" + (s.status === "open" && freeSeats().length ? ": take a free seat to play" : "");
  }
  if (s.status === "open") return "The game begins when every seat is taken";
  if (s.status === "aborted") return "The game was aborted";
  if (s.status === "over" || s.result) return "The game is over";
  const turn = seatToMove();
  if (!mine().includes(turn)) return room.kind === "two" && mine().length === 1 ? "premove" : `It is ${seatLabelOf(turn)}'s move`;
  return "";
};
ui.mySide = () => (mine().length === 1 ? mine()[0] : null);
ui.arrowMode = () => room.arrowMode;

function freeSeats() {
  return room.state ? room.state.online.filter((o) => o.kind === "open") : [];
}

// ----------------------------------------------------------------- the panel
ui.afterRender = renderLive;

function myPlayer() { return room.hello && room.hello.you ? room.hello.you.id : null; }

function nameNode(o) {
  const span = document.createElement("span");
  if (o.kind === "open") span.textContent = "(open seat)";
  else if (o.kind === "invite") span.textContent = "(invited player)";
  else if (o.kind === "closed") span.textContent = "(closed)";
  else span.appendChild(playerLink(o.name || "?", o.kind === "player" ? o.player : null));
  if (room.kind === "two" && mine().includes(o.seat)) span.append(" (you)");    // 8pc.js marks the seat
  if (o.kind === "player" && !o.connected) span.append(" — disconnected");
  if (o.kind === "player" && !o.botAccount && room.hello && !room.hello.local && o.player !== myPlayer()) {
    const report = document.createElement("a");              // the player's page, its report form open
    report.href = `/@/${encodeURIComponent(o.name || "")}#report=${room.gameId}`;
    report.className = "report-link";
    report.textContent = "report";
    report.title = "Report this player to the moderators (this game attached)";
    span.append(" ", report);
  }
  return span;
}

function renderLive() {
  const s = room.state, h = room.hello;
  if (!s || !h) return;
  if (room.kind === "two") {
    for (const id of ["player-top", "player-bottom"]) {
      const side = parseInt($(id).dataset.side, 10);
      const o = s.online[side];
      $(id).querySelector(".name").replaceChildren(`${o.label}: `, nameNode(o));
      $(id).dataset.connected = o.kind === "player" ? String(o.connected) : "";
    }
    if (mine().includes(seatToMove()) && ui.view === null) $("status").textContent += " — your move";
  } else {
    document.querySelectorAll("#scores tbody tr").forEach((tr) => {
      const o = s.online[parseInt(tr.dataset.seat, 10)];
      tr.querySelector("td.player").replaceChildren(nameNode(o));
      tr.dataset.connected = o.kind === "player" ? String(o.connected) : "";
    });
  }
  if (s.status === "aborted") $("status").textContent = `Aborted — ${(s.outcome || {}).reason || "no result"}`;
  renderStatusLine();
  renderTakeButtons();
  renderInvites();
  renderButtons();
  renderOffer();
  renderChannels();
  renderThinking();
  if (window.renderAnalysisTools) window.renderAnalysisTools();
  $("download").href = `/g/${room.gameId}.${room.kind === "two" ? "pgn" : "txt"}`;
  const yourMove = playing() && mine().includes(seatToMove());
  alerts.title(yourMove ? "Your move" : "");
  if (yourMove && document.body.dataset.yourMove !== "1") alerts.notify("Your move", location.pathname);
  document.body.dataset.yourMove = yourMove ? "1" : "0";
  drawArrows();
}

function renderStatusLine() {
  const s = room.state;
  const free = s.online.filter((o) => o.kind === "open" || o.kind === "invite").length;
  let text;
  if (s.status === "open") text = `Waiting for players: ${free} seat${free === 1 ? "" : "s"} to fill`;
  else if (s.status === "over") text = "Game over";
  else if (s.status === "aborted") text = "Aborted";
  else text = "Playing";
  text += s.rated ? " · rated" : "";
  if (mine().length) text += ` — you play ${mine().map(seatLabelOf).join(", ")}`;
  else text += " — you are watching";
  text += ` · ${s.watchers} ${s.watchers === 1 ? "person" : "people"} here`;
  $("live-status").textContent = text;
  renderRatingChanges();
}

// A rated game's end: each person's rating before and after ("White: 1500 → 1512 (+12)").
function renderRatingChanges() {
  const changes = room.state.ratingChanges;
  const seats = changes && changes.seats ? Object.entries(changes.seats) : [];
  $("rating-changes").textContent = seats.map(([seat, [before, after]]) => {
    const d = after - before;
    return `${seatLabelOf(parseInt(seat, 10))}: ${before} → ${after} (${d >= 0 ? "+" : ""}${d})`;
  }).join(" · ") + (changes && changes.unrated ? `Not rated: ${changes.unrated}` : "");
}

function renderTakeButtons() {
  const box = $("take-seats");
  const free = mine().length ? [] : freeSeats();
  const key = free.map((o) => o.seat).join(",");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...free.map((o) => {
    const b = document.createElement("button");
    b.textContent = `Take ${o.label}`;
    b.dataset.seat = String(o.seat);
    b.className = "take";
    b.onclick = () => ui.send({ type: "take", seat: o.seat });
    return b;
  }));
}

// The creator's invite links (kept by the lobby in localStorage), while their seats are unfilled.
function renderInvites() {
  const box = $("invites");
  const invites = settings.get(`invites:${room.gameId}`, []);
  const waiting = invites.filter((i) => room.state.online[i.seat] && room.state.online[i.seat].kind === "invite");
  const key = waiting.map((i) => i.seat).join(",");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren();
  if (!waiting.length) return;
  const p = document.createElement("p");
  p.textContent = "Send each invited player their link:";
  box.appendChild(p);
  for (const i of waiting) box.appendChild(inviteRow(i.label, location.origin + i.path, i.seat));
}

function inviteRow(label, url, seat) {
  const row = document.createElement("div");
  row.className = "invite";
  row.dataset.seat = String(seat);
  const name = document.createElement("span");
  name.textContent = label;
  const input = document.createElement("input");
  input.readOnly = true;
  input.value = url;
  input.onfocus = () => input.select();
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = "Copy";
  copy.onclick = () => {
    const done = () => { copy.textContent = "Copied"; setTimeout(() => { copy.textContent = "Copy"; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, () => {});
    else { input.select(); document.execCommand("copy"); done(); }
  };
  row.append(name, input, copy);
  return row;
}

function show(id, visible, text) {
  const b = $(id);
  if (!b) return;
  b.hidden = !visible;
  if (text !== undefined) b.textContent = text;
}

function renderButtons() {
  const s = room.state, h = room.hello;
  const me = mine();
  const on = playing() && me.length > 0;
  const offers = s.offers || {};
  const vsBot = s.online.some((o) => o.kind === "bot");
  show("cancel", s.status === "open" && h.creator);
  show("type-form", on);                        // typing a move: for a player, while the game is played
  show("abort", on && (s.abortable || []).some((seat) => me.includes(seat)));
  show("resign", on && !(s.abortable || []).some((seat) => me.includes(seat) && me.length === 1 && room.kind === "two"));
  show("rematch", s.status === "over" && me.length > 0 && !offers.next,
       offers.rematch && offers.rematch.some((seat) => me.includes(seat)) ? "Rematch asked…" : "Rematch");
  $("rematch").disabled = !!(offers.rematch && offers.rematch.some((seat) => me.includes(seat)));
  show("to-rematch", !!offers.next);
  if (offers.next) $("to-rematch").href = `/g/${offers.next}`;
  if (room.kind === "two") {
    const one = me.length === 1 ? me[0] : null;
    const ours = one === null ? null : "wb"[one];
    const hotSeatAccept = one === null && !!s.drawOffer && s.drawOffer !== s.turn;   // one person, both sides
    show("draw", on && !vsBot && !(s.drawOffer && one !== null && s.drawOffer !== ours),
         hotSeatAccept ? "Accept draw" : s.drawOffer && s.drawOffer === ours ? "Draw offered" : "Offer draw");
    $("draw").dataset.accept = hotSeatAccept ? "1" : "";
    $("draw").disabled = !!(s.drawOffer && s.drawOffer === ours);
    const asked = offers.takeback !== null && offers.takeback !== undefined;
    show("takeback", on && !(asked && !me.includes(offers.takeback)),
         asked && me.includes(offers.takeback) && !h.solo ? "Takeback asked…" : "Take back");
    $("takeback").disabled = (asked && me.includes(offers.takeback) && !h.solo) || !s.sans.length;
    const opponent = one === null ? null : s.online[1 - one];
    const away = !!opponent && opponent.kind === "player" && !opponent.connected;
    show("claim-win", on && away);
    $("pass").disabled = $("pass").disabled || !!ui.refuseClick();
  } else {
    show("claim", on && ui.game && ui.game.claimAllowed);
  }
}

// An offer from the other side, with its answers: a draw, a takeback, a rematch.
function renderOffer() {
  const s = room.state, me = mine();
  const offers = s.offers || {};
  let words = "", accept = null, what = null;
  if (room.kind === "two" && playing() && me.length === 1 && s.drawOffer && s.drawOffer !== "wb"[me[0]]) {
    words = `${s.drawOffer === "w" ? "White" : "Black"} offers a draw`; accept = { type: "draw" }; what = "draw";
  } else if (playing() && offers.takeback !== null && offers.takeback !== undefined && me.length && !me.includes(offers.takeback)) {
    words = `${seatLabelOf(offers.takeback)} asks to take back a move`; accept = { type: "takeback" }; what = "takeback";
  } else if (s.status === "over" && !offers.next && offers.rematch && offers.rematch.length && me.length
             && !offers.rematch.some((seat) => me.includes(seat))) {
    words = `${offers.rematch.map(seatLabelOf).join(", ")} ${offers.rematch.length === 1 ? "wants" : "want"} a rematch`;
    accept = { type: "rematch" }; what = "rematch";
  }
  const box = $("offer");
  box.hidden = !words;
  if (box.dataset.words === words) return;
  box.dataset.words = words;
  if (!words) { box.replaceChildren(); return; }
  const text = document.createElement("span");
  text.textContent = words;
  const yes = document.createElement("button");
  yes.textContent = "Accept";
  yes.id = "offer-accept";
  yes.onclick = () => ui.send(accept);
  const no = document.createElement("button");
  no.textContent = "Decline";
  no.id = "offer-decline";
  no.onclick = () => ui.send({ type: "decline", what });
  box.replaceChildren(text, yes, no);
  sound.play("alert");
}

function followRematch() {
  const next = room.state.offers && room.state.offers.next;
  if (next && mine().length && !room.leaving) {
    room.leaving = true;
    showMessage("The rematch begins…");
    setTimeout(() => { location.href = `/g/${next}`; }, 600);
  }
}

function resultWords() {
  const s = room.state;
  if (room.kind === "two") return s.result ? `${s.result} (${s.reason})` : "";
  return s.result ? s.result.reason : "";
}

function renderThinking() {
  const t = room.thinking;
  const box = $("thinking");
  if (!t || !room.state || room.state.status !== "playing") { box.textContent = ""; box.hidden = true; return; }
  box.hidden = false;
  box.textContent = `${t.engine}: depth ${t.depth}  score ${t.score}  ${t.pv.join(" ")}`;
}

function renderYou() {
  const you = room.hello && room.hello.you;
  const box = $("live-you");
  box.replaceChildren();
  if (you) box.append("You: ", playerLink(you.name, you.id));
  if (you && document.activeElement !== $("name-text") && !$("name-text").value) $("name-text").value = you.name;
}

// Low time on your own running clock: one warning sound a turn.
ui.onClock = (seat, left, running) => {
  if (!running || !mine().includes(seat)) { if (!running && mine().includes(seat)) room.lowWarned = false; return; }
  if (left < 10 && !room.lowWarned) { room.lowWarned = true; sound.play("low"); }
};

// ----------------------------------------------------------------- chat
function teamChannelName() {
  const mode = room.state && room.state.mode;
  return mode === "teams" ? "Team" : "Partner";
}

function renderChannels() {
  const select = $("chat-channel");
  const teams = new Set(mine().map((seat) => room.hello.teams[seat]));
  const team = room.kind === "eight" && mine().length > 0 && teams.size === 1 && !teams.has(null);
  const has = !!select.querySelector('option[value="team"]');
  if (team && !has) select.appendChild(new Option(teamChannelName(), "team"));
  if (!team && has) select.querySelector('option[value="team"]').remove();
  select.hidden = !team;
}

function addChat(line) {
  if (room.chatIds.has(line.id)) return;               // a reconnection sends the history again
  room.chatIds.add(line.id);
  const li = document.createElement("li");
  li.dataset.channel = line.channel;
  li.dataset.id = String(line.id);
  li.dataset.player = String(line.player);
  if (line.channel === "team") li.className = "team";
  const when = document.createElement("span");
  when.className = "when";
  when.textContent = new Date(line.at * 1000).toTimeString().slice(0, 5);
  const who = document.createElement("span");
  who.className = "who";
  if (line.channel === "team") who.append(`[${teamChannelName()}] `);
  who.append(playerLink(line.name, line.player));
  if (line.seat !== null && room.hello) who.append(` (${seatLabelOf(line.seat)})`);
  who.append(":");
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = line.text;
  li.append(when, " ", who, " ", text);
  const you = room.hello && room.hello.you;
  if (line.player !== null && !(you && you.id === line.player)) {
    const mute = document.createElement("button");
    mute.className = "mute-person";
    mute.title = `Hide ${line.name}'s chat (only for you)`;
    mute.textContent = "mute";
    mute.onclick = () => { muting.toggle(line.player); applyMutes(); };
    li.append(" ", mute);
  }
  const list = $("chat-lines");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.appendChild(li);
  applyMutes();
  if (atBottom) list.scrollTop = list.scrollHeight;
  document.body.dataset.chats = String(room.chatIds.size);
}

// Lines of muted people are hidden; a note says how many, with a way to show them again.
function applyMutes() {
  let hidden = 0;
  for (const li of document.querySelectorAll("#chat-lines li")) {
    const muted = muting.has(parseInt(li.dataset.player, 10));
    li.hidden = muted;
    hidden += muted;
  }
  const note = $("muted-note");
  note.hidden = !muting.list().length;
  note.replaceChildren();
  if (muting.list().length) {
    const undo = document.createElement("button");
    undo.textContent = "unmute all";
    undo.onclick = () => { settings.set("muted", []); applyMutes(); };
    note.append(`${muting.list().length} muted (${hidden} line${hidden === 1 ? "" : "s"} hidden) `, undo);
  }
}

// ----------------------------------------------------------------- arrows
const ARROW_TWO = ["#15781b", "#1a4fa8"];

function arrowColour(key) {
  if (key === "local") return "#e08a00";
  if (room.kind === "two") return ARROW_TWO[key] || ARROW_TWO[0];
  return room.hello.info.seats[key].fill;
}

function squareUnder(event) {
  const hit = document.elementFromPoint(event.clientX, event.clientY);
  const cell = hit && hit.closest ? hit.closest("[data-square]") : null;
  return cell ? cell.dataset.square : null;
}

// An arrow begins with the right button, with any press in arrow mode, or with a finger held
// still for half a second; it ends where the pointer is let go (on its first square: all cleared).
const press = { timer: null, x: 0, y: 0, id: null };

function onArrowDown(event) {
  if (event.button === 2 || (room.arrowMode && event.button === 0)) {
    event.preventDefault();
    room.arrowFrom = squareUnder(event);
    return;
  }
  if (event.pointerType === "touch") {
    clearTimeout(press.timer);
    Object.assign(press, { x: event.clientX, y: event.clientY, id: event.pointerId });
    const from = squareUnder(event);
    press.timer = setTimeout(() => {
      room.arrowFrom = from;
      ui.clicks = [];                     // the press began a move or a premove: it is an arrow instead
      if (ui.premoveFrom && !ui.premove) ui.premoveFrom = null;
      if (typeof drag !== "undefined") { if (drag.ghost) drag.ghost.remove(); drag.ghost = null; drag.from = null; }
      render();
      document.body.dataset.arrowPress = "1";
    }, 500);
  }
}

function onArrowMove(event) {
  if (press.timer && event.pointerId === press.id && Math.hypot(event.clientX - press.x, event.clientY - press.y) > 12) {
    clearTimeout(press.timer);
    press.timer = null;
  }
}

function onArrowUp(event) {
  clearTimeout(press.timer);
  press.timer = null;
  if (!room.arrowFrom) return;
  const from = room.arrowFrom;
  room.arrowFrom = null;
  document.body.dataset.arrowPress = "";
  const to = squareUnder(event);
  if (!to) return;
  const key = mine().length ? mine()[0] : "local";
  let list = (room.arrows[key] || []).slice();
  if (from === to) { room.arrows = {}; list = []; }
  else {
    const at = list.findIndex((a) => a[0] === from && a[1] === to);
    if (at >= 0) list.splice(at, 1); else list.push([from, to]);
    list = list.slice(-32);
  }
  room.arrows[key] = list;
  drawArrows();
  if (key !== "local") ui.send({ type: "arrows", arrows: list });
}

// The arrows over the board's SVG (drawn again after every render, which replaces the SVG).
function drawArrows() {
  const svg = $("board-svg");
  if (!svg || !room.hello) return;
  const old = svg.querySelector("#arrow-layer");
  if (old) old.remove();
  const layer = el("g", { id: "arrow-layer", "pointer-events": "none" }, svg);
  const box = svg.getBoundingClientRect();
  const vb = svg.viewBox.baseVal;
  const scale = vb && vb.width && box.width ? vb.width / box.width : 1;
  const centre = (name) => {
    const rect = svg.querySelector(`[data-square="${name}"] rect`);
    if (!rect) return null;
    const b = rect.getBoundingClientRect();
    return [(b.left + b.width / 2 - box.left) * scale, (b.top + b.height / 2 - box.top) * scale, b.width * scale];
  };
  let count = 0;
  for (const [key, list] of Object.entries(room.arrows)) {
    const colour = arrowColour(key);
    for (const [from, to] of list) {
      const a = centre(from), b = centre(to);
      if (!a || !b) continue;
      const size = a[2], dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy) || 1;
      const ux = dx / len, uy = dy / len, head = size * 0.42, width = Math.max(3, size * 0.16);
      const ex = b[0] - ux * head, ey = b[1] - uy * head, px = -uy * head * 0.6, py = ux * head * 0.6;
      const g = el("g", { class: "arrow", "data-from": from, "data-to": to, "data-seat": String(key), opacity: "0.8" }, layer);
      el("line", { x1: a[0], y1: a[1], x2: ex, y2: ey, stroke: "#222", "stroke-width": width + 2, "stroke-linecap": "round" }, g);
      el("line", { x1: a[0], y1: a[1], x2: ex, y2: ey, stroke: colour, "stroke-width": width, "stroke-linecap": "round" }, g);
      el("polygon", { points: `${b[0]},${b[1]} ${ex + px},${ey + py} ${ex - px},${ey - py}`, fill: colour,
                      stroke: "#222", "stroke-width": 1 }, g);
      count += 1;
    }
  }
  document.body.dataset.arrows = String(count);
}

// ----------------------------------------------------------------- set up
function liveSetup() {
  setupSwitches();
  const board = $("board");
  board.addEventListener("contextmenu", (e) => e.preventDefault());
  board.addEventListener("pointerdown", onArrowDown);
  document.addEventListener("pointermove", onArrowMove);
  document.addEventListener("pointerup", onArrowUp);
  $("arrow-mode").onclick = () => {
    room.arrowMode = !room.arrowMode;
    $("arrow-mode").setAttribute("aria-pressed", String(room.arrowMode));
    $("arrow-mode").classList.toggle("on", room.arrowMode);
    document.body.dataset.arrowMode = room.arrowMode ? "1" : "0";
  };
  $("chat-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    ui.send({ type: "chat", text, channel: $("chat-channel").value });
    $("chat-text").value = "";
  };
  $("name-form").onsubmit = (e) => {
    e.preventDefault();
    const name = $("name-text").value.trim();
    if (name) ui.send({ type: "name", name });
  };
  $("cancel").onclick = () => ui.send({ type: "cancel" });
  $("abort").onclick = () => ui.send({ type: "abort" });
  $("resign").onclick = () => { if (confirm("Resign this game?")) ui.send({ type: "resign", seat: seatToMove() !== null && mine().includes(seatToMove()) ? seatToMove() : undefined }); };
  $("rematch").onclick = () => ui.send({ type: "rematch" });
  if (room.kind === "two") {
    $("draw").onclick = () => ui.send({ type: $("draw").dataset.accept ? "draw" : "offer" });
    $("takeback").onclick = () => ui.send({ type: "takeback" });
    $("claim-win").onclick = () => ui.send({ type: "claim" });
  } else {
    $("claim").onclick = () => ui.send({ type: "claim", seat: ui.game.turn });
  }
  for (const id of ["cancel", "abort", "rematch", "to-rematch", "claim-win", "claim"]) if ($(id)) $(id).hidden = true;
}

liveSetup();
