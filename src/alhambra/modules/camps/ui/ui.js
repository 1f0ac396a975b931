// Front-end plug-in of the Camps (module camps).
// A camp is drawn in the house style as a green meadow tile with two striped tents and its
// price; each bastion is a black crenellated wall on its side with a yellow arrow pointing out
// of it, the direction in which the camp scores. The table uses this art wherever a camp appears
// (market, reserve boards, tiles waiting to be placed). Camps stand outside the city: on every
// Alhambra the plug-in draws each camp on its place and, for each arrow, a dashed yellow line over
// the buildings it scores with the number of points at its end, so a player sees at a glance what
// every camp earns. Where the viewer may build a camp (a bought camp, or one from the reserve
// board), the legal places show a faded camp to click; moving a camp to the reserve board or
// exchanging two camps are buttons. The panel lists each player's camps and their points per round.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "camps";
const GRASS = "#8fbf5a";
const GRASS_DARK = "#5f8f3a";
const ARROW = "#f2c200";
const SIDE_WORDS = { n: "north", e: "east", s: "south", w: "west" };
const STEP = { n: [0, -1], e: [1, 0], s: [0, 1], w: [-1, 0] };
const KEYWORDS = { "camp place": "place", "camp build": "build", "camp remove": "remove", "camp exchange": "exchange" };

// ------------------------------------------------------------------ facts and words
/** A camp's facts by its code ("L8ne" -> {price: 8, bastions: "ne"}: the catalogue's), or null. */
function campOf(ctx, code) {
  const tiles = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles : null;
  const t = tiles && Object.hasOwn(tiles, code) ? tiles[code] : null;
  if (tiles && (!t || t.module !== ID)) return null;
  if (t) return { code, price: t.price, bastions: t.walls };  // the catalogue's facts (a camp's walls are its bastions)
  const m = /^L(\d+)([nesw]+)$/.exec(code || "");  // no catalogue yet: the code says price and bastions
  return m ? { code, price: Number(m[1]), bastions: m[2] } : null;
}

function sidesText(letters) {
  const words = [...letters].map((c) => SIDE_WORDS[c]);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}` : words[0] || "";
}

function tileName(ctx, code) {
  const c = campOf(ctx, code);
  if (!c) return null;
  return `camp ${c.price} (bastion${c.bastions.length > 1 ? "s" : ""} ${sidesText(c.bastions)})`;
}

/** A camps action as {type, camp, x, y, other, action}, read from the structured legal action the
 * server sends (ctx.move: keyword and typed arguments, never the notation); null for anything else. */
function parse(ctx, notation) {
  const mv = ctx.move ? ctx.move(notation) : null;
  const type = mv ? KEYWORDS[mv.keyword] : undefined;
  if (!type) return null;
  const [first, second] = mv.args.map((a) => a.value);
  if (type === "place" || type === "build") return { type, camp: first, x: second.x, y: second.y, action: notation };
  if (type === "remove") return { type, camp: first, action: notation };
  return { type, camp: first, other: second, action: notation };
}

const where = (ctx, x, y) => (ctx.placeText ? ctx.placeText(x, y) : `${x},${y}`);

// ------------------------------------------------------------------ art
/** One tent: a striped triangle with a pole, its base centred at cx,cy. */
function tent(ctx, cx, cy, w, colour) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "camp-tent" });
  const h = w * 0.8;
  g.appendChild(svg("path", { d: `M${cx - w / 2} ${cy} L${cx} ${cy - h} L${cx + w / 2} ${cy} Z`, fill: CREAM, stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round" }));
  g.appendChild(svg("path", { d: `M${cx - w / 4} ${cy} L${cx} ${cy - h} L${cx + w / 4} ${cy} Z`, fill: colour, stroke: INK, "stroke-width": 1, "stroke-linejoin": "round" }));
  g.appendChild(svg("path", { d: `M${cx} ${cy - h} V${cy - h - 6}`, stroke: INK, "stroke-width": 1.4 }));
  g.appendChild(svg("path", { d: `M${cx} ${cy - h - 6} l5 2 l-5 2`, fill: "#c0392b", stroke: "none" }));
  return g;
}

/** A bastion on side `side` (n/e/s/w): a black crenellated wall and a yellow arrow pointing out. */
function bastion(ctx, side) {
  const { INK } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "camp-bastion", "data-side": side });
  // drawn for the north side, then turned
  const turn = { n: 0, e: 90, s: 180, w: 270 }[side];
  const inner = svg("g", { transform: `rotate(${turn} 50 50)` });
  inner.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 11, fill: INK }));
  for (let i = 0; i < 6; i++) inner.appendChild(svg("rect", { x: 6 + i * 16, y: 13, width: 8, height: 5, fill: INK }));
  // the arrow: from the camp's middle out through the bastion
  inner.appendChild(svg("path", { d: "M50 44 V14", stroke: ARROW, "stroke-width": 6, "stroke-linecap": "round" }));
  inner.appendChild(svg("path", { d: "M38 20 L50 3 L62 20 Z", fill: ARROW, stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round" }));
  g.appendChild(inner);
  return g;
}

/** The camp tile as a group in 100 x 100 units. */
function campGroup(ctx, c) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "tile kind-camp", "data-camp": c.code });
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: GRASS, stroke: GRASS_DARK, "stroke-width": 3 }));
  for (const [x, y] of [[18, 74], [78, 30], [26, 34], [72, 80]]) {
    g.appendChild(svg("path", { d: `M${x} ${y} l3 -6 l3 6`, fill: "none", stroke: GRASS_DARK, "stroke-width": 1.4 }));
  }
  g.appendChild(tent(ctx, 38, 72, 30, "#c0392b"));
  g.appendChild(tent(ctx, 64, 66, 24, "#2e6fb0"));
  for (const side of c.bastions) g.appendChild(bastion(ctx, side));
  // the price, in the corner without a bastion (north-west unless a bastion is there)
  const corner = !c.bastions.includes("n") && !c.bastions.includes("w") ? [20, 22] : !c.bastions.includes("s") && !c.bastions.includes("w") ? [20, 80] : !c.bastions.includes("s") && !c.bastions.includes("e") ? [80, 80] : [80, 22];
  g.appendChild(svg("circle", { cx: corner[0], cy: corner[1], r: 11, fill: CREAM, stroke: INK, "stroke-width": 1.6 }));
  g.appendChild(ctx.art.svgText(corner[0], corner[1] + 5, String(c.price), { "font-size": 15, "font-weight": 700 }));
  return g;
}

function tileArt(ctx, code, size = 64) {
  const c = campOf(ctx, code);
  if (!c) return null;
  const s = ctx.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": tileName(ctx, code), class: "camp-tile", "data-module": ID, "data-camp": code });
  const t = ctx.svg("title");
  t.textContent = `${tileName(ctx, code)}: built outside the city, a bastion against a city wall; each arrow scores the buildings in line behind it`;
  s.appendChild(t);
  s.appendChild(campGroup(ctx, c));
  return s;
}

/** A small tent for badges. */
function campIcon(ctx, size = 14) {
  const s = ctx.svg("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true", class: "camp-icon" });
  s.appendChild(ctx.svg("rect", { x: 0.5, y: 0.5, width: 19, height: 19, rx: 3, fill: GRASS, stroke: GRASS_DARK }));
  s.appendChild(ctx.svg("path", { d: "M4 16 L10 4 L16 16 Z", fill: ctx.art.CREAM, stroke: ctx.art.INK, "stroke-width": 1.2 }));
  s.appendChild(ctx.svg("rect", { x: 1, y: 1, width: 18, height: 3, fill: ctx.art.INK }));
  return s;
}

/** A placed camp with its scoring lines: the camp, and per arrow a dashed yellow line over the
 * buildings it counts with the points at its end. */
function placedGroup(ctx, p) {
  const svg = ctx.svg;
  const g = svg("g", { class: "camp-placed" });
  g.appendChild(campGroup(ctx, { code: p.camp, price: Number(/^L(\d+)/.exec(p.camp)[1]), bastions: p.bastions }));
  for (const [side, n] of Object.entries(p.arrows || {})) {
    const [dx, dy] = STEP[side];
    if (n > 0) {
      g.appendChild(svg("path", {
        d: `M${50 + dx * 50} ${50 + dy * 50} L${50 + dx * (n * 100 + 20)} ${50 + dy * (n * 100 + 20)}`,
        stroke: ARROW, "stroke-width": 7, "stroke-dasharray": "14 9", "stroke-linecap": "round", opacity: 0.85, class: "camp-line", "data-side": side,
      }));
    }
    const bx = 50 + dx * (n > 0 ? n * 100 + 42 : 64);
    const by = 50 + dy * (n > 0 ? n * 100 + 42 : 64);
    g.appendChild(svg("circle", { cx: bx, cy: by, r: 15, fill: ARROW, stroke: ctx.art.INK, "stroke-width": 2, class: "camp-points" }));
    g.appendChild(ctx.art.svgText(bx, by + 6, `+${n}`, { "font-size": 16, "font-weight": 700, class: "camp-points-text" }));
  }
  return g;
}

function pickGroup(ctx, c, chosen) {
  const svg = ctx.svg;
  const g = svg("g", { class: `camp-pick-mark ${chosen ? "chosen" : ""}` });
  const ghost = campGroup(ctx, c);
  ghost.setAttribute("opacity", chosen ? "0.95" : "0.55");
  g.appendChild(ghost);
  g.appendChild(svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 8, fill: "none", stroke: "#e0a800", "stroke-width": 5, "stroke-dasharray": "10 6" }));
  return g;
}

// ------------------------------------------------------------------ choosing
function moves(ctx, actions) {
  return (actions || ctx.legal || []).map((n) => parse(ctx, n)).filter(Boolean);
}

/** The plug-in's selection: the camp chosen to build when several could be. */
function chosenCamp(ctx) {
  const s = ctx.selection;
  return s && typeof s === "object" && s.camps ? s.camp : null;
}

function builds(ctx, actions) {
  return moves(ctx, actions).filter((a) => a.type === "place" || a.type === "build");
}

function boardOverlay(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.placed) || !Array.isArray(st.placed[seat])) return null;
  const items = st.placed[seat].map((p) => {
    const total = Object.values(p.arrows || {}).reduce((a, b) => a + b, 0);
    return {
      x: p.x, y: p.y, node: placedGroup(ctx, p), className: "camp-placed-item",
      title: `${ctx.seatName(seat)}'s ${tileName(ctx, p.camp)} ${where(ctx, p.x, p.y)}: ${total} point${total === 1 ? "" : "s"} in every scoring round`,
    };
  });
  if (seat === ctx.me && ctx.myTurn) {
    const list = builds(ctx);
    const pick = chosenCamp(ctx);
    const codes = [...new Set(list.map((a) => a.camp))];
    const shown = list.filter((a) => (pick ? a.camp === pick : codes.length === 1));
    for (const a of shown) {
      const c = campOf(ctx, a.camp);
      items.push({
        x: a.x, y: a.y, node: pickGroup(ctx, c, false), className: "camp-pick",
        label: describeAction(ctx, a.action),
        pick: () => { ctx.select(null); ctx.act(a.action, describeAction(ctx, a.action)); },
      });
    }
  }
  return items;
}

function actionControls(ctx, actions) {
  const list = moves(ctx, actions);
  if (!list.length) return null;
  const h = ctx.h;
  const parts = [];
  const placing = builds(ctx, actions);
  if (placing.length) {
    const codes = [...new Set(placing.map((a) => a.camp))];
    const pick = chosenCamp(ctx) || (codes.length === 1 ? codes[0] : null);
    const fromReserve = placing.every((a) => a.type === "build");
    parts.push(h("p", { class: "camp-title" }, campIcon(ctx, 18),
      h("strong", { text: fromReserve ? " Redesign: build a camp from your reserve board" : " Build your camp outside the city walls" }),
      h("span", { class: "muted", text: " — a bastion against a city wall; its arrows score the buildings in line." })));
    if (codes.length > 1) {
      parts.push(h("div", { class: "button-row camp-choices" }, ...codes.map((code) => h("button", {
        class: `secondary camp-choose ${pick === code ? "selected" : ""}`, dataset: { camp: code }, "aria-pressed": pick === code ? "true" : "false",
        onclick: () => ctx.select(pick === code ? null : { camps: true, camp: code }),
      }, tileArt(ctx, code, 26), h("span", { text: tileName(ctx, code) })))));
    }
    const n = pick ? placing.filter((a) => a.camp === pick).length : 0;
    parts.push(h("p", { class: "muted camp-where", text: pick ? (n === 1 ? "Click the faded camp on your Alhambra." : `Click one of the ${n} faded camps on your Alhambra.`) : "Choose a camp, then click a faded camp on your Alhambra." }));
  }
  for (const a of list.filter((b) => b.type === "remove" || b.type === "exchange")) {
    parts.push(h("div", { class: "button-row camp-redesign" }, h("button", {
      class: "secondary", dataset: { action: a.action }, onclick: () => ctx.act(a.action, describeAction(ctx, a.action)),
    }, tileArt(ctx, a.type === "remove" ? a.camp : a.other, 22), h("span", { text: describeAction(ctx, a.action) }))));
  }
  return { node: h("div", { class: "camp-controls" }, ...parts), handled: list.map((a) => a.action) };
}

// ------------------------------------------------------------------ panel, badges, texts
function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.placed)) return null;
  const h = ctx.h;
  const rows = st.placed.map((row, seat) => h("li", { class: "camp-seat", dataset: { seat } },
    h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
    h("span", { class: "camp-seat-name", text: seat === ctx.me ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat) }),
    h("span", { class: "camp-owned" }, ...row.map((p) => tileArt(ctx, p.camp, 22))),
    h("span", { class: "camp-now", title: "what these camps score in every scoring round", text: `${st.points_now[seat]} pt${st.points_now[seat] === 1 ? "" : "s"}` })));
  return h("div", { class: "camp-panel" },
    h("p", { class: "muted camp-help", text: "Camps stand outside the city walls: a bastion only against a city wall, camps touch only by green sides. Every round each arrow scores 1 point per building in the straight line behind it." }),
    h("ul", { class: "camp-seats", "aria-label": "The players' camps" }, ...rows));
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  const row = st && Array.isArray(st.placed) ? st.placed[seat] : null;
  if (!row || !row.length) return null;
  const pts = st.points_now[seat];
  return {
    text: `${row.length} camp${row.length === 1 ? "" : "s"} +${pts}`,
    title: `${row.length} camp${row.length === 1 ? "" : "s"} outside the walls: ${pts} point${pts === 1 ? "" : "s"} in every scoring round`,
    className: "camp-badge",
    icon: campIcon(ctx, 14),
  };
}

function describeAction(ctx, notation) {
  const a = parse(ctx, notation);
  if (!a) return null;
  if (a.type === "place") return `Build the ${tileName(ctx, a.camp)} outside the city walls ${where(ctx, a.x, a.y)}`;
  if (a.type === "build") return `Redesign: build the ${tileName(ctx, a.camp)} from your reserve board ${where(ctx, a.x, a.y)}`;
  if (a.type === "remove") return `Redesign: move the ${tileName(ctx, a.camp)} to your reserve board`;
  return `Redesign: put the ${tileName(ctx, a.camp)} from your reserve board in place of the ${tileName(ctx, a.other)}`;
}

function describeEvent(ctx, e) {
  if (e.type === "CampPlaced") {
    return `${ctx.seatName(e.seat)} ${e.redesign ? "builds" : "places"} the ${tileName(ctx, e.camp)}${e.redesign ? " from the reserve board" : ""} outside the city walls ${where(ctx, e.x, e.y)}`;
  }
  if (e.type === "CampRemoved") {
    if (e.replaced_by) return `${ctx.seatName(e.seat)} exchanges the ${tileName(ctx, e.camp)} ${where(ctx, e.x, e.y)} for the ${tileName(ctx, e.replaced_by)}`;
    return `${ctx.seatName(e.seat)} moves the ${tileName(ctx, e.camp)} ${where(ctx, e.x, e.y)} to the reserve board`;
  }
  return null;
}

function scoring(ctx, roundEvent) {
  const pts = roundEvent && roundEvent.extra ? roundEvent.extra[ID] : null;
  if (!Array.isArray(pts)) return null;
  return [{ label: "Camps", values: pts.map((v) => (v > 0 ? `+${v}` : String(v))), title: "Camps: 1 point per building in the line of each arrow" }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.placed) ? seats((i) => `${n(st.placed[i].length, "camp", "camps")}, ${(st.points_now || [])[i] || 0} pts`) : null;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent, scoring, tileArt, tileName });
