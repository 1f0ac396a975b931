// The Alhambra table in the browser: lobby (create / join tables) and the live table.
// The server is the single source of truth: every move offered here is one of the view's
// legal_actions, sent back as notation. Names and texts are always inserted as text.

import * as ART from "./art.js";
import {
  KIND_NAMES, CURRENCY_COLORS, CURRENCY_NAMES, bagSVG, cardBackSVG, cardFacts, cardSVG,
  logoSVG, moneySourceSVG, svgEl, tileFacts, tileGroup, tileLabel, tileSVG,
} from "./art.js";

// ------------------------------------------------------------------------------ helpers
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") {
      for (const [dk, dv] of Object.entries(v)) if (dv !== undefined && dv !== null) el.dataset[dk] = String(dv);
    }
    else if (k === "style") {
      // CSSOM, not the style attribute: the page's Content-Security-Policy forbids inline styles
      for (const part of String(v).split(";")) {
        const i = part.indexOf(":");
        if (i > 0) el.style.setProperty(part.slice(0, i).trim(), part.slice(i + 1).trim());
      }
    }
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && data.detail) || `request failed (${res.status})`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const CURRENCIES = ["blue", "green", "orange", "yellow"];
const SEAT_COLORS = ["#d1495b", "#2e86ab", "#e09f3e", "#3a7d44", "#7b5ea7", "#5c5c5c"];

// ------------------------------------------------------------------------------ module plug-ins
// A module may bring a front-end plug-in (src/alhambra/modules/<id>/ui/ui.js, served at
// /modules/<id>/ui/ui.js). The table loads the plug-ins of its configuration before drawing and
// asks them, through the hooks below, for panels, seat badges, controls for their actions, texts
// and art. The table never names a module: it only iterates over the loaded plug-ins.
// The API is documented in docs/writing-a-module.md ("Front-end plug-in").
const PLUGINS = new Map();
const PLUGIN_HOOKS = ["panel", "seatBadges", "actionControls", "describeAction", "describeEvent", "cardArt", "tileArt", "cardName", "tileName", "scoring", "boardOverlay"];
const pluginFailures = new Set();

window.Alhambra = Object.freeze({
  apiVersion: 1,
  /** Register the plug-in of module `id` (called by the module's ui.js when it is imported). */
  registerModule(id, plugin) {
    if (typeof id !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(id)) throw new Error("registerModule: bad module id");
    if (!plugin || typeof plugin !== "object") throw new Error(`registerModule(${id}): the plug-in must be an object`);
    for (const k of Object.keys(plugin)) {
      if (!PLUGIN_HOOKS.includes(k)) console.info(`module ${id}: unknown plug-in hook ${k} is ignored`);
    }
    PLUGINS.set(id, plugin);
  },
  /** The house-style art helpers of art.js (also importable from /static/art.js). */
  art: ART,
});

/** Load the plug-ins (ui.css, ui.js) of the modules `ids`, as listed by GET /api/modules. */
async function loadPlugins(ids, infos) {
  for (const id of ids) {
    const info = infos[id];
    if (!info || !info.ui) continue;
    const base = `/modules/${encodeURIComponent(id)}/ui/`;
    if (info.ui_css && !document.querySelector(`link[data-module-css="${id}"]`)) {
      document.head.appendChild(h("link", { rel: "stylesheet", href: `${base}ui.css`, dataset: { moduleCss: id } }));
    }
    try {
      await import(`${base}ui.js`);
    } catch (e) {
      console.error(`the front-end plug-in of module ${id} failed to load:`, e);
    }
  }
}

/** Call hook `name` of the plug-in of module `id` (undefined when it has none or it failed). */
function callPlugin(id, name, ...args) {
  const p = PLUGINS.get(id);
  if (!p || typeof p[name] !== "function") return undefined;
  try {
    return p[name](pluginContext(id), ...args);
  } catch (e) {
    const key = `${id}.${name}`;
    if (!pluginFailures.has(key)) {
      pluginFailures.add(key);
      console.error(`module ${id}: plug-in hook ${name} failed:`, e);
    }
    return undefined;
  }
}

/** Ask every loaded plug-in of this table, in module id order; [id, answer] for each answer. */
function askPlugins(name, ...args) {
  const out = [];
  for (const id of tableModules()) {
    const got = callPlugin(id, name, ...args);
    if (got !== undefined && got !== null) out.push([id, got]);
  }
  return out;
}

function tableModules() {
  return T.msg ? T.msg.view.modules.filter((id) => PLUGINS.has(id)) : [];
}

/** The context a plug-in hook gets: read access to the table and helpers (see the docs). */
function pluginContext(id) {
  const v = T.msg ? T.msg.view : null;
  return {
    id,
    view: v,
    state: v && v.module_views ? v.module_views[id] ?? null : null,
    me: me(),
    myTurn: isMyTurn(),
    legal: v ? v.legal_actions.slice() : [],
    finalActions: T.msg ? T.msg.final_actions.slice() : [],
    events: T.events,
    catalogue: T.catalogue,
    module: T.moduleInfo[id] || { id, title: id, description: "", assumptions: [] },
    seatName,
    seatColor: (seat) => (seat < 0 ? "#999" : SEAT_COLORS[seat]),
    h,
    svg: svgEl,
    art: ART,
    cardArt,
    tileArt,
    cardName,
    tileName,
    act: (notation, label, confirm) => choose(notation, label || describeAction(notation), confirm),
    get selection() { return T.sel && T.sel.kind === "module" && T.sel.owner === id ? T.sel.data : null; },
    select(data) { T.sel = data === null || data === undefined ? null : { kind: "module", owner: id, data }; T.staged = null; render(); },
    pay(request) { startPayment(id, request); },
    get payment() {
      const s = T.sel;
      return s && s.kind === "pay" && s.owner === id ? { square: s.square, item: s.item, cards: chosenCodes(s) } : null;
    },
    rerender: () => render(),
  };
}

/** The plug-in that draws a card or tile code: the module that brought it (catalogue). */
function ownerOf(code, what) {
  const table = T.catalogue ? T.catalogue[what] : null;
  const facts = table && Object.hasOwn(table, code) ? table[code] : null;
  return facts && facts.module && PLUGINS.has(facts.module) ? facts.module : null;
}

const isNode = (x) => x instanceof Node;

/** The module whose money held outside the hand (a coin, a credit...) is named `code` in
 * payments (catalogue.money_tokens), or null. */
function tokenOwner(code) {
  const tokens = T.catalogue ? T.catalogue.money_tokens : null;
  return tokens && Object.hasOwn(tokens, code) ? tokens[code] : null;
}

/** What the view shows of money token `code`: a money source {token, currency, value, module}
 * of that token (the viewer's own first), or null when nobody holds one now. */
function tokenFacts(code) {
  const v = T.msg ? T.msg.view : null;
  if (!v) return null;
  const seats = me() !== null ? [v.seats[me()], ...v.seats] : v.seats;
  for (const s of seats) for (const src of s.money_sources || []) if (src.token === code) return src;
  return null;
}

/** A card drawn `width` wide: money by art.js, module cards (and money held outside the hand,
 * named by a token) by their plug-in, a generic coin when a token's plug-in draws nothing. */
function cardArt(code, width = 48) {
  const tokenMod = tokenOwner(code);
  if (tokenMod) {
    const got = callPlugin(tokenMod, "cardArt", code, width);
    if (isNode(got)) return got;
    const f = tokenFacts(code);
    return moneySourceSVG(cardName(code), f ? f.currency : null, f ? f.value : "?", width);
  }
  const owner = ownerOf(code, "cards");
  const got = owner ? callPlugin(owner, "cardArt", code, width) : null;
  return isNode(got) ? got : cardSVG(code, T.catalogue, width);
}

/** A standalone tile picture `size` wide: base tiles by art.js, module tiles by their plug-in. */
function tileArt(code, size = 64) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileArt", code, size) : null;
  return isNode(got) ? got : tileSVG(code, T.catalogue, size);
}

/** A tile inside an SVG (an Alhambra): a group at (x, y), `size` wide. */
function tileNode(code, x, y, size) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileArt", code, size) : null;
  if (!(got instanceof SVGSVGElement)) return tileGroup(code, T.catalogue, x, y, size);
  got.setAttribute("x", "0");
  got.setAttribute("y", "0");
  got.setAttribute("width", String(size));
  got.setAttribute("height", String(size));
  return svgEl("g", { transform: `translate(${x} ${y})`, class: "tile module-tile" }, [got]);
}

/** A card's name for texts and labels, e.g. "7 denar". */
function cardName(code) {
  const tokenMod = tokenOwner(code);
  if (tokenMod) {
    const got = callPlugin(tokenMod, "cardName", code);
    if (typeof got === "string") return got;
    const f = tokenFacts(code);
    return f ? `${f.value} ${CURRENCY_NAMES[f.currency] || f.currency} (outside the hand)` : code;
  }
  const owner = ownerOf(code, "cards");
  const got = owner ? callPlugin(owner, "cardName", code) : null;
  if (typeof got === "string") return got;
  const f = cardFacts(code, T.catalogue);
  return f.currency ? `${f.value} ${CURRENCY_NAMES[f.currency] || f.currency}` : code;
}

/** A tile's name for texts and labels, e.g. "Garden 8, walls south and west". */
function tileName(code) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileName", code) : null;
  return typeof got === "string" ? got : tileLabel(code, T.catalogue);
}

/** A human sentence for an action (plug-ins first), for confirmations and fallback buttons. */
function describeAction(notation) {
  for (const [, text] of askPlugins("describeAction", notation)) if (typeof text === "string") return text;
  const a = parseAction(notation);
  const cards = (cs) => cs.map(cardName).join(" + ");
  if (a.type === "pass") return "Pass";
  if (a.type === "take") return `Take ${cards(a.cards)}`;
  if (a.type === "buy" && T.msg) {
    const sq = T.msg.view.market[a.square - 1];
    return `Buy ${sq && sq.tile ? tileName(sq.tile) : `square ${a.square}`} for ${cards(a.cards)}`;
  }
  if (a.type === "place") return a.target === "spot" ? `Place ${tileName(a.tile)} at ${a.x},${a.y}` : a.target === "reserve" ? `Put ${tileName(a.tile)} on your reserve board` : `Give ${tileName(a.tile)} to Dirk`;
  if (a.type === "rbuild") return `Build ${tileName(a.tile)} from the reserve at ${a.x},${a.y}`;
  if (a.type === "rremove") return `Move ${tileName(a.tile)} to your reserve board`;
  if (a.type === "rexchange") return `Exchange ${tileName(a.other)} for ${tileName(a.tile)} from your reserve`;
  if (a.type === "end") return "End your turn";
  const turn = /^turn (\S+) (\S+)$/.exec(notation); // Granada: build a waiting tile on its other side
  if (turn) {
    const short = (code) => { const f = tileFacts(code, T.catalogue); return `${KIND_NAMES[f.kind] || f.kind} ${f.price}`; };
    const back = T.catalogue && T.catalogue.tiles[turn[1]] ? T.catalogue.tiles[turn[1]].back : null;
    return `Turn ${short(turn[1])} over to ${back ? short(back) : "its other side"} and build it, paying ${cards(turn[2].split("+"))}`;
  }
  return notation;
}

/** The log line of an event: a plug-in's text, else the engine's with the players' names. */
function describeEvent(e) {
  for (const [, text] of askPlugins("describeEvent", e)) if (typeof text === "string") return text;
  return eventText(e.text);
}

/** Small badges of a seat from every plug-in (vizier awake...). */
function seatBadges(seat) {
  const out = [];
  for (const [id, got] of askPlugins("seatBadges", seat)) {
    for (const b of Array.isArray(got) ? got : [got]) {
      if (b === null || b === undefined) continue;
      if (isNode(b)) { out.push(h("span", { class: "seat-badge", dataset: { module: id } }, b)); continue; }
      const spec = typeof b === "string" ? { text: b } : b;
      out.push(h("span", { class: `seat-badge ${spec.className || ""}`, dataset: { module: id }, title: spec.title },
        isNode(spec.icon) ? spec.icon : null, h("span", { text: spec.text || "" })));
    }
  }
  return out.length ? h("span", { class: "seat-badges" }, ...out) : null;
}

/** What the plug-ins draw on the Alhambra of `seat` (pieces on tiles, a token on an empty
 * place, places to pick): items {x, y, node?, label?, title?, pick?, className?}, each with its
 * module id as `owner`. */
function boardOverlays(seat) {
  const out = [];
  for (const [id, got] of askPlugins("boardOverlay", seat)) {
    for (const it of Array.isArray(got) ? got : [got]) {
      if (it && typeof it === "object" && Number.isInteger(it.x) && Number.isInteger(it.y)) out.push({ ...it, owner: id });
    }
  }
  return out;
}

/** One overlay item as a group at its cell: the plug-in's node (drawn in the cell's 100 x 100
 * units), a tooltip, and a click / keyboard choice when it has `pick`. */
function overlayNode(it) {
  const g = svgEl("g", { transform: `translate(${it.x * CELL} ${it.y * CELL})`, class: `board-overlay ${it.className || ""}`, "data-module": it.owner, "data-x": it.x, "data-y": it.y });
  if (it.node instanceof SVGSVGElement) {
    for (const [k, v] of [["x", 0], ["y", 0], ["width", CELL], ["height", CELL]]) it.node.setAttribute(k, String(v));
  }
  if (it.node instanceof SVGElement) g.appendChild(it.node);
  if (it.title || it.label) {
    const title = svgEl("title");
    title.textContent = String(it.title || it.label);
    g.appendChild(title);
  }
  if (typeof it.pick === "function") {
    interactive(g, String(it.label || it.title || "Choose this place"), () => {
      try { it.pick(); } catch (e) { console.error(`module ${it.owner}: a board choice failed:`, e); }
    });
  }
  return g;
}

/** The module panels (state at a glance) for the left column. */
function modulePanels() {
  return askPlugins("panel").filter(([, node]) => isNode(node)).map(([id, node]) =>
    h("div", { class: "panel module-panel", dataset: { module: id } }, h("h2", { text: (T.moduleInfo[id] || {}).title || id }), node));
}

/** The plug-ins' controls for the module actions legal now: nodes, handled actions, market
 * squares, face-up cards of the display. */
function moduleControls(v, myTurn) {
  const out = { nodes: [], handled: new Set(), squares: new Map(), cards: new Map() };
  if (!myTurn) return out;
  const actions = v.legal_actions.filter((a) => parseAction(a).type === "other");
  if (!actions.length) return out;
  for (const [id, got] of askPlugins("actionControls", actions.slice())) {
    if (isNode(got)) { out.nodes.push([id, got]); continue; }
    if (typeof got !== "object") continue;
    if (isNode(got.node)) out.nodes.push([id, got.node]);
    for (const a of got.handled || []) if (actions.includes(a)) out.handled.add(a);
    for (const sq of got.squares || []) {
      if (sq && Number.isInteger(sq.square) && typeof sq.pick === "function" && !out.squares.has(sq.square)) out.squares.set(sq.square, { ...sq, owner: id });
    }
    for (const c of got.cards || []) {
      if (c && Number.isInteger(c.slot) && typeof c.pick === "function" && !out.cards.has(c.slot)) out.cards.set(c.slot, { ...c, owner: id });
    }
  }
  return out;
}

/** Parse one action line into a description the table can present (never a rule check). */
function parseAction(text) {
  const w = text.split(/\s+/);
  const cards = (s) => (s ? s.split("+") : []);
  const xy = (s) => { const [x, y] = s.split(",").map(Number); return { x, y }; };
  if (w[0] === "take") return { type: "take", cards: cards(w[1]), text };
  if (w[0] === "buy" && /^\d+$/.test(w[1] || "")) return { type: "buy", square: Number(w[1]), cards: cards(w[2]), text };
  if (w[0] === "place") {
    const target = w[2];
    if (target === "reserve" || target === "neutral") return { type: "place", tile: w[1], target, text };
    return { type: "place", tile: w[1], target: "spot", ...xy(target), text };
  }
  if (w[0] === "redesign" && w[1] === "build") return { type: "rbuild", tile: w[2], ...xy(w[3]), text };
  if (w[0] === "redesign" && w[1] === "remove") return { type: "rremove", tile: w[2], text };
  if (w[0] === "redesign" && w[1] === "exchange") return { type: "rexchange", tile: w[2], other: w[3], text };
  if (w[0] === "end" && w.length === 1) return { type: "end", text };
  if (w[0] === "pass" && w.length === 1) return { type: "pass", text };
  return { type: "other", text };
}

const sameMultiset = (a, b) => a.length === b.length && [...a].sort().join("+") === [...b].sort().join("+");

// ------------------------------------------------------------------------------ routing
function start() {
  const m = /^\/table\/([A-Za-z0-9]{1,32})\/?$/.exec(location.pathname);
  if (m) tablePage(m[1]);
  else lobby();
}

function setPhase(phase) {
  document.body.dataset.phase = phase;
}

function header(extra) {
  return h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand", "aria-label": "Alhambra lobby" }, logoSVG(32), h("span", { text: "Alhambra" })),
    extra || null);
}

// ------------------------------------------------------------------------------ lobby
async function lobby() {
  setPhase("lobby");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { text: "Loading…" })));
  let modules = [];
  let bots = [];
  try {
    [modules, bots] = await Promise.all([api("GET", "/api/modules"), api("GET", "/api/bots")]);
  } catch (e) {
    root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { class: "error", text: e.message })));
    return;
  }
  // the game of the family (Alhambra, Granada): GET /api/games; a game resting on assumptions lists them
  const games = await api("GET", "/api/games").catch(() => []);
  const gameNote = h("details", { class: "game-note", hidden: true });
  const game = h("select", { id: "game-choice", "aria-label": "Game" },
    ...games.map((g) => h("option", { value: g.id, text: g.assumptions.length ? `${g.title} (rests on assumptions)` : g.title })));
  game.onchange = () => {
    const g = games.find((x) => x.id === game.value);
    gameNote.hidden = !g || !g.assumptions.length;
    if (g) gameNote.replaceChildren(h("summary", { text: `What ${g.title} assumes and how it reads unclear rules` }),
      h("ul", {}, ...[...g.assumptions, ...g.readings].map((t) => h("li", { text: t }))));
  };
  const seatsBox = h("div", { class: "seat-rows" });
  const count = h("select", { id: "seat-count", "aria-label": "Number of players" },
    ...[2, 3, 4, 5, 6].map((n) => h("option", { value: n, text: `${n} players` })));
  const makeRow = (i) => {
    const kind = h("select", { class: "seat-kind", "aria-label": `Seat ${i + 1}: person or bot` },
      h("option", { value: "person", text: "Person (invitation link)" }), h("option", { value: "bot", text: "Bot" }),
      h("option", { value: "open", text: "Anyone (open seat, public tables)" }));
    const level = h("select", { class: "seat-bot", "aria-label": `Seat ${i + 1}: bot level` },
      ...bots.map((b) => h("option", { value: b.id, text: `${b.label} — ${b.description}` })));
    level.value = "greedy";
    const name = h("input", { class: "seat-name", type: "text", maxlength: 40, placeholder: i === 0 ? "Your name (optional)" : "Name (optional)", "aria-label": `Seat ${i + 1}: name` });
    if (i > 0) kind.value = "bot";
    const sync = () => { level.hidden = kind.value !== "bot"; };
    kind.onchange = sync;
    sync();
    return h("div", { class: "seat-row" }, h("span", { class: "seat-no", text: `Seat ${i + 1}` }), kind, level, name);
  };
  const rows = [];
  const syncRows = () => {
    const n = Number(count.value);
    while (rows.length < n) rows.push(makeRow(rows.length));
    seatsBox.replaceChildren(...rows.slice(0, n));
  };
  count.onchange = syncRows;
  syncRows();
  const modBoxes = modules.map(moduleChoice);
  const tableName = h("input", { id: "table-name", type: "text", maxlength: 40, placeholder: "Table name (optional)", "aria-label": "Table name" });
  const pub = h("input", { id: "table-public", type: "checkbox" });
  const out = h("div", { class: "created", "aria-live": "polite" });
  const create = async (ev) => {
    ev.preventDefault();
    const n = Number(count.value);
    const seats = rows.slice(0, n).map((r) => {
      const kind = r.querySelector(".seat-kind").value;
      const name = r.querySelector(".seat-name").value.trim();
      const s = kind === "open" ? { kind: "person", open: true } : { kind };
      if (kind === "bot") s.bot = r.querySelector(".seat-bot").value;
      if (name) s.name = name;
      return s;
    });
    const chosen = modBoxes.filter((l) => l.querySelector(".module-pick input").checked);
    const body = { seats, modules: chosen.map((l) => l.dataset.module), public: pub.checked };
    const options = {};
    for (const l of chosen) {
      for (const input of l.querySelectorAll("[data-option]")) {
        const spec = JSON.parse(input.dataset.spec);
        const value = typeof spec.default === "boolean" ? input.checked : typeof spec.default === "number" ? Number(input.value) : input.value;
        if (value !== spec.default) (options[l.dataset.module] ||= {})[spec.key] = value;
      }
    }
    if (Object.keys(options).length) body.options = options;
    if (game.value && game.value !== "alhambra") body.game = game.value;
    if (tableName.value.trim()) body.name = tableName.value.trim();
    try {
      const res = await api("POST", "/api/tables", body);
      showCreated(out, res);
    } catch (e) {
      out.replaceChildren(h("p", { class: "error", role: "alert", text: e.message }));
    }
  };
  const form = h("form", { class: "panel create-form", onsubmit: create },
    h("h2", { text: "New table" }),
    games.length > 1 ? h("label", { class: "row" }, "Game ", game) : null, gameNote,
    h("label", { class: "row" }, "Players ", count),
    seatsBox,
    h("fieldset", { class: "modules" }, h("legend", { text: "Big Box modules" }), ...modBoxes),
    h("label", { class: "row" }, tableName),
    h("label", { class: "row" }, pub, " List this table so anyone can take a free seat"),
    h("button", { type: "submit", id: "btn-create", class: "primary", text: "Create table" }));
  const openList = h("div", { class: "open-list" });
  const refresh = async () => {
    try {
      const [open, playing] = await Promise.all([api("GET", "/api/tables?which=open"), api("GET", "/api/tables?which=playing")]);
      const item = (t, joinable) => h("li", {},
        h("span", { class: "t-name", text: t.name || `Table ${t.id.slice(0, 6)}` }),
        h("span", { class: "t-seats", text: t.seats.map((s) => s.name || (s.kind === "bot" ? "bot" : "free seat")).join(", ") }),
        joinable ? h("button", { class: "small", text: "Take a seat", onclick: () => claim(t.id) }) : null,
        h("a", { href: `/table/${t.id}`, class: "small-link", text: "Watch" }));
      openList.replaceChildren(
        h("h3", { text: "Open tables" }),
        open.length ? h("ul", {}, ...open.map((t) => item(t, true))) : h("p", { class: "muted", text: "No open tables right now." }),
        h("h3", { text: "Games in progress" }),
        playing.length ? h("ul", {}, ...playing.map((t) => item(t, false))) : h("p", { class: "muted", text: "None." }));
    } catch (e) {
      openList.replaceChildren(h("p", { class: "error", text: e.message }));
    }
  };
  const claim = async (id) => {
    const name = prompt("Your name (optional)") || undefined;
    try {
      const res = await api("POST", `/api/tables/${id}/join`, name ? { name } : {});
      location.assign(`/table/${id}#seat=${res.token}`);
    } catch (e) {
      alert(e.message);
    }
  };
  root.replaceChildren(header(), h("main", { class: "lobby" },
    h("section", { class: "intro" }, h("h1", { text: "Alhambra" }),
      h("p", { text: "Build the most splendid Alhambra. Create a table, send each player their secret link, and put bots in any seat." })),
    form, out, h("section", { class: "panel" }, openList)));
  refresh();
}

/** One module of the lobby's picker: title, description, a mark when it rests on assumed
 * component facts, and its assumptions (collapsed). */
function moduleChoice(m) {
  const rules = m.assumptions || [];
  const facts = m.component_assumptions || [];
  const assumed = facts.length > 0;
  return h("div", { class: "module", dataset: { module: m.id } },
    h("label", { class: "module-pick" }, h("input", { type: "checkbox", value: m.id, "aria-describedby": `mod-desc-${m.id}` }),
      h("span", {}, h("strong", { text: m.title }),
        assumed ? h("span", { class: "assumed-mark", title: "Some facts of this module's components are not known and were assumed (see below).", text: "rests on assumptions" }) : null)),
    h("p", { class: "module-desc", id: `mod-desc-${m.id}`, text: m.description }),
    ...(m.options || []).map((o) => moduleOption(m, o)),
    rules.length || facts.length ? h("details", { class: "module-assumptions" },
      h("summary", { text: `Assumptions (${rules.length + facts.length})` }),
      rules.length ? h("p", { class: "muted", text: "Where the rulebook is silent, this edition reads it so:" }) : null,
      rules.length ? h("ul", {}, ...rules.map((a) => h("li", { text: a }))) : null,
      facts.length ? h("p", { class: "muted", text: "Component facts that are not known and were assumed:" }) : null,
      facts.length ? h("ul", { class: "component-assumptions" }, ...facts.map((a) => h("li", { text: a }))) : null) : null);
}

/** One option of a module (a variant): a checkbox, a number or a choice, with its description. */
function moduleOption(m, o) {
  const id = `opt-${m.id}-${o.key}`;
  const attrs = { id, dataset: { option: o.key, spec: JSON.stringify(o) } };
  let input;
  if (typeof o.default === "boolean") input = h("input", { ...attrs, type: "checkbox", checked: o.default });
  else if (o.choices && o.choices.length) input = h("select", attrs, ...o.choices.map((c) => h("option", { value: c, text: c, selected: c === o.default })));
  else input = h("input", { ...attrs, type: typeof o.default === "number" ? "number" : "text", value: String(o.default) });
  return h("label", { class: "module-option", for: id }, input, h("span", { text: ` ${o.description}` }));
}

function showCreated(out, res) {
  const items = res.seats.map((s) => {
    if (s.kind !== "person") return h("li", {}, h("strong", { text: `Seat ${s.seat + 1}` }), ` — ${s.name} (bot)`);
    if (!s.invite_url) return h("li", {}, h("strong", { text: `Seat ${s.seat + 1}` }), " — open: the first stranger who joins from the list of open tables takes it");
    const input = h("input", { type: "text", readonly: true, value: s.invite_url, "aria-label": `Invitation link for seat ${s.seat + 1}` });
    return h("li", {}, h("strong", { text: `Seat ${s.seat + 1}` }), s.name ? ` — ${s.name} ` : " ",
      input,
      h("button", { type: "button", class: "small", text: "Copy", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(s.invite_url).catch(() => {}); } }),
      h("a", { href: s.invite_url, class: "play-link", dataset: { seat: s.seat }, text: `Play seat ${s.seat + 1}` }));
  });
  out.replaceChildren(h("section", { class: "panel" },
    h("h2", { text: "Table created" }),
    h("p", { text: "Each link is the secret key to one seat: send it only to that player. The server keeps no copy of it." }),
    h("ul", { class: "links" }, ...items),
    h("p", {}, "Spectators: ", h("a", { href: res.spectator_url, text: res.spectator_url }))));
}

// ------------------------------------------------------------------------------ table page
const T = {
  id: null, token: null, msg: null, events: [], epoch: null, catalogue: null, sel: null, staged: null,
  ws: null, retry: 0, boxes: {}, seenRounds: 0, busy: false, notice: null, modal: null, ended: false,
  moduleInfo: {},
};

function tokenFromHash() {
  const m = /(?:^|[#&])seat=([A-Za-z0-9_-]{8,128})/.exec(location.hash);
  return m ? m[1] : null;
}

async function tablePage(id) {
  T.id = id;
  T.token = tokenFromHash();
  setPhase("loading");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "table" }, h("p", { text: "Connecting…" })));
  try {
    const [catalogue, info, modules] = await Promise.all([
      api("GET", `/api/tables/${id}/catalogue`), api("GET", `/api/tables/${id}`), api("GET", "/api/modules")]);
    T.catalogue = catalogue;
    ART.learnKinds(catalogue); // the kind names of the table's game (Alhambra, Granada)
    T.moduleInfo = Object.fromEntries(modules.map((m) => [m.id, m]));
    await loadPlugins(info.modules, T.moduleInfo);
  } catch (e) {
    root.replaceChildren(header(), h("main", {}, h("p", { class: "error", role: "alert", text: e.message }), h("a", { href: "/", text: "Back to the lobby" })));
    setPhase("error");
    return;
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { T.sel = null; T.staged = null; T.modal = null; render(); }
  });
  connect();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${T.id}`);
  T.ws = ws;
  ws.addEventListener("open", () => {
    T.retry = 0;
    const hello = { type: "hello" };
    if (T.token) hello.token = T.token;
    if (T.epoch !== null) { hello.epoch = T.epoch; hello.events = T.events.length; }
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.type === "error") {
      if (msg.status === 401 || msg.status === 403 || msg.status === 404) {
        T.fatal = msg.detail;
        render();
      } else {
        notify(msg.detail, true);
      }
      return;
    }
    if (msg.type !== "state" && msg.type !== "update") return;
    if (msg.type === "state" || msg.epoch !== T.epoch) T.events = msg.events.slice();
    else if (msg.event_start === T.events.length) T.events = T.events.concat(msg.events);
    else { T.epoch = null; ws.close(); return; }
    const prevVersion = T.msg ? T.msg.version : -1;
    T.epoch = msg.epoch;
    T.msg = msg;
    if (msg.version !== prevVersion) { T.sel = null; T.staged = null; }
    afterUpdate();
    render();
  });
  ws.addEventListener("close", () => {
    if (T.fatal) return;
    T.retry = Math.min(T.retry + 1, 6);
    T.reconnecting = true;
    render();
    setTimeout(() => { T.reconnecting = false; connect(); }, 300 * T.retry);
  });
}

function afterUpdate() {
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (T.seenRounds === 0 && T.firstLoadDone !== true) {
    T.seenRounds = rounds.length; // do not pop up old rounds on (re)load
  } else if (rounds.length > T.seenRounds) {
    T.seenRounds = rounds.length;
    T.modal = { kind: "round", round: rounds[rounds.length - 1] };
  }
  if (T.msg.table.status === "finished" && !T.ended) {
    T.ended = true;
    T.modal = { kind: "summary" };
  }
  T.firstLoadDone = true;
}

function notify(text, isError = false) {
  T.notice = { text, isError };
  render();
  clearTimeout(T.noticeTimer);
  T.noticeTimer = setTimeout(() => { T.notice = null; render(); }, 5000);
}

function me() { return T.msg ? T.msg.seat : null; }
function isMyTurn() {
  return Boolean(T.msg) && me() !== null && T.msg.view.to_act === me() && T.msg.table.status === "playing";
}
function seatName(seat) {
  if (seat === -1) return "Dirk";
  const s = T.msg && T.msg.table.seats[seat];
  if (!s) return `Player ${seat + 1}`;
  return s.name || `Player ${seat + 1}`;
}
function eventText(text) {
  return text.replace(/player (\d+)/g, (_, n) => seatName(Number(n) - 1))
    // the engine writes cards and tiles as codes: a module's own ones get their plug-in's name
    .replace(/\b[A-Za-z][A-Za-z0-9]*\b/g, (code) => (ownerOf(code, "cards") || tokenOwner(code) ? cardName(code) : ownerOf(code, "tiles") ? tileName(code) : code));
}

async function send(action) {
  if (T.busy) return;
  T.busy = true;
  try {
    // the selection is cleared by the update that carries the new version (it may arrive
    // before this response does, and the next move may already be under way)
    await api("POST", `/api/tables/${T.id}/actions`, { action, version: T.msg.version }, T.token);
  } catch (e) {
    notify(e.message, true);
  } finally {
    T.busy = false;
  }
}

async function undo() {
  try {
    await api("POST", `/api/tables/${T.id}/undo`, { version: T.msg.version }, T.token);
  } catch (e) {
    notify(e.message, true);
  }
}

/** Choose an action: final ones (end the turn, reveal something) wait for an explicit confirmation. */
function choose(action, label, confirm = null) {
  if (!T.msg.view.legal_actions.includes(action)) { notify("That move is not possible now.", true); return; }
  if (T.msg.final_actions.includes(action)) {
    // a plug-in may word the confirmation of a move that does not end the turn (it only reveals)
    const text = (k) => (confirm && typeof confirm[k] === "string" && confirm[k] ? confirm[k] : null);
    T.staged = { action, label, note: text("note"), button: text("button") };
    render();
    const b = document.getElementById("btn-confirm");
    if (b) b.focus();
  } else {
    send(action);
  }
}

function legal() {
  return T.msg ? T.msg.view.legal_actions.map(parseAction) : [];
}

// ------------------------------------------------------------------------------ render
function render() {
  const root = document.getElementById("app");
  if (!T.msg) {
    root.replaceChildren(header(), h("main", { class: "table" }, h("p", { class: T.fatal ? "error" : "", role: T.fatal ? "alert" : null, text: T.fatal || "Connecting…" })));
    return;
  }
  const msg = T.msg;
  const v = msg.view;
  const seat = me();
  const status = msg.table.status;
  const myTurn = isMyTurn();
  const needsJoin = seat !== null && !msg.table.seats[seat].joined;
  setPhase(status === "finished" ? "over" : needsJoin ? "join" : status === "waiting" ? "waiting" : myTurn ? "my-turn" : "their-turn");
  document.body.dataset.version = String(msg.version);
  document.body.dataset.pending = v.pending ? v.pending.type : "";
  const title = msg.table.name || `Table ${msg.table.id.slice(0, 6)}`;
  const statusLine = status === "finished" ? "Game over" : status === "waiting" ? "Waiting for players to join" :
    myTurn ? (v.pending && v.pending.type !== "ChooseAction" && v.pending.type !== "PlaceTiles" ? "Your decision" : "Your turn") :
    v.to_act !== null ? `${seatName(v.to_act)} is playing` : "";
  const top = header(h("div", { class: "top-info" },
    h("span", { class: "t-title", text: title }),
    h("span", { class: `t-status ${myTurn ? "mine" : ""}`, id: "status-line", "aria-live": "polite", text: `Turn ${v.turn} · ${statusLine}` }),
    seat === null ? h("span", { class: "badge", text: "Spectator" }) : h("span", { class: "badge", text: `You: ${seatName(seat)}` }),
    T.reconnecting ? h("span", { class: "badge warn", text: "Reconnecting…" }) : null));
  const controls = moduleControls(v, myTurn);
  const main = h("main", { class: "table-grid" },
    h("section", { class: "col-left" }, renderSupply(v, controls), ...modulePanels(), renderScores(v)),
    h("section", { class: "col-center" }, renderActionPanel(v, myTurn, controls), renderCities(v)),
    h("section", { class: "col-right" }, seat !== null ? renderHand(v, seat) : null, renderRounds(), renderLog()));
  const parts = [top, main];
  if (T.notice) parts.push(h("div", { class: `toast ${T.notice.isError ? "error" : ""}`, role: "alert", text: T.notice.text }));
  if (needsJoin) parts.push(renderJoin(seat));
  else if (T.modal) parts.push(renderModal());
  const focusId = document.activeElement && document.activeElement.id;
  root.replaceChildren(...parts);
  if (focusId) { const again = document.getElementById(focusId); if (again) again.focus(); }
  const log = document.getElementById("log-list");
  if (log) log.scrollTop = log.scrollHeight;
}

function renderJoin(seat) {
  const s = T.msg.table.seats[seat];
  const name = h("input", { id: "join-name", type: "text", maxlength: 40, value: s.name || "", placeholder: "Your name (optional)", "aria-label": "Your name" });
  const go = async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", `/api/tables/${T.id}/join`, name.value.trim() ? { name: name.value.trim() } : {}, T.token);
    } catch (e) {
      notify(e.message, true);
    }
  };
  return h("div", { class: "modal-back" }, h("form", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "join-title", onsubmit: go },
    h("h2", { id: "join-title", text: `Take seat ${seat + 1}` }),
    h("p", { text: "This link is your key to the seat. The game starts when every player has joined." }),
    name, h("button", { type: "submit", id: "btn-join", class: "primary", text: "Join the game" })));
}

// ----- supply: market, display, piles, scoring progress
function renderSupply(v, controls) {
  const acts = legal();
  const market = h("div", { class: "market", role: "group", "aria-label": "Market" }, ...v.market.map((sq) => {
    const buys = acts.filter((a) => a.type === "buy" && a.square === sq.square);
    const offer = buys.length ? null : controls.squares.get(sq.square) || null;
    const selected = T.sel && T.sel.kind === "pay" && T.sel.square === sq.square;
    const label = sq.tile ? `Market square ${sq.square}: ${tileName(sq.tile)}, paid in ${CURRENCY_NAMES[sq.currency]} (${sq.currency})` : `Market square ${sq.square}: empty`;
    const hint = buys.length ? " — you can buy it" : offer ? ` — ${offer.label || "you can choose it"}` : "";
    return h("button", {
      class: `market-square ${buys.length || offer ? "affordable" : ""} ${selected ? "selected" : ""}`,
      dataset: { square: sq.square, currency: sq.currency, module: offer ? offer.owner : null },
      style: `--cur:${CURRENCY_COLORS[sq.currency]}`,
      "aria-label": label + hint,
      title: offer && offer.label ? offer.label : null,
      "aria-pressed": selected ? "true" : "false",
      disabled: !buys.length && !offer,
      onclick: () => {
        if (selected) { T.sel = null; T.staged = null; render(); }
        else if (buys.length) startPayment(null, { square: sq.square });
        else offer.pick();
      },
    }, h("span", { class: "cur-band", text: CURRENCY_NAMES[sq.currency] }), sq.tile ? tileArt(sq.tile, 66) : h("span", { class: "empty-slot", text: "—" }));
  }));
  const takes = acts.filter((a) => a.type === "take");
  const picked = T.sel && T.sel.kind === "take" ? T.sel.cards : [];
  const display = h("div", { class: "display", role: "group", "aria-label": "Face-up money" }, ...v.display.map((code, i) => {
    if (!code) return h("span", { class: "card-slot empty", text: "" });
    const on = picked.includes(i);
    const can = takes.some((a) => a.cards.includes(code));
    const offer = can ? null : controls.cards.get(i + 1) || null;
    return h("button", {
      class: `display-card ${on ? "selected" : ""} ${can ? "takeable" : ""} ${offer ? "offered" : ""}`,
      dataset: { code, slot: i + 1, module: offer ? offer.owner : null },
      "aria-label": `Face-up card: ${cardName(code)}${offer ? ` — ${offer.label || "you can choose it"}` : ""}`,
      title: offer && offer.label ? offer.label : null,
      "aria-pressed": on ? "true" : "false",
      disabled: !can && !offer,
      onclick: () => {
        if (offer) { offer.pick(); return; }
        const cur = T.sel && T.sel.kind === "take" ? T.sel.cards.slice() : [];
        const k = cur.indexOf(i);
        if (k >= 0) cur.splice(k, 1); else cur.push(i);
        T.sel = cur.length ? { kind: "take", cards: cur } : null;
        T.staged = null;
        render();
      },
    }, cardArt(code, 46));
  }));
  const drawn = v.scoring_cards_drawn;
  const progress = h("div", { class: "progress", "aria-label": `Scoring cards drawn: ${drawn} of 2; scoring rounds done: ${v.rounds_scored} of 3` },
    h("span", { text: "Scoring" }),
    ...[1, 2, 3].map((r) => h("span", { class: `round-dot ${v.rounds_scored >= r ? "done" : ""}`, title: `Scoring round ${r}`, text: String(r) })));
  return h("div", { class: "panel supply" },
    h("h2", { text: "Market" }), market,
    v.market_face ? h("p", { class: "marker", id: "market-marker" }, ART.markerSVG(v.market_face, 44),
      h("span", { text: ` The black marker shows the ${v.market_face} side: new tiles come ${v.market_face} side up.` })) : null,
    h("h2", { text: "Money" }), display,
    h("div", { class: "piles" },
      h("span", { class: "pile", title: "Draw pile" }, cardBackSVG(26), h("span", { id: "deck-count", text: `${v.deck_count} cards` })),
      h("span", { class: "pile", title: "Tile bag" }, bagSVG(26), h("span", { id: "bag-count", text: `${v.bag_count} tiles` })),
      progress));
}

// ----- score track
function renderScores(v) {
  const rows = v.seats.map((s) => ({ seat: s.seat, name: seatName(s.seat), score: s.score, hand: s.hand_count, wall: s.longest_wall }));
  if (v.neutral) rows.push({ seat: -1, name: "Dirk (neutral)", score: v.neutral.score, hand: null, wall: null });
  const max = Math.max(10, ...rows.map((r) => r.score));
  return h("div", { class: "panel scores" }, h("h2", { text: "Scores" }),
    h("ol", { class: "score-track" }, ...rows.map((r) => h("li", { class: `${r.seat === v.to_act ? "to-act" : ""} ${r.seat === me() ? "me" : ""}`, dataset: { seat: r.seat } },
      h("span", { class: "swatch", style: `background:${r.seat < 0 ? "#999" : SEAT_COLORS[r.seat]}` }),
      h("span", { class: "s-name", text: r.name }),
      h("span", { class: "bar" }, h("span", { class: "fill", style: `width:${Math.round((100 * r.score) / max)}%;background:${r.seat < 0 ? "#999" : SEAT_COLORS[r.seat]}` })),
      h("strong", { class: "s-score", text: String(r.score) }),
      r.hand !== null ? h("span", { class: "s-meta" }, h("span", { text: `${r.hand} cards · wall ${r.wall}` }), seatBadges(r.seat)) : null))));
}

// ----- payments: picking the cards for a purchase (the core's buy, or a plug-in's)
/** Start choosing a payment for market square `req.square`. `owner` null: the core's buy (the
 * options are the legal buy actions); otherwise a plug-in's request with its own `options`
 * ({cards, action}), `title`, `note` and `confirm` (the text of the button that sends it), and
 * instead of a square it may name any other `item` it sells: {label, price, currency?}, or a
 * tile code with `req.price` and `req.currency` (named by its tileName). */
function startPayment(owner, req) {
  const v = T.msg.view;
  let options;
  if (owner === null) {
    options = legal().filter((a) => a.type === "buy" && a.square === req.square).map((a) => ({ cards: a.cards, action: a.text }));
  } else {
    options = (req.options || []).filter((o) => o && Array.isArray(o.cards) && v.legal_actions.includes(o.action))
      .map((o) => ({ cards: o.cards.slice(), action: o.action }));
  }
  const spec = typeof req.item === "string" ? { label: tileName(req.item), price: req.price, currency: req.currency, code: req.item } : req.item;
  const item = owner !== null && spec && Number.isFinite(Number(spec.price))
    ? { label: String(spec.label || ""), price: Number(spec.price), currency: CURRENCIES.includes(spec.currency) ? spec.currency : null, code: spec.code || null } : null;
  T.sel = { kind: "pay", owner, square: item ? null : req.square, item, options, title: req.title || null, note: req.note || null, confirm: req.confirm || null, cards: [], sources: [] };
  if (options.length === 1) Object.assign(T.sel, pickIndices(options[0].cards));
  T.staged = null;
  render();
}

/** The codes `codes` of a payment as indices in my hand (`cards`) and in my money held outside
 * the hand (`sources`, view.seats[me].money_sources), each card or source once. */
function pickIndices(codes) {
  const mine = T.msg.view.seats[me()];
  const hand = mine.hand || [];
  const held = mine.money_sources || [];
  const cards = [];
  const sources = [];
  for (const c of codes) {
    const i = hand.findIndex((x, k) => x === c && !cards.includes(k));
    if (i >= 0) { cards.push(i); continue; }
    const j = held.findIndex((x, k) => x.token === c && !sources.includes(k));
    if (j >= 0) sources.push(j);
  }
  return { cards, sources };
}

/** The codes a payment selection holds: the picked hand cards, then the picked money tokens. */
function chosenCodes(sel) {
  const mine = T.msg.view.seats[me()];
  const hand = mine.hand || [];
  const held = mine.money_sources || [];
  return [...sel.cards.map((i) => hand[i]), ...(sel.sources || []).map((i) => (held[i] ? held[i].token : null)).filter(Boolean)];
}

/** The value of a card or of a money token (what the view says the viewer's source is worth). */
function codeValue(code) {
  if (tokenOwner(code)) { const f = tokenFacts(code); return f ? f.value : 0; }
  return cardFacts(code, T.catalogue).value;
}

const cardsValue = (cards) => cards.reduce((s, c) => s + codeValue(c), 0);

function renderPay(v, sel, bar) {
  const sq = sel.item ? null : v.market[sel.square - 1];
  if (!sel.item && (!sq || !sq.tile)) return h("p", { class: "muted", text: "That market square is empty now." });
  const price = sel.item ? sel.item.price : tileFacts(sq.tile, T.catalogue).price;
  const currency = sel.item ? sel.item.currency : sq.currency;
  const outside = (v.seats[me()].money_sources || []).length ? ", your money outside it" : "";
  const options = sel.options.map((o) => {
    const total = cardsValue(o.cards);
    return { ...o, total, over: total - price };
  }).sort((a, b) => a.over - b.over || a.cards.length - b.cards.length);
  const chosen = chosenCodes(sel);
  const match = options.find((o) => sameMultiset(o.cards, chosen));
  const total = cardsValue(chosen);
  const core = sel.owner === null;
  const wrap = h("div", { class: "buy", dataset: { module: sel.owner } },
    h("p", {}, h("strong", { text: sel.title || `Buy ${sel.item ? sel.item.label : tileName(sq.tile)}` }),
      ` — price ${price}${currency ? ` ${CURRENCY_NAMES[currency]}` : ""}. ${sel.note || `Pick cards from your hand${outside} or a payment below.`}${core ? " An exact payment lets you act again." : ""}`),
    h("div", { class: "pay-options", role: "group", "aria-label": "Ways to pay" }, ...options.slice(0, 12).map((o) => {
      const how = o.over === 0 ? "exact" : `overpay ${o.over}`;
      return h("button", {
        class: `pay-option ${o.over === 0 ? "exact" : "over"} ${match && match.action === o.action ? "selected" : ""}`,
        dataset: { action: o.action },
        "aria-label": `Pay ${o.cards.map(cardName).join(" + ")} (${how})`,
        onclick: () => { Object.assign(sel, pickIndices(o.cards)); render(); },
      }, h("span", { class: "pay-cards" }, ...o.cards.map((c) => cardArt(c, 22))), h("em", { text: how }));
    })));
  const state = total === price ? `exact${core ? " — you may act again" : ""}` : total > price ? `overpaying by ${total - price}` : `${price - total} short`;
  wrap.append(h("p", { class: "pay-sum", text: chosen.length ? `Selected ${total} for ${price}: ${state}` : "No cards selected." }));
  if (match) {
    const text = sel.confirm || (match.over === 0 ? "Buy (exact)" : `Buy (overpay ${match.over})`);
    bar.append(h("button", { id: "btn-buy", class: "primary", text, onclick: () => choose(match.action, describeAction(match.action)) }));
  } else if (chosen.length) {
    wrap.append(h("p", { class: "muted", text: "These cards are not one of the ways to pay." }));
  }
  return wrap;
}

// ----- my hand
function renderHand(v, seat) {
  const hand = v.seats[seat].hand || [];
  const sel = T.sel && T.sel.kind === "pay" ? T.sel : null;
  const usable = new Set(sel ? sel.options.flatMap((o) => o.cards) : []);
  const button = (c, i) => {
    const on = Boolean(sel) && sel.cards.includes(i);
    return h("button", {
      class: `hand-card ${on ? "selected" : ""}`,
      dataset: { code: c },
      "aria-pressed": on ? "true" : "false",
      "aria-label": cardName(c),
      disabled: !sel || !(on || usable.has(c)),
      onclick: () => {
        const k = sel.cards.indexOf(i);
        if (k >= 0) sel.cards.splice(k, 1); else sel.cards.push(i);
        render();
      },
    }, cardArt(c, 40));
  };
  // the four base currencies, then any currency a module adds (catalogue.extra_currencies), each its own group
  const currencies = [...CURRENCIES, ...((T.catalogue && T.catalogue.extra_currencies) || [])];
  const groups = currencies.map((cur) => {
    const idx = hand.map((c, i) => [c, i]).filter(([c]) => cardFacts(c, T.catalogue).currency === cur);
    if (!idx.length) return null;
    const total = idx.reduce((s, [c]) => s + cardFacts(c, T.catalogue).value, 0);
    const dim = sel && !idx.some(([c]) => usable.has(c));
    const colour = CURRENCY_COLORS[cur];
    return h("div", { class: `hand-group ${dim ? "dim" : ""} ${CURRENCIES.includes(cur) ? "" : "extra-currency"}`, dataset: { currency: cur } },
      h("div", { class: "hand-head", style: colour ? `color:${colour}` : null }, h("strong", { text: CURRENCY_NAMES[cur] || cur }), ` · ${total}`),
      h("div", { class: "hand-cards" }, ...idx.map(([c, i]) => button(c, i))));
  }).filter(Boolean);
  const other = hand.map((c, i) => [c, i]).filter(([c]) => !currencies.includes(cardFacts(c, T.catalogue).currency));
  const otherDim = sel && !other.some(([c]) => usable.has(c));
  const outside = renderOutside(v.seats[seat].money_sources || [], sel, usable);
  return h("div", { class: "panel hand" }, h("h2", { text: `Your hand (${hand.length})` }),
    groups.length || outside ? groups : h("p", { class: "muted", text: "No money." }),
    other.length ? h("div", { class: `hand-group special ${otherDim ? "dim" : ""}` }, h("div", { class: "hand-head", text: "Special cards" }),
      h("div", { class: "hand-cards" }, ...other.map(([c, i]) => button(c, i)))) : null,
    outside);
}

/** Money the viewer holds outside the hand (coins, a stored credit... : view.seats[me].money_sources),
 * drawn by the owning plug-in's cardArt (a generic coin otherwise) and picked for a payment like
 * hand cards (`sel.sources` holds their indices). */
function renderOutside(sources, sel, usable) {
  if (!sources.length) return null;
  const chip = (src, i) => {
    const on = Boolean(sel) && sel.sources.includes(i);
    return h("button", {
      class: `hand-card money-source ${on ? "selected" : ""}`,
      dataset: { token: src.token, module: src.module, currency: src.currency },
      "aria-pressed": on ? "true" : "false",
      "aria-label": `${cardName(src.token)} (worth ${src.value})`,
      disabled: !sel || !(on || usable.has(src.token)),
      onclick: () => {
        const k = sel.sources.indexOf(i);
        if (k >= 0) sel.sources.splice(k, 1); else sel.sources.push(i);
        render();
      },
    }, cardArt(src.token, 40));
  };
  const total = sources.reduce((n, src) => n + src.value, 0);
  const dim = sel && !sources.some((src) => usable.has(src.token));
  return h("div", { class: `hand-group outside ${dim ? "dim" : ""}`, role: "group", "aria-label": "Money outside your hand" },
    h("div", { class: "hand-head" }, h("strong", { text: "Outside your hand" }), ` · ${total}`),
    h("div", { class: "hand-cards" }, ...sources.map(chip)));
}

// ----- action panel
function renderActionPanel(v, myTurn, controls) {
  const box = h("div", { class: "panel actions", id: "action-panel", "aria-live": "polite" });
  const acts = legal();
  const bar = h("div", { class: "button-row" });
  if (T.msg.can_undo) bar.appendChild(h("button", { id: "btn-undo", class: "secondary", text: "↶ Undo", onclick: undo }));
  if (T.staged) {
    // between turns a final move reveals something but ends nobody's turn
    const between = Boolean(v.pending) && v.pending.type === "BetweenTurns";
    const note = T.staged.note || (between ? "It cannot be taken back." : "This ends your turn — it cannot be taken back.");
    box.append(h("p", { class: "staged", text: `${T.staged.label}. ${note}` }));
    bar.append(h("button", { id: "btn-confirm", class: "primary", text: T.staged.button || (between ? "Confirm" : "End turn"), onclick: () => send(T.staged.action) }),
      h("button", { id: "btn-cancel", class: "secondary", text: "Cancel", onclick: () => { T.staged = null; render(); } }));
    box.append(bar);
    return box;
  }
  if (T.msg.table.status === "finished") {
    box.append(h("p", { text: "The game is over." }), h("div", { class: "button-row" },
      h("button", { class: "primary", id: "btn-summary", text: "Show the summary", onclick: () => { T.modal = { kind: "summary" }; render(); } }),
      h("a", { class: "button secondary", href: `/api/tables/${T.id}/record`, download: `alhambra-${T.id}.json`, text: "Download the game record" })));
    return box;
  }
  if (!myTurn) {
    const who = v.to_act !== null ? seatName(v.to_act) : "nobody";
    box.append(h("p", { class: "muted", text: me() === null ? `Watching. ${who} is to play.` : `Waiting for ${who}…` }));
    if (bar.children.length) box.append(bar);
    return box;
  }
  const pending = v.pending || {};
  const sel = T.sel;
  const moduleNodes = controls.nodes.map(([id, node]) => h("div", { class: "module-controls", dataset: { module: id } }, node));
  if (pending.type === "PlaceTiles") {
    const tiles = pending.tiles;
    box.append(h("p", { text: pending.reason === "final" ? "The game ends: place the tiles you were awarded." : "Place your new tile: pick it, then a highlighted spot in your Alhambra (or drag it there), or the reserve board." }));
    box.append(h("div", { class: "waiting-tiles", role: "group", "aria-label": "Tiles to place" }, ...[...new Set(tiles)].map((t) => {
      const on = sel && sel.kind === "place" && sel.tile === t;
      const b = h("button", {
        class: `waiting-tile ${on ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": on ? "true" : "false",
        "aria-label": `Place ${tileName(t)}`,
        onclick: () => { T.sel = on ? null : { kind: "place", tile: t }; render(); },
      }, tileArt(t, 58));
      makeDraggable(b, { kind: "place", tile: t });
      return b;
    })));
    if (sel && sel.kind === "place") {
      const res = acts.find((a) => a.type === "place" && a.tile === sel.tile && a.target === "reserve");
      const neu = acts.find((a) => a.type === "place" && a.tile === sel.tile && a.target === "neutral");
      if (res) bar.append(h("button", { id: "btn-reserve", class: "secondary", text: "To the reserve board", onclick: () => choose(res.text, describeAction(res.text)) }));
      if (neu) bar.append(h("button", { id: "btn-neutral", class: "secondary", text: "Give it to Dirk", onclick: () => choose(neu.text, describeAction(neu.text)) }));
    } else if (tiles.length) {
      T.sel = { kind: "place", tile: tiles[0] };
      return renderActionPanel(v, myTurn, controls);
    }
    box.append(...moduleNodes);
  } else if (pending.type === "ChooseAction") {
    if (sel && sel.kind === "pay") box.append(renderPay(v, sel, bar));
    else if (sel && sel.kind === "take") box.append(renderTake(v, sel, acts, bar));
    else if (sel && sel.kind === "rbuild") box.append(h("p", { text: `Redesign: pick a highlighted spot for ${tileName(sel.tile)}, or a tile of your Alhambra it can replace (outlined).` }));
    else if (sel && sel.kind === "rremove") {
      const a = acts.find((x) => x.type === "rremove" && x.tile === sel.tile);
      box.append(h("p", { text: `Move ${tileName(sel.tile)} from your Alhambra to the reserve board?` }));
      if (a) bar.append(h("button", { id: "btn-remove", class: "primary", text: "Move to the reserve board", onclick: () => choose(a.text, describeAction(a.text)) }));
    } else if (!sel || sel.kind !== "module") {
      box.append(h("p", { text: pending.actions > 0 ? "Exact payment! Take another action, or end your turn." : "Your turn: take money (pick face-up cards), buy a tile (pick a market square), or redesign your Alhambra (pick a reserve or Alhambra tile)." }));
    }
    box.append(...moduleNodes);
    const end = acts.find((a) => a.type === "end");
    if (end) bar.append(h("button", { id: "btn-end", class: "primary", text: "End turn", onclick: () => send(end.text) }));
  } else {
    // a decision that is not one of the core's own (between turns, a module's choice)
    box.append(...moduleNodes);
    if (sel && sel.kind === "pay") box.append(renderPay(v, sel, bar));
    if (!moduleNodes.length) {
      const what = pending.type ? ` (${pending.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()})` : "";
      box.append(h("p", { text: `A decision for you${what}: choose one of these moves.` }));
    }
  }
  const pass = acts.find((a) => a.type === "pass");
  if (pass) bar.append(h("button", { id: "btn-pass", class: "secondary pass-button", text: "Pass", onclick: () => choose(pass.text, "Pass") }));
  // module actions no plug-in took care of: a button each, named by describeAction
  const others = acts.filter((a) => a.type === "other" && !controls.handled.has(a.text));
  if (others.length) {
    box.append(h("div", { class: "other-moves", role: "group", "aria-label": "Other moves" }, ...others.map((a) => {
      const label = describeAction(a.text);
      return h("button", { class: "secondary small other-move", dataset: { action: a.text }, text: label, onclick: () => choose(a.text, label) });
    })));
  }
  if (sel) bar.append(h("button", { id: "btn-clear", class: "secondary", text: "Clear selection", onclick: () => { T.sel = null; render(); } }));
  if (bar.children.length) box.append(bar);
  return box;
}

function renderTake(v, sel, acts, bar) {
  const codes = sel.cards.map((i) => v.display[i]);
  const match = acts.find((a) => a.type === "take" && sameMultiset(a.cards, codes));
  const total = cardsValue(codes);
  const names = codes.map(cardName).join(" + ");
  const wrap = h("div", {}, h("p", { text: `Take ${names}${total ? ` (${total})` : ""}. One card of any value, or several cards worth 5 at most together.` }));
  if (match) {
    const final = T.msg.final_actions.includes(match.text);
    bar.append(h("button", { id: "btn-take", class: "primary", text: final ? "Take and end turn" : "Take", onclick: () => choose(match.text, describeAction(match.text)) }));
  } else {
    wrap.append(h("p", { class: "muted", text: "These cards cannot be taken together." }));
  }
  return wrap;
}

// ----- Alhambras
const CELL = 100;

function renderCities(v) {
  const seat = me();
  const order = v.seats.map((s) => s.seat);
  if (seat !== null) order.sort((a, b) => (a === seat ? -1 : b === seat ? 1 : a - b));
  const wrap = h("div", { class: "cities" });
  for (const s of order) wrap.appendChild(renderCity(v, v.seats[s], s === seat));
  if (v.neutral) {
    wrap.appendChild(h("div", { class: "panel city neutral" }, h("h3", { text: `Dirk (neutral) · ${v.neutral.score} points` }),
      h("div", { class: "reserve-tiles" }, ...v.neutral.tiles.map((t) => tileArt(t, 34)))));
  }
  return wrap;
}

function renderCity(v, s, mine) {
  const acts = mine ? legal() : [];
  const sel = mine ? T.sel : null;
  let spots = [];
  let exchange = [];
  if (sel && sel.kind === "place") spots = acts.filter((a) => a.type === "place" && a.tile === sel.tile && a.target === "spot");
  if (sel && sel.kind === "rbuild") {
    spots = acts.filter((a) => a.type === "rbuild" && a.tile === sel.tile);
    exchange = acts.filter((a) => a.type === "rexchange" && a.tile === sel.tile);
  }
  const removable = new Set(acts.filter((a) => a.type === "rremove").map((a) => a.tile));
  const staged = mine && T.staged ? parseAction(T.staged.action) : null;
  const overlays = boardOverlays(s.seat);
  const cells = s.alhambra.map((c) => ({ x: c.x, y: c.y }));
  for (const a of spots) cells.push({ x: a.x, y: a.y });
  for (const it of overlays) cells.push({ x: it.x, y: it.y });
  const minX = Math.min(...cells.map((c) => c.x)) - 1, maxX = Math.max(...cells.map((c) => c.x)) + 1;
  const minY = Math.min(...cells.map((c) => c.y)) - 1, maxY = Math.max(...cells.map((c) => c.y)) + 1;
  const fit = { x: minX * CELL, y: minY * CELL, w: (maxX - minX + 1) * CELL, h: (maxY - minY + 1) * CELL };
  const key = `city-${s.seat}`;
  let box = T.boxes[key];
  if (!box || box.auto) box = T.boxes[key] = { ...fit, auto: true };
  const svg = svgEl("svg", { class: "city-svg", viewBox: `${box.x} ${box.y} ${box.w} ${box.h}`, role: "group", "aria-label": `Alhambra of ${seatName(s.seat)}` });
  svg.appendChild(svgEl("rect", { x: box.x - 5000, y: box.y - 5000, width: 10000 + box.w, height: 10000 + box.h, fill: "transparent", class: "pan-area" }));
  for (const c of s.alhambra) {
    const g = tileNode(c.tile, c.x * CELL, c.y * CELL, CELL);
    g.setAttribute("data-tile", c.tile);
    g.setAttribute("data-x", c.x);
    g.setAttribute("data-y", c.y);
    const ex = exchange.find((a) => a.other === c.tile);
    const title = svgEl("title");
    title.textContent = `${tileName(c.tile)} at ${c.x},${c.y}`;
    g.appendChild(title);
    if (ex) {
      g.classList.add("exchange-target");
      g.appendChild(svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 6, fill: "none", stroke: "#ffd400", "stroke-width": 7, "stroke-dasharray": "10 6" }));
      interactive(g, `Exchange ${tileName(c.tile)} for ${tileName(sel.tile)}`, () => choose(ex.text, describeAction(ex.text)));
    } else if (removable.has(c.tile) && (!sel || sel.kind === "rremove")) {
      g.classList.add("removable");
      interactive(g, `Redesign: move ${tileName(c.tile)} to the reserve board`, () => { T.sel = { kind: "rremove", tile: c.tile }; render(); });
      makeDraggable(g, { kind: "rremove", tile: c.tile });
    }
    svg.appendChild(g);
  }
  for (const it of overlays) svg.appendChild(overlayNode(it));
  for (const a of spots) {
    const g = svgEl("g", { class: "spot", "data-x": a.x, "data-y": a.y, "data-action": a.text });
    g.appendChild(svgEl("rect", { x: a.x * CELL + 6, y: a.y * CELL + 6, width: CELL - 12, height: CELL - 12, rx: 10, fill: "rgba(255,214,0,0.25)", stroke: "#e0a800", "stroke-width": 5, "stroke-dasharray": "12 8" }));
    const plus = svgEl("text", { x: a.x * CELL + 50, y: a.y * CELL + 62, "text-anchor": "middle", "font-size": 36, fill: "#a07800" });
    plus.textContent = "+";
    g.appendChild(plus);
    const label = describeAction(a.text);
    interactive(g, label, () => choose(a.text, label));
    svg.appendChild(g);
  }
  if (staged && (staged.type === "place" || staged.type === "rbuild") && staged.target !== "reserve" && staged.target !== "neutral") {
    const ghost = tileNode(staged.tile, staged.x * CELL, staged.y * CELL, CELL);
    ghost.setAttribute("class", "ghost");
    svg.appendChild(ghost);
  }
  enablePanZoom(svg, key);
  const tools = h("div", { class: "zoom-tools" },
    h("button", { class: "icon", "aria-label": "Zoom in", text: "+", onclick: () => zoomBy(key, 0.8) }),
    h("button", { class: "icon", "aria-label": "Zoom out", text: "−", onclick: () => zoomBy(key, 1.25) }),
    h("button", { class: "icon", "aria-label": "Fit the whole Alhambra", text: "⤢", onclick: () => { T.boxes[key] = { ...fit, auto: true }; render(); } }));
  const reserve = h("div", { class: "reserve", dataset: { dropReserve: mine ? "1" : "" }, "aria-label": `Reserve board of ${seatName(s.seat)}` },
    h("span", { class: "reserve-label", text: "Reserve" }),
    ...s.reserve.map((t) => {
      const canBuild = acts.some((a) => (a.type === "rbuild" || a.type === "rexchange") && a.tile === t);
      if (!canBuild) return tileArt(t, 40);
      const on = sel && sel.kind === "rbuild" && sel.tile === t;
      const b = h("button", {
        class: `reserve-tile ${on ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": on ? "true" : "false",
        "aria-label": `Redesign: build ${tileName(t)} from the reserve`,
        onclick: () => { T.sel = on ? null : { kind: "rbuild", tile: t }; render(); },
      }, tileArt(t, 40));
      makeDraggable(b, { kind: "rbuild", tile: t });
      return b;
    }),
    s.reserve.length ? null : h("span", { class: "muted", text: "empty" }));
  const cls = `panel city ${mine ? "mine" : ""} ${s.seat === T.msg.view.to_act ? "to-act" : ""}`;
  return h("div", { class: cls, dataset: { seat: s.seat } },
    h("h3", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s.seat]}` }), `${seatName(s.seat)} · ${s.score} points · wall ${s.longest_wall}`, seatBadges(s.seat)),
    h("div", { class: "city-frame" }, svg, tools), reserve);
}

function interactive(g, label, fn) {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.classList.add("clickable");
  g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!T.dragMoved) fn(); });
  g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); } });
}

function zoomBy(key, f, cx, cy) {
  const b = T.boxes[key];
  if (!b) return;
  const nw = Math.min(4000, Math.max(150, b.w * f)), nh = Math.min(4000, Math.max(150, b.h * f));
  const px = cx === undefined ? b.x + b.w / 2 : cx, py = cy === undefined ? b.y + b.h / 2 : cy;
  T.boxes[key] = { x: px - ((px - b.x) * nw) / b.w, y: py - ((py - b.y) * nh) / b.h, w: nw, h: nh, auto: false };
  render();
}

function enablePanZoom(svg, key) {
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const b = T.boxes[key];
    const r = svg.getBoundingClientRect();
    const cx = b.x + ((ev.clientX - r.left) / r.width) * b.w, cy = b.y + ((ev.clientY - r.top) / r.height) * b.h;
    zoomBy(key, ev.deltaY > 0 ? 1.15 : 0.87, cx, cy);
  }, { passive: false });
  let start = null;
  svg.addEventListener("pointerdown", (ev) => {
    if (!ev.target.classList || !ev.target.classList.contains("pan-area")) return;
    start = { x: ev.clientX, y: ev.clientY, box: { ...T.boxes[key] } };
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!start) return;
    const r = svg.getBoundingClientRect();
    const dx = ((ev.clientX - start.x) / r.width) * start.box.w, dy = ((ev.clientY - start.y) / r.height) * start.box.h;
    if (Math.abs(dx) + Math.abs(dy) < 2) return;
    T.boxes[key] = { ...start.box, x: start.box.x - dx, y: start.box.y - dy, auto: false };
    svg.setAttribute("viewBox", `${T.boxes[key].x} ${T.boxes[key].y} ${start.box.w} ${start.box.h}`);
  });
  const stop = () => { start = null; };
  svg.addEventListener("pointerup", stop);
  svg.addEventListener("pointercancel", stop);
}

// Drag and drop with pointer events (mouse and touch): a floating copy follows the pointer;
// dropping on a highlighted spot, a tile to exchange or the reserve board chooses that move.
function makeDraggable(el, what) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const x0 = ev.clientX, y0 = ev.clientY;
    let ghost = null;
    T.dragMoved = false;
    const move = (e) => {
      if (!ghost && Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) > 8) {
        T.dragMoved = true;
        ghost = h("div", { class: "drag-ghost" }, tileArt(what.tile, 56));
        document.body.appendChild(ghost);
        if (what.kind !== "rremove") { T.sel = { kind: what.kind, tile: what.tile }; render(); }
      }
      if (ghost) { ghost.style.left = `${e.clientX - 28}px`; ghost.style.top = `${e.clientY - 28}px`; }
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      if (!ghost) return;
      ghost.remove();
      const target = document.elementFromPoint(e.clientX, e.clientY);
      setTimeout(() => { T.dragMoved = false; }, 0);
      if (!target) return;
      const spot = target.closest(".spot");
      const tile = target.closest(".exchange-target");
      const reserve = target.closest("[data-drop-reserve='1']");
      const acts = legal();
      if (spot) choose(spot.getAttribute("data-action"), spot.getAttribute("aria-label"));
      else if (tile) tile.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      else if (reserve && what.kind === "rremove") {
        const a = acts.find((x) => x.type === "rremove" && x.tile === what.tile);
        if (a) choose(a.text, describeAction(a.text));
      } else if (reserve && what.kind === "place") {
        const a = acts.find((x) => x.type === "place" && x.tile === what.tile && x.target === "reserve");
        if (a) choose(a.text, describeAction(a.text));
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  });
}

// ----- log and scoring
function renderLog() {
  const items = [];
  for (const e of T.events) {
    if (e.type === "TurnStarted") items.push(h("li", { class: "turn-head", text: `Turn ${e.turn} · ${seatName(e.seat)}` }));
    else if (e.type === "TurnEnded") continue;
    else items.push(h("li", { class: e.type === "RoundScored" || e.type === "GameEnded" ? "highlight" : "", text: describeEvent(e) }));
  }
  return h("div", { class: "panel log" }, h("h2", { text: "Game log" }), h("ul", { id: "log-list", class: "log-list", "aria-live": "polite" }, ...items));
}

/** The modules' columns of a scoring breakdown: each plug-in's `scoring` entries, and a plain
 * column (titled with the module's name) for the points of a module that has no entries. */
function scoringColumns(e) {
  const cols = [];
  const answered = new Set();
  for (const [id, got] of askPlugins("scoring", e)) {
    for (const c of Array.isArray(got) ? got : [got]) {
      if (c && Array.isArray(c.values)) { cols.push({ module: id, label: String(c.label ?? ""), title: c.title, values: c.values }); answered.add(id); }
    }
  }
  for (const [id, values] of Object.entries(e.extra || {})) {
    if (!answered.has(id)) cols.push({ module: id, label: (T.moduleInfo[id] || {}).title || id, values });
  }
  return cols;
}

function roundTable(e) {
  const n = e.points.length;
  const rows = [];
  const extra = scoringColumns(e);
  const KINDS = Object.keys(e.kinds); // the game's kinds, in its order (Alhambra's six, Granada's nine)
  const head = h("tr", {}, h("th", { text: "" }), ...KINDS.map((k) => h("th", { scope: "col", title: KIND_NAMES[k], text: KIND_NAMES[k] })), h("th", { text: "Wall" }),
    ...extra.map((c) => h("th", { scope: "col", title: c.title, dataset: { module: c.module }, text: c.label })), h("th", { text: "Round" }), h("th", { text: "Total" }));
  const seats = [...Array(n).keys()];
  if (e.counts[KINDS[0]].length > n) seats.push(n);
  for (const s of seats) {
    const neutral = s === n;
    rows.push(h("tr", {}, h("th", { scope: "row", text: neutral ? "Dirk" : seatName(s) }),
      ...KINDS.map((k) => h("td", { class: e.kinds[k][s] ? "scored" : "" , text: e.kinds[k][s] ? `${e.counts[k][s]} → ${e.kinds[k][s]}` : String(e.counts[k][s]) })),
      h("td", { text: neutral ? "" : String(e.walls[s]) }),
      ...extra.map((c) => h("td", { dataset: { module: c.module }, text: c.values[s] === undefined || c.values[s] === null ? "" : String(c.values[s]) })),
      h("td", { text: `+${neutral ? e.neutral_points : e.points[s]}` }),
      h("td", {}, h("strong", { text: String(neutral ? e.neutral_score : e.scores[s]) }))));
  }
  return h("table", { class: "round-table" }, h("caption", { text: `Scoring round ${e.round}: buildings → points per kind, longest wall` }), h("thead", {}, head), h("tbody", {}, ...rows));
}

function renderRounds() {
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (!rounds.length) return null;
  return h("div", { class: "panel rounds" }, h("h2", { text: "Scoring rounds" }),
    ...rounds.map((e) => h("details", {}, h("summary", { text: `Round ${e.round}` }), roundTable(e))));
}

function progressChart(history, n) {
  const W = 420, H = 220, L = 40, B = 30;
  const series = [...Array(n).keys()].map((s) => [0, ...history.map((r) => r[s])]);
  const max = Math.max(10, ...series.flat());
  const xs = (i) => L + (i * (W - L - 45)) / Math.max(1, history.length);
  const ys = (v) => H - B - (v * (H - B - 15)) / max;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "Scores after each scoring round" });
  svg.appendChild(svgEl("line", { x1: L, y1: H - B, x2: W - 10, y2: H - B, stroke: "#6b5235" }));
  svg.appendChild(svgEl("line", { x1: L, y1: 10, x2: L, y2: H - B, stroke: "#6b5235" }));
  for (let i = 0; i <= history.length; i++) {
    const t = svgEl("text", { x: xs(i), y: H - 10, "text-anchor": "middle", "font-size": 12, fill: "#3a2614" });
    t.textContent = i === 0 ? "start" : `round ${i}`;
    svg.appendChild(t);
  }
  for (const v of [0, Math.round(max / 2), max]) {
    const t = svgEl("text", { x: L - 6, y: ys(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#3a2614" });
    t.textContent = String(v);
    svg.appendChild(t);
  }
  series.forEach((pts, s) => {
    const d = pts.map((v, i) => `${i ? "L" : "M"}${xs(i)} ${ys(v)}`).join(" ");
    svg.appendChild(svgEl("path", { d, fill: "none", stroke: SEAT_COLORS[s], "stroke-width": 3 }));
    pts.forEach((v, i) => svg.appendChild(svgEl("circle", { cx: xs(i), cy: ys(v), r: 4, fill: SEAT_COLORS[s] })));
  });
  return svg;
}

function renderModal() {
  const close = () => { T.modal = null; render(); };
  let body;
  let title;
  if (T.modal.kind === "round") {
    title = `Scoring round ${T.modal.round.round}`;
    body = roundTable(T.modal.round);
  } else {
    const v = T.msg.view;
    const n = v.players;
    const ended = T.events.find((e) => e.type === "GameEnded");
    const winners = ended ? ended.winners : [];
    title = "Game over";
    const ranking = [...Array(n).keys()].sort((a, b) => v.seats[b].score - v.seats[a].score);
    body = h("div", {},
      h("p", { class: "winner", text: winners.length > 1 ? `Shared win: ${winners.map(seatName).join(" and ")}` : `${seatName(winners[0])} wins!` }),
      h("ol", { class: "ranking" }, ...ranking.map((s) => h("li", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), `${seatName(s)} — ${v.seats[s].score} points`)),
        v.neutral ? h("li", { class: "muted", text: `Dirk (neutral) — ${v.neutral.score} points` }) : null),
      h("h3", { text: "Score progression per scoring round" }),
      progressChart(v.score_history, n),
      h("div", { class: "legend" }, ...[...Array(n).keys()].map((s) => h("span", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), seatName(s)))));
  }
  return h("div", { class: "modal-back", onclick: (ev) => { if (ev.target === ev.currentTarget) close(); } },
    h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "modal-title", id: T.modal.kind === "round" ? "round-modal" : "summary-modal" },
      h("h2", { id: "modal-title", text: title }), body,
      h("button", { id: "btn-close-modal", class: "primary", text: "Continue", onclick: close })));
}

start();
