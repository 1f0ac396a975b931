// The Alhambra table in the browser: lobby (create / join tables) and the live table.
// The server is the single source of truth: every move offered here is one of the view's
// legal_actions, sent back as notation. Names and texts are always inserted as text.

import * as ART from "./art.js";
import {
  KIND_NAMES, CURRENCY_COLORS, CURRENCY_NAMES, backFacts, bagSVG, cardBackSVG, cardFacts, cardSVG,
  h, learnKinds, logoSVG, markerSVG, moneySourceSVG, svgEl, tileFacts, tileGroup, tileLabel, tileSVG,
} from "./art.js";
import { decorate as decorateHint, hintButton } from "./hint.js";

// ------------------------------------------------------------------------------ helpers

const NETWORK_ERROR = "The server cannot be reached. Check your internet connection and try again; nothing was changed.";

async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (_) {
    // fetch only rejects when no answer came at all: say so in words, never "Failed to fetch"
    const err = new Error(NETWORK_ERROR);
    err.status = 0;
    throw err;
  }
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    const detail = data && typeof data.detail === "string" ? data.detail : null;
    const err = new Error(detail || (res.status >= 500 ? `The server had a problem (error ${res.status}). Please try again in a moment.` : `The server refused this (error ${res.status}).`));
    err.status = res.status;
    throw err;
  }
  return data;
}

const CURRENCIES = ["blue", "green", "orange", "yellow"];
const ALHAMBRA_KINDS = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];

/** The building kinds of this table's game, in scoring order (the catalogue's `kinds`). */
function gameKinds() {
  return (T.catalogue && Array.isArray(T.catalogue.kinds) && T.catalogue.kinds.length) ? T.catalogue.kinds : ALHAMBRA_KINDS;
}

/** What this game calls its walls: "wall" (Alhambra), "moat" (Granada). */
function wallName() {
  return (T.catalogue && T.catalogue.wall_name) || "wall";
}

/** The game's title ("Alhambra", "Granada"). */
function gameTitle() {
  return (T.catalogue && T.catalogue.title) || "Alhambra";
}
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
    placeText,
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
function tileArt(code, size = 64, opts = {}) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileArt", code, size) : null;
  return isNode(got) ? got : tileSVG(code, T.catalogue, size, opts);
}

/** A tile inside an SVG (an Alhambra): a group at (x, y), `size` wide. */
function tileNode(code, x, y, size, opts = {}) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileArt", code, size) : null;
  if (!(got instanceof SVGSVGElement)) return tileGroup(code, T.catalogue, x, y, size, opts);
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

/** A tile's name for texts and labels, e.g. "Garden 8 (walls south, west)". */
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
  if (a.type === "place") return a.target === "spot" ? `Build ${tileName(a.tile)} ${placeText(a.x, a.y)}` : a.target === "reserve" ? `Put ${tileName(a.tile)} on your reserve board` : `Give ${tileName(a.tile)} to Dirk`;
  if (a.type === "turn") return `Turn ${tileName(a.tile)} over to ${backName(a.tile)}, paying ${cards(a.cards)}`;
  if (a.type === "rbuild") return `Build ${tileName(a.tile)} from the reserve ${placeText(a.x, a.y)}`;
  if (a.type === "rremove") return `Move ${tileName(a.tile)} to your reserve board`;
  if (a.type === "rexchange") return `Exchange ${tileName(a.other)} for ${tileName(a.tile)} from your reserve`;
  if (a.type === "end") return "End your turn";
  return codeWords(notation);
}

/** The name of the other face of a two-sided tile (Granada), e.g. "Market 3 (moats east)". */
function backName(code) {
  const t = T.catalogue && T.catalogue.tiles ? T.catalogue.tiles[code] : null;
  return t && t.back ? tileName(t.back) : "its other side";
}

/** The log line of an event: a plug-in's text, else the engine's with the players' names. */
function describeEvent(e) {
  for (const [, text] of askPlugins("describeEvent", e)) if (typeof text === "string") return text;
  return coreEventText(e) ?? eventText(e.text);
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
  const out = { nodes: [], handled: new Set(), owners: new Map(), squares: new Map(), cards: new Map() };
  if (!myTurn) return out;
  const actions = v.legal_actions.filter((a) => parseAction(a).type === "other");
  if (!actions.length) return out;
  for (const [id, got] of askPlugins("actionControls", actions.slice())) {
    if (isNode(got)) { out.nodes.push([id, got]); continue; }
    if (typeof got !== "object") continue;
    if (isNode(got.node)) out.nodes.push([id, got.node]);
    for (const a of got.handled || []) {
      if (!actions.includes(a)) continue;
      out.handled.add(a);
      if (!out.owners.has(a)) out.owners.set(a, id);
    }
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
  if (w[0] === "turn" && w.length === 3) return { type: "turn", tile: w[1], cards: cards(w[2]), text };
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
    h("a", { href: "/", class: "brand", "aria-label": "Alhambra lobby" }, logoSVG(32), h("span", { text: gameTitle() })),
    extra || null);
}

// ------------------------------------------------------------------------------ lobby
async function lobby() {
  setPhase("lobby");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { text: "Loading…" })));
  let modules = [];
  let bots = [];
  let games = [];
  try {
    [modules, bots, games] = await Promise.all([api("GET", "/api/modules"), api("GET", "/api/bots"), api("GET", "/api/games")]);
  } catch (e) {
    root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { class: "error", text: e.message })));
    return;
  }
  const seatsBox = h("div", { class: "seat-rows" });
  const count = h("select", { id: "seat-count", "aria-label": "Number of players" },
    ...[2, 3, 4, 5, 6].map((n) => h("option", { value: n, text: `${n} players` })));
  const makeRow = (i) => {
    const kind = h("select", { class: "seat-kind", "aria-label": `Seat ${i + 1}: person or bot` },
      h("option", { value: "person", text: "Person (invitation link)" }), h("option", { value: "bot", text: "Bot" }),
      h("option", { value: "open", text: "Anyone (open seat, public tables)" }));
    const level = h("select", { class: "seat-bot", "aria-label": `Seat ${i + 1}: bot level` },
      ...bots.map((b) => h("option", { value: b.id, text: b.label, title: b.description })));
    level.value = "greedy";
    // the level's name fits the row; what it means is the tooltip
    const describe = () => { const b = bots.find((x) => x.id === level.value); level.title = b ? `${b.label} — ${b.description}` : ""; };
    level.onchange = describe;
    describe();
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
  // the game of the family: modules that do not support it are switched off, and its
  // assumptions (the unknown facts of its components) are shown
  const gameSelect = h("select", { id: "game-choice", "aria-label": "Game" },
    ...games.map((g) => h("option", { value: g.id, text: g.title })));
  const gameInfo = h("div", { class: "game-info", id: "game-info", "aria-live": "polite" });
  const syncGame = () => {
    const g = games.find((x) => x.id === gameSelect.value) || null;
    for (const box of modBoxes) {
      const ok = !g || (box.dataset.games || "alhambra").split(",").includes(g.id);
      const input = box.querySelector(".module-pick input");
      if (!ok) input.checked = false;
      input.disabled = !ok;
      // the variants of a module the game cannot have are off too
      for (const opt of box.querySelectorAll("[data-option]")) opt.disabled = !ok;
      box.classList.toggle("unavailable", !ok);
      const note = box.querySelector(".module-unavailable");
      if (note) note.textContent = ok ? "" : `Not available in ${g.title}`;
    }
    gameInfo.replaceChildren(...gameDescription(g));
  };
  gameSelect.onchange = syncGame;
  const tableName = h("input", { id: "table-name", type: "text", maxlength: 40, placeholder: "Table name (optional)", "aria-label": "Table name" });
  const pub = h("input", { id: "table-public", type: "checkbox" });
  const hints = h("input", { id: "table-hints", type: "checkbox" });
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
    const body = { seats, modules: chosen.map((l) => l.dataset.module), public: pub.checked, hints: hints.checked };
    if (gameSelect.value && gameSelect.value !== "alhambra") body.game = gameSelect.value;
    const options = {};
    for (const l of chosen) {
      for (const input of l.querySelectorAll("[data-option]")) {
        const spec = JSON.parse(input.dataset.spec);
        const value = typeof spec.default === "boolean" ? input.checked : typeof spec.default === "number" ? Number(input.value) : input.value;
        if (value !== spec.default) (options[l.dataset.module] ||= {})[spec.key] = value;
      }
    }
    if (Object.keys(options).length) body.options = options;
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
    games.length > 1 ? h("label", { class: "row" }, "Game ", gameSelect) : null,
    games.length > 1 ? gameInfo : null,
    h("label", { class: "row" }, "Players ", count),
    seatsBox,
    h("fieldset", { class: "modules" }, h("legend", { text: "Big Box modules" }), ...modBoxes),
    h("label", { class: "row" }, tableName),
    h("label", { class: "row" }, pub, " List this table so anyone can take a free seat"),
    h("label", { class: "row" }, hints, " Allow hints: players may ask what the strongest bot would play (private tables only)"),
    h("button", { type: "submit", id: "btn-create", class: "primary", text: "Create table" }));
  const openList = h("div", { class: "open-list" });
  const refresh = async () => {
    try {
      const [open, playing, finished] = await Promise.all(["open", "playing", "finished"].map((w) => api("GET", `/api/tables?which=${w}`)));
      const item = (t, joinable) => h("li", {},
        h("span", { class: "t-name", text: t.name || `Table ${t.id.slice(0, 6)}` }),
        t.game && t.game !== "alhambra" ? h("span", { class: "badge t-game", text: (games.find((g) => g.id === t.game) || { title: t.game }).title }) : null,
        h("span", { class: "t-seats", text: t.seats.map((s) => s.name || (s.kind === "bot" ? "bot" : "free seat")).join(", ") }),
        joinable ? h("button", { class: "small take-seat", text: "Take a seat", onclick: (ev) => claim(t.id, ev.currentTarget) }) : null,
        t.status === "finished" ? h("a", { href: `/replay/${t.id}`, class: "small-link replay-link", text: "Watch the replay" })
          : h("a", { href: `/table/${t.id}`, class: "small-link", text: "Watch" }));
      openList.replaceChildren(
        h("h3", { text: "Open tables" }),
        open.length ? h("ul", {}, ...open.map((t) => item(t, true))) : h("p", { class: "muted", text: "No open tables right now." }),
        h("h3", { text: "Games in progress" }),
        playing.length ? h("ul", {}, ...playing.map((t) => item(t, false))) : h("p", { class: "muted", text: "None." }),
        h("h3", { text: "Finished games" }),
        finished.length ? h("ul", { id: "finished-tables" }, ...finished.slice(0, 10).map((t) => item(t, false))) : h("p", { class: "muted", text: "None yet." }),
        h("p", {}, h("a", { href: "/replay", id: "replay-file-link", text: "Replay a game from a record file" })),
        h("p", {}, h("a", { href: "/score", id: "score-night-link", text: "Score a real game (played with the box)" })));
    } catch (e) {
      openList.replaceChildren(h("p", { class: "error", text: e.message }));
    }
  };
  // "Take a seat" opens a small form in place (a name, Join, Cancel); errors are told beside it
  const claim = (id, button) => {
    const name = h("input", { type: "text", class: "claim-name", maxlength: 40, placeholder: "Your name (optional)", "aria-label": "Your name" });
    const problem = h("span", { class: "error claim-error", role: "alert" });
    const form = h("form", {
      class: "claim-form", "aria-label": "Take a seat",
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          const nm = name.value.trim();
          const res = await api("POST", `/api/tables/${id}/join`, nm ? { name: nm } : {});
          location.assign(`/table/${id}#seat=${res.token}`);
        } catch (e) {
          problem.textContent = e.message;
        }
      },
    }, name, h("button", { type: "submit", class: "small primary", text: "Join" }),
    h("button", { type: "button", class: "small secondary", text: "Cancel", onclick: () => { form.replaceWith(button); button.focus(); } }), problem);
    button.replaceWith(form);
    name.focus();
  };
  root.replaceChildren(header(), h("main", { class: "lobby" },
    h("section", { class: "intro" }, h("h1", { text: "Alhambra" }),
      h("p", { text: "Build the most splendid Alhambra. Create a table, send each player their secret link, and put bots in any seat." })),
    form, out, h("section", { class: "panel" }, openList)));
  syncGame();
  refresh();
}

/** One module of the lobby's picker: title, description, a mark when it rests on assumed
 * component facts, and its assumptions (collapsed). */
function moduleChoice(m) {
  const rules = m.assumptions || [];
  const facts = m.component_assumptions || [];
  const assumed = facts.length > 0;
  return h("div", { class: "module", dataset: { module: m.id, games: (m.games || ["alhambra"]).join(",") } },
    h("label", { class: "module-pick" }, h("input", { type: "checkbox", value: m.id, "aria-describedby": `mod-desc-${m.id}` }),
      h("span", {}, h("strong", { text: m.title }),
        assumed ? h("span", { class: "assumed-mark", title: "Some facts of this module's components are not known and were assumed (see below).", text: "rests on assumptions" }) : null,
        h("span", { class: "module-unavailable", text: "" }))),
    h("p", { class: "module-desc", id: `mod-desc-${m.id}`, text: m.description }),
    ...(m.options || []).map((o) => moduleOption(m, o)),
    rules.length || facts.length ? h("details", { class: "module-assumptions" },
      h("summary", { text: `Assumptions (${rules.length + facts.length})` }),
      rules.length ? h("p", { class: "muted", text: "Where the rulebook is silent, this edition reads it so:" }) : null,
      rules.length ? h("ul", {}, ...rules.map((a) => h("li", { text: a }))) : null,
      facts.length ? h("p", { class: "muted", text: "Component facts that are not known and were assumed:" }) : null,
      facts.length ? h("ul", { class: "component-assumptions" }, ...facts.map((a) => h("li", { text: a }))) : null) : null);
}

/** What the lobby says of the chosen game: a line on what differs, and the documented
 * assumptions (unknown component facts) and readings it rests on. */
function gameDescription(g) {
  if (!g || g.id === "alhambra" || !(g.assumptions || []).length) return [];
  const kinds = (g.kind_names || []).join(", ").toLowerCase();
  const rest = g.assumptions.length + (g.readings || []).length;
  return [
    h("p", { class: "game-summary" }, h("strong", { text: g.title }), `: ${(g.kind_names || []).length} building kinds (${kinds}), double-sided tiles, ${g.wall_name || "wall"}s instead of walls`,
      g.marker ? ", the black marker that picks the face of new market tiles" : "",
      g.turn_over_cost ? `, tiles turned over for ${g.turn_over_cost}` : "", "."),
    h("p", {}, h("span", { class: "assumed-mark", title: "Some facts of this game's components are not known and were assumed (see below).", text: "rests on assumptions" })),
    h("details", { class: "game-assumptions" },
      h("summary", { text: `Assumptions and readings (${rest})` }),
      h("p", { class: "muted", text: "Component facts that are not known and were assumed (an owner of the box can correct them in the game's data):" }),
      h("ul", { class: "component-assumptions" }, ...g.assumptions.map((a) => h("li", { text: a }))),
      (g.readings || []).length ? h("p", { class: "muted", text: "Where the rules are silent, this edition reads them so:" }) : null,
      (g.readings || []).length ? h("ul", {}, ...g.readings.map((a) => h("li", { text: a }))) : null),
  ];
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
    h("p", {}, "Spectators: ", h("a", { href: res.spectator_url, text: res.spectator_url })),
    res.creator_token && res.table.status === "waiting" ? deleteCreated(out, res) : null));
}

// the creator may delete the table until every player has joined (DELETE with the creator token)
function deleteCreated(out, res) {
  const note = h("span", { class: "muted", role: "status" });
  const del = async () => {
    try {
      await api("DELETE", `/api/tables/${res.table.id}`, undefined, res.creator_token);
      out.replaceChildren(h("section", { class: "panel" }, h("p", { role: "status", text: "The table was deleted; its links no longer work." })));
    } catch (e) {
      note.textContent = e.message;
    }
  };
  return h("p", {}, h("button", { type: "button", class: "small", id: "btn-delete-table", text: "Delete this table", onclick: del }), " ", note);
}

// ------------------------------------------------------------------------------ table page
const T = {
  id: null, token: null, msg: null, events: [], epoch: null, catalogue: null, sel: null, staged: null,
  ws: null, retry: 0, boxes: {}, seenRounds: 0, sending: null, notice: null, modal: null, ended: false,
  moduleInfo: {},
};

function tokenFromHash() {
  const m = /(?:^|[#&])seat=([A-Za-z0-9_-]{8,128})/.exec(location.hash);
  return m ? m[1] : null;
}

async function tablePage(id) {
  document.body.dataset.page = "table";
  T.id = id;
  T.token = tokenFromHash();
  setPhase("loading");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "table" }, h("p", { text: "Connecting…" })));
  try {
    const [catalogue, info, modules] = await Promise.all([
      api("GET", `/api/tables/${id}/catalogue`), api("GET", `/api/tables/${id}`), api("GET", "/api/modules")]);
    T.catalogue = catalogue;
    learnKinds(catalogue);
    T.moduleInfo = Object.fromEntries(modules.map((m) => [m.id, m]));
    await loadPlugins(info.modules, T.moduleInfo);
  } catch (e) {
    root.replaceChildren(header(), h("main", {}, h("p", { class: "error", role: "alert", text: e.message }), h("a", { href: "/", text: "Back to the lobby" })));
    setPhase("error");
    return;
  }
  document.addEventListener("keydown", (ev) => {
    trapTab(ev);
    if (ev.key === "Escape" && T.msg) { T.sel = null; T.staged = null; T.modal = null; T.placeCleared = true; render(); }
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
      if (msg.status === 401 || msg.status === 403 || msg.status === 404 || msg.status === 410) {
        T.fatal = msg.detail;
        if (msg.status === 410) T.msg = null; // the table was deleted: nothing left to show but why
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
    if (msg.version !== prevVersion) { T.sel = null; T.staged = null; T.placeCleared = false; }
    afterUpdate();
    render();
    autoPass();
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

/** A decision whose only answer is Pass is not asked: the table passes for the player, once
 * per version, and says so (the log shows it too). */
function autoPass() {
  const pass = onlyPass();
  if (!pass || T.autoPassed === T.msg.version) return;
  T.autoPassed = T.msg.version;
  T.autoPasses = (T.autoPasses || 0) + 1;
  document.body.dataset.autoPasses = String(T.autoPasses);
  const what = T.msg.view.pending && T.msg.view.pending.type ? T.msg.view.pending.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() : "decision";
  notify(`Nothing to choose (${what}): you pass.`);
  send(pass);
}

/** The pass action when it is my decision and Pass is its only answer, else null. */
function onlyPass() {
  if (!isMyTurn()) return null;
  const acts = T.msg.view.legal_actions;
  return acts.length === 1 && parseAction(acts[0]).type === "pass" ? acts[0] : null;
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
  // the engine writes payments as code+code and seats as "player N"; cards and tiles get names
  const spaced = text.replace(/[A-Za-z][A-Za-z0-9]*(?:\+[A-Za-z][A-Za-z0-9]*)+/g, (cards) => cards.split("+").join(" + "));
  return codeWords(spaced).replace(/player (\d+)/g, (_, n) => seatName(Number(n) - 1))
    .replace(/\bsquare ([1-9])\b/g, (all, n) => { const m = T.msg ? T.msg.view.market[Number(n) - 1] : null; return m ? `the ${CURRENCY_NAMES[m.currency]} square` : all; });
}

async function send(action) {
  // a second click on the same table version is a double click: its move is already on its way.
  // Once an update moved the version on, the next move goes out even if the previous request's
  // response has not arrived yet (the update can come first over the socket).
  const version = T.msg.version;
  if (T.sending === version) return;
  T.sending = version;
  try {
    // the selection is cleared by the update that carries the new version (it may arrive
    // before this response does, and the next move may already be under way)
    await api("POST", `/api/tables/${T.id}/actions`, { action, version }, T.token);
  } catch (e) {
    notify(e.message, true);
  } finally {
    if (T.sending === version) T.sending = null;
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

// ------------------------------------------------------------------------------ motion
// What arrives (a tile in the market or an Alhambra, a card in the display or a hand) moves in
// briefly once, on the redraw that first shows it: 350 ms, ended at once by any click or key,
// never with the "Animate moves" setting off or under prefers-reduced-motion (style.css too).
const REDUCED_MOTION = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

function motionOn() {
  return SETTINGS.motion !== false && !(REDUCED_MOTION && REDUCED_MOTION.matches);
}

/** Mark `el` (known across redraws as `key`) as arriving when the last redraw did not show it. */
function arrival(el, key) {
  T.nextKnown.add(key);
  if (T.known && !T.known.has(key) && motionOn()) el.classList.add("arrive");
  return el;
}

const skipMotion = () => { for (const a of document.getAnimations ? document.getAnimations() : []) if (a.animationName === "arrive" || a.animationName === "arrive-fade") a.finish(); };
document.addEventListener("pointerdown", skipMotion, true);
document.addEventListener("keydown", skipMotion, true);

// ------------------------------------------------------------------------------ render
function render() {
  const root = document.getElementById("app");
  const settings = root.querySelector(".settings");
  if (settings) T.settingsOpen = settings.open; // the settings stay open across the redraw
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
  const passing = Boolean(onlyPass());
  setPhase(status === "finished" ? "over" : needsJoin ? "join" : status === "waiting" ? "waiting" : passing ? "passing" : myTurn ? "my-turn" : "their-turn");
  document.body.dataset.version = String(msg.version);
  document.body.dataset.pending = v.pending ? v.pending.type : "";
  const title = msg.table.name || `Table ${msg.table.id.slice(0, 6)}`;
  const statusLine = status === "finished" ? "Game over" : status === "waiting" ? "Waiting for players to join" :
    myTurn ? (v.pending && v.pending.type !== "ChooseAction" && v.pending.type !== "PlaceTiles" ? "Your decision" : "Your turn") :
    v.to_act !== null ? `${seatName(v.to_act)} is playing` : "";
  const top = header(h("div", { class: "top-info" },
    h("span", { class: "t-title", text: title }),
    h("span", { class: `t-status ${myTurn ? "mine" : ""}`, id: "status-line", "aria-live": "polite", title: `Turn ${v.turn} · ${statusLine}`, text: `Turn ${v.turn} · ${statusLine}` }),
    seat === null ? h("span", { class: "badge", text: "Spectator" }) : h("span", { class: "badge", text: `You: ${seatName(seat)}` }),
    T.reconnecting ? h("span", { class: "badge warn", text: "Connection lost: reconnecting…" }) : null,
    renderSettings()));
  const controls = moduleControls(v, myTurn);
  T.nextKnown = new Set();
  const main = h("main", { class: "table-grid" },
    h("section", { class: "col-left" }, renderSupply(v, controls), renderScores(v)),
    h("section", { class: "col-center" }, renderActionPanel(v, myTurn, controls), renderCities(v)),
    // the log has a pane of its own below the hand and the module panels (which scroll apart)
    h("section", { class: "col-right" },
      h("div", { class: "col-right-panels" }, seat !== null ? renderHand(v, seat) : null, ...modulePanels(), renderRounds()),
      renderLog()));
  const parts = [top, main];
  if (T.notice) parts.push(h("div", { class: `toast ${T.notice.isError ? "error" : ""}`, role: "alert", text: T.notice.text }));
  if (needsJoin) parts.push(renderJoin(seat));
  else if (T.modal) parts.push(renderModal());
  const hadModal = Boolean(root.querySelector(".modal"));
  const focused = focusKey(document.activeElement);
  const logBox = document.getElementById("log-list");
  const logAtEnd = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 4;
  root.replaceChildren(...parts);
  T.known = T.nextKnown;
  restoreFocus(focused, hadModal);
  decorateHint(msg.version);
  const log = document.getElementById("log-list");
  if (log && logAtEnd) log.scrollTop = log.scrollHeight;
  const game = gameTitle();
  document.title = status === "finished" ? `Game over · ${title} · ${game}` : myTurn ? `▶ Your turn · ${title} · ${game}` : `${title} · ${game}`;
  if (myTurn && !T.wasMyTurn) turnSound();
  // on a phone the page was scrolled down to my Alhambra: my turn is over, back to the top
  if (!myTurn && T.wasMyTurn && window.matchMedia && window.matchMedia("(max-width: 760px)").matches) window.scrollTo({ top: 0 });
  T.wasMyTurn = myTurn;
}

// ----- keyboard focus: kept across redraws by a stable key, trapped in dialogs
const FOCUSABLE = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea, summary, [tabindex]:not([tabindex='-1'])";
const KEY_DATA = ["key", "square", "slot", "code", "tile", "token", "x", "y", "seat", "round", "action", "kind", "currency", "option"];

/** A key naming a control across redraws: its id, else its tag, first class and identifying
 * data attributes (the square, the card, the tile, the place...), else its text; with the
 * occurrence number among controls of the same key (two equal cards in a hand). */
function focusKey(el) {
  if (!el || el === document.body || !el.isConnected || !document.getElementById("app").contains(el)) return null;
  const base = baseKey(el);
  let nth = 0;
  for (const other of document.getElementById("app").querySelectorAll(FOCUSABLE)) {
    if (other === el) break;
    if (baseKey(other) === base) nth += 1;
  }
  return { base, nth, inModal: Boolean(el.closest(".modal")) };
}

function baseKey(el) {
  if (el.id) return `#${el.id}`;
  const cls = (el.getAttribute("class") || "").split(/\s+/).filter(Boolean)[0] || "";
  const data = KEY_DATA.filter((k) => el.dataset && el.dataset[k] !== undefined).map((k) => `${k}=${el.dataset[k]}`).join("|");
  return `${el.tagName}.${cls}[${data || (el.textContent || "").trim().slice(0, 60)}]`;
}

function findByKey(key) {
  if (!key) return null;
  let nth = key.nth;
  let last = null;
  for (const el of document.getElementById("app").querySelectorAll(FOCUSABLE)) {
    if (baseKey(el) !== key.base) continue;
    last = el;
    if (nth === 0) return el;
    nth -= 1;
  }
  return last; // fewer equal controls now (a card was spent): the last of them
}

/** After a redraw: focus what had it (by key); in a dialog that just opened its first control
 * (the dialog's `data-autofocus` one first), remembering what to return to; when a dialog
 * closed, what had focus before it; when the focused control is gone, the action panel. */
function restoreFocus(key, hadModal) {
  const modal = document.querySelector("#app .modal");
  if (modal) {
    if (!hadModal) T.returnFocus = key;
    const again = findByKey(key);
    if (again && modal.contains(again)) { again.focus(); return; }
    const first = modal.querySelector("[data-autofocus]") || modal.querySelector(FOCUSABLE);
    // a dialog opens at its top (the winner, the ranking); its buttons stay in view at the bottom
    if (first) first.focus({ preventScroll: !hadModal });
    if (!hadModal) modal.scrollTop = 0;
    return;
  }
  if (hadModal) {
    const back = findByKey(T.returnFocus) || fallbackFocus();
    T.returnFocus = null;
    if (back) back.focus();
    return;
  }
  if (!key) return;
  const again = findByKey(key) || fallbackFocus();
  if (again) again.focus();
}

/** Where focus goes when the focused control disappeared: the next step in the action panel. */
function fallbackFocus() {
  const panel = document.getElementById("action-panel");
  if (!panel) return null;
  return panel.querySelector("#btn-confirm, .button-row .primary:not([disabled])") || panel;
}

/** Keep Tab inside an open dialog (it cycles through the dialog's controls). */
function trapTab(ev) {
  if (ev.key !== "Tab") return;
  const modal = document.querySelector("#app .modal");
  if (!modal) return;
  const items = [...modal.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (!items.length) return;
  const first = items[0], last = items[items.length - 1];
  const inside = modal.contains(document.activeElement);
  if (ev.shiftKey && (!inside || document.activeElement === first)) { ev.preventDefault(); last.focus(); }
  else if (!ev.shiftKey && (!inside || document.activeElement === last)) { ev.preventDefault(); first.focus(); }
}

/** A short chime when it becomes your turn (only with the "sound" setting on). */
function turnSound() {
  if (!SETTINGS.sound || !T.firstRenderDone) { T.firstRenderDone = true; return; }
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    T.audio ||= new Ctx();
    const ctx = T.audio;
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.0001, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.4);
    T.chimes = (T.chimes || 0) + 1;
    document.body.dataset.chimes = String(T.chimes);
  } catch (_) {
    // no audio device: the tab title still says it is your turn
  }
}

// ----- settings (kept in this browser)
const SETTINGS = loadSettings();

function loadSettings() {
  try {
    return { notation: localStorage.getItem("alhambra.notation") === "1", sound: localStorage.getItem("alhambra.sound") === "1", motion: localStorage.getItem("alhambra.motion") !== "0" };
  } catch (_) {
    return { notation: false, sound: false, motion: true };
  }
}

function setSetting(key, on) {
  SETTINGS[key] = on;
  try { localStorage.setItem(`alhambra.${key}`, on ? "1" : "0"); } catch (_) { /* private mode: this page only */ }
  render();
}

function renderSettings() {
  const box = (key, label) => h("label", { class: "setting" },
    h("input", { type: "checkbox", id: `set-${key}`, checked: SETTINGS[key], onchange: (ev) => setSetting(key, ev.target.checked) }), ` ${label}`);
  return h("details", { class: "settings", open: T.settingsOpen },
    h("summary", { id: "settings-toggle", title: "Settings" }, h("span", { class: "settings-word", text: "Settings" })),
    h("div", { class: "settings-box" }, box("notation", "Show notation in the log"), box("sound", "Sound when it is your turn"), box("motion", "Animate moves")));
}

function renderJoin(seat) {
  const s = T.msg.table.seats[seat];
  const name = h("input", { id: "join-name", type: "text", maxlength: 40, value: T.joinName ?? (s.name || ""), placeholder: "Your name (optional)", "aria-label": "Your name", "data-autofocus": true,
    oninput: (ev) => { T.joinName = ev.target.value; } });
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
  const recent = recentChanges();
  const market = h("div", { class: "market", role: "group", "aria-label": "Market" }, ...v.market.map((sq) => {
    const buys = acts.filter((a) => a.type === "buy" && a.square === sq.square);
    const offer = buys.length ? null : controls.squares.get(sq.square) || null;
    const selected = T.sel && T.sel.kind === "pay" && T.sel.square === sq.square;
    const back = sq.tile && sq.back ? `; its other side: ${tileName(sq.back)}` : "";
    const label = sq.tile ? `Market square ${sq.square}: ${tileName(sq.tile)}, paid in ${CURRENCY_NAMES[sq.currency]} (${sq.currency})${back}` : `Market square ${sq.square}: empty`;
    const hint = buys.length ? " — you can buy it" : offer ? ` — ${offer.label || "you can choose it"}` : "";
    return h("button", {
      class: `market-square ${buys.length || offer ? "affordable" : ""} ${selected ? "selected" : ""} ${recent.squares.has(sq.square) ? "recent" : ""}`,
      dataset: { square: sq.square, currency: sq.currency, module: offer ? offer.owner : null },
      style: `--cur:${CURRENCY_COLORS[sq.currency]}`,
      "aria-label": label + hint + (recent.squares.has(sq.square) ? " (new this turn)" : ""),
      title: `${sq.tile ? `${tileName(sq.tile)}, ${CURRENCY_NAMES[sq.currency]} square${back}` : `Empty ${CURRENCY_NAMES[sq.currency]} square`}${offer && offer.label ? ` — ${offer.label}` : hint}${recent.squares.has(sq.square) ? " (new this turn)" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      disabled: !buys.length && !offer,
      onclick: () => {
        if (selected) { T.sel = null; T.staged = null; render(); }
        else if (buys.length) startPayment(null, { square: sq.square });
        else offer.pick();
      },
    }, h("span", { class: "cur-band", text: CURRENCY_NAMES[sq.currency] }), sq.tile ? arrival(h("span", { class: "sq-art" }, tileArt(sq.tile, 66, { backMark: Boolean(sq.back) })), `sq:${sq.square}:${sq.tile}`) : h("span", { class: "empty-slot", text: "—" }));
  }));
  const takes = acts.filter((a) => a.type === "take");
  const picked = T.sel && T.sel.kind === "take" ? T.sel.cards : [];
  const display = h("div", { class: "display", role: "group", "aria-label": "Face-up money" }, ...v.display.map((code, i) => {
    if (!code) return h("span", { class: "card-slot empty", text: "" });
    const on = picked.includes(i);
    const can = takes.some((a) => a.cards.includes(code));
    const offer = can ? null : controls.cards.get(i + 1) || null;
    return h("button", {
      class: `display-card ${on ? "selected" : ""} ${can ? "takeable" : ""} ${offer ? "offered" : ""} ${recent.slots.has(i + 1) ? "recent" : ""}`,
      dataset: { code, slot: i + 1, module: offer ? offer.owner : null },
      "aria-label": `Face-up card: ${cardName(code)}${offer ? ` — ${offer.label || "you can choose it"}` : ""}`,
      title: `${cardName(code)}${offer && offer.label ? ` — ${offer.label}` : ""}${recent.slots.has(i + 1) ? " (new this turn)" : ""}`,
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
    }, arrival(h("span", { class: "card-art" }, cardArt(code, 46)), `slot:${i}:${code}`));
  }));
  const drawn = v.scoring_cards_drawn;
  const progress = h("div", { class: "progress", "aria-label": `Scoring cards drawn: ${drawn} of 2; scoring rounds done: ${v.rounds_scored} of 3` },
    h("span", { text: "Scoring" }),
    ...[1, 2, 3].map((r) => h("span", { class: `round-dot ${v.rounds_scored >= r ? "done" : ""}`, title: `Scoring round ${r}`, text: String(r) })));
  return h("div", { class: "panel supply" },
    v.market_face ? h("div", { class: "market-head" }, h("h2", { text: "Market" }), marker(v.market_face)) : h("h2", { text: "Market" }), market,
    h("h2", { text: "Money" }), display,
    h("div", { class: "piles" },
      h("span", { class: "pile", title: "Draw pile" }, cardBackSVG(26), h("span", { id: "deck-count", text: `${v.deck_count} cards` })),
      h("span", { class: "pile", title: "Tile bag" }, bagSVG(26), h("span", { id: "bag-count", text: `${v.bag_count} tiles` })),
      progress));
}

/** Granada's black marker beside the market: which face the next refill shows. */
function marker(face) {
  const odd = face === "odd";
  return h("span", {
    class: "market-marker", id: "market-marker", dataset: { face },
    title: `The black marker shows the ${face} side: tiles come into the market with their ${odd ? "backs up (odd prices 3-13)" : "fronts up (even prices 2-12)"}. It turns over each time the market has been completely restocked.`,
  }, markerSVG(face, 30), h("span", { class: "marker-text", text: odd ? "Refill: backs (odd)" : "Refill: fronts (even)" }));
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
      r.hand !== null ? h("span", { class: "s-meta" }, h("span", { text: `${r.hand} cards · ${wallName()} ${r.wall}` }), seatBadges(r.seat)) : null))));
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
    // at most 12 ways to pay are drawn, always with the one picked (a hint picks any of them)
    h("div", { class: "pay-options", role: "group", "aria-label": "Ways to pay" }, ...options.filter((o, i) => i < 12 || (match && match.action === o.action)).map((o) => {
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
    bar.append(h("button", { id: "btn-buy", class: "primary", dataset: { action: match.action }, text, onclick: () => choose(match.action, describeAction(match.action)) }));
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
      title: cardName(c),
      disabled: !sel || !(on || usable.has(c)),
      onclick: () => {
        const k = sel.cards.indexOf(i);
        if (k >= 0) sel.cards.splice(k, 1); else sel.cards.push(i);
        render();
      },
    }, arrival(h("span", { class: "card-art" }, cardArt(c, 40)), `hand:${c}:${hand.slice(0, i).filter((x) => x === c).length}`));
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
  const box = h("div", { class: "panel actions", id: "action-panel", "aria-live": "polite", tabindex: "-1", "aria-label": "Your move" });
  const acts = legal();
  const bar = h("div", { class: "button-row" });
  if (T.msg.can_undo && !T.staged) bar.appendChild(h("button", { id: "btn-undo", class: "secondary", text: "↶ Undo", onclick: undo }));
  if (T.staged) {
    // between turns a final move reveals something but ends nobody's turn
    const between = Boolean(v.pending) && v.pending.type === "BetweenTurns";
    const note = T.staged.note || (between ? "It cannot be taken back." : "This ends your turn: it cannot be taken back.");
    // the confirmation shows what it is about: the tile, or the cards
    const sa = parseAction(T.staged.action);
    const pics = sa.tile ? [tileArt(sa.tile, 44)] : (sa.cards || []).map((c) => cardArt(c, 30));
    // Element.append writes a null as the word "null": only nodes go in
    box.append(h("p", { class: "staged" }, pics.length ? h("span", { class: "staged-art" }, ...pics) : null, `${T.staged.label || describeAction(T.staged.action)}. ${note}`));
    if (SETTINGS.notation) box.append(h("p", { class: "notation", text: `Notation: ${T.staged.action}` }));
    bar.append(h("button", { id: "btn-confirm", class: "primary", text: T.staged.button || (between ? "Confirm" : "End turn"), onclick: () => send(T.staged.action) }),
      h("button", { id: "btn-cancel", class: "secondary", text: "Cancel", onclick: () => { T.staged = null; render(); } }));
    box.append(bar);
    return box;
  }
  if (onlyPass()) {
    box.append(h("p", { class: "muted auto-pass", text: "Nothing to choose: you pass." }));
    return box;
  }
  if (T.msg.table.status === "finished") {
    box.append(h("p", { text: "The game is over." }), h("div", { class: "button-row" },
      h("button", { class: "primary", id: "btn-summary", text: "Show the summary", onclick: () => { T.modal = { kind: "summary" }; render(); } }),
      ...rematchButtons(false),
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
        onclick: () => { T.sel = on ? null : { kind: "place", tile: t }; T.placeCleared = !T.sel; render(); },
      }, tileArt(t, 58, { backMark: true, turned: turnedTiles(v).has(t) }));
      makeDraggable(b, { kind: "place", tile: t });
      return b;
    })));
    if (sel && sel.kind === "pay" && sel.owner === TURN_OVER) {
      box.append(renderPay(v, sel, bar));
    } else if (sel && sel.kind === "place") {
      const res = acts.find((a) => a.type === "place" && a.tile === sel.tile && a.target === "reserve");
      const neu = acts.find((a) => a.type === "place" && a.tile === sel.tile && a.target === "neutral");
      if (res) bar.append(h("button", { id: "btn-reserve", class: "secondary", dataset: { action: res.text }, text: "To the reserve board", onclick: () => choose(res.text, describeAction(res.text)) }));
      if (neu) bar.append(h("button", { id: "btn-neutral", class: "secondary", dataset: { action: neu.text }, text: "Give it to Dirk", onclick: () => choose(neu.text, describeAction(neu.text)) }));
      // a two-sided tile may also go into the reserve on its other face, for free
      const back = T.catalogue && T.catalogue.tiles && T.catalogue.tiles[sel.tile] ? T.catalogue.tiles[sel.tile].back : null;
      const resBack = back ? acts.find((a) => a.type === "place" && a.tile === back && a.target === "reserve") : null;
      if (resBack) {
        bar.append(h("button", {
          id: "btn-reserve-turned", class: "secondary", dataset: { action: resBack.text }, text: "To the reserve board, turned over",
          title: `Put it on the reserve board as ${tileName(back)} (free)`, onclick: () => choose(resBack.text, describeAction(resBack.text)),
        }));
      }
      const turns = acts.filter((a) => a.type === "turn" && a.tile === sel.tile);
      if (turns.length) box.append(turnOffer(sel.tile, turns));
    } else if (tiles.length && !T.placeCleared) {
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
      if (a) bar.append(h("button", { id: "btn-remove", class: "primary", dataset: { action: a.text }, text: "Move to the reserve board", onclick: () => choose(a.text, describeAction(a.text)) }));
    } else if (!sel || sel.kind !== "module") {
      box.append(h("p", { text: pending.actions > 0 ? "Exact payment! Take another action, or end your turn." : "Your turn: take money (pick face-up cards), buy a tile (pick a market square), or redesign your Alhambra (pick a reserve or Alhambra tile)." }));
    }
    box.append(...moduleNodes);
    const end = acts.find((a) => a.type === "end");
    if (end) bar.append(h("button", { id: "btn-end", class: "primary", dataset: { action: end.text }, text: "End turn", onclick: () => send(end.text) }));
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
  if (pass) bar.append(h("button", { id: "btn-pass", class: "secondary pass-button", dataset: { action: pass.text }, text: "Pass", onclick: () => choose(pass.text, "Pass") }));
  // module actions no plug-in took care of: a button each, named by describeAction
  const others = acts.filter((a) => a.type === "other" && !controls.handled.has(a.text));
  if (others.length) {
    box.append(h("div", { class: "other-moves", role: "group", "aria-label": "Other moves" }, ...others.map((a) => {
      const label = describeAction(a.text);
      return h("button", { class: "secondary small other-move", dataset: { action: a.text }, text: label, onclick: () => choose(a.text, label) });
    })));
  }
  const hint = hintButton(T.msg.table, T.token, T.msg.version, {
    show: (a) => showHinted(a, controls),
    owner: (a) => controls.owners.get(a) || null,
    squares: (a) => offeredSquares(controls, a).map((o) => o.square),
    cards: (a) => [...controls.cards.values()].filter((o) => Array.isArray(o.actions) && o.actions.includes(a)).map((o) => o.slot),
  });
  if (hint) bar.append(hint);
  if (sel) bar.append(h("button", { id: "btn-clear", class: "secondary", text: "Clear selection", onclick: () => { T.sel = null; T.placeCleared = true; render(); } }));
  if (bar.children.length) box.append(bar);
  return box;
}

/** The market squares a plug-in offers (`controls.squares`) that lead to the module's move
 * `action` (the square's `actions`). */
function offeredSquares(controls, action) {
  return [...controls.squares.values()].filter((o) => Array.isArray(o.actions) && o.actions.includes(action));
}

/** Select on the table what the hinted move `action` needs (its waiting or reserve tile, the
 * face-up cards to take, the payment for a square, a plug-in's square: `controls`), so that
 * its spot, its exchange target and its buttons are drawn for the hint to mark (hint.js);
 * other moves clear the selection. */
function showHinted(action, controls) {
  if (!T.msg || !T.msg.view.legal_actions.includes(action)) return;
  const a = parseAction(action);
  T.staged = null;
  T.sel = null;
  if (a.type === "place" || a.type === "turn") {
    T.sel = { kind: "place", tile: a.tile };
    T.placeCleared = false;
  } else if (a.type === "rbuild" || a.type === "rexchange") T.sel = { kind: "rbuild", tile: a.tile };
  else if (a.type === "rremove") T.sel = { kind: "rremove", tile: a.tile };
  else if (a.type === "take") {
    const cards = [];
    for (const c of a.cards) {
      const i = T.msg.view.display.findIndex((x, k) => x === c && !cards.includes(k));
      if (i >= 0) cards.push(i);
    }
    if (cards.length) T.sel = { kind: "take", cards };
  } else if (a.type === "buy") {
    startPayment(null, { square: a.square });
    Object.assign(T.sel, pickIndices(a.cards));
  } else if (a.type === "other") {
    // a module's move offered on a market square: pick the square, then the move's payment
    const [offer] = offeredSquares(controls, action);
    if (offer) {
      offer.pick();
      const option = T.sel && T.sel.kind === "pay" ? T.sel.options.find((o) => o.action === action) : null;
      if (option) Object.assign(T.sel, pickIndices(option.cards));
    }
  }
  render();
}

// ----- turning a tile over (two-sided tiles: Granada)
/** The selection owner of a turn-over payment (never a module id: those have no colon). */
const TURN_OVER = "core:turn";

/** The tiles shown on the face they were turned to (view.turned). */
function turnedTiles(v) {
  return new Set(v.turned || []);
}

/** The offer to build the waiting tile `tile` turned over: the other face and the price. */
function turnOffer(tile, turns) {
  const cost = T.catalogue && Number.isFinite(T.catalogue.turn_over_cost) ? T.catalogue.turn_over_cost : 3;
  const back = T.catalogue && T.catalogue.tiles && T.catalogue.tiles[tile] ? T.catalogue.tiles[tile].back : null;
  return h("div", { class: "turn-offer", role: "group", "aria-label": "Turn the tile over" },
    back ? tileArt(back, 46, { turned: true }) : null,
    h("p", {}, h("strong", { text: "Or turn it over: " }), `build ${backName(tile)} instead, for ${cost} of one currency (cards of one currency worth at least ${cost}; no change).`),
    h("button", {
      type: "button", id: "btn-turn", class: "secondary", dataset: { tile },
      "aria-label": `Turn ${tileName(tile)} over to ${backName(tile)} for ${cost}`,
      text: `Turn over (${cost})`, onclick: () => startTurnOver(tile, turns, cost),
    }));
}

/** Choose the cards that pay for turning `tile` over (the legal turn actions are the ways to pay). */
function startTurnOver(tile, turns, cost) {
  const options = turns.map((a) => ({ cards: a.cards, action: a.text }));
  T.sel = {
    kind: "pay", owner: TURN_OVER, square: null, tile,
    item: { label: `turning ${tileName(tile)} over`, price: cost, currency: null, code: tile },
    options, title: `Turn ${tileName(tile)} over to ${backName(tile)}`,
    note: `Pick cards of one currency worth at least ${cost} from your hand, or a way to pay below (no change is given); then build ${backName(tile)} in your Alhambra.`,
    confirm: "Pay and turn over", cards: [], sources: [],
  };
  if (options.length === 1) Object.assign(T.sel, pickIndices(options[0].cards));
  T.staged = null;
  render();
}

function renderTake(v, sel, acts, bar) {
  const codes = sel.cards.map((i) => v.display[i]);
  const match = acts.find((a) => a.type === "take" && sameMultiset(a.cards, codes));
  const total = cardsValue(codes);
  const names = codes.map(cardName).join(" + ");
  const wrap = h("div", {}, h("p", { text: `Take ${names}${total ? ` (${total})` : ""}. One card of any value, or several cards worth 5 at most together.` }));
  if (match) {
    const final = T.msg.final_actions.includes(match.text);
    // the button says what happens: it is the one confirmation (no second "End turn")
    bar.append(h("button", { id: "btn-take", class: "primary", dataset: { action: match.text }, text: final ? "Take and end turn" : "Take", onclick: () => send(match.text) }));
  } else {
    wrap.append(h("p", { class: "muted", text: "These cards cannot be taken together." }));
  }
  return wrap;
}

// ----- Alhambras
const CELL = 100;

/** What changed in the last turn (and in the turn under way): places built ("seat:x,y"),
 * market squares and display slots refilled. */
function recentChanges() {
  if (T.recent && T.recent.events === T.events) return T.recent;
  const starts = [];
  T.events.forEach((e, i) => { if (e.type === "TurnStarted") starts.push(i); });
  const from = starts.length >= 2 ? starts[starts.length - 2] : 0;
  const out = { events: T.events, built: new Set(), squares: new Set(), slots: new Set() };
  for (const e of T.events.slice(from)) {
    if (e.type === "BuildingPlaced" && Array.isArray(e.target)) out.built.add(`${e.seat}:${e.target[0]},${e.target[1]}`);
    else if (e.type === "AlhambraRedesigned" && e.how !== "remove") out.built.add(`${e.seat}:${e.x},${e.y}`);
    else if (e.type === "MarketRefilled") for (const q of e.squares) out.squares.add(q);
    else if (e.type === "DisplayRefilled") for (const q of e.slots) out.slots.add(q);
  }
  T.recent = out;
  return out;
}

function renderCities(v) {
  const seat = me();
  const order = v.seats.map((s) => s.seat);
  if (seat !== null) order.sort((a, b) => (a === seat ? -1 : b === seat ? 1 : a - b));
  const wrap = h("div", { class: `cities ${seat === null ? "spectating" : ""}`, style: `--others:${Math.max(1, order.length - (seat !== null ? 1 : 0) + (v.neutral ? 1 : 0))}` });
  for (const s of order) wrap.appendChild(renderCity(v, v.seats[s], s === seat));
  wrap.appendChild(h("button", {
    type: "button", id: "btn-boards", class: "secondary small boards-button", text: "Every Alhambra at a glance",
    title: "All the Alhambras side by side, large", onclick: () => { T.modal = { kind: "boards" }; render(); },
  }));
  if (v.neutral) {
    wrap.appendChild(h("div", { class: "panel city neutral" }, h("h3", { text: `Dirk (neutral) · ${v.neutral.score} points` }),
      h("div", { class: "reserve-tiles" }, ...v.neutral.tiles.map((t) => tileArt(t, 34)))));
  }
  return wrap;
}

function renderCity(v, s, mine) {
  const recent = recentChanges();
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
  const turned = turnedTiles(v);
  for (const c of s.alhambra) {
    const g = tileNode(c.tile, c.x * CELL, c.y * CELL, CELL, { turned: turned.has(c.tile) });
    g.setAttribute("data-tile", c.tile);
    g.setAttribute("data-x", c.x);
    g.setAttribute("data-y", c.y);
    arrival(g, `city:${s.seat}:${c.x},${c.y}:${c.tile}`);
    const ex = exchange.find((a) => a.other === c.tile);
    const fresh = recent.built.has(`${s.seat}:${c.x},${c.y}`);
    const title = svgEl("title");
    title.textContent = `${tileName(c.tile)}, ${placeText(c.x, c.y)}${turned.has(c.tile) ? " (built turned over)" : ""}${fresh ? " (new this turn)" : ""}`;
    g.appendChild(title);
    if (fresh) {
      g.classList.add("recent");
      g.appendChild(svgEl("rect", { x: 3, y: 3, width: 94, height: 94, rx: 7, fill: "none", stroke: "#ffd400", "stroke-width": 6, class: "recent-mark" }));
      g.appendChild(svgEl("circle", { cx: 84, cy: 16, r: 9, fill: "#ffd400", stroke: "#3a2614", "stroke-width": 2, class: "recent-mark" }));
    }
    if (ex) {
      g.classList.add("exchange-target");
      g.setAttribute("data-action", ex.text);
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
      if (!canBuild) {
        // my redesign turn, yet this tile has no place: say why instead of a silent picture
        const redesigning = mine && acts.some((a) => a.type === "rbuild" || a.type === "rexchange" || a.type === "rremove" || a.type === "take");
        if (!redesigning) return tileArt(t, 40);
        const why = `${tileName(t)} cannot be built now: no free place of your Alhambra fits its ${wallName()}s, and no building can be exchanged for it.`;
        return h("button", {
          class: "reserve-tile blocked", dataset: { tile: t }, "aria-disabled": "true", title: why, "aria-label": why,
          onclick: () => notify(why),
        }, tileArt(t, 40));
      }
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
    h("h3", { title: `${seatName(s.seat)}: ${s.score} points, longest ${wallName()} ${s.longest_wall}` }, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s.seat]}` }),
      h("span", { class: "city-name", text: seatName(s.seat) }), h("span", { class: "city-meta", text: `${s.score} points · ${wallName()} ${s.longest_wall}` }), seatBadges(s.seat)),
    h("div", { class: "city-frame", style: `--rows:${Math.min(8, Math.round(fit.h / CELL))}` }, svg, tools), reserve);
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
/** Where a place of an Alhambra lies, in words: "2 north and 1 east of the fountain". */
function placeText(x, y) {
  if (x === 0 && y === 0) return "on the fountain";
  const parts = [];
  if (y) parts.push(`${Math.abs(y)} ${y < 0 ? "north" : "south"}`);
  if (x) parts.push(`${Math.abs(x)} ${x > 0 ? "east" : "west"}`);
  return `${parts.join(" and ")} of the fountain`;
}

const cardsText = (cards) => (cards && cards.length ? cards.map(cardName).join(" + ") : "nothing");

/** Any card or tile code of the catalogue inside an engine text, named in words. */
function codeWords(text) {
  const cat = T.catalogue || {};
  return String(text).replace(/\b[A-Za-z][A-Za-z0-9]*\b/g, (code) => {
    if (tokenOwner(code) || (cat.cards && Object.hasOwn(cat.cards, code))) return cardName(code);
    if (cat.tiles && Object.hasOwn(cat.tiles, code)) return tileName(code);
    return code;
  });
}

/** A sentence for each event of the core (the log never shows notation); null for others. */
function coreEventText(e) {
  const who = (s) => seatName(s);
  const squareText = (sq) => {
    const m = T.msg ? T.msg.view.market[sq - 1] : null;
    return m ? `the ${CURRENCY_NAMES[m.currency]} square` : `square ${sq}`;
  };
  switch (e.type) {
    case "GameStarted": return `A game of ${e.players} players begins; ${who(e.starting_player)} starts.`;
    case "MoneyTaken": return `${who(e.seat)} takes ${cardsText(e.cards)}.`;
    case "ItemBought": return `${who(e.seat)} buys ${codeWords(e.label || e.item)} for ${cardsText(e.payment)}${e.exact ? " (exact payment: another action)" : ""}.`;
    case "Passed": return `${who(e.seat)} passes.`;
    case "BuildingBought": return `${who(e.seat)} buys ${tileName(e.tile)} from ${squareText(e.square)} for ${cardsText(e.payment)}${e.exact ? " (exact payment: another action)" : " (overpaid)"}.`;
    case "BuildingPlaced": {
      const t = e.target;
      if (Array.isArray(t)) return `${who(e.seat)} builds ${tileName(e.tile)} ${placeText(t[0], t[1])}.`;
      return t === "neutral" ? `${who(e.seat)} gives ${tileName(e.tile)} to Dirk.` : `${who(e.seat)} puts ${tileName(e.tile)} on the reserve board.`;
    }
    case "AlhambraRedesigned":
      if (e.how === "build") return `${who(e.seat)} builds ${tileName(e.tile)} from the reserve ${placeText(e.x, e.y)}.`;
      if (e.how === "remove") return `${who(e.seat)} moves ${tileName(e.tile)} (${placeText(e.x, e.y)}) to the reserve board.`;
      return `${who(e.seat)} exchanges ${tileName(e.other)} (${placeText(e.x, e.y)}) for ${tileName(e.tile)} from the reserve.`;
    case "TurnEnded": return `${who(e.seat)} ends the turn.`;
    case "TileTurnedOver": return `${who(e.seat)} pays ${cardsText(e.payment)} to turn ${tileName(e.tile)} over: it is built as ${tileName(e.face)}.`;
    case "MarkerSwitched": return `The market is fully restocked: the black marker turns to the ${e.face} side (new tiles show their ${e.face === "odd" ? "backs, odd prices" : "fronts, even prices"}).`;
    case "DisplayRefilled": return `New money is laid out: ${cardsText(e.cards)}.`;
    case "MarketRefilled": return `New tiles in the market: ${e.tiles.map((t, i) => `${tileName(t)} on ${squareText(e.squares[i])}`).join("; ")}.`;
    case "DeckReshuffled": return `The discards are shuffled into a new draw pile of ${e.cards} cards.`;
    case "ScoringCardDrawn": return `Scoring card ${e.round} comes up: a scoring round follows this turn.`;
    case "NeutralTilesReceived": return e.tiles.length ? `Dirk receives ${e.tiles.map(tileName).join(", ")}.` : "Dirk receives nothing.";
    case "RoundScored": return `Scoring round ${e.round}: ${e.points.map((p, s) => `${who(s)} ${signed(p)}`).join(", ")}${roundHasDirk(e) ? `, Dirk ${signed(e.neutral_points)}` : ""}.`;
    case "MarketTileAwarded": {
      const m = T.msg ? T.msg.view.market[e.square - 1] : null;
      return `At the end, ${who(e.seat)} receives ${tileName(e.tile)} from ${squareText(e.square)}${m ? ` (the most ${CURRENCY_NAMES[m.currency]})` : ""}.`;
    }
    case "GameEnded": {
      const w = e.winners.map(who).join(" and ");
      return `${e.outcome === "finished" ? "The game is over" : "The game stopped at the turn limit"}: ${e.winners.length > 1 ? `shared win for ${w}` : `${w} wins`}.`;
    }
    default: return null;
  }
}

function renderLog() {
  const items = [];
  for (const e of T.events) {
    if (e.type === "TurnStarted") items.push(h("li", { class: "turn-head", text: `Turn ${e.turn} · ${seatName(e.seat)}` }));
    else if (e.type === "TurnEnded") continue;
    else {
      items.push(h("li", { class: e.type === "RoundScored" || e.type === "GameEnded" ? "highlight" : "" }, describeEvent(e),
        SETTINGS.notation && e.text ? h("code", { class: "notation", text: ` ${e.text}` }) : null));
    }
  }
  return h("div", { class: "panel log" }, h("h2", { text: "Game log" }), h("ul", { id: "log-list", class: "log-list", "aria-live": "polite", tabindex: "0", "aria-label": "Game log" }, ...items));
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

/** Points with their sign: "+5", "-3" (modules may take points away). */
const signed = (p) => (p < 0 ? `${p}` : `+${p}`);

/** The players' scores after scoring round `e` and what modules did right after it (an
 * invasion): the view's score history, else the round's own totals. */
function scoresAfter(e) {
  const history = T.msg && T.msg.view && T.msg.view.score_history;
  const after = Array.isArray(history) ? history[e.round - 1] : null;
  return Array.isArray(after) && after.length === e.scores.length ? after : e.scores;
}

/** What a player gained in scoring round `e`, modules' adjustments right after it included. */
const roundGain = (e, s) => e.points[s] + scoresAfter(e)[s] - e.scores[s];

/** True when a scoring round scored the neutral player too (its counts have one more entry). */
const roundHasDirk = (e) => Object.values(e.counts).some((c) => c.length > e.points.length);

const ordinal = (n) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;

/** A scoring round as a narrow table: one row per building kind (count, place, points), the
 * wall (Granada: moat), the modules' points, the round and the total; one column per player
 * (and Dirk). In Granada a kind's row names T, the buildings of the kind in all cities, and a
 * cell its award (3T, 2T, T by place). It reads without a sideways scroll in the side panel,
 * the end screen and on a phone. */
function roundTable(e) {
  const n = e.points.length;
  // the game's kinds in its order, then any other kind the round scored
  const base = gameKinds();
  const kinds = [...base.filter((k) => Object.hasOwn(e.counts, k)), ...Object.keys(e.counts).filter((k) => !base.includes(k))];
  const seats = [...Array(n).keys()];
  if (roundHasDirk(e)) seats.push(n);
  const isDirk = (s) => s === n;
  const multiples = Boolean(T.catalogue) && T.catalogue.scoring === "multiples_of_total";
  const wall = wallName();
  const extra = scoringColumns(e);
  const head = h("tr", {}, h("th", { scope: "col", class: "rt-corner", text: "" }),
    ...seats.map((s) => h("th", { scope: "col", class: "rt-seat", title: isDirk(s) ? "Dirk (neutral)" : seatName(s) },
      h("span", { class: "swatch", style: `background:${isDirk(s) ? "#999" : SEAT_COLORS[s]}` }), h("span", { class: "rt-name", text: isDirk(s) ? "Dirk" : seatName(s) }))));
  const rows = kinds.map((k) => {
    const counts = e.counts[k];
    const total = seats.reduce((t, s) => t + (counts[s] || 0), 0);
    const name = KIND_NAMES[k] || k.charAt(0).toUpperCase() + k.slice(1);
    const kindHead = h("th", { scope: "row", class: "rt-kind" }, h("span", { class: "kind-chip", style: `background:${ART.KIND_COLORS[k] || "#b0a48a"}` }), name,
      multiples ? h("span", { class: "rt-total-t", title: `T = ${total}: the buildings of this kind in all cities`, text: ` T=${total}` }) : null);
    return h("tr", { dataset: { kind: k } }, kindHead,
      ...seats.map((s) => {
        const c = counts[s] || 0;
        const pts = (e.kinds[k] || [])[s] || 0;
        let place;
        let tied;
        let title;
        if (multiples) {
          // no shared places: the award says the place (round r: r*T for the 1st ... T for the r-th)
          const times = total ? pts / total : 0;
          place = pts > 0 ? e.round + 1 - times : 0;
          tied = false;
          const award = pts > 0 ? `${times === 1 ? "" : times}T = ${pts} points` : "no award";
          title = c === 0 ? "none built" : `${c} built${place ? `, ${ordinal(place)} place` : ""}: ${award}`;
        } else {
          place = c > 0 ? 1 + seats.filter((o) => (counts[o] || 0) > c).length : 0;
          tied = c > 0 && seats.filter((o) => o !== s && (counts[o] || 0) === c).length > 0;
          title = c === 0 ? "none built" : `${c} built, ${ordinal(place)} place${tied ? " (tied)" : ""}: ${pts} points`;
        }
        return h("td", { class: pts ? "scored" : "", title, "aria-label": `${isDirk(s) ? "Dirk" : seatName(s)}, ${name}: ${title}` },
          h("span", { class: "rt-count", text: String(c) }),
          c > 0 && place > 0 ? h("span", { class: "rt-place", text: `${ordinal(place)}${tied ? "=" : ""}` }) : null,
          pts ? h("span", { class: "rt-points", text: `+${pts}` }) : null,
          multiples && pts ? h("span", { class: "rt-award", text: `${pts / total === 1 ? "" : pts / total}T` }) : null);
      }));
  });
  rows.push(h("tr", { class: "rt-wall" }, h("th", { scope: "row", text: `Longest ${wall}` }),
    ...seats.map((s) => h("td", { text: isDirk(s) ? "" : `+${e.walls[s]}`, title: isDirk(s) ? "" : `a ${wall} of ${e.walls[s]} sides: ${e.walls[s]} points` }))));
  for (const c of extra) {
    rows.push(h("tr", { class: "rt-module" }, h("th", { scope: "row", title: c.title, dataset: { module: c.module }, text: c.label }),
      ...seats.map((s) => h("td", { dataset: { module: c.module }, text: c.values[s] === undefined || c.values[s] === null ? "" : String(c.values[s]) }))));
  }
  rows.push(h("tr", { class: "rt-round" }, h("th", { scope: "row", text: "This round" }),
    ...seats.map((s) => h("td", { text: signed(isDirk(s) ? e.neutral_points : roundGain(e, s)) }))));
  const after = scoresAfter(e);
  rows.push(h("tr", { class: "rt-total" }, h("th", { scope: "row", text: "Total" }),
    ...seats.map((s) => h("td", {}, h("strong", { text: String(isDirk(s) ? e.neutral_score : after[s]) })))));
  const caption = multiples
    ? `Scoring round ${e.round}: buildings built per kind; T is the kind's buildings in all cities, and the places get ${[...Array(e.round).keys()].map((i) => `${e.round - i === 1 ? "" : e.round - i}T`).join(", ")} (ties go to the dearer building); then the longest ${wall}`
    : `Scoring round ${e.round}: buildings built, place and points per kind (a shaded cell scored), then the longest ${wall}`;
  return h("table", { class: `round-table ${multiples ? "multiples" : ""}`, dataset: { round: e.round } },
    h("caption", { text: caption }),
    h("thead", {}, head), h("tbody", {}, ...rows));
}

function renderRounds() {
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (!rounds.length) return null;
  return h("div", { class: "panel rounds" }, h("h2", { text: "Scoring rounds" }),
    ...rounds.map((e) => h("details", { dataset: { round: e.round } }, h("summary", { dataset: { key: `round-${e.round}` }, text: `Round ${e.round}: ${e.points.map((p, s) => `${seatName(s)} ${signed(roundGain(e, s))}`).join(", ")}${roundHasDirk(e) ? `, Dirk ${signed(e.neutral_points)}` : ""}` }), roundTable(e))));
}

/** The final hand-out: each market tile given away at the end (to whom, and why) and each tile
 * that stayed (nobody held its currency, or a tie), from the events and the revealed money. */
function handOut(v) {
  const awarded = T.events.filter((e) => e.type === "MarketTileAwarded");
  const money = v.final_money || null;
  const items = awarded.map((e) => {
    const sq = v.market[e.square - 1];
    const cur = sq ? sq.currency : null;
    const amount = money && cur ? ` (${money[e.seat][cur]} ${CURRENCY_NAMES[cur]})` : "";
    return h("li", { class: "awarded" }, tileArt(e.tile, 30),
      ` ${tileName(e.tile)} from the ${cur ? CURRENCY_NAMES[cur] : ""} square went to ${seatName(e.seat)}: the most ${cur ? CURRENCY_NAMES[cur] : "money"}${amount}.`);
  });
  for (const sq of v.market) {
    if (!sq.tile) continue;
    const cur = sq.currency;
    let why = "";
    if (money) {
      const amounts = money.map((m) => m[cur] || 0);
      const best = Math.max(...amounts);
      const top = amounts.map((a, s) => [a, s]).filter(([a]) => a === best).map(([, s]) => seatName(s));
      why = best === 0 ? `nobody held any ${CURRENCY_NAMES[cur]}` : `a tie: ${top.join(" and ")} each held ${best} ${CURRENCY_NAMES[cur]}`;
    }
    items.push(h("li", { class: "stayed" }, tileArt(sq.tile, 30), ` ${tileName(sq.tile)} stayed on the ${CURRENCY_NAMES[cur]} square${why ? `: ${why}` : ""}.`));
  }
  if (!items.length) return h("p", { class: "muted hand-out", text: "The market was empty at the end: no tiles were handed out." });
  return h("ul", { class: "hand-out" }, ...items);
}

function progressChart(history, n) {
  const W = 420, H = 220, L = 40, B = 30;
  const series = [...Array(n).keys()].map((s) => ({ color: SEAT_COLORS[s], pts: [0, ...history.map((r) => r[s])], seat: s }));
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (rounds.length && roundHasDirk(rounds[0])) {
    series.push({ color: "#999", pts: [0, ...rounds.map((e) => e.neutral_score)], seat: -1, dash: "6 4" });
  }
  const max = Math.max(10, ...series.flatMap((x) => x.pts));
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
  for (const { color, pts, seat, dash } of series) {
    const d = pts.map((v, i) => `${i ? "L" : "M"}${xs(i)} ${ys(v)}`).join(" ");
    svg.appendChild(svgEl("path", { d, fill: "none", stroke: color, "stroke-width": 3, "stroke-dasharray": dash, "data-seat": seat }));
    pts.forEach((v, i) => svg.appendChild(svgEl("circle", { cx: xs(i), cy: ys(v), r: 4, fill: color })));
  }
  return svg;
}

/** The end screen: the winner, the ranking (Dirk too), the last round's breakdown (the round
 * the end screen would otherwise hide), the final hand-out, every round on demand, the chart. */
function summaryBody(v) {
  const n = v.players;
  const ended = T.events.find((e) => e.type === "GameEnded");
  const winners = ended ? ended.winners : [];
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  const shown = T.modal.round !== undefined ? T.modal.round : rounds.length - 1;
  // Dirk is ranked by his points among the players (he cannot win: the winners are the players')
  const score = (s) => (s < 0 ? v.neutral.score : v.seats[s].score);
  const ranking = [...Array(n).keys(), ...(v.neutral ? [-1] : [])].sort((a, b) => score(b) - score(a) || (a < 0) - (b < 0));
  const tabs = rounds.length ? h("div", { class: "round-tabs", role: "group", "aria-label": "Show a scoring round" },
    ...rounds.map((e, i) => h("button", {
      type: "button", class: `small ${i === shown ? "primary" : "secondary"}`, "aria-pressed": i === shown ? "true" : "false",
      dataset: { key: `summary-round-${e.round}` }, text: `Round ${e.round}`,
      onclick: () => { T.modal = { ...T.modal, round: i }; render(); },
    }))) : null;
  return h("div", { class: "summary" },
    h("p", { class: "winner", text: winners.length > 1 ? `Shared win: ${winners.map(seatName).join(" and ")}` : `${seatName(winners[0])} wins!` }),
    h("ol", { class: "ranking" }, ...ranking.map((s) => (s < 0
      ? h("li", { class: "muted neutral", dataset: { seat: -1 } }, h("span", { class: "swatch", style: "background:#999" }), `Dirk (neutral) — ${v.neutral.score} points`)
      : h("li", { dataset: { seat: s } }, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), `${seatName(s)} — ${v.seats[s].score} points`)))),
    h("div", { class: "summary-cols" },
      h("section", { class: "summary-round", "aria-label": "Scoring round breakdown" },
        h("h3", { text: shown === rounds.length - 1 ? `The last scoring round (round ${rounds.length ? rounds[shown].round : 3})` : `Scoring round ${rounds[shown].round}` }),
        tabs,
        rounds.length ? roundTable(rounds[shown]) : h("p", { class: "muted", text: "No scoring round was played." })),
      h("section", { class: "summary-side" },
        h("h3", { text: "Market tiles handed out at the end" }), handOut(v),
        h("h3", { text: "Score progression" }),
        progressChart(v.score_history, n),
        h("div", { class: "legend" }, ...[...Array(n).keys()].map((s) => h("span", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), seatName(s))),
          v.neutral ? h("span", {}, h("span", { class: "swatch", style: "background:#999" }), "Dirk") : null))));
}

/** The end's ways on: "Play again" (a player: the same seats and bots, a fresh deal; "Join the
 * rematch" once another player asked), "Watch the rematch" (a spectator), "Back to the lobby". */
function rematchButtons(inDialog) {
  const next = T.msg.table.rematch;
  const out = [];
  const sfx = inDialog ? "" : "-panel";
  if (me() !== null) {
    out.push(h("button", {
      id: `btn-rematch${sfx}`, class: inDialog ? "primary" : "secondary", dataset: { rematch: next || "" },
      text: next ? "Join the rematch" : "Play again",
      title: "A new game at a new table: the same players in the same seats, the same bots and modules",
      onclick: playAgain,
    }));
  } else if (next) {
    out.push(h("a", { id: `btn-watch-rematch${sfx}`, class: "button secondary", href: `/table/${next}`, text: "Watch the rematch" }));
  }
  out.push(h("a", { id: `btn-lobby${sfx}`, class: "button secondary", href: "/", text: "Back to the lobby" }));
  return out;
}

/** Ask for the rematch (created by the first player who asks) and go to my seat there. */
async function playAgain() {
  try {
    const res = await api("POST", `/api/tables/${T.id}/rematch`, undefined, T.token);
    location.assign(`/table/${res.table.id}#seat=${res.token}`);
  } catch (e) {
    notify(e.message, true);
  }
}

/** Every player's Alhambra (and Dirk's tiles) side by side, each fitted whole and large. */
function boardsOverview(v) {
  const turned = turnedTiles(v);
  const boards = v.seats.map((s) => {
    const xs = s.alhambra.map((c) => c.x), ys = s.alhambra.map((c) => c.y);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    const w = (Math.max(...xs) - minX + 1) * CELL, hh = (Math.max(...ys) - minY + 1) * CELL;
    const svg = svgEl("svg", { class: "overview-svg", viewBox: `${minX * CELL - 10} ${minY * CELL - 10} ${w + 20} ${hh + 20}`, role: "img", "aria-label": `Alhambra of ${seatName(s.seat)}: ${s.alhambra.length} tiles` });
    for (const c of s.alhambra) svg.appendChild(tileNode(c.tile, c.x * CELL, c.y * CELL, CELL, { turned: turned.has(c.tile) }));
    return h("section", { class: "overview-board", dataset: { seat: s.seat } },
      h("h3", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s.seat]}` }), h("span", { class: "city-name", text: seatName(s.seat) }),
        h("span", { class: "city-meta", text: `${s.score} points · ${wallName()} ${s.longest_wall} · reserve ${s.reserve.length}` })),
      svg);
  });
  if (v.neutral) boards.push(h("section", { class: "overview-board neutral" }, h("h3", { text: `Dirk (neutral) · ${v.neutral.score} points` }),
    h("div", { class: "reserve-tiles" }, ...v.neutral.tiles.map((t) => tileArt(t, 34)))));
  return h("div", { class: "overview", style: `--boards:${Math.min(3, v.seats.length)}` }, ...boards);
}

function renderModal() {
  const close = () => { T.modal = null; render(); };
  let body;
  let title;
  if (T.modal.kind === "round") {
    title = `Scoring round ${T.modal.round.round}`;
    body = roundTable(T.modal.round);
  } else if (T.modal.kind === "boards") {
    title = "Every Alhambra";
    body = boardsOverview(T.msg.view);
  } else {
    title = "Game over";
    body = summaryBody(T.msg.view);
  }
  const summary = T.modal.kind === "summary";
  const boards = T.modal.kind === "boards";
  const id = summary ? "summary-modal" : boards ? "boards-modal" : "round-modal";
  return h("div", { class: "modal-back", onclick: (ev) => { if (ev.target === ev.currentTarget) close(); } },
    h("div", { class: `modal ${summary || boards ? "modal-wide" : ""}`, role: "dialog", "aria-modal": "true", "aria-labelledby": "modal-title", id },
      h("h2", { id: "modal-title", text: title }), body,
      h("div", { class: "button-row modal-buttons" },
        summary ? rematchButtons(true) : null,
        h("button", { id: "btn-close-modal", class: summary ? "secondary" : "primary", text: summary ? "Close and look at the table" : boards ? "Close" : "Continue", onclick: close, "data-autofocus": true }),
        summary ? h("button", { id: "btn-summary-replay", class: "secondary", text: "Watch the replay", onclick: () => location.assign(`/replay/${T.id}`) }) : null,
        summary ? h("a", { class: "button secondary", href: `/api/tables/${T.id}/record`, download: `alhambra-${T.id}.json`, text: "Download the game record" }) : null)));
}

start();
