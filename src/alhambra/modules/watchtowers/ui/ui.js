// Front-end plug-in of the Watchtowers (module watchtowers).
// A watchtower is drawn in the house style as a right-angled triangle in its building colour over
// half of its place, a round tower in the right angle, and its long edge a thick crenellated city
// wall with a portal; the other half of the place stays open ground. On every Alhambra the two
// places beyond a watchtower's long edge are hatched and marked "keep free", and a dashed line
// through the tower's open corner shows the path it makes between the two buildings at its short
// edges, so a player sees at once what a watchtower does: it links two buildings diagonally, it
// walls off the ground in front of it, and its long edge joins the city wall.
// Controls: buying a building with a watchtower (a button per market building of a colour with a
// watchtower left, opening the table's payment picker with the price and its surcharge); placing
// a bought watchtower: a gold ring on each free place where it fits, then a button per half that
// is legal there; "Send it back" when it fits nowhere. The panel shows the supply per colour, the
// surcharge now, and each player's wall with its watchtowers.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "watchtowers";
const KINDS = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];
const LETTER = { p: "pavilion", s: "seraglio", a: "arcades", c: "chambers", g: "garden", t: "tower" };
const HALF_WORDS = { ne: "north-east", nw: "north-west", se: "south-east", sw: "south-west" };
// per half: the right-angle corner and the long edge's two corners, in 100 x 100 units
const CORNERS = { nw: [0, 0], ne: [100, 0], se: [100, 100], sw: [0, 100] };
const LONG = { sw: [[0, 0], [100, 100]], ne: [[0, 0], [100, 100]], nw: [[100, 0], [0, 100]], se: [[100, 0], [0, 100]] };
const ITEM = "tw";

// ------------------------------------------------------------------ facts and words
function colourOf(ctx, code) {
  const tiles = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles : null;
  const t = tiles && Object.hasOwn(tiles, code) ? tiles[code] : null;
  if (tiles && (!t || t.module !== ID)) return null;
  const m = /^W([psacgt])\d$/.exec(code || "");
  return m ? LETTER[m[1]] : null;
}

const kindName = (ctx, kind) => (ctx.art.KIND_NAMES && ctx.art.KIND_NAMES[kind]) || kind;

function tileName(ctx, code) {
  const k = colourOf(ctx, code);
  return k ? `${kindName(ctx, k).toLowerCase()} watchtower` : null;
}

function placedOf(ctx, code) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.placed)) return null;
  for (const row of st.placed) for (const p of row) if (p.tower === code) return p;
  return null;
}

/** A watchtowers action as {type, tower, x, y, half, square, cards, action}, read from the
 * structured legal action the server sends (ctx.move: keyword and typed arguments, never the
 * notation); null for anything else. A purchase is `buy twN` (item twN: the market square N). */
function parse(ctx, notation) {
  const mv = ctx.move ? ctx.move(notation) : null;
  if (!mv) return null;
  const v = mv.args.map((a) => a.value);
  if (mv.keyword === "watchtower place") return { type: "place", tower: v[0], x: v[1].x, y: v[1].y, half: v[2], action: notation };
  if (mv.keyword === "watchtower return") return { type: "return", tower: v[0], action: notation };
  const item = mv.keyword === "buy" ? mv.args.find((a) => a.type === "item") : null;
  if (item && typeof item.value === "string" && item.value.startsWith(ITEM)) {
    const cards = mv.args.find((a) => a.type === "cards");
    return { type: "buy", square: Number(item.value.slice(ITEM.length)), cards: cards ? cards.value : [], action: notation };
  }
  return null;
}

const where = (ctx, x, y) => (ctx.placeText ? ctx.placeText(x, y) : `${x},${y}`);

// ------------------------------------------------------------------ art
/** The watchtower in `half` of a 100 x 100 place: the triangle in its colour, the tower in the
 * right angle, the long edge a crenellated wall with a portal. */
function towerGroup(ctx, colour, half, extraClass = "") {
  const { INK, CREAM, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const fill = KIND_COLORS[colour] || "#999";
  const g = svg("g", { class: `tile kind-watchtower wt-${half} ${extraClass}`.trim(), "data-half": half });
  const [cx, cy] = CORNERS[half];
  const [[ax, ay], [bx, by]] = LONG[half];
  g.appendChild(svg("path", { d: `M${cx} ${cy} L${ax} ${ay} L${bx} ${by} Z`, fill: CREAM, stroke: fill, "stroke-width": 3, "stroke-linejoin": "round" }));
  // paving in the colour, towards the right angle
  const ix = cx === 0 ? 1 : -1;
  const iy = cy === 0 ? 1 : -1;
  g.appendChild(svg("path", { d: `M${cx} ${cy} L${cx + ix * 62} ${cy} L${cx} ${cy + iy * 62} Z`, fill: fill, opacity: 0.35 }));
  // the long edge: a wall with merlons on the open side, and a portal in the middle
  const len = Math.hypot(bx - ax, by - ay);
  const ang = (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
  const open = half === "sw" || half === "se" ? -1 : 1; // the side of the wall facing the empty half
  const wall = svg("g", { transform: `translate(${ax} ${ay}) rotate(${ang})`, class: "wt-wall" });
  wall.appendChild(svg("rect", { x: 0, y: -5, width: len, height: 10, fill: INK }));
  for (let i = 8; i < len - 8; i += 14) wall.appendChild(svg("rect", { x: i, y: open > 0 ? 5 : -10, width: 7, height: 5, fill: INK }));
  wall.appendChild(svg("path", { d: `M${len / 2 - 7} 5 V-1 A7 7 0 0 1 ${len / 2 + 7} -1 V5 Z`, fill: "#e0a800", stroke: INK, "stroke-width": 1.2, transform: open > 0 ? "" : `rotate(180 ${len / 2} 0)` }));
  g.appendChild(wall);
  // the round tower in the right angle
  const tx = cx + ix * 24;
  const ty = cy + iy * 24;
  g.appendChild(svg("rect", { x: tx - 10, y: ty - 9, width: 20, height: 18, fill: fill, stroke: INK, "stroke-width": 1.8 }));
  g.appendChild(svg("path", { d: `M${tx - 12} ${ty - 9} L${tx} ${ty - 22} L${tx + 12} ${ty - 9} Z`, fill: "#b5483a", stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round" }));
  g.appendChild(svg("rect", { x: tx - 3, y: ty - 2, width: 6, height: 9, fill: INK }));
  return g;
}

function tileArt(ctx, code, size = 64) {
  const colour = colourOf(ctx, code);
  if (!colour) return null;
  const p = placedOf(ctx, code);
  const half = p ? p.half : "sw";
  const s = ctx.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": tileName(ctx, code), class: "wt-tile", "data-module": ID, "data-tower": code });
  const t = ctx.svg("title");
  t.textContent = `${tileName(ctx, code)}: half a place; its long edge is a city wall (+2 in the longest wall); nothing may be built beyond it`;
  s.appendChild(t);
  s.appendChild(towerGroup(ctx, colour, half));
  return s;
}

function towerIcon(ctx, colour, half, size = 18) {
  const s = ctx.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, "aria-hidden": "true", class: "wt-icon" });
  s.appendChild(towerGroup(ctx, colour, half));
  return s;
}

/** A place kept free beyond a long edge: hatching and a "keep free" mark. */
function freeGroup(ctx) {
  const svg = ctx.svg;
  const g = svg("g", { class: "wt-free" });
  g.appendChild(svg("rect", { x: 6, y: 6, width: 88, height: 88, rx: 6, fill: "rgba(58,38,20,0.05)", stroke: "rgba(58,38,20,0.35)", "stroke-width": 2, "stroke-dasharray": "6 5" }));
  for (let i = -80; i <= 80; i += 16) g.appendChild(svg("path", { d: `M${Math.max(6, 6 + i)} ${Math.max(6, 6 - i)} L${Math.min(94, 94 + i)} ${Math.min(94, 94 - i)}`, stroke: "rgba(58,38,20,0.25)", "stroke-width": 2 }));
  g.appendChild(ctx.art.svgText(50, 56, "keep free", { "font-size": 14, "font-weight": 700, fill: "rgba(58,38,20,0.6)" }));
  return g;
}

/** The path on foot through a watchtower: a dashed curve from the middle of one short edge to
 * the middle of the other, bending towards the right angle. */
function pathGroup(ctx, half) {
  const mids = { n: [50, 0], e: [100, 50], s: [50, 100], w: [0, 50] };
  const [a, b] = [...half].map((c) => mids[c]);
  const [cx, cy] = CORNERS[half];
  const g = ctx.svg("g", { class: "wt-path" });
  g.appendChild(ctx.svg("path", {
    d: `M${a[0]} ${a[1]} Q${(cx + 50) / 2} ${(cy + 50) / 2} ${b[0]} ${b[1]}`,
    fill: "none", stroke: "#fdf6e3", "stroke-width": 5, "stroke-dasharray": "7 6", "stroke-linecap": "round", opacity: 0.9,
  }));
  return g;
}

// ------------------------------------------------------------------ choosing a place
function placements(ctx, actions) {
  return (actions || ctx.legal || []).map((n) => parse(ctx, n)).filter((a) => a && a.type === "place");
}

function chosen(ctx) {
  const s = ctx.selection;
  return s && typeof s === "object" && s.wt ? s : { wt: true, x: null, y: null };
}

function boardOverlay(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.placed) || !Array.isArray(st.placed[seat])) return null;
  const items = [];
  for (const p of st.placed[seat]) {
    items.push({ x: p.x, y: p.y, node: pathGroup(ctx, p.half), className: "wt-path-item", title: `${ctx.seatName(seat)}'s ${tileName(ctx, p.tower)}: a path on foot runs through it between its two short edges` });
    for (const [fx, fy] of p.free || []) {
      items.push({ x: fx, y: fy, node: freeGroup(ctx), className: "wt-free-item", title: `Beyond the long edge of ${ctx.seatName(seat)}'s ${tileName(ctx, p.tower)}: nothing may be built here` });
    }
  }
  if (seat === ctx.me && ctx.myTurn) {
    const sel = chosen(ctx);
    const seen = new Set();
    for (const a of placements(ctx)) {
      const key = `${a.x},${a.y}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const on = sel.x === a.x && sel.y === a.y;
      const g = ctx.svg("g", { class: `wt-pick-mark ${on ? "chosen" : ""}` });
      g.appendChild(ctx.svg("rect", { x: 6, y: 6, width: 88, height: 88, rx: 10, fill: "rgba(255,236,170,0.45)", stroke: "#e0a800", "stroke-width": 5, "stroke-dasharray": "10 6" }));
      items.push({
        x: a.x, y: a.y, node: g, className: `wt-pick ${on ? "selected" : ""}`,
        label: `Choose the place ${where(ctx, a.x, a.y)} for the watchtower`,
        pick: () => ctx.select(on ? null : { wt: true, x: a.x, y: a.y }),
      });
    }
  }
  return items;
}

// ------------------------------------------------------------------ buying
function buys(ctx, actions) {
  const out = new Map();
  for (const a of (actions || []).map((n) => parse(ctx, n))) {
    if (!a || a.type !== "buy") continue;
    const sq = ctx.view.market[a.square - 1];
    if (!sq || !sq.tile) continue;
    if (!out.has(a.square)) out.set(a.square, { square: a.square, tile: sq.tile, currency: sq.currency, options: [] });
    out.get(a.square).options.push({ cards: a.cards, action: a.action });
  }
  return out;
}

function tilePrice(ctx, code) {
  const t = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles[code] : null;
  return t ? t.price : 0;
}

function startBuy(ctx, b) {
  const st = ctx.state;
  const extra = st ? st.surcharge : 0;
  const kind = ctx.catalogue.tiles[b.tile].kind;
  ctx.pay({
    item: b.tile,
    price: tilePrice(ctx, b.tile) + extra,
    currency: b.currency,
    options: b.options,
    title: `Buy ${ctx.tileName(b.tile)} with a ${kindName(ctx, kind).toLowerCase()} watchtower`,
    note: `The building's price + ${extra} for the watchtower, in the building's currency. Exact: you act again.`,
    confirm: "Buy both",
  });
}

function actionControls(ctx, actions) {
  const h = ctx.h;
  const parts = [];
  const handled = [];
  const bs = buys(ctx, actions);
  if (bs.size) {
    for (const b of bs.values()) for (const o of b.options) handled.push(o.action);
    const extra = ctx.state ? ctx.state.surcharge : 0;
    parts.push(h("p", { class: "wt-offer" }, towerIcon(ctx, "tower", "sw", 18), h("span", { text: ` Or buy a building with a watchtower of its colour (+${extra}):` })));
    parts.push(h("div", { class: "button-row wt-buys" }, ...[...bs.values()].map((b) => {
      const kind = ctx.catalogue.tiles[b.tile].kind;
      return h("button", { class: "secondary small wt-buy", dataset: { square: b.square }, onclick: () => startBuy(ctx, b) },
        ctx.tileArt(b.tile, 22), towerIcon(ctx, kind, "sw", 22), h("span", { text: `${ctx.tileName(b.tile)} + watchtower: ${tilePrice(ctx, b.tile) + extra}` }));
    })));
  }
  const list = placements(ctx, actions);
  if (list.length) {
    for (const a of list) handled.push(a.action);
    const sel = chosen(ctx);
    const here = list.filter((a) => a.x === sel.x && a.y === sel.y);
    parts.push(h("p", { class: "wt-title" }, towerIcon(ctx, colourOf(ctx, list[0].tower), "sw", 20),
      h("strong", { text: ` Place your ${tileName(ctx, list[0].tower)}` }),
      h("span", { class: "muted", text: " — a short edge against a building of its colour; nothing may ever be built beyond its long edge." })));
    if (!here.length) {
      const n = new Set(list.map((a) => `${a.x},${a.y}`)).size;
      parts.push(h("p", { class: "muted wt-where", text: n === 1 ? "Click the gold place on your Alhambra." : `Click one of the ${n} gold places on your Alhambra.` }));
    } else {
      parts.push(h("div", { class: "button-row wt-halves", role: "group", "aria-label": "Which half of the place" }, ...here.map((a) => h("button", {
        class: "secondary wt-half", dataset: { half: a.half, action: a.action },
        onclick: () => { ctx.select(null); ctx.act(a.action, describeAction(ctx, a.action)); },
      }, towerIcon(ctx, colourOf(ctx, a.tower), a.half, 30), h("span", { text: `${HALF_WORDS[a.half]} half` })))));
    }
  }
  for (const a of (actions || []).map((n) => parse(ctx, n)).filter((b) => b && b.type === "return")) {
    handled.push(a.action);
    parts.push(h("div", { class: "button-row wt-return" }, h("button", {
      class: "secondary", dataset: { action: a.action }, onclick: () => ctx.act(a.action, describeAction(ctx, a.action)),
    }, ctx.tileArt(a.tower, 22), h("span", { text: describeAction(ctx, a.action) }))));
  }
  if (!parts.length) return null;
  return { node: h("div", { class: "wt-controls" }, ...parts), handled };
}

// ------------------------------------------------------------------ panel, badges, texts
function panel(ctx) {
  const st = ctx.state;
  if (!st || !st.supply || !Array.isArray(st.placed)) return null;
  const h = ctx.h;
  const supply = KINDS.map((k) => h("span", { class: "wt-supply", dataset: { kind: k }, title: `${(st.supply[k] || []).length} ${kindName(ctx, k).toLowerCase()} watchtowers left` },
    towerIcon(ctx, k, "sw", 26), h("span", { text: `×${(st.supply[k] || []).length}` })));
  const rows = st.placed.map((row, seat) => {
    const [len, tws] = Array.isArray(st.wall) ? st.wall[seat] : [0, 0];
    return h("li", { class: "wt-seat", dataset: { seat } },
      h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
      h("span", { class: "wt-seat-name", text: seat === ctx.me ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat) }),
      h("span", { class: "wt-owned" }, ...row.map((p) => towerIcon(ctx, p.colour, p.half, 20))),
      h("span", { class: "wt-wall-now", text: row.length ? `wall ${len}${tws ? ` +${2 * tws}` : ""}` : "" }));
  });
  return h("div", { class: "wt-panel" },
    h("p", { class: "muted wt-help", text: `With a building from the market, buy a watchtower of its colour for ${st.surcharge} more. It fills half a place and links the buildings at its short edges; its long edge is a city wall: +2 for each watchtower in your longest wall.` }),
    h("div", { class: "wt-supplies" }, ...supply),
    h("ul", { class: "wt-seats", "aria-label": "The players' watchtowers" }, ...rows));
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  const row = st && Array.isArray(st.placed) ? st.placed[seat] : null;
  if (!row || !row.length) return null;
  const [len, tws] = Array.isArray(st.wall) ? st.wall[seat] : [0, 0];
  return {
    text: `${row.length} watchtower${row.length === 1 ? "" : "s"}`,
    title: `Longest wall with the watchtowers: ${len}, ${tws} watchtower${tws === 1 ? "" : "s"} in it (+${2 * tws})`,
    className: "wt-badge",
    icon: towerIcon(ctx, row[0].colour, row[0].half, 14),
  };
}

function describeAction(ctx, notation) {
  const a = parse(ctx, notation);
  if (!a) return null;
  if (a.type === "place") return `Place the ${tileName(ctx, a.tower)} in the ${HALF_WORDS[a.half]} half of the place ${where(ctx, a.x, a.y)}`;
  if (a.type === "return") return `Send the ${tileName(ctx, a.tower)} back to the supply (it fits nowhere; the price is not refunded)`;
  const sq = ctx.view && ctx.view.market ? ctx.view.market[a.square - 1] : null;
  return sq && sq.tile ? `Buy ${ctx.tileName(sq.tile)} with a watchtower of its colour for ${a.cards.map((c) => ctx.cardName(c)).join(" + ")}` : "Buy a building with a watchtower";
}

function describeEvent(ctx, e) {
  if (e.type === "TowerPlaced") return `${ctx.seatName(e.seat)} places the ${tileName(ctx, e.tower)} in the ${HALF_WORDS[e.half]} half of the place ${where(ctx, e.x, e.y)}`;
  if (e.type === "TowerBought") return `${ctx.seatName(e.seat)} buys a ${tileName(ctx, e.tower)} with the building`;
  if (e.type === "TowerReturned") return `${ctx.seatName(e.seat)}'s ${tileName(ctx, e.tower)} fits nowhere and goes back to the supply`;
  return null;
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  const left = Object.values(st.supply || {}).reduce((a, l) => a + l.length, 0);
  return `${left} in the supply · ` + (Array.isArray(st.placed) ? seats((i) => n(st.placed[i].length, "watchtower", "watchtowers")) : "");
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent, tileArt, tileName });
