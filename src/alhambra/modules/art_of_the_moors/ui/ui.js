// Front-end plug-in of the Art of the Moors (module art_of_the_moors).
// A culture counter is drawn as a hexagon of glazed tile work in the house style: its price in the
// middle, each corner with its points and the buildings it needs as small black squares; the
// corner pointing to the gem (at the top) is gilded, the marker is a cube on its corner.
// The panel shows every player's counters at a glance (and the counters left in the supply); on
// your turn a "Develop culture" button in the action panel turns them (it says what it adds). A badge per seat gives
// the culture points a scoring round would pay now; the scoring breakdown has a row for them.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "art_of_the_moors";
const DEVELOP = "culture develop";
const TILE = "#1f6f78";
const TILE_EDGE = "#114047";
const GOLD = "#e0b040";

function face(ctx, price) {
  const st = ctx.state;
  return st && Array.isArray(st.faces) ? st.faces.find((f) => f.price === price) : null;
}

function label(price) {
  return price === "12" ? "12/13" : price;
}

/** A counter: hexagon, price, six corners (points, needs), gem corner on top, the marker's cube. */
function counterArt(ctx, price, gem, marker, size = 64) {
  const f = face(ctx, price);
  if (!f) return null;
  const { INK, CREAM, svgText } = ctx.art;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "-50 -50 100 100", width: size, height: size, role: "img", class: "moors-counter", "data-price": price,
    "aria-label": `Culture counter ${label(price)}: ${f.points[gem]} points now, up to ${f.points[marker]}` });
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (-90 + 60 * i) * Math.PI / 180;
    pts.push([46 * Math.cos(a), 46 * Math.sin(a)]);
  }
  s.appendChild(svg("polygon", { points: pts.map((p) => p.join(",")).join(" "), fill: TILE, stroke: TILE_EDGE, "stroke-width": 2.5 }));
  s.appendChild(svg("circle", { cx: 0, cy: 0, r: 12, fill: CREAM, stroke: INK, "stroke-width": 1.5 }));
  s.appendChild(svgText(0, 5, label(price), { "font-size": price === "12" ? 8 : 12, "font-weight": 700 }));
  // the corner pointing to the gem is drawn at the top, the next ones follow clockwise
  for (let j = 0; j < 6; j++) {
    const k = (gem + j) % 6;
    const a = (-90 + 60 * j) * Math.PI / 180;
    const x = 30 * Math.cos(a);
    const y = 30 * Math.sin(a);
    const atGem = j === 0;
    s.appendChild(svg("circle", { cx: x, cy: y, r: 9, fill: atGem ? GOLD : CREAM, stroke: INK, "stroke-width": k === marker ? 2.6 : 1, class: atGem ? "moors-gem" : null }));
    s.appendChild(svgText(x, y + 3.5, f.points[k], { "font-size": 9, "font-weight": atGem ? 700 : 400 }));
    if (k === marker) s.appendChild(svg("rect", { x: x + 5, y: y - 10, width: 6, height: 6, fill: "#b2452f", stroke: INK, "stroke-width": 1, class: "moors-marker" }));
  }
  return s;
}

/** A small hexagon (badges). */
function hexIcon(ctx, size = 14) {
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "-10 -10 20 20", width: size, height: size, "aria-hidden": "true", class: "moors-icon" });
  s.appendChild(svg("polygon", { points: "0,-9 7.8,-4.5 7.8,4.5 0,9 -7.8,4.5 -7.8,-4.5", fill: TILE, stroke: TILE_EDGE, "stroke-width": 1.2 }));
  s.appendChild(svg("circle", { cx: 0, cy: -5, r: 2.2, fill: GOLD }));
  return s;
}

function seats(ctx) {
  const st = ctx.state;
  return st && Array.isArray(st.seats) ? st.seats : [];
}

function gain(ctx, seat) {
  const row = seats(ctx)[seat];
  if (!row) return 0;
  let more = 0;
  for (const c of row.counters) {
    const f = face(ctx, c.price);
    if (f && c.gem < c.marker) more += f.points[c.gem + 1] - f.points[c.gem];
  }
  return more;
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.seats)) return null;
  const h = ctx.h;
  const rows = st.seats.map((row, seat) => h("div", { class: `moors-row ${seat === ctx.me ? "me" : ""}`, dataset: { seat } },
    h("div", { class: "moors-who" }, h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
      h("span", { class: "moors-name", text: ctx.seatName(seat) }), h("span", { class: "moors-points", text: `${row.points_now} a round` })),
    h("div", { class: "moors-counters" }, ...(row.counters.length ? row.counters.map((c) => counterArt(ctx, c.price, c.gem, c.marker, 54)) : [h("span", { class: "muted", text: "no counter yet" })]))));
  const left = Object.entries(st.supply || {}).map(([p, n]) => `${label(p)}: ${n}`).join(" · ");
  const parts = [h("div", { class: "moors-rows" }, ...rows), h("p", { class: "muted moors-help", text: `Counters left — ${left}. Two buildings of one price earn its counter; the gilded corner at the top scores in every round.` })];
  return h("div", { class: "moors-panel" }, ...parts);
}

function actionControls(ctx, actions) {
  if (!actions.includes(DEVELOP)) return null;
  const h = ctx.h;
  const more = ctx.me !== null && ctx.me !== undefined ? gain(ctx, ctx.me) : 0;
  const node = h("div", { class: "moors-controls" },
    h("p", { class: "muted", text: `Or develop culture: your counters turn one corner on (+${more} a round). This ends your actions.` }),
    h("div", { class: "button-row" }, h("button", { class: "secondary", id: "btn-culture", onclick: () => ctx.act(DEVELOP, describeAction(ctx, DEVELOP)) }, hexIcon(ctx, 18), h("span", { text: "Develop culture" }))));
  return { node, handled: [DEVELOP] };
}

function describeAction(ctx, notation) {
  if (notation !== DEVELOP) return null;
  const more = ctx.me !== null && ctx.me !== undefined ? gain(ctx, ctx.me) : 0;
  return `Develop culture: your culture counters turn one corner on (+${more} points a round)`;
}

function describeEvent(ctx, e) {
  if (e.type === "CultureCounterTaken") return `${ctx.seatName(e.seat)} takes the culture counter for buildings costing ${label(e.price)} (${e.buildings} of them: up to ${e.points} points)`;
  if (e.type === "CultureMarkerMoved") return `${ctx.seatName(e.seat)} marks ${e.buildings} buildings costing ${label(e.price)} (up to ${e.points} points)`;
  if (e.type === "CultureDeveloped") return `${ctx.seatName(e.seat)} develops culture: the counters for ${e.prices.map(label).join(", ")} turn; ${e.points} points a round now`;
  return null;
}

function seatBadges(ctx, seat) {
  const row = seats(ctx)[seat];
  if (!row || !row.counters.length) return null;
  return { text: String(row.points_now), title: `Culture: ${row.counters.length} counter${row.counters.length > 1 ? "s" : ""}, ${row.points_now} points a scoring round now`, className: "moors-badge", icon: hexIcon(ctx, 14) };
}

function scoring(ctx, roundEvent) {
  const values = roundEvent && roundEvent.extra ? roundEvent.extra[ID] : null;
  if (!Array.isArray(values)) return null;
  return [{ label: "Culture", values, title: `The Art of the Moors, scoring round ${roundEvent.round}: each culture counter scores its corner at the gem.` }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.seats) ? seats((i) => `${n(st.seats[i].counters.length, "counter", "counters")}, ${st.seats[i].points_now} a round`) : null;
}

window.Alhambra.registerModule(ID, { summary, panel, actionControls, describeAction, describeEvent, seatBadges, scoring });
