// Front-end plug-in of the City walls (module city_walls).
// A city-wall card is drawn as a card with a small tile outline and its wooden segments in the
// house's wall colour; the panel shows the open cards and the segments left; the controls group
// the "build a city wall" moves by card, one button per tile that can take it (the tile drawn
// with the segments it would get). Tiles with segments show them through the core's art (the
// view's `walls`).
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "city_walls";
const SIDES = { n: "north", e: "east", s: "south", w: "west" };

function wallsOfCard(code) {
  const m = /^cw([nesw]+)$/.exec(code || "");
  return m ? m[1] : null;
}

function words(walls) {
  return [...walls].map((c) => SIDES[c]).join(" and ");
}

function cardName(ctx, code) {
  const w = wallsOfCard(code);
  return w ? `city-wall card (${words(w)})` : null;
}

function cardArt(ctx, code, width = 48) {
  const w = wallsOfCard(code);
  if (!w) return null;
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const height = Math.round(width * 1.4);
  const s = svg("svg", { viewBox: "0 0 100 140", width, height, role: "img", "aria-label": cardName(ctx, code), class: "citywall-card", "data-card": code });
  s.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: "#e8dcc0", stroke: INK, "stroke-width": 2 }));
  const g = svg("g", { transform: "translate(20 30) scale(0.6)" });
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: CREAM, stroke: INK, "stroke-width": 2, "stroke-dasharray": "6 4" }));
  for (const el of ctx.art.tileWalls(w, ctx.catalogue)) g.appendChild(el);
  s.appendChild(g);
  const t = svg("text", { x: 50, y: 122, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: INK, "font-family": "sans-serif" });
  t.textContent = w.toUpperCase();
  s.appendChild(t);
  return s;
}

/** `wall build CARD TILE` as [card, tile] ("fountain" for the starting tile), from the server's
 * structured action (`ctx.move`); null for anything else. */
function parse(ctx, notation) {
  const m = ctx.move ? ctx.move(notation) : null;
  if (!m || m.keyword !== "wall build") return null;
  const card = (m.args.find((a) => a.type === "card") || {}).value;
  const tile = (m.args.find((a) => a.type === "tile" || a.type.startsWith("word:")) || {}).value;
  return card && tile ? [card, tile] : null;
}

function target(ctx, tile) {
  return tile === "fountain" ? "your fountain" : ctx.tileName(tile);
}

function describeAction(ctx, notation) {
  const m = parse(ctx, notation);
  if (!m) return null;
  return `Build a city wall (${words(wallsOfCard(m[0]))}) on ${target(ctx, m[1])}`;
}

function actionControls(ctx, actions) {
  const builds = actions.filter((a) => parse(ctx, a));
  if (!builds.length) return null;
  const h = ctx.h;
  const byCard = new Map();
  for (const a of builds) {
    const [card, tile] = parse(ctx, a);
    if (!byCard.has(card)) byCard.set(card, []);
    byCard.get(card).push([a, tile]);
  }
  const rows = [...byCard].map(([card, list]) => h("div", { class: "cw-row", dataset: { card } },
    cardArt(ctx, card, 30),
    h("span", { class: "cw-what", text: `${words(wallsOfCard(card))}:` }),
    ...list.map(([a, tile]) => h("button", { class: "secondary cw-build", dataset: { action: a }, title: describeAction(ctx, a), onclick: () => ctx.act(a, describeAction(ctx, a)) },
      h("span", { text: tile === "fountain" ? "Fountain" : ctx.tileName(tile) })))));
  return { node: h("div", { class: "cw-controls" }, h("p", { class: "muted", text: "Or take an open city-wall card and build its segments (this ends your actions):" }), ...rows), handled: builds };
}

function describeEvent(ctx, e) {
  if (e.type === "CityWallCardShown") return `A city-wall card (${words(e.walls)}) is laid open beside the board`;
  if (e.type === "CityWallBuilt") return `${ctx.seatName(e.seat)} builds a city wall (${words(e.added)}) on ${e.tile === "F" ? "the fountain" : ctx.tileName(e.tile)}`;
  return null;
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.open)) return null;
  const h = ctx.h;
  const cards = st.open.length
    ? st.open.map((c) => h("span", { class: "cw-open", title: cardName(ctx, c.card) }, cardArt(ctx, c.card, 34)))
    : [h("span", { class: "muted", text: "No city-wall card is open." })];
  return h("div", { class: "cw-panel" }, h("div", { class: "cw-cards" }, ...cards),
    h("p", { class: "muted", text: `${st.segments_left} wooden segments left; ${st.built.length} city walls built.` }));
}

window.Alhambra.registerModule(ID, { panel, actionControls, describeAction, describeEvent, cardArt, cardName });
