// Front-end plug-in of the Magical buildings (module magical_buildings).
// A magical building is drawn as a building of its colour with its price and its walls as they
// stand now (the view's `walls`, so a turned tile shows its turned walls), with a golden star and
// the orientation tile's arrow (pointing to the side that was north on the printed tile).
// It is built by clicks on the Alhambra, like a base tile: with the waiting (or reserve) magical
// building picked, a starred mark shows every place it may go (and every tile it may replace);
// a click builds it there, or, when it can be turned several ways there, chooses the place and
// the controls show one button per turn, each drawing the tile turned that way. The places are
// the server's structured legal actions (`ctx.move`), never worked out here.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "magical_buildings";
const LETTERS = { p: "pavilion", s: "seraglio", a: "arcades", c: "chambers", g: "garden", t: "tower" };
const HOW = { "magic place": "place", "magic build": "build", "magic exchange": "exchange" };
const SIDES = { n: "north", e: "east", s: "south", w: "west" };

function facts(ctx, code) {
  const m = /^X([psacgt])(\d+)$/.exec(code || "");
  if (!m) return null;
  const cat = ctx.catalogue || {};
  const now = cat.walls_now && cat.walls_now[code] !== undefined ? cat.walls_now[code] : null;
  const printed = cat.tiles && cat.tiles[code] ? cat.tiles[code].walls || "" : "";
  return { kind: LETTERS[m[1]], price: Number(m[2]), walls: now !== null ? now : printed, printed };
}

function kindName(ctx, kind) {
  return (ctx.art.KIND_NAMES && ctx.art.KIND_NAMES[kind]) || kind;
}

function wallWords(walls) {
  return [...walls].map((c) => SIDES[c]).join(", ");
}

function tileName(ctx, code) {
  const f = facts(ctx, code);
  return f ? `magical ${kindName(ctx, f.kind).toLowerCase()} ${f.price} (walls ${wallWords(f.walls)})` : null;
}

/** How far (quarter turns clockwise) the printed walls were turned to show `walls`. */
function quarterTurns(printed, walls) {
  const mask = (s) => [...s].reduce((m, c) => m | { n: 1, e: 2, s: 4, w: 8 }[c], 0);
  let m = mask(printed);
  const want = mask(walls);
  for (let q = 0; q < 4; q++) {
    if (m === want) return q;
    m = ((m << 1) | (m >> 3)) & 15;
  }
  return 0;
}

function drawTile(ctx, code, walls, size) {
  const f = facts(ctx, code);
  if (!f) return null;
  const { INK, CREAM, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const label = `magical ${kindName(ctx, f.kind).toLowerCase()} ${f.price} (walls ${wallWords(walls)})`;
  const s = svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": label, class: "magic-tile", "data-module": ID, "data-tile": code, "data-walls": walls });
  const g = svg("g", { class: `tile kind-${f.kind} magical` });
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: KIND_COLORS[f.kind] || "#b0a48a", stroke: "#b8860b", "stroke-width": 3 }));
  for (const el of ctx.art.tileWalls(walls, ctx.catalogue)) g.appendChild(el);
  // the golden star of a magical building
  const star = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 9 : 21;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    star.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(56 + r * Math.sin(a)).toFixed(1)}`);
  }
  g.appendChild(svg("polygon", { points: star.join(" "), fill: "#f3c844", stroke: INK, "stroke-width": 1.6, class: "magic-star" }));
  // the orientation tile: an arrow to where the printed north side points now
  const q = quarterTurns(f.printed, walls);
  g.appendChild(svg("path", { d: "M50 20 L57 31 H43 Z", fill: INK, transform: `rotate(${q * 90} 50 56)`, class: "magic-arrow" }));
  g.appendChild(svg("circle", { cx: 17, cy: 17, r: 11, fill: CREAM, stroke: INK, "stroke-width": 1.8 }));
  const t = svg("text", { x: 17, y: 22, "text-anchor": "middle", "font-size": 15, "font-weight": 700, fill: INK, "font-family": "sans-serif" });
  t.textContent = String(f.price);
  g.appendChild(t);
  s.appendChild(g);
  return s;
}

function tileArt(ctx, code, size = 64) {
  const f = facts(ctx, code);
  return f ? drawTile(ctx, code, f.walls, size) : null;
}

/** A magical buildings action as {how, tile, at, walls} (at: "x,y", or the tile exchanged), from
 * the server's structured action (`ctx.move`); null for anything else. */
function parse(ctx, notation) {
  const m = ctx.move ? ctx.move(notation) : null;
  const how = m ? HOW[m.keyword] : null;
  if (!how) return null;
  const tiles = m.args.filter((a) => a.type === "tile").map((a) => a.value);
  const cell = (m.args.find((a) => a.type === "cell") || {}).value;
  const walls = (m.args.find((a) => a.type.startsWith("word:")) || {}).value;
  return { how, tile: tiles[0], at: how === "exchange" ? tiles[1] : `${cell.x},${cell.y}`, cell, walls };
}

function describeAction(ctx, notation) {
  const p = parse(ctx, notation);
  if (!p) return null;
  const verb = p.how === "place" ? "Build" : p.how === "build" ? "Build from the reserve" : "Exchange";
  const at = p.how === "exchange" ? `for ${ctx.tileName(p.at)}` : ctx.placeText ? ctx.placeText(p.cell.x, p.cell.y) : `at ${p.at}`;
  return `${verb} the ${tileName(ctx, p.tile) || p.tile} ${at}, turned to show walls ${wallWords(p.walls)}`;
}

// ------------------------------------------------------------------------------ building by clicks
/** Where a magical buildings move builds: {key, x, y} (the place, or the Alhambra tile an
 * exchange replaces), or null when that tile is not in the viewer's Alhambra. */
function whereOf(ctx, p) {
  if (p.how !== "exchange") return { key: `${p.cell.x},${p.cell.y}`, x: p.cell.x, y: p.cell.y };
  const seat = ctx.view && ctx.me !== null ? ctx.view.seats[ctx.me] : null;
  const c = seat ? seat.alhambra.find((t) => t.tile === p.at) : null;
  return c ? { key: `${c.x},${c.y}`, x: c.x, y: c.y } : null;
}

/** Every magical buildings move legal now, read: [{action, how, tile, at, cell, walls, where}]. */
function magicMoves(ctx, actions) {
  const out = [];
  for (const a of actions || ctx.legal || []) {
    const p = parse(ctx, a);
    if (p) out.push({ ...p, action: a, where: whereOf(ctx, p) });
  }
  return out;
}

/** The magical building the viewer builds now and its moves: the one whose place was chosen
 * (the turn is still to choose), else the waiting or reserve tile picked in the table (a
 * waiting tile: `magic place`; a reserve tile: `magic build` / `magic exchange`), else, in a
 * decision that only redesigns (the Master Builder's, a master-builder card's), the only one. */
function building(ctx, moves) {
  const sel = ctx.selection;
  if (sel && sel.tile) {
    const list = moves.filter((m) => m.tile === sel.tile && m.how === sel.how);
    if (list.length) return { tile: sel.tile, list, chosen: sel.key || null };
  }
  const pk = ctx.picked;
  if (pk) {
    const list = moves.filter((m) => m.tile === pk.tile && (pk.kind === "place" ? m.how === "place" : m.how !== "place"));
    return list.length ? { tile: pk.tile, list, chosen: null } : null;
  }
  const type = ctx.view && ctx.view.pending ? ctx.view.pending.type : null;
  const tiles = [...new Set(moves.map((m) => m.tile))];
  if (type !== "ChooseAction" && type !== "PlaceTiles" && tiles.length === 1) return { tile: tiles[0], list: moves, chosen: null };
  return null;
}

/** The moves of `list` grouped by where they build: [{key, x, y, how, moves}]. */
function byPlace(list) {
  const out = new Map();
  for (const m of list) {
    if (!m.where) continue;
    if (!out.has(m.where.key)) out.set(m.where.key, { ...m.where, how: m.how, moves: [] });
    out.get(m.where.key).moves.push(m);
  }
  return [...out.values()];
}

function placeWords(ctx, place) {
  const m = place.moves[0];
  return m.how === "exchange" ? `in place of ${ctx.tileName(m.at)}` : ctx.placeText ? ctx.placeText(place.x, place.y) : `at ${place.key}`;
}

/** The mark of a place the magical building may go: a dashed golden square with a faded star
 * (an outline over the tile an exchange replaces); solid when it is the place chosen. */
function pickNode(ctx, exchange, chosen) {
  const svg = ctx.svg("svg", { viewBox: "0 0 100 100", class: `magic-pick-mark ${chosen ? "chosen" : ""}` });
  svg.appendChild(ctx.svg("rect", {
    x: 6, y: 6, width: 88, height: 88, rx: 10, fill: exchange ? "none" : "rgba(243,200,68,0.22)",
    stroke: "#b8860b", "stroke-width": chosen ? 7 : 5, "stroke-dasharray": chosen ? "none" : "12 8",
  }));
  const star = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 8 : 18;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    star.push(`${(50 + r * Math.cos(a)).toFixed(1)},${(52 + r * Math.sin(a)).toFixed(1)}`);
  }
  svg.appendChild(ctx.svg("polygon", { points: star.join(" "), fill: "#f3c844", stroke: ctx.art.INK, "stroke-width": 1.4, opacity: chosen ? "1" : "0.55" }));
  return svg;
}

/** On my turn, a starred mark on every place of my Alhambra where the magical building I build
 * now may go (and over every tile it may replace): a click builds it there (when it can be
 * turned only one way there), else chooses the place and the turn follows in the controls. */
function boardOverlay(ctx, seat) {
  if (seat !== ctx.me || !ctx.myTurn) return null;
  const b = building(ctx, magicMoves(ctx));
  if (!b) return null;
  return byPlace(b.list).map((place) => {
    const single = place.moves.length === 1 ? place.moves[0] : null;
    const name = tileName(ctx, b.tile) || ctx.tileName(b.tile);
    return {
      x: place.x, y: place.y, className: `magic-pick ${place.how === "exchange" ? "magic-exchange" : ""}`,
      node: pickNode(ctx, place.how === "exchange", b.chosen === place.key),
      action: single ? single.action : undefined,
      label: single ? describeAction(ctx, single.action) : `${place.how === "exchange" ? "Exchange" : "Build"} the ${name} ${placeWords(ctx, place)}: then choose how it is turned (${place.moves.length} ways)`,
      pick: () => {
        if (single) ctx.act(single.action, describeAction(ctx, single.action));
        else ctx.select({ tile: b.tile, how: place.how, key: place.key });
      },
    };
  });
}

function actionControls(ctx, actions) {
  const moves = magicMoves(ctx, actions);
  if (!moves.length) return null;
  const h = ctx.h;
  const parts = [];
  const b = building(ctx, moves);
  const place = b && b.chosen ? byPlace(b.list).find((p) => p.key === b.chosen) : null;
  if (place) {
    const name = tileName(ctx, b.tile) || ctx.tileName(b.tile);
    parts.push(h("p", { class: "magic-where", text: `How is the ${name} turned ${placeWords(ctx, place)}?` }));
    parts.push(h("div", { class: "magic-row", dataset: { key: place.key } }, ...place.moves.map((m) => h("button", {
      class: "secondary magic-turn", dataset: { walls: m.walls, action: m.action }, title: describeAction(ctx, m.action),
      "aria-label": describeAction(ctx, m.action), onclick: () => ctx.act(m.action, describeAction(ctx, m.action)),
    }, drawTile(ctx, m.tile, m.walls, 30), h("span", { class: "magic-walls", text: m.walls.toUpperCase() })))));
    parts.push(h("p", { class: "muted", text: "Or click another starred place on your Alhambra." }));
  } else if (b) {
    const n = byPlace(b.list).length;
    parts.push(h("p", { class: "magic-where", text: `Magical building: click ${n === 1 ? "the starred place" : `one of the ${n} starred places`} on your Alhambra for the ${tileName(ctx, b.tile) || ctx.tileName(b.tile)}; you choose how it is turned.` }));
  } else {
    const waiting = [...new Set(moves.filter((m) => m.how === "place").map((m) => m.tile))];
    const reserve = [...new Set(moves.filter((m) => m.how !== "place").map((m) => m.tile))];
    const names = (codes) => codes.map((c) => `the ${tileName(ctx, c) || ctx.tileName(c)}`).join(", ");
    if (waiting.length) parts.push(h("p", { class: "muted magic-where", text: `To build ${names(waiting)}, pick it among the tiles to place, then a starred place on your Alhambra.` }));
    if (reserve.length) parts.push(h("p", { class: "muted magic-where", text: `To build ${names(reserve)} from your reserve board (turned any way), pick it there, then a starred place on your Alhambra.` }));
  }
  const tiles = [...new Set(moves.filter((m) => m.how !== "place").map((m) => m.tile))];
  return { node: h("div", { class: "magic-controls" }, ...parts), handled: moves.map((m) => m.action), tiles };
}

/** A hint names one of these moves: select its building and place, so that the place's mark
 * and the turn buttons are drawn and the hint marks the one that makes the move. */
function showHint(ctx, action) {
  const m = magicMoves(ctx).find((x) => x.action === action);
  if (!m || !m.where) return null;
  ctx.select({ tile: m.tile, how: m.how, key: m.where.key });
  return true;
}

function describeEvent(ctx, e) {
  if (e.type === "MagicalBuildingTurned") return `${ctx.seatName(e.seat)} turns the ${tileName(ctx, e.tile) || e.tile} to show walls ${wallWords(e.walls)}`;
  return null;
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.tiles)) return null;
  const h = ctx.h;
  return h("div", { class: "magic-panel" },
    h("div", { class: "magic-tiles" }, ...st.tiles.map((t) => h("span", { class: "magic-item", title: tileName(ctx, t.tile) }, drawTile(ctx, t.tile, t.walls, 34)))),
    h("p", { class: "muted", text: "Turned freely whenever built into an Alhambra; they score as normal buildings." }));
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  if (!Array.isArray(st.tiles)) return null;
  const built = new Set();
  for (const s of (ctx.view && ctx.view.seats) || []) for (const c of s.alhambra) built.add(c.tile);
  return `${st.tiles.filter((t) => built.has(t.tile)).length} of ${st.tiles.length} built in an Alhambra; turned freely when built`;
}

window.Alhambra.registerModule(ID, { summary, panel, boardOverlay, actionControls, showHint, describeAction, describeEvent, tileArt, tileName });
