// A game page of the live server (xboard-engine serve, /g/ID), for both kinds of game.  Loaded after
// board.js (two players) or 8pc.js (8 Player Chess), whose drawing and clicking it reuses through
// small hooks (ui.afterRender, ui.refuseClick, ui.seats); it makes the connection itself and adds
// the seats (take, invite links, who is connected), the live buttons, the chat and the arrows.
// User text is only ever shown through textContent.
"use strict";

const room = {
  kind: document.body.dataset.live,          // "two" or "eight"
  gameId: parseInt(location.pathname.split("/").pop(), 10),
  hello: null,
  state: null,
  yourSeats: [],
  seatsKey: null,                              // yourSeats as text, to see a change
  retry: 0,
  chatIds: new Set(),
  arrows: {},                                  // seat (or "local" for a watcher) -> [[from, to], ...]
  arrowFrom: null,
  awaySeen: {},                                // seat -> when this page first saw its player gone
};

// ----------------------------------------------------------------- the connection
function liveConnect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}/ws/g/${room.gameId}`);
  ui.ws = ws;                                  // board.js / 8pc.js send() goes through it
  ws.onopen = () => { room.retry = 0; document.body.dataset.connected = "1"; showMessage(""); };
  ws.onmessage = (event) => onLiveMessage(JSON.parse(event.data));
  ws.onclose = () => {
    if (ui.ws !== ws) return;
    document.body.dataset.connected = "0";
    const wait = Math.min(8000, 500 * 2 ** room.retry);
    room.retry += 1;
    showMessage("Connection to the server lost; reconnecting…");
    setTimeout(liveConnect, wait);
  };
}

function onLiveMessage(msg) {
  if (msg.type === "hello") onLiveHello(msg);
  else if (msg.type === "state") onLiveState(msg);
  else if (msg.type === "chat") addChat(msg);
  else if (msg.type === "arrows") { room.arrows[msg.seat] = msg.arrows; drawArrows(); }
  else if (msg.type === "you") { room.hello.you = msg.you; renderYou(); }
  else if (msg.type === "error") { showMessage(msg.message); document.body.dataset.error = msg.message; }
}

function onLiveHello(hello) {
  room.hello = hello;
  room.yourSeats = hello.yourSeats;
  if (room.kind === "two") ui.hello = { variants: [hello.info], engines: [], timeControls: [] };
  else onHello(Object.assign({}, hello.info, { seat: hello.yourSeats.length ? hello.yourSeats[0] : null }));
  ui.seat = hello.yourSeats.length ? hello.yourSeats[0] : null;
  setSeats();
  takeInvite();
  renderYou();
  if (room.state) render();
  document.body.dataset.seats = hello.yourSeats.join(",");
  document.body.dataset.gameId = String(hello.gameId);
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
  if (!room.yourSeats.includes(seat)) send(message);
}

function onLiveState(state) {
  const first = !room.state;
  room.state = state;
  setSeats();
  onState(state);                              // board.js / 8pc.js draw it (and call renderLive)
  if (first) orient();
  document.body.dataset.status = state.status;
  document.body.dataset.watchers = String(state.watchers);
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

// Why a click on the board makes no move here (board.js and 8pc.js ask); "" when it may.
ui.refuseClick = () => {
  const s = room.state;
  if (!s || !room.hello) return "Connecting…";
  if (!room.yourSeats.length) {
    return "You are watching this game" + (s.status === "open" && freeSeats().length ? ": take a free seat to play" : "");
  }
  if (s.status === "open") return "The game begins when every seat is taken";
  if (s.status === "over" || s.result) return "The game is over";
  const turn = seatToMove();
  if (!room.yourSeats.includes(turn)) return `It is ${seatLabelOf(turn)}'s move`;
  return "";
};

function freeSeats() {
  return room.state ? room.state.online.filter((o) => o.kind === "open") : [];
}

// ----------------------------------------------------------------- the live panel
ui.afterRender = renderLive;

function playerWords(o) {
  if (o.kind === "open") return "(open seat)";
  if (o.kind === "invite") return "(invited player)";
  let text = o.name || "?";
  if (room.kind === "two" && room.yourSeats.includes(o.seat)) text += " (you)";   // 8pc.js marks the seat
  if (o.kind === "player" && !o.connected) text += " — disconnected";
  return text;
}

function renderLive() {
  const s = room.state, h = room.hello;
  if (!s || !h) return;
  const now = performance.now();
  for (const o of s.online) {
    if (o.kind === "player" && !o.connected) { if (!(o.seat in room.awaySeen)) room.awaySeen[o.seat] = now; }
    else delete room.awaySeen[o.seat];
  }
  if (room.kind === "two") {
    for (const id of ["player-top", "player-bottom"]) {
      const side = parseInt($(id).dataset.side, 10);
      const o = s.online[side];
      $(id).querySelector(".name").textContent = `${o.label}: ${playerWords(o)}`;
      $(id).dataset.connected = o.kind === "player" ? String(o.connected) : "";
    }
  } else {
    document.querySelectorAll("#scores tbody tr").forEach((tr) => {
      const o = s.online[parseInt(tr.dataset.seat, 10)];
      tr.querySelector("td.player").textContent = playerWords(o);
      tr.dataset.connected = o.kind === "player" ? String(o.connected) : "";
    });
  }
  if (room.kind === "two" && room.yourSeats.includes(seatToMove()) && ui.view === null) $("status").textContent += " — your move";
  renderStatusLine();
  renderTakeButtons();
  renderInvites();
  renderLiveButtons();
  renderChannels();
  $("download").href = `/g/${room.gameId}.${room.kind === "two" ? "pgn" : "txt"}`;
  drawArrows();
}

function renderStatusLine() {
  const s = room.state;
  const free = s.online.filter((o) => o.kind === "open" || o.kind === "invite").length;
  let text;
  if (s.status === "open") text = `Waiting for players: ${free} seat${free === 1 ? "" : "s"} to fill`;
  else if (s.status === "over") text = "Game over";
  else text = "Playing";
  if (room.yourSeats.length) text += ` — you play ${room.yourSeats.map(seatLabelOf).join(", ")}`;
  else text += " — you are watching";
  text += ` · ${s.watchers} connected`;
  $("live-status").textContent = text;
}

function renderTakeButtons() {
  const box = $("take-seats");
  const free = room.yourSeats.length ? [] : freeSeats();
  const key = free.map((o) => o.seat).join(",");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(...free.map((o) => {
    const b = document.createElement("button");
    b.textContent = `Take ${o.label}`;
    b.dataset.seat = String(o.seat);
    b.className = "take";
    b.onclick = () => send({ type: "take", seat: o.seat });
    return b;
  }));
}

// The creator's invite links (kept by the lobby in localStorage), while their seats are unfilled.
function renderInvites() {
  const box = $("invites");
  let invites = [];
  try { invites = JSON.parse(localStorage.getItem(`invites:${room.gameId}`) || "[]"); } catch (e) { invites = []; }
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
  input.size = 40;
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

function renderLiveButtons() {
  const s = room.state;
  const mine = room.yourSeats;
  const playing = s.status === "playing" && !s.result;
  $("resign").hidden = !mine.length;
  if (room.kind === "two") {
    $("resign").disabled = !playing;
    const me = mine.length ? mine[0] : null;
    const ours = me === null ? null : "wb"[me], theirs = me === null ? null : "wb"[1 - me];
    const offered = !!theirs && s.drawOffer === theirs;
    const draw = $("draw");
    draw.hidden = me === null;
    draw.textContent = offered ? "Accept draw" : s.drawOffer && s.drawOffer === ours ? "Draw offered" : "Offer draw";
    draw.disabled = !playing || (s.drawOffer && s.drawOffer === ours);
    draw.onclick = () => send({ type: offered ? "draw" : "offer" });
    $("pass").disabled = $("pass").disabled || !!ui.refuseClick();
    const opponent = me === null ? null : s.online[1 - me];
    const away = !!opponent && opponent.kind === "player" && !opponent.connected;
    $("claim-win").hidden = !(playing && away);
    $("claim-win").onclick = () => send({ type: "claim" });
  }
}

function renderYou() {
  const you = room.hello && room.hello.you;
  $("live-you").textContent = you ? `You: ${you.name}` : "";
  if (you && document.activeElement !== $("name-text") && !$("name-text").value) $("name-text").value = you.name;
}

// ----------------------------------------------------------------- chat
function teamChannelName() {
  const mode = room.state && room.state.mode;
  return mode === "teams" ? "Team" : "Partner";
}

function renderChannels() {
  const select = $("chat-channel");
  const team = room.kind === "eight" && room.yourSeats.length > 0 && room.hello.teams[room.yourSeats[0]] !== null;
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
  if (line.channel === "team") li.className = "team";
  const when = document.createElement("span");
  when.className = "when";
  when.textContent = new Date(line.at * 1000).toTimeString().slice(0, 5);
  const who = document.createElement("span");
  who.className = "who";
  const seat = line.seat !== null && room.hello ? ` (${seatLabelOf(line.seat)})` : "";
  who.textContent = (line.channel === "team" ? `[${teamChannelName()}] ` : "") + `${line.name}${seat}:`;
  const text = document.createElement("span");
  text.className = "text";
  text.textContent = line.text;
  li.append(when, " ", who, " ", text);
  const list = $("chat-lines");
  const atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
  list.appendChild(li);
  if (atBottom) list.scrollTop = list.scrollHeight;
  document.body.dataset.chats = String(room.chatIds.size);
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

function onArrowDown(event) {
  if (event.button !== 2) return;
  event.preventDefault();
  room.arrowFrom = squareUnder(event);
}

function onArrowUp(event) {
  if (event.button !== 2 || !room.arrowFrom) return;
  const from = room.arrowFrom;
  room.arrowFrom = null;
  const to = squareUnder(event);
  if (!to) return;
  const key = room.yourSeats.length ? room.yourSeats[0] : "local";
  let list = (room.arrows[key] || []).slice();
  if (from === to) { room.arrows = {}; list = []; }
  else {
    const at = list.findIndex((a) => a[0] === from && a[1] === to);
    if (at >= 0) list.splice(at, 1); else list.push([from, to]);
    list = list.slice(-32);
  }
  room.arrows[key] = list;
  drawArrows();
  if (key !== "local") send({ type: "arrows", arrows: list });
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
  $("board").addEventListener("contextmenu", (e) => e.preventDefault());
  $("board").addEventListener("pointerdown", onArrowDown);
  document.addEventListener("pointerup", onArrowUp);
  $("chat-form").onsubmit = (e) => {
    e.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    send({ type: "chat", text, channel: $("chat-channel").value });
    $("chat-text").value = "";
  };
  $("name-form").onsubmit = (e) => {
    e.preventDefault();
    const name = $("name-text").value.trim();
    if (name) send({ type: "name", name });
  };
  if ($("claim-win")) $("claim-win").hidden = true;
  liveConnect();
}

liveSetup();
