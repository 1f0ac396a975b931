// The replay viewer: step through a finished game (/replay/<table id>) or a record file
// (/replay), with the market, the money, every Alhambra, hand and score drawn by art.js at each
// step, and the moves told in sentences (the server words them; never the record's notation).
// Keys: arrows step, Home/End jump, space plays and pauses.

import * as ART from "./art.js";
import {
  CURRENCY_COLORS, CURRENCY_NAMES, bagSVG, cardBackSVG, cardFacts, cardSVG, logoSVG, moneySourceSVG,
  h, svgEl, tileGroup, tileLabel, tileSVG,
} from "./art.js";

const SEAT_COLORS = ["#d1495b", "#2e86ab", "#e09f3e", "#3a7d44", "#7b5ea7", "#5c5c5c"];
const CELL = 100;
const PLAY_MS = 900;


async function fetchJSON(path, options = {}) {
  let res;
  try {
    res = await fetch(path, { headers: { Accept: "application/json", ...(options.headers || {}) }, ...options });
  } catch (_) {
    throw new Error("The server cannot be reached. Check your connection and try again.");
  }
  let data = null;
  try { data = await res.json(); } catch (_) { data = null; }
  if (!res.ok) throw new Error((data && data.detail) || `The server answered ${res.status}.`);
  return data;
}

// ------------------------------------------------------------------------------ state
const R = { data: null, step: 0, timer: null, title: "", tableId: null, bounds: [], plugins: new Map(), moduleInfo: {} };

// module plug-ins draw their own cards and tiles here too (only their art and names are used)
window.Alhambra = Object.freeze({
  apiVersion: 1,
  registerModule(id, plugin) {
    if (typeof id === "string" && plugin && typeof plugin === "object") R.plugins.set(id, plugin);
  },
  art: ART,
});

function frame() { return R.data.frames[R.step]; }
function seatName(seat) { return seat < 0 || seat >= R.data.names.length ? "Dirk" : R.data.names[seat]; }

function pluginContext(id) {
  const v = R.data ? frame() : null;
  return {
    id, view: v, state: v && v.module_views ? v.module_views[id] ?? null : null, me: null, myTurn: false, legal: [], finalActions: [],
    events: [], catalogue: R.data ? R.data.catalogue : null, module: R.moduleInfo[id] || { id, title: id, description: "", assumptions: [] },
    seatName, seatColor: (s) => (s < 0 ? "#999" : SEAT_COLORS[s]), h, svg: svgEl, art: ART, cardArt, tileArt, cardName, tileName,
    act() {}, selection: null, select() {}, pay() {}, payment: null, rerender: () => render(),
  };
}

function callPlugin(id, name, ...args) {
  const p = R.plugins.get(id);
  if (!p || typeof p[name] !== "function") return undefined;
  try { return p[name](pluginContext(id), ...args); } catch (_) { return undefined; }
}

function ownerOf(code, what) {
  const table = R.data && R.data.catalogue ? R.data.catalogue[what] : null;
  const facts = table && Object.hasOwn(table, code) ? table[code] : null;
  return facts && facts.module ? facts.module : null;
}

function tokenOwner(code) {
  const tokens = R.data && R.data.catalogue ? R.data.catalogue.money_tokens : null;
  return tokens && Object.hasOwn(tokens, code) ? tokens[code] : null;
}

const isNode = (x) => x instanceof Node;

function cardName(code) {
  const owner = tokenOwner(code) || ownerOf(code, "cards");
  const got = owner ? callPlugin(owner, "cardName", code) : null;
  if (typeof got === "string") return got;
  const f = cardFacts(code, R.data.catalogue);
  if (f.currency) return `${f.value} ${CURRENCY_NAMES[f.currency] || f.currency}`;
  return f.kind && f.kind !== "special" ? `${f.kind} card` : "a card";
}

function tileName(code) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileName", code) : null;
  return typeof got === "string" ? got : tileLabel(code, R.data.catalogue);
}

function cardArt(code, width = 40) {
  const owner = tokenOwner(code) || ownerOf(code, "cards");
  const got = owner ? callPlugin(owner, "cardArt", code, width) : null;
  if (isNode(got)) return got;
  if (tokenOwner(code)) return moneySourceSVG(cardName(code), null, "?", width);
  const f = cardFacts(code, R.data.catalogue);
  if (!f.currency) {  // a module card without a plug-in: a plain card with its name, never its code
    const s = ART.cardShell(cardName(code), width);
    s.appendChild(svgEl("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: ART.PAPER, stroke: ART.INK, "stroke-width": 2 }));
    s.appendChild(ART.svgText(30, 46, f.kind || "card", { "font-size": 9 }));
    return s;
  }
  return cardSVG(code, R.data.catalogue, width);
}

function tileArt(code, size = 48, opts = {}) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileArt", code, size) : null;
  return isNode(got) ? got : tileSVG(code, R.data.catalogue, size, opts);
}

/** A tile of an Alhambra; `opts.turned` marks a tile built turned over (Granada). */
function tileNode(code, x, y, opts = {}) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileArt", code, CELL) : null;
  if (!(got instanceof SVGSVGElement)) return tileGroup(code, R.data.catalogue, x, y, CELL, opts);
  for (const [k, v] of [["x", 0], ["y", 0], ["width", CELL], ["height", CELL]]) got.setAttribute(k, String(v));
  return svgEl("g", { transform: `translate(${x} ${y})`, class: "tile module-tile" }, [got]);
}

async function loadPlugins(ids) {
  let infos = [];
  try { infos = await fetchJSON("/api/modules"); } catch (_) { return; }
  R.moduleInfo = Object.fromEntries(infos.map((m) => [m.id, m]));
  for (const id of ids) {
    const info = R.moduleInfo[id];
    if (!info || !info.ui) continue;
    const base = `/modules/${encodeURIComponent(id)}/ui/`;
    if (info.ui_css) document.head.appendChild(h("link", { rel: "stylesheet", href: `${base}ui.css` }));
    try { await import(`${base}ui.js`); } catch (e) { console.info(`module ${id}: its drawings are not available`, e); }
  }
}

// ------------------------------------------------------------------------------ pages
/** The game's title (Alhambra, Granada...) from the replay's catalogue, once it is loaded. */
function gameTitle() {
  return (R.data && R.data.catalogue && R.data.catalogue.title) || "Alhambra";
}

function header(extra) {
  return h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand", "aria-label": "Lobby" }, logoSVG(32), h("span", { text: gameTitle() })),
    extra || null);
}

function showError(text, more = null) {
  document.body.dataset.phase = "error";
  document.getElementById("app").replaceChildren(header(),
    h("main", { class: "replay-main" }, h("p", { class: "error", role: "alert", id: "replay-error", text }), more,
      h("p", {}, h("a", { href: "/", text: "Back to the lobby" }))));
}

async function start() {
  const m = /^\/replay\/([A-Za-z0-9]{1,32})\/?$/.exec(location.pathname);
  if (m) {
    R.tableId = m[1];
    document.getElementById("app").replaceChildren(header(), h("main", { class: "replay-main" }, h("p", { text: "Loading the replay…" })));
    try {
      const data = await fetchJSON(`/api/tables/${R.tableId}/replay`);
      const t = data.table || {};
      await open(data, t.name || `Table ${R.tableId.slice(0, 6)}`);
    } catch (e) {
      showError(e.message, h("p", {}, h("a", { href: `/table/${R.tableId}`, text: "Back to the table" })));
    }
  } else {
    chooser();
  }
}

/** /replay: choose (or drop) a record file; the server replays it. */
function chooser(error = "") {
  document.body.dataset.phase = "choose";
  const status = h("p", { id: "replay-error", class: error ? "error" : "muted", role: "alert", text: error });
  const upload = async (file) => {
    if (!file) return;
    status.className = "muted";
    status.textContent = `Reading ${file.name}…`;
    try {
      const text = await file.text();
      const data = await fetchJSON("/api/replay", { method: "POST", body: text, headers: { "Content-Type": "application/json" } });
      await open(data, file.name.replace(/\.json$/i, ""));
    } catch (e) {
      status.className = "error";
      status.textContent = e.message;
    }
  };
  const input = h("input", { type: "file", id: "record-file", accept: ".json,application/json", onchange: () => upload(input.files[0]) });
  const drop = h("div", { class: "drop" },
    h("p", {}, h("label", { for: "record-file", text: "Choose a game record file " }), input),
    h("p", { class: "muted", text: "…or drop it here. A record is the file \"Download the game record\" saves at the end of a game." }));
  drop.addEventListener("dragover", (ev) => { ev.preventDefault(); drop.classList.add("over"); });
  drop.addEventListener("dragleave", () => drop.classList.remove("over"));
  drop.addEventListener("drop", (ev) => { ev.preventDefault(); drop.classList.remove("over"); upload(ev.dataTransfer.files[0]); });
  document.getElementById("app").replaceChildren(header(h("span", { class: "t-title", text: "Replay a game" })),
    h("main", { class: "replay-main" }, h("section", { class: "panel replay-choose" },
      h("h1", { text: "Watch a game again" }), drop, status)));
}

// ------------------------------------------------------------------------------ the viewer
async function open(data, title) {
  await loadPlugins(data.modules || []);
  R.data = data;
  ART.learnKinds(data.catalogue);
  R.title = title;
  R.step = 0;
  R.bounds = data.frames[0].seats.map((_, s) => {
    let minX = 0, maxX = 0, minY = 0, maxY = 0;
    for (const f of data.frames) {
      for (const c of f.seats[s].alhambra) {
        minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x); minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y);
      }
    }
    return { x: (minX - 0.5) * CELL, y: (minY - 0.5) * CELL, w: (maxX - minX + 2) * CELL, h: (maxY - minY + 2) * CELL };
  });
  document.title = `Replay: ${title} · ${gameTitle()}`;
  build();
  render();
  document.addEventListener("keydown", onKey);
  document.addEventListener("keyup", (ev) => { if (ev.key === " " && ev.target && ev.target.tagName === "BUTTON") ev.preventDefault(); });
}

const last = () => R.data.frames.length - 1;

/** The table's "Show notation in the log" setting (off unless the player turned it on). */
function showNotation() {
  try { return localStorage.getItem("alhambra.notation") === "1"; } catch (_) { return false; }
}

function go(step) {
  R.step = Math.max(0, Math.min(last(), step));
  if (R.step === last()) stop();
  render();
}

function play() {
  if (R.timer) { stop(); render(); return; }
  if (R.step === last()) R.step = 0;
  R.timer = setInterval(() => go(R.step + 1), PLAY_MS);
  render();
}

function stop() {
  if (R.timer) clearInterval(R.timer);
  R.timer = null;
}

function onKey(ev) {
  if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const tag = ev.target && ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const keys = { ArrowLeft: () => go(R.step - 1), ArrowRight: () => go(R.step + 1), Home: () => go(0), End: () => go(last()) };
  // space plays and pauses wherever the focus is (a focused button is not pressed by it)
  if (ev.key === " ") { ev.preventDefault(); play(); return; }
  if (keys[ev.key]) { ev.preventDefault(); stop(); keys[ev.key](); }
}

/** The parts that stay (controls, move list) are built once; render() updates them. */
function build() {
  document.body.dataset.phase = "replay";
  const btn = (id, text, label, fn) => h("button", { id, class: "secondary", type: "button", "aria-label": label, title: label, text, onclick: fn });
  R.ui = {};
  R.ui.play = btn("btn-play", "▶ Play", "Play", play);
  R.ui.slider = h("input", { type: "range", id: "replay-slider", min: 0, max: last(), value: 0, "aria-label": "Step",
    oninput: () => { stop(); go(Number(R.ui.slider.value)); } });
  R.ui.stepNo = h("span", { class: "step-no", id: "step-no", "aria-live": "off" });
  R.ui.now = h("p", { class: "replay-now", id: "replay-now", "aria-live": "polite" });
  const bar = h("div", { class: "panel replay-bar", role: "toolbar", "aria-label": "Replay controls" },
    h("div", { class: "step-buttons" },
      btn("btn-first", "« First", "First step", () => { stop(); go(0); }),
      btn("btn-back", "◀ Back", "One step back", () => { stop(); go(R.step - 1); }),
      R.ui.play,
      btn("btn-forward", "Forward ▶", "One step forward", () => { stop(); go(R.step + 1); }),
      btn("btn-last", "Last »", "Last step", () => { stop(); go(last()); })),
    R.ui.slider, R.ui.stepNo, R.ui.now);
  R.ui.moves = h("ol", { class: "r-moves", id: "move-list", "aria-label": "Moves" },
    h("li", {}, h("button", { type: "button", "data-step": "0", onclick: () => { stop(); go(0); } },
      h("span", { class: "turn", text: "Start" }), (R.data.start || []).join(" ") || "The tiles and money are dealt")),
    ...R.data.moves.map((m) => h("li", {}, h("button", { type: "button", "data-step": String(m.step), onclick: () => { stop(); go(m.step); } },
      h("span", { class: "turn", text: `Turn ${m.turn}` }), m.sentences.join(". "),
      showNotation() && m.notation ? h("code", { class: "notation", text: ` ${m.notation}` }) : null))));
  R.ui.stage = h("div", { id: "replay-stage" });
  const links = h("span", { class: "top-info" }, h("span", { class: "t-title", text: `Replay: ${R.title}` }),
    R.tableId ? h("a", { class: "badge", href: `/table/${R.tableId}`, text: "Back to the table" }) : h("a", { class: "badge", href: "/replay", text: "Another record" }));
  document.getElementById("app").replaceChildren(header(links), h("main", { class: "replay-main" }, bar, R.ui.stage));
}

function render() {
  const f = frame();
  R.data.catalogue.walls_now = f.walls || {}; // walls a module changed by this step (art.js tileFacts)
  const prev = R.step > 0 ? R.data.frames[R.step - 1] : null;
  const move = R.step > 0 ? R.data.moves[R.step - 1] : null;
  document.body.dataset.step = String(R.step);
  R.ui.slider.value = String(R.step);
  R.ui.stepNo.textContent = `Step ${R.step} of ${last()}`;
  R.ui.now.textContent = move ? `Turn ${move.turn} · ${move.sentences.join(". ")}` : (R.data.start || []).join(" ") || "The start of the game";
  R.ui.play.textContent = R.timer ? "⏸ Pause" : "▶ Play";
  R.ui.play.setAttribute("aria-label", R.timer ? "Pause" : "Play");
  for (const [id, off] of [["btn-first", R.step === 0], ["btn-back", R.step === 0], ["btn-forward", R.step === last()], ["btn-last", R.step === last()]]) {
    const b = document.getElementById(id);
    // a button that would take the focus away when disabled keeps it: it is only marked
    b.setAttribute("aria-disabled", off ? "true" : "false");
    b.classList.toggle("off", off);
  }
  R.ui.stage.replaceChildren(
    h("section", { class: "r-left" }, supply(f, prev), scores(f)),
    h("section", { class: "r-center" }, cities(f, prev, move)),
    h("section", { class: "r-right panel" }, h("h2", { text: "Moves" }), R.ui.moves));
  for (const b of R.ui.moves.querySelectorAll("button")) {
    const on = Number(b.getAttribute("data-step")) === R.step;
    if (on) b.setAttribute("aria-current", "step"); else b.removeAttribute("aria-current");
    if (on) R.ui.moves.scrollTop = Math.max(0, b.offsetTop - R.ui.moves.offsetTop - R.ui.moves.clientHeight / 2);
  }
}

function supply(f, prev) {
  const market = h("div", { class: "r-market", role: "list", "aria-label": "Market" }, ...f.market.map((sq, i) => {
    const changed = prev && prev.market[i].tile !== sq.tile;
    return h("div", {
      class: `r-square ${changed ? "changed" : ""}`, role: "listitem", "data-square": sq.square, style: `--cur:${CURRENCY_COLORS[sq.currency]}`,
      title: sq.tile ? `${tileName(sq.tile)}, paid in ${CURRENCY_NAMES[sq.currency]}` : "empty",
    }, h("span", { class: "cur", text: CURRENCY_NAMES[sq.currency] }), sq.tile ? tileArt(sq.tile, 52, { backMark: Boolean(sq.back) }) : h("span", { class: "muted", text: "—" }));
  }));
  const display = h("div", { class: "r-display", role: "list", "aria-label": "Face-up money" }, ...f.display.map((code, i) => {
    if (!code) return null;
    const changed = prev && prev.display[i] !== code;
    return h("span", { class: `r-card ${changed ? "changed" : ""}`, role: "listitem", "data-code": code, title: cardName(code) }, cardArt(code, 38));
  }));
  return h("div", { class: "panel r-supply" },
    h("h2", { text: "Market" }), market,
    h("h2", { text: "Money" }), display,
    h("div", { class: "r-piles" },
      h("span", { title: "Draw pile" }, cardBackSVG(22), h("span", { id: "r-deck", text: `${f.deck_count} cards` })),
      h("span", { title: "Tile bag" }, bagSVG(22), h("span", { id: "r-bag", text: `${f.bag_count} tiles` })),
      h("span", { text: `Scoring rounds: ${f.rounds_scored} of 3` })));
}

function scores(f) {
  const rows = f.seats.map((s) => ({ seat: s.seat, score: s.score }));
  if (f.neutral) rows.push({ seat: -1, score: f.neutral.score });
  return h("div", { class: "panel" }, h("h2", { text: "Scores" }),
    h("ol", { class: "r-scores", id: "r-scores" }, ...rows.map((r) => h("li", { class: r.seat === f.to_act ? "to-act" : "", "data-seat": r.seat },
      h("span", { class: "swatch", style: `background:${r.seat < 0 ? "#999" : SEAT_COLORS[r.seat]}` }),
      h("span", { text: r.seat < 0 ? "Dirk (neutral)" : seatName(r.seat) }),
      h("strong", { text: String(r.score) })))));
}

function cities(f, prev, move) {
  const wrap = h("div", { class: "r-cities", style: `--cols:${Math.min(f.seats.length, 3)}` });
  for (const s of f.seats) wrap.appendChild(city(f, s, prev ? prev.seats[s.seat] : null, move));
  if (f.neutral) {
    wrap.appendChild(h("div", { class: "panel r-city neutral" }, h("h3", { text: `Dirk (neutral) · ${f.neutral.score} points` }),
      h("div", { class: "r-row" }, ...f.neutral.tiles.map((t) => tileArt(t, 30)))));
  }
  return wrap;
}

/** The modules' badges of a seat at this step (whose vizier is awake...), as their plug-ins say. */
function badges(seat) {
  const out = [];
  for (const id of R.data.modules || []) {
    const got = callPlugin(id, "seatBadges", seat);
    for (const b of Array.isArray(got) ? got : got ? [got] : []) {
      if (isNode(b)) { out.push(h("span", { class: "seat-badge", "data-module": id }, b)); continue; }
      const spec = typeof b === "string" ? { text: b } : b;
      if (!spec || typeof spec !== "object") continue;
      out.push(h("span", { class: `seat-badge ${spec.className || ""}`, "data-module": id, title: spec.title },
        isNode(spec.icon) ? spec.icon : null, h("span", { text: spec.text || "" })));
    }
  }
  return out.length ? h("span", { class: "r-badges" }, ...out) : null;
}

function city(f, s, before, move) {
  const b = R.bounds[s.seat];
  const svg = svgEl("svg", { class: "r-board", viewBox: `${b.x} ${b.y} ${b.w} ${b.h}`, role: "img", "aria-label": `Alhambra of ${seatName(s.seat)}: ${s.alhambra.length} tiles` });
  const old = new Set(before ? before.alhambra.map((c) => `${c.x},${c.y},${c.tile}`) : []);
  for (const c of s.alhambra) {
    const fountainWalls = c.tile === "F" && f.walls ? f.walls[`F${s.seat + 1}`] : undefined; // a fountain with city walls
    const g = tileNode(c.tile, c.x * CELL, c.y * CELL, { turned: (f.turned || []).includes(c.tile), walls: fountainWalls });
    g.setAttribute("data-tile", c.tile);
    g.setAttribute("data-x", c.x);
    g.setAttribute("data-y", c.y);
    if (before && !old.has(`${c.x},${c.y},${c.tile}`)) g.classList.add("new");
    const title = svgEl("title");
    title.textContent = tileName(c.tile);
    g.appendChild(title);
    svg.appendChild(g);
  }
  const acting = move && move.seat === s.seat;
  const hand = s.hand || [];
  return h("div", { class: `panel r-city ${acting ? "to-act" : ""}`, "data-seat": s.seat },
    // one line however long the name: the name shrinks to an ellipsis (the whole line is the title)
    h("h3", { title: `${seatName(s.seat)} · ${s.score} points · ${(R.data.catalogue && R.data.catalogue.wall_name) || "wall"} ${s.longest_wall}` },
      h("span", { class: "r-head" }, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s.seat]}` }),
        h("span", { class: "r-name", text: seatName(s.seat) }),
        h("span", { class: "r-meta", text: `· ${s.score} points · ${(R.data.catalogue && R.data.catalogue.wall_name) || "wall"} ${s.longest_wall}` })),
      badges(s.seat)),
    svg,
    h("div", { class: "r-row", "aria-label": `Reserve board of ${seatName(s.seat)}` }, h("span", { class: "label", text: "Reserve" }),
      ...(s.reserve.length ? s.reserve.map((t) => tileArt(t, 28)) : [h("span", { class: "muted", text: "empty" })])),
    h("div", { class: "r-row r-hand", "aria-label": `Hand of ${seatName(s.seat)}` }, h("span", { class: "label", text: `Hand (${hand.length})` }),
      ...hand.map((c) => cardArt(c, 24))));
}

start();
