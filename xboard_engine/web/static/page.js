// Helpers both pages of xboard-engine web use (the two-player board and 8 Player Chess); loaded
// before the page's own script.
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

// A clock's text: m:ss, and m:ss.s under ten seconds.
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
