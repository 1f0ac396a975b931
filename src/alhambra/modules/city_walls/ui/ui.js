// Front-end plug-in of the City walls (module city_walls).
// A city-wall card is drawn as a card with a small tile outline and its wooden segments in the
// house's wall colour; the panel shows the open cards and the segments left. A city wall is
// built by clicks, like a tile: pick an open card in the controls, and its segments are drawn
// faded on every tile of the Alhambra that can take them; a click on one builds it (a tile on
// the reserve board or waiting to be placed, off the Alhambra, gets a button). The tiles
// offered are the server's structured legal actions (`ctx.move`). Tiles with segments show
// them through the core's art (the view's `walls`).
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

// ------------------------------------------------------------------------------ building by clicks
/** The "build a city wall" moves legal now: [{action, card, tile, cell}] (cell: where the tile
 * stands in the viewer's Alhambra, the fountain included; null for a tile on the reserve board
 * or waiting to be placed). */
function wallMoves(ctx, actions) {
  const seat = ctx.view && ctx.me !== null ? ctx.view.seats[ctx.me] : null;
  const out = [];
  for (const a of actions || ctx.legal || []) {
    const m = parse(ctx, a);
    if (!m) continue;
    const code = m[1] === "fountain" ? "F" : m[1];
    const c = seat ? seat.alhambra.find((t) => t.tile === code) : null;
    out.push({ action: a, card: m[0], tile: m[1], cell: c ? { x: c.x, y: c.y } : null });
  }
  return out;
}

/** The open card the viewer picked to build (its moves), or null. */
function pickedCard(ctx, moves) {
  const sel = ctx.selection;
  return sel && moves.some((m) => m.card === sel.card) ? sel.card : null;
}

/** The faded segments of card `card` over a tile that can take them (click to build). */
function pickNode(ctx, card) {
  const svg = ctx.svg("svg", { viewBox: "0 0 100 100", class: "cw-pick-mark", "data-card": card });
  svg.appendChild(ctx.svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 8, fill: "rgba(255,214,0,0.18)", stroke: "#e0a800", "stroke-width": 4, "stroke-dasharray": "10 7" }));
  const g = ctx.svg("g", { opacity: "0.65", class: "cw-pick-walls" });
  for (const el of ctx.art.tileWalls(wallsOfCard(card), ctx.catalogue)) g.appendChild(el);
  svg.appendChild(g);
  return svg;
}

/** With an open card picked, its segments drawn faded on every tile of my Alhambra that can
 * take them: a click builds the city wall there. */
function boardOverlay(ctx, seat) {
  if (seat !== ctx.me || !ctx.myTurn) return null;
  const moves = wallMoves(ctx);
  const card = pickedCard(ctx, moves);
  if (!card) return null;
  return moves.filter((m) => m.card === card && m.cell).map((m) => ({
    x: m.cell.x, y: m.cell.y, className: "cw-pick", node: pickNode(ctx, card), action: m.action,
    label: describeAction(ctx, m.action), pick: () => ctx.act(m.action, describeAction(ctx, m.action)),
  }));
}

function actionControls(ctx, actions) {
  const moves = wallMoves(ctx, actions);
  if (!moves.length) return null;
  const h = ctx.h;
  const card = pickedCard(ctx, moves);
  const cards = [...new Set(moves.map((m) => m.card))];
  const parts = [h("p", { class: "muted", text: "Or take an open city-wall card and build its segments on one of your tiles (this ends your actions): pick the card, then a tile." })];
  parts.push(h("div", { class: "cw-row cw-cards-pick" }, ...cards.map((c) => h("button", {
    class: `secondary cw-card ${c === card ? "selected" : ""}`, dataset: { card: c }, "aria-pressed": c === card ? "true" : "false",
    title: `Build the city wall of this card (${words(wallsOfCard(c))})`, onclick: () => ctx.select(c === card ? null : { card: c }),
  }, cardArt(ctx, c, 26), h("span", { class: "cw-what", text: words(wallsOfCard(c)) })))));
  if (card) {
    const list = moves.filter((m) => m.card === card);
    const onBoard = list.filter((m) => m.cell).length;
    const off = list.filter((m) => !m.cell);
    if (onBoard) parts.push(h("p", { class: "cw-where", text: `Click ${onBoard === 1 ? "the tile" : `one of the ${onBoard} tiles`} with faded segments on your Alhambra.` }));
    if (off.length) {
      parts.push(h("div", { class: "cw-row" }, h("span", { class: "cw-what", text: onBoard ? "Or on a tile off the Alhambra:" : "On a tile off the Alhambra:" }),
        ...off.map((m) => h("button", { class: "secondary cw-build", dataset: { action: m.action }, title: describeAction(ctx, m.action), onclick: () => ctx.act(m.action, describeAction(ctx, m.action)) },
          ctx.tileArt(m.tile, 24), h("span", { text: ctx.tileName(m.tile) })))));
    }
  }
  return { node: h("div", { class: "cw-controls" }, ...parts), handled: moves.map((m) => m.action) };
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

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return `${n((st.open || []).length, "open card", "open cards")} · ${st.segments_left} segments left · ${(st.built || []).length} built`;
}

window.Alhambra.registerModule(ID, { summary, panel, boardOverlay, actionControls, describeAction, describeEvent, cardArt, cardName });
