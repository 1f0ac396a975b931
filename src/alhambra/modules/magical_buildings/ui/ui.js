// Front-end plug-in of the Magical buildings (module magical_buildings).
// A magical building is drawn as a building of its colour with its price and its walls as they
// stand now (the view's `walls`, so a turned tile shows its turned walls), with a golden star and
// the orientation tile's arrow (pointing to the side that was north on the printed tile).
// Its controls: every way to build a waiting (or reserve) magical building, grouped by place,
// one button per turn showing the tile turned that way.
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

function actionControls(ctx, actions) {
  const moves = actions.filter((a) => parse(ctx, a));
  if (!moves.length) return null;
  const h = ctx.h;
  const groups = new Map();
  for (const a of moves) {
    const p = parse(ctx, a);
    const key = `${p.how} ${p.tile} ${p.at}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push([a, p]);
  }
  const rows = [];
  for (const [key, list] of groups) {
    const p = list[0][1];
    const verb = p.how === "place" ? "Build" : p.how === "build" ? "From the reserve" : "Exchange";
    rows.push(h("div", { class: "magic-row", dataset: { key } },
      h("span", { class: "magic-where", text: `${verb} the ${tileName(ctx, p.tile) || ctx.tileName(p.tile)} ${p.how === "exchange" ? `in place of ${ctx.tileName(p.at)}` : ctx.placeText ? ctx.placeText(p.cell.x, p.cell.y) : `at ${p.at}`}:` }),
      ...list.map(([a, q]) => h("button", { class: "secondary magic-turn", dataset: { walls: q.walls, action: a }, title: describeAction(ctx, a), onclick: () => ctx.act(a, describeAction(ctx, a)) },
        drawTile(ctx, q.tile, q.walls, 30), h("span", { class: "magic-walls", text: q.walls.toUpperCase() })))));
  }
  return { node: h("div", { class: "magic-controls" }, h("p", { class: "muted", text: "Magical buildings: choose the place and how the tile is turned." }), ...rows), handled: moves };
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

window.Alhambra.registerModule(ID, { panel, actionControls, describeAction, describeEvent, tileArt, tileName });
