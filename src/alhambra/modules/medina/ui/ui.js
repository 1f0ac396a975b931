// Front-end plug-in of the Medina (module medina).
// A medina tile is drawn as an artisans' square in the house style: clay ground, two flat-roofed
// limewashed houses with striped awnings over their doors, a paved square in front with a rug
// and jars; its price in the corner and its walls exactly as the base tiles draw them
// (`art.tileWalls`). The table uses this art wherever a medina appears (market, Alhambras,
// reserve boards, Dirk's tiles, tiles waiting to be placed).
// The panel shows the medina standing at a glance: per participant (the players, then Dirk with
// 2 players) the medinas built and the dearest, what each would lose if the next scoring round
// were scored now, and the penalty table with the next round marked. A badge per seat gives its
// medina count; the scoring breakdown's row "Medina" explains the places in its title.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "medina";

const CLAY = "#a8765a";
const CLAY_EDGE = "#6b4a35";
const PAVING = "#dcc4a0";
const AWNING = "#8a3f2b";
const JAR = "#c0653f";
const RUG = "#3f6f8f";

/** Catalogue facts of medina `code` ({price, walls}); null for another code. */
function medinaOf(ctx, code) {
  const tiles = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles : null;
  const t = tiles && Object.hasOwn(tiles, code) ? tiles[code] : null;
  if (t && t.module === ID) return { price: t.price, walls: t.walls || "" };
  return null;
}

function tileName(ctx, code) {
  const m = medinaOf(ctx, code);
  return m ? `Medina ${m.price}` : null;
}

/** "wall west", "walls north, east", "no walls" (the game's word for a wall). */
function wallWords(ctx, walls) {
  const sides = { n: "north", e: "east", s: "south", w: "west" };
  const wall = (ctx.catalogue && ctx.catalogue.wall_name) || "wall";
  if (!walls) return `no ${wall}s`;
  return `${wall}${walls.length > 1 ? "s" : ""} ${[...walls].map((c) => sides[c]).join(", ")}`;
}

/** The square drawn into `g` (100 x 100 units, inside the walls' bands): two houses with
 * awnings at the back, the paving in front with a rug and three jars. */
function drawSquare(ctx, g) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const line = { stroke: INK, "stroke-width": 2, "stroke-linejoin": "round" };
  const path = (d, fill, extra = {}) => g.appendChild(svg("path", { d, fill, ...line, ...extra }));
  // the paved square, with a few joints
  path("M12 68 H88 V88 H12 Z", PAVING, { stroke: "none" });
  for (const d of ["M12 78 H88", "M24 68 V78 M48 68 V78 M72 68 V78", "M36 78 V88 M60 78 V88 M84 78 V88"]) {
    g.appendChild(svg("path", { d, stroke: "rgba(107,74,53,0.35)", "stroke-width": 1.2, fill: "none" }));
  }
  // two limewashed houses with flat roofs (a parapet), a window and an arched door each
  path("M16 68 V38 H46 V68", CREAM);
  path("M14 38 H48 V33 H14 Z", CREAM, { "stroke-width": 1.6 });
  path("M54 68 V28 H84 V68", CREAM);
  path("M52 28 H86 V23 H52 Z", CREAM, { "stroke-width": 1.6 });
  g.appendChild(svg("rect", { x: 60, y: 33, width: 7, height: 8, rx: 3.5, fill: INK }));
  g.appendChild(svg("rect", { x: 72, y: 33, width: 7, height: 8, rx: 3.5, fill: INK }));
  path("M26 68 V60 Q31 53 36 60 V68 Z", INK, { "stroke-width": 1.2 });
  path("M64 68 V60 Q69 53 74 60 V68 Z", INK, { "stroke-width": 1.2 });
  // striped awnings over the doors, scalloped at the front
  for (const [x0, x1, y] of [[13, 49, 44], [51, 87, 44]]) {
    const w = (x1 - x0) / 4;
    for (let i = 0; i < 4; i++) {
      const a = x0 + i * w;
      const b = a + w;
      g.appendChild(svg("path", { d: `M${a} ${y} H${b} V${y + 8} Q${a + w / 2} ${y + 13} ${a} ${y + 8} Z`, fill: i % 2 ? CREAM : AWNING, stroke: INK, "stroke-width": 1.3, "stroke-linejoin": "round" }));
    }
    g.appendChild(svg("path", { d: `M${x0 - 1} ${y} H${x1 + 1}`, stroke: INK, "stroke-width": 2.2, "stroke-linecap": "round" }));
  }
  // wares on the square: a rug laid out and three jars
  path("M39 73 H61 V86 H39 Z", RUG, { "stroke-width": 1.5 });
  g.appendChild(svg("path", { d: "M43 77 H57 M43 82 H57", stroke: "#f2c94c", "stroke-width": 1.6 }));
  for (const [cx, r] of [[23, 6], [33, 4.5], [75, 6]]) {
    const top = 86 - 2 * r - 1;
    path(`M${cx - r * 0.45} ${top} C${cx - r * 1.3} ${top + r * 0.6} ${cx - r * 1.3} 86 ${cx} 86 C${cx + r * 1.3} 86 ${cx + r * 1.3} ${top + r * 0.6} ${cx + r * 0.45} ${top} Z`, JAR, { "stroke-width": 1.4 });
    g.appendChild(svg("path", { d: `M${cx - r * 0.6} ${top} H${cx + r * 0.6}`, stroke: INK, "stroke-width": 2, "stroke-linecap": "round" }));
  }
}

/** The tile: clay ground, the square, its walls like a base tile's, its price in the corner. */
function tileArt(ctx, code, size = 64) {
  const m = medinaOf(ctx, code);
  if (!m) return null;
  const { INK, CREAM, svgText } = ctx.art;
  const svg = ctx.svg;
  const label = `${tileName(ctx, code)} (${wallWords(ctx, m.walls)})`;
  const s = svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": label, class: "medina-tile", "data-module": ID, "data-medina": code });
  const g = svg("g", { class: "tile kind-medina" });
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: CLAY, stroke: CLAY_EDGE, "stroke-width": 1.5 }));
  g.appendChild(svg("rect", { x: 8, y: 8, width: 84, height: 84, rx: 4, fill: "none", stroke: "rgba(255,255,255,0.35)", "stroke-width": 1.5 }));
  for (const el of ctx.art.tileWalls(m.walls, ctx.catalogue)) g.appendChild(el);
  drawSquare(ctx, g);
  g.appendChild(svg("circle", { cx: 17, cy: 17, r: 11, fill: CREAM, stroke: INK, "stroke-width": 1.8 }));
  g.appendChild(svgText(17, 22, m.price, { "font-size": m.price >= 10 ? 13 : 15, "font-weight": 700 }));
  s.appendChild(g);
  return s;
}

/** A small medina (badges, the panel): an awning over a door, on clay. */
function medinaIcon(ctx, size = 16) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true", class: "medina-icon" });
  s.appendChild(svg("rect", { x: 0.5, y: 0.5, width: 19, height: 19, rx: 3, fill: CLAY, stroke: CLAY_EDGE, "stroke-width": 1 }));
  s.appendChild(svg("path", { d: "M4 17 V6 H16 V17 Z", fill: CREAM, stroke: INK, "stroke-width": 1.2 }));
  s.appendChild(svg("path", { d: "M8 17 V13 Q10 10.5 12 13 V17 Z", fill: INK }));
  for (let i = 0; i < 4; i++) {
    s.appendChild(svg("path", { d: `M${2.5 + i * 3.75} 7 h3.75 v3 q-1.9 2 -3.75 0 Z`, fill: i % 2 ? CREAM : AWNING, stroke: INK, "stroke-width": 0.7 }));
  }
  return s;
}

// ------------------------------------------------------------------------------ the standing
/** The participants of the view ({seat, medinas}), the players first, then Dirk (-1). */
function participants(ctx) {
  const st = ctx.state;
  return st && Array.isArray(st.participants) ? st.participants : [];
}

/** The price of a medina code (its catalogue entry, else read from the code "M7w"). */
function priceOf(ctx, code) {
  const m = medinaOf(ctx, code);
  if (m) return m.price;
  const got = /^M(\d+)/.exec(code || "");
  return got ? Number(got[1]) : 0;
}

/** Facts of one participant: {seat, count, dearest, now} (now: null when no round is to come). */
function standing(ctx, index) {
  const p = participants(ctx)[index];
  const medinas = Array.isArray(p.medinas) ? p.medinas : [];
  const now = ctx.state && Array.isArray(ctx.state.now) ? ctx.state.now[index] : null;
  return { seat: p.seat, count: medinas.length, dearest: Math.max(0, ...medinas.map((c) => priceOf(ctx, c))), now: now ?? null };
}

const minus = (n) => (n < 0 ? `−${-n}` : String(n));
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const ordinal = (n) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;

function whoName(ctx, seat) {
  return seat < 0 ? "Dirk" : ctx.seatName(seat);
}

/** A sentence about one participant's standing (titles and labels). */
function standingText(ctx, s, next) {
  const built = s.count ? `${plural(s.count, "medina", "medinas")} built, the dearest ${s.dearest}` : "no medina built";
  if (next === null || s.now === null) return `${whoName(ctx, s.seat)}: ${built}.`;
  const loss = s.now < 0 ? `would lose ${-s.now} ${-s.now === 1 ? "point" : "points"}` : "would lose nothing";
  return `${whoName(ctx, s.seat)}: ${built}; ${loss} if scoring round ${next} were scored now.`;
}

/** The rule of one round in words: "the fewest medinas lose 6, the second fewest 3". */
function roundRule(st, round) {
  const places = (st.penalties || [])[round - 1] || [];
  const parts = places.map((p, i) => (i === 0 ? `the fewest medinas lose ${p}` : `the ${ordinal(i + 1)} fewest ${p}`));
  const without = (st.without_medina || [])[round - 1];
  return `${parts.join(", ")} (a tie goes to the dearer medina)${without ? `; without any medina, ${without} more` : ""}`;
}

/** The penalty table: a row per place (and one for "no medina"), a column per scoring round,
 * the next round's column marked. */
function penaltyTable(ctx, st) {
  const h = ctx.h;
  const rounds = [1, 2, 3];
  const pens = Array.isArray(st.penalties) ? st.penalties : [];
  const without = Array.isArray(st.without_medina) ? st.without_medina : [];
  const mark = (r) => (st.next === r ? "md-next" : "");
  const head = h("tr", {}, h("th", { scope: "col", class: "md-corner", text: "Round" }),
    ...rounds.map((r) => h("th", { scope: "col", class: mark(r), title: st.next === r ? "The next scoring round" : null, text: String(r) })));
  const places = ["Fewest", "2nd fewest", "3rd fewest"].map((label, i) => h("tr", { dataset: { place: i + 1 } }, h("th", { scope: "row", text: label }),
    ...rounds.map((r) => {
      const p = (pens[r - 1] || [])[i];
      return h("td", { class: mark(r), text: p ? minus(-p) : "–" });
    })));
  const none = h("tr", { class: "md-without" }, h("th", { scope: "row", text: "No medina: more" }),
    ...rounds.map((r) => h("td", { class: mark(r), text: without[r - 1] ? minus(-without[r - 1]) : "–" })));
  return h("table", { class: "md-penalties", "aria-label": "Medina penalties per scoring round" },
    h("thead", {}, head), h("tbody", {}, ...places, none));
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.participants)) return null;
  const h = ctx.h;
  const next = st.next ?? null;
  const rows = st.participants.map((_, i) => standing(ctx, i));
  const head = h("tr", {}, h("th", { scope: "col", text: "" }), h("th", { scope: "col", text: "Built" }), h("th", { scope: "col", text: "Dearest" }),
    next !== null ? h("th", { scope: "col", title: `What each would lose if scoring round ${next} were scored now`, text: `Round ${next} now` }) : null);
  const body = rows.map((s) => h("tr", { class: `md-row ${s.seat === ctx.me ? "me" : ""} ${s.seat < 0 ? "dirk" : ""}`, dataset: { seat: s.seat }, title: standingText(ctx, s, next) },
    h("th", { scope: "row", class: "md-who" }, h("span", { class: "swatch", style: `background:${ctx.seatColor(s.seat)}` }), h("span", { class: "md-name", text: whoName(ctx, s.seat) })),
    h("td", { class: "md-count" }, medinaIcon(ctx, 14), h("span", { text: String(s.count) })),
    h("td", { class: "md-dearest", text: s.count ? String(s.dearest) : "–" }),
    next !== null ? h("td", { class: `md-now ${s.now < 0 ? "losing" : ""}`, text: s.now === null ? "" : minus(s.now) }) : null));
  const help = next !== null
    ? `Round ${next}: ${roundRule(st, next)}. Only medinas built in an Alhambra count.`
    : "All three scoring rounds are over.";
  return h("div", { class: "md-panel" },
    h("table", { class: "md-standing", "aria-label": "Medinas built and what each would lose now" }, h("thead", {}, head), h("tbody", {}, ...body)),
    h("p", { class: "muted md-help", text: help }),
    penaltyTable(ctx, st));
}

function seatBadges(ctx, seat) {
  const all = participants(ctx);
  const i = all.findIndex((p) => p.seat === seat);
  if (i < 0) return null;
  const s = standing(ctx, i);
  const next = ctx.state.next ?? null;
  return {
    text: String(s.count),
    title: `Medinas: ${standingText(ctx, s, next)}`,
    className: `medina-badge ${s.now !== null && s.now < 0 ? "losing" : ""}`,
    icon: medinaIcon(ctx, 14),
  };
}

function scoring(ctx, roundEvent) {
  const values = roundEvent && roundEvent.extra ? roundEvent.extra[ID] : null;
  if (!Array.isArray(values)) return null;
  const st = ctx.state && Array.isArray(ctx.state.penalties) ? ctx.state : null;
  const rule = st ? roundRule(st, roundEvent.round) : "the fewest medinas built lose points; a tie goes to the dearer medina";
  return [{ label: "Medina", values, title: `Medina, scoring round ${roundEvent.round}: ${rule}.` }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  if (!Array.isArray(st.participants)) return null;
  const who = st.participants.filter((p) => p.seat >= 0);
  return (st.next ? `Round ${st.next}: ` : "") + who.map((p) => `${ctx.seatName(p.seat)} ${n(p.medinas.length, "medina", "medinas")}`).join(" · ");
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, tileArt, tileName, scoring });
