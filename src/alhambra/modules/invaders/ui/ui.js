// Front-end plug-in of the Invaders (module invaders).
// The panel shows the invasion at a glance: the four invasion cards (the ones turned up with a
// compass and the arrow of the attack, the others face down; the top one face up for a viewer
// who scouted it, or always in the face-up variation), who has looked at the next card, the
// face-up scouts (a card in the building kind's colour: "buy a Garden with exact money to
// scout"), the points rule of the next invasion, and per player the unprotected sides towards
// each direction on a small compass (the viewer first), the known or still possible directions
// marked, with what the next invasion would take now. On every Alhambra the open outer sides are
// marked: red notches with an arrow towards the known direction, light ones on every open side
// while the direction is unknown. A badge marks a player who looked (the viewer's says where
// from); the log names the four events in words; the scoring breakdown gets a row "Invasion from
// the north" with the points each player lost right after that round.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "invaders";
const DIRS = ["north", "east", "south", "west"];
const STEP = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };
const LETTER = { north: "N", east: "E", south: "S", west: "W" };
const ROT = { north: 0, east: 90, south: 180, west: 270 };
const RED = "#b3261e";
const BACK = "#2f3e55";
const GOLD = "#e9c46a";

const cap = (w) => (w ? w.charAt(0).toUpperCase() + w.slice(1) : "");
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
const ordinal = (n) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
const minus = (n) => (n > 0 ? `−${n}` : "0");
const kindName = (ctx, k) => (ctx.art.KIND_NAMES && ctx.art.KIND_NAMES[k]) || cap(k);
const article = (w) => (/^[aeiou]/i.test(w) ? "an" : "a");

/** The two directions beside `d` (north: west and east). */
function beside(d) {
  const i = DIRS.indexOf(d);
  return [DIRS[(i + 3) % 4], DIRS[(i + 1) % 4]];
}

/** The module's view, or null when it is not this module's shape. */
function stateOf(ctx) {
  const st = ctx.state;
  return st && Array.isArray(st.revealed) && Array.isArray(st.exposure) ? st : null;
}

/** Points per open side of round `r` (1-3): {main, beside}. */
function pointsOf(st, r) {
  const p = st.points || {};
  return { main: (p.main || [1, 2, 3])[r - 1] || 0, beside: (p.beside || [0, 0, 1])[r - 1] || 0 };
}

/** What an invasion from `d` after round `r` takes from open sides `ex` (before the floor at 0). */
function loss(st, ex, d, r) {
  const p = pointsOf(st, r);
  const [a, b] = beside(d);
  return p.main * (ex[d] || 0) + p.beside * ((ex[a] || 0) + (ex[b] || 0));
}

/** The directions the next invasion may come from: the known top card, else every card left. */
function possible(st) {
  if (st.top) return [st.top];
  return DIRS.filter((d) => !st.revealed.includes(d));
}

/** The rule of round `r` in words. */
function ruleText(st, r) {
  const p = pointsOf(st, r);
  const main = `${plural(p.main, "point", "points")} per open side facing the attack`;
  return p.beside ? `${main}, ${plural(p.beside, "point", "points")} per open side facing either neighbouring direction` : main;
}

// ------------------------------------------------------------------------------ art
/** An arrow from the edge of a circle (centre cx, cy, radius r) towards the centre, coming
 * from direction `d`: the invaders' attack. */
function attackArrow(ctx, cx, cy, r, d, colour = RED, width = 4) {
  const svg = ctx.svg;
  const g = svg("g", { transform: `rotate(${ROT[d]} ${cx} ${cy})`, class: "inv-arrow", "data-direction": d });
  g.appendChild(svg("path", { d: `M${cx} ${cy - r} V${cy - r * 0.28}`, stroke: colour, "stroke-width": width, "stroke-linecap": "round", fill: "none" }));
  const tip = cy - r * 0.12;
  const w = width * 1.9;
  g.appendChild(svg("path", { d: `M${cx - w} ${tip - w * 1.5} L${cx} ${tip} L${cx + w} ${tip - w * 1.5} Z`, fill: colour, stroke: ctx.art.INK, "stroke-width": 0.8, "stroke-linejoin": "round" }));
  return g;
}

/** A compass rose: a ring, the four letters, a small star. */
function compassRose(ctx, cx, cy, r) {
  const { INK, CREAM, svgText } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "inv-rose" });
  g.appendChild(svg("circle", { cx, cy, r, fill: CREAM, stroke: INK, "stroke-width": 1.4 }));
  g.appendChild(svg("circle", { cx, cy, r: r * 0.62, fill: "none", stroke: INK, "stroke-width": 0.6, "stroke-dasharray": "1.5 1.5" }));
  g.appendChild(svg("path", { d: `M${cx} ${cy - r * 0.4} L${cx + r * 0.1} ${cy - r * 0.1} L${cx + r * 0.4} ${cy} L${cx + r * 0.1} ${cy + r * 0.1} L${cx} ${cy + r * 0.4} L${cx - r * 0.1} ${cy + r * 0.1} L${cx - r * 0.4} ${cy} L${cx - r * 0.1} ${cy - r * 0.1} Z`, fill: "#c9b58a", stroke: INK, "stroke-width": 0.6 }));
  const at = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };
  for (const d of DIRS) {
    const [dx, dy] = at[d];
    g.appendChild(svgText(cx + dx * r * 0.8, cy + dy * r * 0.8 + r * 0.1, LETTER[d], { "font-size": r * 0.3, "font-weight": 700 }));
  }
  return g;
}

/** An invasion card face up: parchment in a red frame, a compass with the arrow of the attack
 * from `d`, the direction's name. `note` marks a card not turned up yet ("you scouted"). */
function invasionCard(ctx, d, width = 46, note = "") {
  const { INK, PAPER, cardShell, svgText } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(`Invasion card: the invaders come from the ${d}${note ? ` (${note})` : ""}`, width);
  s.classList.add("inv-card");
  s.dataset.direction = d;
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: RED, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: PAPER, stroke: INK, "stroke-width": 1 }));
  s.appendChild(compassRose(ctx, 30, 36, 20));
  s.appendChild(attackArrow(ctx, 30, 36, 27, d, RED, 3.6));
  s.appendChild(svgText(30, 72, cap(d), { "font-size": 10, "font-weight": 700 }));
  return s;
}

/** Two crossed swords (the backs, the badge of a revealed invasion), centred at cx, cy. */
function swords(ctx, cx, cy, size, colour) {
  const svg = ctx.svg;
  const g = svg("g", { transform: `translate(${cx} ${cy}) scale(${size / 40})` });
  for (const turn of [45, -45]) {
    const s = svg("g", { transform: `rotate(${turn})` });
    s.appendChild(svg("path", { d: "M0 -24 L2.6 -19 V9 H-2.6 V-19 Z", fill: colour, stroke: ctx.art.INK, "stroke-width": 0.9, "stroke-linejoin": "round" }));
    s.appendChild(svg("path", { d: "M-8 9.5 H8", stroke: colour, "stroke-width": 3.2, "stroke-linecap": "round" }));
    s.appendChild(svg("path", { d: "M0 11 V18", stroke: ctx.art.INK, "stroke-width": 3, "stroke-linecap": "round" }));
    s.appendChild(svg("circle", { cx: 0, cy: 20.5, r: 2.4, fill: colour, stroke: ctx.art.INK, "stroke-width": 0.8 }));
    g.appendChild(s);
  }
  return g;
}

/** The back of an invasion card: night blue with gold crossed swords. */
function invasionBack(ctx, width = 46, label = "an invasion card, face down") {
  const { INK, cardShell } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(label, width);
  s.classList.add("inv-back");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: BACK, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 6.5, y: 6.5, width: 47, height: 71, rx: 4, fill: "none", stroke: GOLD, "stroke-width": 1.2, "stroke-dasharray": "3 2" }));
  s.appendChild(swords(ctx, 30, 42, 46, GOLD));
  return s;
}

/** A spyglass (the scouts), drawn in a 20 x 20 box at x, y scaled by `k`. */
function spyglass(ctx, x, y, k, colour = GOLD) {
  const svg = ctx.svg;
  const g = svg("g", { transform: `translate(${x} ${y}) scale(${k})` });
  g.appendChild(svg("path", { d: "M2 14 L13 5 L16.5 9.5 L5.5 18 Z", fill: colour, stroke: ctx.art.INK, "stroke-width": 1.1, "stroke-linejoin": "round" }));
  g.appendChild(svg("path", { d: "M12 4 L16 1.5 L19.5 6 L16.5 9.5 Z", fill: "#8a6a3a", stroke: ctx.art.INK, "stroke-width": 1.1, "stroke-linejoin": "round" }));
  g.appendChild(svg("path", { d: "M7 10 L10.5 14.5", stroke: ctx.art.INK, "stroke-width": 1, fill: "none" }));
  return g;
}

/** A scout card: in the colour of its building kind, a scout on a battlement with a spyglass,
 * the kind's name. */
function scoutCard(ctx, kind, width = 46) {
  const { INK, PAPER, CREAM, KIND_COLORS, cardShell, svgText } = ctx.art;
  const svg = ctx.svg;
  const colour = KIND_COLORS[kind] || "#b0a48a";
  const name = kindName(ctx, kind);
  const s = cardShell(`Scout of the ${name}: buy ${article(name)} ${name} tile with exact money to look at the next invasion card`, width);
  s.classList.add("inv-scout");
  s.dataset.kind = kind;
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: colour, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: PAPER, stroke: INK, "stroke-width": 1 }));
  // the sky, the battlement, the scout looking out
  s.appendChild(svg("rect", { x: 9, y: 9, width: 42, height: 46, rx: 3, fill: "#cfe3f1" }));
  s.appendChild(svg("path", { d: "M9 55 V40 H15 V36 H21 V40 H27 V36 H33 V40 H39 V36 H45 V40 H51 V55 Z", fill: colour, stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" }));
  s.appendChild(svg("path", { d: "M22 40 Q22 27 30 26 Q38 27 38 40 Z", fill: "#7a5a3a", stroke: INK, "stroke-width": 1.1 }));
  s.appendChild(svg("circle", { cx: 30, cy: 23, r: 5.2, fill: "#e7b98a", stroke: INK, "stroke-width": 1 }));
  s.appendChild(svg("path", { d: "M24.5 22 Q30 14 35.5 22 Z", fill: CREAM, stroke: INK, "stroke-width": 0.9 }));
  s.appendChild(spyglass(ctx, 31, 12, 0.85));
  s.appendChild(svgText(30, 68, name, { "font-size": name.length > 8 ? 7.5 : 9, "font-weight": 700 }));
  return s;
}

/** The badge's spyglass. */
function scoutIcon(ctx, size = 16) {
  const s = ctx.svg("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true", class: "inv-icon" });
  s.appendChild(spyglass(ctx, 0, 0, 1));
  return s;
}

/** A seat's small compass: a square (the Alhambra) with the open sides towards each direction
 * around it; the known direction in red with an arrow, directions still possible in ink, the
 * others faded. */
function exposureCompass(ctx, ex, marks, size = 64) {
  const { INK, svgText } = ctx.art;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "0 0 64 64", width: size, height: size, "aria-hidden": "true", class: "inv-compass" });
  s.appendChild(svg("rect", { x: 23, y: 23, width: 18, height: 18, rx: 3, fill: "#e8d7a5", stroke: INK, "stroke-width": 1.2 }));
  s.appendChild(svg("circle", { cx: 32, cy: 32, r: 4, fill: "#5aa3d6", stroke: INK, "stroke-width": 0.8 }));
  const at = { north: [32, 13], east: [53, 36], south: [32, 59], west: [11, 36] };
  for (const d of DIRS) {
    const mark = marks[d];
    const [x, y] = at[d];
    if (mark === "known") s.appendChild(attackArrow(ctx, 32, 32, 13.5, d, RED, 2.2));
    s.appendChild(svgText(x, y, String(ex[d] ?? 0), {
      "font-size": 14, "font-weight": mark === "known" ? 800 : 600, fill: mark === "known" ? RED : INK,
      opacity: mark === "past" ? 0.4 : 1, class: `inv-num ${mark}`, "data-direction": d,
    }));
  }
  return s;
}

// ------------------------------------------------------------------------------ the panel
/** Per direction: "known" (the next invasion comes from there), "open" (it may, or it costs
 * points as a neighbouring direction after round 3), "past" (it cannot matter next time: turned
 * up already, or not the known one). */
function marksOf(st) {
  const may = possible(st);
  const wide = st.next ? pointsOf(st, st.next).beside > 0 : false;
  const near = st.top && wide ? beside(st.top) : [];
  return Object.fromEntries(DIRS.map((d) => {
    if (st.top === d) return [d, "known"];
    if (near.includes(d) || (!st.top && (wide || may.includes(d)))) return [d, "open"];
    return [d, "past"];
  }));
}

/** The invasion cards in a row: those turned up by round, then the pile (the top card face up
 * when the viewer may see it). */
function cardsRow(ctx, st) {
  const h = ctx.h;
  const items = st.revealed.map((d, i) => h("figure", { class: "inv-slot revealed", dataset: { round: i + 1, direction: d }, title: `After scoring round ${i + 1} the invaders came from the ${d}` },
    invasionCard(ctx, d), h("figcaption", { text: `Round ${i + 1}` })));
  const left = Number(st.left) || 0;
  for (let i = 0; i < left; i++) {
    const top = i === 0;
    if (top && st.top) {
      const note = st.face_up ? "face up" : "you scouted";
      items.push(h("figure", { class: "inv-slot top shown", dataset: { direction: st.top }, title: `The next invasion comes from the ${st.top} (${note})` },
        invasionCard(ctx, st.top, 46, note), h("figcaption", { class: "inv-note", text: note })));
    } else {
      const label = top ? "the next invasion card, face down" : "an invasion card, face down";
      items.push(h("figure", { class: `inv-slot ${top ? "top" : ""} hidden` }, invasionBack(ctx, 46, label),
        h("figcaption", { text: top && st.next ? "Next" : "" })));
    }
  }
  return h("div", { class: "inv-cards", role: "list", "aria-label": "Invasion cards" }, ...items.map((it) => { it.setAttribute("role", "listitem"); return it; }));
}

/** Who has looked at the next invasion card (badges), or null. */
function lookers(ctx, st) {
  const seats = st.known.map((k, s) => (k ? s : null)).filter((s) => s !== null);
  if (!seats.length || st.face_up) return null;
  const h = ctx.h;
  return h("p", { class: "inv-lookers" }, h("span", { class: "muted", text: "Looked at the next card: " }),
    ...seats.map((s) => h("span", { class: `inv-looker ${s === ctx.me ? "me" : ""}`, dataset: { seat: s } },
      h("span", { class: "swatch", style: `background:${ctx.seatColor(s)}` }), scoutIcon(ctx, 13), h("span", { text: s === ctx.me ? "you" : ctx.seatName(s) }))));
}

/** The face-up scouts with what a scout needs, or a line that there are none. */
function scoutsBlock(ctx, st) {
  const h = ctx.h;
  if (st.face_up) return h("p", { class: "muted inv-help", text: "Variation: the next invasion card lies face up; no scouts." });
  if (st.next === null || st.next === undefined) return null;
  const kinds = Array.isArray(st.scouts) ? st.scouts : [];
  const left = Number(st.scouts_left) || 0;
  const tail = st.next < 3 ? `${plural(left, "scout", "scouts")} left in the pile; new ones after this round.` : "The last scouts.";
  if (!kinds.length) return h("p", { class: "muted inv-help", text: `No scout lies face up. ${tail}` });
  return h("div", { class: "inv-scouts" },
    h("div", { class: "inv-scout-cards", role: "list", "aria-label": "Face-up scouts" },
      ...kinds.map((k) => h("figure", { class: "inv-scout-slot", role: "listitem", dataset: { kind: k } }, scoutCard(ctx, k),
        h("figcaption", { text: `Buy ${article(kindName(ctx, k))} ${kindName(ctx, k)} tile with exact money to scout` })))),
    h("p", { class: "muted inv-help", text: tail }));
}

/** One row per seat (the viewer first): its compass of open sides and what the next invasion
 * would take now (exact when the direction is known, else the range over the cards left). */
function exposureRows(ctx, st) {
  const h = ctx.h;
  const n = st.exposure.length;
  const order = [...Array(n).keys()];
  if (ctx.me !== null && ctx.me !== undefined && ctx.me >= 0 && ctx.me < n) order.sort((a, b) => (a === ctx.me ? -1 : b === ctx.me ? 1 : a - b));
  const marks = marksOf(st);
  const r = st.next;
  return h("div", { class: "inv-seats", role: "list", "aria-label": "Unprotected sides per player" }, ...order.map((s) => {
    const ex = st.exposure[s] || {};
    const sides = DIRS.map((d) => `${d} ${ex[d] ?? 0}`).join(", ");
    let now = "";
    let nowText = "";
    if (r) {
      const losses = possible(st).map((d) => loss(st, ex, d, r));
      const lo = Math.min(...losses);
      const hi = Math.max(...losses);
      now = lo === hi ? minus(lo) : `${minus(lo)} to ${minus(hi)}`;
      nowText = st.top ? `an invasion from the ${st.top} would take ${plural(lo, "point", "points")} now`
        : `the next invasion would take ${lo === hi ? plural(lo, "point", "points") : `${lo} to ${hi} points`} now`;
    }
    const who = s === ctx.me ? "You" : ctx.seatName(s);
    return h("div", { class: `inv-seat ${s === ctx.me ? "me" : ""}`, role: "listitem", dataset: { seat: s }, title: `${who}: unprotected sides ${sides}${nowText ? `; ${nowText}` : ""}` },
      h("div", { class: "inv-who" }, h("span", { class: "swatch", style: `background:${ctx.seatColor(s)}` }), h("span", { class: "inv-name", text: ctx.seatName(s) })),
      exposureCompass(ctx, ex, marks, 66),
      r ? h("div", { class: `inv-now ${now !== "0" ? "losing" : ""}`, title: nowText, text: now }) : null);
  }));
}

function panel(ctx) {
  const st = stateOf(ctx);
  if (!st) return null;
  const h = ctx.h;
  const r = st.next;
  let rule;
  if (r) {
    const where = st.top ? `from the ${st.top}${st.face_up ? "" : " (you scouted it)"}` : `from one of ${possible(st).join(", ")}`;
    rule = h("p", { class: "inv-rule", dataset: { round: r } }, h("strong", { text: `After scoring round ${r}: ` }),
      `${ruleText(st, r)}. The invasion comes ${where}; a score never goes below 0.`);
  } else {
    rule = h("p", { class: "inv-rule muted", text: "All three invasions are over." });
  }
  return h("div", { class: "inv-panel" },
    cardsRow(ctx, st),
    lookers(ctx, st),
    rule,
    scoutsBlock(ctx, st),
    h("h3", { class: "inv-sub", text: "Unprotected sides" }),
    exposureRows(ctx, st),
    r ? h("p", { class: "muted inv-help", text: "Numbers: open sides facing each direction (no wall, no tile beyond), marked red on the Alhambras. Under each: what the next invasion would take now." }) : null);
}

// ------------------------------------------------------------------------------ the board
/** Wall letters of a tile code ("F", the fountain: none). */
function wallsOf(ctx, code) {
  const t = ctx.catalogue && ctx.catalogue.tiles && Object.hasOwn(ctx.catalogue.tiles, code) ? ctx.catalogue.tiles[code] : null;
  if (t) return t.walls || "";
  return ctx.art.tileFacts ? ctx.art.tileFacts(code, ctx.catalogue).walls || "" : "";
}

/** A notch on the side `d` of a cell (100 x 100 units): a red band along the edge, and with
 * `strong` an arrowhead pointing in (the attack). */
function notch(ctx, d, strong) {
  const svg = ctx.svg;
  const g = svg("g", { transform: `rotate(${ROT[d]} 50 50)`, class: `inv-notch ${strong ? "strong" : "light"}`, "data-direction": d });
  if (strong) {
    g.appendChild(svg("path", { d: "M26 1 H74 V7 H26 Z", fill: RED, stroke: "#fff", "stroke-width": 1.2, "stroke-linejoin": "round" }));
    g.appendChild(svg("path", { d: "M41 5 L50 17 L59 5 Z", fill: RED, stroke: "#fff", "stroke-width": 1.2, "stroke-linejoin": "round" }));
  } else {
    g.appendChild(svg("path", { d: "M32 1.5 H68", stroke: RED, "stroke-width": 4, "stroke-linecap": "round", opacity: 0.6 }));
  }
  return g;
}

/** The open outer sides of the Alhambra of `seat`: towards the known direction strongly (and
 * lightly towards its neighbours when they cost points too), lightly towards every direction
 * the next invasion may come from (or cost points from) while it is unknown; nothing once the
 * invasions are over. */
function boardOverlay(ctx, seat) {
  const st = stateOf(ctx);
  if (!st || !st.next || !ctx.view || !ctx.view.seats || !ctx.view.seats[seat]) return null;
  const city = ctx.view.seats[seat].alhambra || [];
  const taken = new Set(city.map((c) => `${c.x},${c.y}`));
  const marks = marksOf(st);
  const show = Object.fromEntries(DIRS.filter((d) => marks[d] !== "past").map((d) => [d, marks[d] === "known" ? "strong" : "light"]));
  const items = [];
  for (const c of city) {
    const walls = wallsOf(ctx, c.tile);
    const open = DIRS.filter((d) => show[d] && !walls.includes(d[0]) && !taken.has(`${c.x + STEP[d][0]},${c.y + STEP[d][1]}`));
    if (!open.length) continue;
    const g = ctx.svg("g", { class: "inv-open" });
    for (const d of open) g.appendChild(notch(ctx, d, show[d] === "strong"));
    const who = seat === ctx.me ? "your Alhambra" : `${ctx.seatName(seat)}'s Alhambra`;
    items.push({ x: c.x, y: c.y, node: g, className: "inv-open-sides", title: `Open to the ${open.join(" and ")}: no wall and no tile beyond (${who})` });
  }
  return items;
}

// ------------------------------------------------------------------------------ badges, log, scoring
function seatBadges(ctx, seat) {
  const st = stateOf(ctx);
  if (!st || st.face_up || !st.known[seat]) return null;
  const mine = seat === ctx.me && st.top;
  return {
    text: mine ? `scouted: ${st.top}` : "scouted",
    title: mine
      ? `You looked at the next invasion card: the invaders come from the ${st.top}.`
      : `${ctx.seatName(seat)} looked at the next invasion card.`,
    className: `inv-badge ${mine ? "mine" : ""}`,
    icon: scoutIcon(ctx, 14),
  };
}

function names(ctx, kinds) {
  const words = kinds.map((k) => kindName(ctx, k));
  return words.length <= 1 ? words.join("") : `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

function describeEvent(ctx, e) {
  switch (e.type) {
    case "ScoutsTurnedUp": {
      const gone = e.removed && e.removed.length ? `The ${names(ctx, e.removed)} ${e.removed.length > 1 ? "scouts leave" : "scout leaves"} the game. ` : "";
      if (!e.kinds || !e.kinds.length) return `${gone}No scouts are left.`;
      return `${gone}Scouts turned up: ${names(ctx, e.kinds)} (buy a building of such a kind with exact money to look at the next invasion card).`;
    }
    case "InvasionScouted": {
      const kind = kindName(ctx, e.kind);
      if (e.direction) return `${ctx.seatName(e.seat)} takes the ${kind} scout and looks at the next invasion card: the invaders come from the ${e.direction}.`;
      return `${ctx.seatName(e.seat)} takes the ${kind} scout and looks at the next invasion card in secret.`;
    }
    case "InvasionCardShown": return `The next invasion card lies face up: the invaders will come from the ${e.direction}.`;
    case "InvasionRevealed": {
      const who = (e.lost || []).map((v, s) => `${ctx.seatName(s)} ${v ? `loses ${plural(v, "point", "points")}` : "loses nothing"} (${plural((e.sides || [])[s] || 0, "open side", "open sides")})`);
      return `Invasion from the ${e.direction} after scoring round ${e.round}: ${who.join(", ")}.`;
    }
    default: return null;
  }
}

/** The row of a round's breakdown: the invasion right after it (from its event in the log). */
function scoring(ctx, roundEvent) {
  if (!roundEvent || !Array.isArray(ctx.events)) return null;
  const inv = ctx.events.find((e) => e.type === "InvasionRevealed" && e.round === roundEvent.round);
  if (!inv) return null;
  const st = stateOf(ctx);
  const rule = st ? ruleText(st, inv.round) : "points per open side facing the attack";
  const sides = (inv.sides || []).map((v, s) => `${ctx.seatName(s)} ${v}`).join(", ");
  return [{
    label: `Invasion from the ${inv.direction}`,
    values: (inv.lost || []).map((v) => (v ? -v : 0)),
    title: `Right after scoring round ${inv.round} the invaders came from the ${inv.direction}: ${rule} (open sides facing it: ${sides}; never below 0). Taken right after the round: included in "This round" and "Total".`,
  }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  if (st.next === null || st.next === undefined) return "All three invasions are over.";
  return `Next invasion after round ${st.next}` + (st.top ? ` from the ${st.top}` : "") + ` · ${st.left} invasion cards left`;
}

window.Alhambra.registerModule(ID, { summary, panel, boardOverlay, seatBadges, describeEvent, scoring });
