// Module plug-ins: registration (window.Alhambra), the hooks the table asks, cards and tiles drawn and named (plug-ins first), actions parsed and described.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ------------------------------------------------------------------------------ module plug-ins
// A module may bring a front-end plug-in (src/alhambra/modules/<id>/ui/ui.js, served at
// /modules/<id>/ui/ui.js). The table loads the plug-ins of its configuration before drawing and
// asks them, through the hooks below, for panels, seat badges, controls for their actions, texts
// and art. The table never names a module: it only iterates over the loaded plug-ins.
// The API is documented in docs/writing-a-module.md ("Front-end plug-in").

import * as ART from "./art.js";
import { CURRENCY_NAMES, cardFacts, cardSVG, h, moneySourceSVG, svgEl, tileGroup, tileLabel, tileSVG } from "./art.js";
import { placeText } from "./core.js";
import { T, me } from "./state.js";

export const PLUGINS = new Map();
export const PLUGIN_HOOKS = ["panel", "summary", "seatBadges", "actionControls", "describeAction", "describeEvent", "cardArt", "tileArt", "cardName", "tileName", "scoring", "boardOverlay", "showHint"];
export const pluginFailures = new Set();

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
export async function loadPlugins(ids, infos) {
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

// The context a hook gets (context.js makes it; table.js wires it once with setPluginContext).
let contextOf = () => { throw new Error("the table has not wired the plug-in context (setPluginContext)"); };

/** Wire the function that makes the context a plug-in hook of module `id` gets. */
export function setPluginContext(fn) {
  contextOf = fn;
}

/** Call hook `name` of the plug-in of module `id` (undefined when it has none or it failed). */
export function callPlugin(id, name, ...args) {
  const p = PLUGINS.get(id);
  if (!p || typeof p[name] !== "function") return undefined;
  try {
    return p[name](contextOf(id), ...args);
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
export function askPlugins(name, ...args) {
  const out = [];
  for (const id of tableModules()) {
    const got = callPlugin(id, name, ...args);
    if (got !== undefined && got !== null) out.push([id, got]);
  }
  return out;
}

export function tableModules() {
  return T.msg ? T.msg.view.modules.filter((id) => PLUGINS.has(id)) : [];
}

/** The plug-in that draws a card or tile code: the module that brought it (catalogue). */
export function ownerOf(code, what) {
  const table = T.catalogue ? T.catalogue[what] : null;
  const facts = table && Object.hasOwn(table, code) ? table[code] : null;
  return facts && facts.module && PLUGINS.has(facts.module) ? facts.module : null;
}

export const isNode = (x) => x instanceof Node;

/** The module whose money held outside the hand (a coin, a credit...) is named `code` in
 * payments (catalogue.money_tokens), or null. */
export function tokenOwner(code) {
  const tokens = T.catalogue ? T.catalogue.money_tokens : null;
  return tokens && Object.hasOwn(tokens, code) ? tokens[code] : null;
}

/** What the view shows of money token `code`: a money source {token, currency, value, module}
 * of that token (the viewer's own first), or null when nobody holds one now. */
export function tokenFacts(code) {
  const v = T.msg ? T.msg.view : null;
  if (!v) return null;
  const seats = me() !== null ? [v.seats[me()], ...v.seats] : v.seats;
  for (const s of seats) for (const src of s.money_sources || []) if (src.token === code) return src;
  return null;
}

/** A card drawn `width` wide: money by art.js, module cards (and money held outside the hand,
 * named by a token) by their plug-in, a generic coin when a token's plug-in draws nothing. */
export function cardArt(code, width = 48) {
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
export function tileArt(code, size = 64, opts = {}) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileArt", code, size) : null;
  return isNode(got) ? got : tileSVG(code, T.catalogue, size, opts);
}

/** A tile inside an SVG (an Alhambra): a group at (x, y), `size` wide. */
export function tileNode(code, x, y, size, opts = {}) {
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
export function cardName(code) {
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
export function tileName(code) {
  const owner = ownerOf(code, "tiles");
  const got = owner ? callPlugin(owner, "tileName", code) : null;
  return typeof got === "string" ? got : tileLabel(code, T.catalogue);
}

/** Any card or tile code of the catalogue inside an engine text, named in words. */
export function codeWords(text) {
  const cat = T.catalogue || {};
  return String(text).replace(/\b[A-Za-z][A-Za-z0-9]*\b/g, (code) => {
    if (tokenOwner(code) || (cat.cards && Object.hasOwn(cat.cards, code))) return cardName(code);
    if (cat.tiles && Object.hasOwn(cat.tiles, code)) return tileName(code);
    return code;
  });
}

/** A human sentence for an action (plug-ins first), for confirmations and fallback buttons. */
export function describeAction(notation) {
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
export function backName(code) {
  const t = T.catalogue && T.catalogue.tiles ? T.catalogue.tiles[code] : null;
  return t && t.back ? tileName(t.back) : "its other side";
}

/** Small badges of a seat from every plug-in (vizier awake...). */
export function seatBadges(seat) {
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
export function boardOverlays(seat) {
  const out = [];
  for (const [id, got] of askPlugins("boardOverlay", seat)) {
    for (const it of Array.isArray(got) ? got : [got]) {
      if (it && typeof it === "object" && Number.isInteger(it.x) && Number.isInteger(it.y)) out.push({ ...it, owner: id });
    }
  }
  return out;
}

/** Up to this many module panels stand open; with more, each is folded to its title and a
 * one-line summary (a click opens it) except those offering the viewer a move now. */
export const OPEN_PANELS = 4;

/** A module's one-line summary: its plug-in's `summary` hook, else the panel's text, cut short. */
export function panelSummary(id, node) {
  const got = callPlugin(id, "summary");
  const text = typeof got === "string" && got.trim() ? got : (node.textContent || "");
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 90 ? `${line.slice(0, 88).trimEnd()}…` : line;
}

/** The module panels (state at a glance) for the right-hand column: each a `<details>` whose
 * summary is the module's title and a one-line summary. With few modules all stand open; with
 * more than OPEN_PANELS they are folded, except those of the modules whose controls offer the
 * viewer a move now (`controls.owners`), which come first, open. A player's own opening or
 * folding of a panel is kept (T.panelOpen) until the page is left. */
export function modulePanels(controls = null) {
  const got = askPlugins("panel").filter(([, node]) => isNode(node));
  const acting = new Set(controls ? controls.owners.values() : []);
  for (const [id] of controls ? controls.nodes : []) acting.add(id);
  const compact = got.length > OPEN_PANELS;
  T.panelOpen ||= {};
  const panels = got.map(([id, node]) => {
    const title = (T.moduleInfo[id] || {}).title || id;
    const own = T.panelOpen[id];
    const open = own !== undefined ? own : !compact || acting.has(id);
    const line = panelSummary(id, node);
    const box = h("details", { class: `panel module-panel ${acting.has(id) ? "acting" : ""}`, dataset: { module: id }, open },
      h("summary", {
        class: "module-panel-summary", title: line,
        onclick: (ev) => { T.panelOpen[id] = !ev.currentTarget.parentElement.open; },
      }, h("h2", { text: title }), h("span", { class: "module-summary-line", text: line })),
      node);
    return [acting.has(id), box];
  });
  // the panels offering a move first: visible without scrolling the column
  return [...panels.filter(([a]) => a), ...panels.filter(([a]) => !a)].map(([, box]) => box);
}

/** The plug-ins' controls for the module actions legal now: nodes, handled actions, market
 * squares, face-up cards of the display, reserve tiles a plug-in builds on the board once picked. */
export function moduleControls(v, myTurn) {
  const out = { nodes: [], handled: new Set(), owners: new Map(), squares: new Map(), cards: new Map(), tiles: new Set() };
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
    for (const t of got.tiles || []) if (typeof t === "string") out.tiles.add(t);
    for (const c of got.cards || []) {
      if (c && Number.isInteger(c.slot) && typeof c.pick === "function" && !out.cards.has(c.slot)) out.cards.set(c.slot, { ...c, owner: id });
    }
  }
  return out;
}

/** The legal action `notation` as the server sent it (`msg.actions`: {notation, keyword, args}
 * with args [{type, value}] from the declared grammar), or null. Plug-ins read it as
 * `ctx.move(notation)`; `argOf(move, type, nth)` picks one argument's value. */
export function actionData(notation) {
  const msg = T.msg;
  if (!msg || !Array.isArray(msg.actions)) return null;
  if (!msg.actionsByNotation) msg.actionsByNotation = new Map(msg.actions.map((a) => [a.notation, a]));
  return msg.actionsByNotation.get(notation) || null;
}

/** The value of the `nth` argument of type `type` of a structured action (undefined if none). */
export function argOf(move, type, nth = 0) {
  const got = move ? move.args.filter((a) => a.type === type)[nth] : undefined;
  return got ? got.value : undefined;
}

/** A structured action (see actionData) as the table presents it: {type, tile, cards, square,
 * target, x, y, other, keyword, args, text}; type "other" for a module's move. */
export function describeMove(d) {
  const arg = (t, i = 0) => argOf(d, t, i);
  const base = { keyword: d.keyword, args: d.args, text: d.notation };
  switch (d.keyword) {
    case "take": return { ...base, type: "take", cards: arg("cards") };
    case "buy": if (arg("square") !== undefined) return { ...base, type: "buy", square: arg("square"), cards: arg("cards") }; break;
    case "place": {
      const t = arg("target");
      return typeof t === "string" ? { ...base, type: "place", tile: arg("tile"), target: t } : { ...base, type: "place", tile: arg("tile"), target: "spot", x: t.x, y: t.y };
    }
    case "turn": return { ...base, type: "turn", tile: arg("tile"), cards: arg("cards") };
    case "redesign build": return { ...base, type: "rbuild", tile: arg("tile"), x: arg("cell").x, y: arg("cell").y };
    case "redesign remove": return { ...base, type: "rremove", tile: arg("tile") };
    case "redesign exchange": return { ...base, type: "rexchange", tile: arg("tile", 0), other: arg("tile", 1) };
    case "end": return { ...base, type: "end" };
    case "pass": return { ...base, type: "pass" };
    default: break;
  }
  return { ...base, type: "other" };
}

/** One action line as the table presents it (never a rule check): from the server's structured
 * data when it is a legal action now (the usual case), else read from the notation. */
export function parseAction(text) {
  const d = actionData(text);
  return d ? describeMove(d) : parseNotation(text);
}

function parseNotation(text) {
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

export const sameMultiset = (a, b) => a.length === b.length && [...a].sort().join("+") === [...b].sort().join("+");
