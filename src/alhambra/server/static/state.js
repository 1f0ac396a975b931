// The table's shared state (T), the seat I play, the redraw (wired by table.js), notices, settings and motion.
// The bottom of the browser table: it imports nothing, every part may import it.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".

export const T = {
  id: null, token: null, msg: null, events: [], epoch: null, catalogue: null, sel: null, staged: null,
  ws: null, retry: 0, boxes: {}, seenRounds: 0, sending: null, notice: null, modal: null, ended: false,
  moduleInfo: {},
};

// ----- the redraw: table.js draws the whole table; the parts below it only ask for a redraw
let redraw = () => {};

/** Redraw the table (the function table.js wires with setRenderer). */
export function render() {
  redraw();
}

/** Wire the function that draws the whole table (table.js, once). */
export function setRenderer(fn) {
  redraw = fn;
}

export function notify(text, isError = false) {
  T.notice = { text, isError };
  render();
  clearTimeout(T.noticeTimer);
  T.noticeTimer = setTimeout(() => { T.notice = null; render(); }, 5000);
}

/** The tile the viewer picked to build (a waiting tile: kind "place"; a reserve tile: kind
 * "rbuild"), as {kind, tile}, or null. A plug-in's selection about that tile (the place chosen
 * for it on the board) keeps it picked: the tile stays pressed and its other moves stay offered. */
export function pickedTile() {
  const s = T.sel;
  if (!s) return null;
  if (s.kind === "place" || s.kind === "rbuild") return { kind: s.kind, tile: s.tile };
  return s.kind === "module" && s.picked ? s.picked : null;
}
export function me() { return T.msg ? T.msg.seat : null; }
export function isMyTurn() {
  return Boolean(T.msg) && me() !== null && T.msg.view.to_act === me() && T.msg.table.status === "playing";
}
export function seatName(seat) {
  if (seat === -1) return "Dirk";
  const s = T.msg && T.msg.table.seats[seat];
  if (!s) return `Player ${seat + 1}`;
  return s.name || `Player ${seat + 1}`;
}

// ----- settings (kept in this browser)
export const SETTINGS = loadSettings();

export function loadSettings() {
  try {
    return { notation: localStorage.getItem("alhambra.notation") === "1", sound: localStorage.getItem("alhambra.sound") === "1", motion: localStorage.getItem("alhambra.motion") !== "0" };
  } catch (_) {
    return { notation: false, sound: false, motion: true };
  }
}

// ------------------------------------------------------------------------------ motion
// What arrives (a tile in the market or an Alhambra, a card in the display or a hand) moves in
// briefly once, on the redraw that first shows it: 350 ms, ended at once by any click or key,
// never with the "Animate moves" setting off or under prefers-reduced-motion (style.css too).
export const REDUCED_MOTION = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

export function motionOn() {
  return SETTINGS.motion !== false && !(REDUCED_MOTION && REDUCED_MOTION.matches);
}

/** Mark `el` (known across redraws as `key`) as arriving when the last redraw did not show it. */
export function arrival(el, key) {
  T.nextKnown.add(key);
  if (T.known && !T.known.has(key) && motionOn()) el.classList.add("arrive");
  return el;
}

export const skipMotion = () => { for (const a of document.getAnimations ? document.getAnimations() : []) if (a.animationName === "arrive" || a.animationName === "arrive-fade") a.finish(); };
document.addEventListener("pointerdown", skipMotion, true);
document.addEventListener("keydown", skipMotion, true);
