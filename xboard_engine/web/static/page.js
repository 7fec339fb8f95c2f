// Helpers every page of the server uses (lobby, game pages, player pages): SVG and list helpers,
// clocks' text, the sounds, the alerts (tab title, browser notifications) and their switches, the
// muted people.  Loaded before the page's own script.  User text is only ever shown through
// textContent.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);

// An SVG element with attributes, appended to `parent` when one is given.
function el(name, attrs, parent) {
  const node = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

// Whether a click path begins with the squares clicked so far.
function startsWith(path, prefix) {
  return path.length >= prefix.length && prefix.every((s, i) => path[i] === s);
}

// The chooser between the moves one set of clicks may mean (promotions, facings, castles): a
// button each, with its picture when `pictureOf` gives one, labelled by `labelOf`; `choose` gets the
// chosen move's text.
function showChoices(options, pictureOf, labelOf, choose) {
  const box = $("choices");
  box.replaceChildren();
  for (const o of options) {
    const b = document.createElement("button");
    b.dataset.move = o.text;
    const picture = pictureOf(o);
    if (picture) { const img = document.createElement("img"); img.src = picture; img.alt = labelOf(o); b.appendChild(img); }
    const label = document.createElement("span");
    label.textContent = labelOf(o);
    b.appendChild(label);
    b.addEventListener("click", () => { closeChooser(); choose(o.text); });
    box.appendChild(b);
  }
  $("chooser").hidden = false;
  box.firstChild.focus();
}

function closeChooser() { $("chooser").hidden = true; }

// A clock's text: m:ss, and m:ss.s under ten seconds.
// Entering a move square by square: `targets` are the legal moves as paths of squares ({path,
// options}), `clicks` the squares clicked so far.  After a click on `name`: the clicks kept, the
// options of the move it completes (else null), and whether the click fits no move at all.
function clickOnPath(clicks, name, targets) {
  const next = clicks.concat([name]);
  const candidates = targets.filter((t) => startsWith(t.path, next));
  if (candidates.length === 0) {
    if (clicks.length && clicks[clicks.length - 1] === name) return { clicks: [], options: null, refused: false };
    if (targets.some((t) => t.path[0] === name)) return { clicks: [name], options: null, refused: false };
    return { clicks: [], options: null, refused: true };
  }
  const exact = candidates.filter((t) => t.path.length === next.length);
  if (exact.length) return { clicks: [], options: exact[0].options, refused: false };
  return { clicks: next, options: null, refused: false };
}

function formatClock(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  return s < 10 ? `${m}:${rest.toFixed(1).padStart(4, "0")}` : `${m}:${String(Math.floor(rest)).padStart(2, "0")}`;
}

// Scroll `list` (it alone, not the page) so that its child `item` is in its visible part.
function scrollIntoList(list, item) {
  const top = list.getBoundingClientRect().top + list.clientTop;
  const box = item.getBoundingClientRect();
  if (box.top < top) list.scrollTop -= top - box.top;
  else if (box.bottom > top + list.clientHeight) list.scrollTop += box.bottom - (top + list.clientHeight);
}

// Fill the table `id`'s body: a row per entry of `rows` (cells: text, or a node put in as it is);
// `empty` in one cell across `columns` when there are none.
function tableRows(id, rows, columns, empty) {
  const body = $(id).querySelector("tbody");
  body.replaceChildren();
  if (!rows.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = columns;
    td.className = "empty";
    td.textContent = empty;
    tr.appendChild(td);
    body.appendChild(tr);
  }
  for (const cells of rows) {
    const tr = document.createElement("tr");
    for (const c of cells) {
      const td = document.createElement("td");
      if (c instanceof Node) td.appendChild(c); else td.textContent = String(c);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
}

// The mark of a bot account (an engine playing as a player) next to its name.
function botBadge() {
  const badge = document.createElement("span");
  badge.className = "bot-badge";
  badge.textContent = "bot";
  badge.title = "A bot account: an engine playing as a player";
  return badge;
}

// A link to a player's page (their name as its text), or the name alone for a bot or no one.
function playerLink(name, player) {
  if (player === null || player === undefined) { const span = document.createElement("span"); span.textContent = name; return span; }
  const a = document.createElement("a");
  a.href = `/@/${encodeURIComponent(name)}`;
  a.className = "player-link";
  a.textContent = name;
  return a;
}

// ----------------------------------------------------------------- settings kept in this browser
const settings = {
  get(key, fallback) { try { const v = localStorage.getItem(`xbe-${key}`); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; } },
  set(key, value) { try { localStorage.setItem(`xbe-${key}`, JSON.stringify(value)); } catch (e) { /* private mode */ } },
};

// ----------------------------------------------------------------- sounds
// Short tones made by the browser (no sound files): a move, a capture, a check, low time, the
// game's end, and an alert (your move, your challenge taken).  Silent while muted.
const sound = {
  context: null,
  played: [],                                  // what was played (the tests read it)
  muted() { return settings.get("mute", false); },
  play(kind) {
    sound.played.push(kind);
    document.body.dataset.sound = kind;
    if (sound.muted()) return;
    const tones = { move: [[520, 0.05]], capture: [[300, 0.09]], check: [[660, 0.07], [880, 0.09]],
                    low: [[980, 0.05]], end: [[523, 0.12], [659, 0.12], [784, 0.2]], alert: [[740, 0.08], [988, 0.12]] }[kind];
    if (!tones) return;
    try {
      if (!sound.context) sound.context = new (window.AudioContext || window.webkitAudioContext)();
      let at = sound.context.currentTime;
      for (const [frequency, length] of tones) {
        const osc = sound.context.createOscillator(), gain = sound.context.createGain();
        osc.frequency.value = frequency;
        gain.gain.setValueAtTime(0.15, at);
        gain.gain.exponentialRampToValueAtTime(0.001, at + length);
        osc.connect(gain).connect(sound.context.destination);
        osc.start(at);
        osc.stop(at + length);
        at += length * 0.9;
      }
    } catch (e) { /* no audio here */ }
  },
  // The sound of a move by its notation: capture, check, or a plain move.
  forMove(text) {
    if (/#/.test(text)) return "end";
    if (/\+/.test(text)) return "check";
    if (/x|:/.test(text)) return "capture";
    return "move";
  },
};

// ----------------------------------------------------------------- alerts
// The tab's title tells when it is your move; a browser notification does too (and when your
// challenge is taken, or a game ends) if you allowed them and the tab is not in front.
const alerts = {
  base: document.title,
  title(text) { document.title = text ? `● ${text} — ${alerts.base}` : alerts.base; },
  wanted() { return settings.get("notify", false) && "Notification" in window && Notification.permission === "granted"; },
  notify(text, url) {
    document.body.dataset.notified = text;
    if (!alerts.wanted() || !document.hidden) return;
    try {
      const n = new Notification("xboard-engine", { body: text, tag: url || "xbe" });
      n.onclick = () => { window.focus(); if (url) location.href = url; n.close(); };
    } catch (e) { /* not allowed here */ }
  },
};

// The header's switches: sound on/off, browser notifications on/off.
function setupSwitches() {
  const mute = $("mute");
  if (mute) {
    const show = () => { mute.textContent = sound.muted() ? "Sound: off" : "Sound: on"; mute.setAttribute("aria-pressed", String(sound.muted())); };
    mute.onclick = () => { settings.set("mute", !sound.muted()); show(); };
    show();
  }
  const notify = $("notify");
  if (notify) {
    const show = () => { notify.textContent = alerts.wanted() ? "Alerts: on" : "Alerts: off"; };
    notify.onclick = async () => {
      if (settings.get("notify", false)) settings.set("notify", false);
      else if ("Notification" in window) {
        const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
        settings.set("notify", answer === "granted");
      }
      show();
    };
    notify.hidden = !("Notification" in window);
    show();
  }
}

// ----------------------------------------------------------------- muted people
// People whose chat you do not want to see (kept in this browser): their lines are hidden.
const muting = {
  list() { return settings.get("muted", []); },
  has(player) { return player !== null && muting.list().includes(player); },
  toggle(player) {
    const list = muting.list();
    settings.set("muted", list.includes(player) ? list.filter((p) => p !== player) : list.concat([player]));
  },
};

// ----------------------------------------------------------------- a socket that leaves with the page
// A WebSocket to `path` that reconnects when it drops, closes when the page is left (so a page
// kept in the browser's back/forward cache is not "connected") and opens again when it comes back.
function liveSocket(path, handlers) {
  const state = { ws: null, retry: 0, hidden: false, timer: null };
  const open = () => {
    clearTimeout(state.timer);
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}${path}`);
    state.ws = ws;
    ws.onopen = () => { state.retry = 0; document.body.dataset.connected = "1"; if (handlers.open) handlers.open(ws); };
    ws.onmessage = (event) => handlers.message(JSON.parse(event.data));
    ws.onclose = (event) => {
      if (state.ws !== ws) return;
      document.body.dataset.connected = "0";
      if (state.hidden) return;
      // 4001: the game moved to another server process (at once, through the same address).
      const wait = event.code === 4001 ? 0 : Math.min(8000, 500 * 2 ** state.retry);
      state.retry += 1;
      if (handlers.lost) handlers.lost();
      state.timer = setTimeout(open, wait);
    };
  };
  window.addEventListener("pagehide", () => {
    state.hidden = true;
    clearTimeout(state.timer);
    if (state.ws) { const ws = state.ws; state.ws = null; ws.close(1000, "page left"); }
    document.body.dataset.connected = "0";
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) { state.hidden = false; document.body.dataset.restored = "1"; open(); }
  });
  open();
  return {
    send(message) {
      if (!state.ws || state.ws.readyState !== WebSocket.OPEN) return false;
      state.ws.send(JSON.stringify(message));
      return true;
    },
    reopen() { if (state.ws) state.ws.close(4000, "out of step"); },    // reconnects as after a drop
  };
}
