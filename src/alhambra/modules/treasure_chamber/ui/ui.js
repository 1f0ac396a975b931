// Front-end plug-in of the Treasure Chamber (module treasure_chamber).
// Treasure chests are drawn in the house style: a wooden chest with a domed lid, brass bands and a
// lock, painted in the colour of its building kind. The panel shows the treasure chamber (three
// arched rooms with their chests; a room you can buy is a button that opens the table's payment
// picker), the bag (chests per colour), the chests on their way during a placement, and the
// standing (chests per player and Dirk, who leads, the points of the next scoring). The seat
// badges count each player's chests; every building holding a chest shows a small chest on the
// board. Controls: buy a room (panel or buttons, then the payment picker), put a chest into one
// of your buildings (click a highlighted building on your Alhambra, or a button).
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "treasure_chamber";
const KINDS = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];
const COLOUR_WORDS = { pavilion: "blue", seraglio: "red", arcades: "brown", chambers: "white", garden: "green", tower: "purple" };
const POINTS = [[7], [14, 7], [22, 14, 7]];
const WOOD = "#8a5a2b";
const BRASS = "#e0b84a";
const STONE = "#efe3c6";
const STONE_DARK = "#cdbb92";

// ------------------------------------------------------------------ facts and words
/** A treasure chamber action as {type, ...}, from the server's structured action (`ctx.move`:
 * keyword and arguments from the declared grammar); null for anything else. */
function parse(ctx, notation) {
  const m = ctx.move ? ctx.move(notation) : null;
  if (!m) return null;
  const arg = (type) => (m.args.find((a) => a.type === type) || {}).value;
  const item = arg("item");
  if (m.keyword === "buy" && typeof item === "string" && /^room\d$/.test(item)) return { type: "buy", room: Number(item.slice(4)), cards: arg("cards"), action: notation };
  if (m.keyword === "chest put") return { type: "put", x: arg("cell").x, y: arg("cell").y, action: notation };
  return null;
}

/** The chest colour of a building kind ("green" for garden). */
function colour(ctx, kind) {
  const c = ctx.state && ctx.state.colours;
  return (c && c[kind]) || COLOUR_WORDS[kind] || kind;
}

const byKind = (a, b) => KINDS.indexOf(a) - KINDS.indexOf(b);
const price = (ctx) => (ctx.state && Number.isInteger(ctx.state.price) ? ctx.state.price : 8);
const points = (ctx) => (ctx.state && Array.isArray(ctx.state.points) ? ctx.state.points : POINTS);
const cardsText = (ctx, cards) => cards.map(ctx.cardName).join(" + ");

/** "2 green, 1 purple and 1 blue" for a list of chests (kinds). */
function chestsText(ctx, kinds) {
  const counts = new Map();
  for (const k of [...kinds].sort(byKind)) counts.set(k, (counts.get(k) || 0) + 1);
  const parts = [...counts].map(([k, n]) => `${n} ${colour(ctx, k)}`);
  if (parts.length <= 1) return parts.join("");
  return `${parts.slice(0, -1).join(", ")} and ${parts[parts.length - 1]}`;
}

/** "1 treasure chest" / "3 treasure chests". */
const chests = (n) => `${n} treasure chest${n === 1 ? "" : "s"}`;

/** A tile's short name: "Garden 10". */
function shortTile(ctx, code) {
  const t = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles[code] : null;
  if (t && ctx.art.KIND_NAMES[t.kind] && !t.module) return `${ctx.art.KIND_NAMES[t.kind]} ${t.price}`;
  return ctx.tileName(code);
}

function kindOfTile(ctx, code) {
  const t = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles[code] : null;
  return t ? t.kind : null;
}

/** The building of `seat`'s Alhambra at x,y (its tile code), or null. */
function tileAt(ctx, seat, x, y) {
  const s = ctx.view && ctx.view.seats ? ctx.view.seats[seat] : null;
  const cell = s && Array.isArray(s.alhambra) ? s.alhambra.find((c) => c.x === x && c.y === y) : null;
  return cell ? cell.tile : null;
}

const who = (ctx, seat) => (seat === -1 ? "Dirk" : ctx.seatName(seat));

/** Where a place lies, in the table's words ("2 north of the fountain"). */
function where(ctx, x, y) {
  if (typeof ctx.placeText === "function") return ctx.placeText(x, y);
  if (x === 0 && y === 0) return "on the fountain";
  const parts = [];
  if (y) parts.push(`${Math.abs(y)} ${y < 0 ? "north" : "south"}`);
  if (x) parts.push(`${Math.abs(x)} ${x > 0 ? "east" : "west"}`);
  return `${parts.join(" and ")} of the fountain`;
}

/** The chests of `kinds` that would find no free building of their colour in the viewer's
 * Alhambra (buildings of the kind that hold no chest yet), as a list of kinds. */
function homeless(ctx, kinds) {
  const me = ctx.me;
  const seat = ctx.view && ctx.view.seats && me !== null && me !== undefined ? ctx.view.seats[me] : null;
  if (!seat || !Array.isArray(seat.alhambra)) return [];
  const st = ctx.state || {};
  const mine = Array.isArray(st.seats) ? st.seats.find((x) => x.seat === me) : null;
  const taken = new Set(((mine && mine.chests) || []).map((c) => `${c.x},${c.y}`));
  const free = new Map();
  for (const c of seat.alhambra) {
    const k = kindOfTile(ctx, c.tile);
    if (k && !taken.has(`${c.x},${c.y}`)) free.set(k, (free.get(k) || 0) + 1);
  }
  const out = [];
  for (const k of kinds) {
    const n = free.get(k) || 0;
    if (n > 0) free.set(k, n - 1);
    else out.push(k);
  }
  return out;
}

/** A warning for buying the chests `kinds`: the ones with no free building of their colour. */
function homelessWarning(ctx, kinds) {
  const lost = homeless(ctx, kinds);
  if (!lost.length) return "";
  if (lost.length === kinds.length) return `Careful: you have no free building for any of these chests (${chestsText(ctx, lost)}): all of them would pass on to the left.`;
  return `Careful: you have no free building for ${chestsText(ctx, lost)} of them: ${lost.length === 1 ? "it" : "they"} would pass on to the left.`;
}

/** The viewer's open placement decision (the view's pending), or null. */
function myPlacement(ctx) {
  const p = ctx.view ? ctx.view.pending : null;
  return p && p.type === "TreasureChestPlacement" && p.seat === ctx.me ? p : null;
}

/** Each seat's chest count, then Dirk's (2 players). */
function counts(ctx) {
  const st = ctx.state;
  const out = (st.seats || []).map((s) => s.count);
  if (st.neutral) out.push(st.neutral.count);
  return out;
}

/** The chest majority with the table's tie rule: the points each participant gets. */
function awards(cnts, pts) {
  const out = cnts.map(() => 0);
  const order = [...new Set(cnts.filter((c) => c > 0))].sort((a, b) => b - a);
  let place = 0;
  for (const c of order) {
    if (place >= pts.length) break;
    const tied = cnts.map((n, i) => [n, i]).filter(([n]) => n === c).map(([, i]) => i);
    const share = Math.floor(pts.slice(place, place + tied.length).reduce((a, b) => a + b, 0) / tied.length);
    for (const i of tied) out[i] = share;
    place += tied.length;
  }
  return out;
}

/** The next scoring round (1-3) from the view's scores so far. */
function nextRound(ctx) {
  const done = ctx.view ? Number(ctx.view.rounds_scored || 0) : 0;
  return Math.min(3, done + 1);
}

// ------------------------------------------------------------------ art
/** Mix hex colour `c` with white (t > 0) or black (t < 0). */
function shade(c, t) {
  const n = parseInt(c.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(t >= 0 ? v + (255 - v) * t : v * (1 + t)));
  return `#${ch.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** A treasure chest `w` wide with its bottom centre at (cx, base): a painted wooden box with a
 * domed lid, brass bands and a lock, in the colour of building kind `kind` (null: an empty place). */
function chestGroup(ctx, kind, cx, base, w) {
  const { INK, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: `tc-chest ${kind ? `kind-${kind}` : "empty"}` });
  const h = w * 0.78;
  const x0 = cx - w / 2;
  const x1 = cx + w / 2;
  const lidTop = base - h;
  const lidBottom = base - h * 0.55;
  const sw = Math.max(0.5, w / 22);
  if (!kind) {
    g.appendChild(svg("rect", { x: x0, y: lidTop + h * 0.1, width: w, height: h * 0.9, rx: w * 0.12, fill: "none", stroke: INK, "stroke-width": sw, "stroke-dasharray": `${w / 9} ${w / 12}`, opacity: 0.55 }));
    return g;
  }
  const paint = KIND_COLORS[kind] || WOOD;
  const line = { stroke: INK, "stroke-width": sw, "stroke-linejoin": "round" };
  g.appendChild(svg("ellipse", { cx, cy: base, rx: w * 0.55, ry: h * 0.07, fill: "rgba(58,38,20,0.25)" }));
  // the box and the domed lid
  g.appendChild(svg("rect", { x: x0, y: lidBottom, width: w, height: base - lidBottom, rx: w * 0.05, fill: paint, ...line }));
  g.appendChild(svg("path", { d: `M${x0} ${lidBottom} V${lidTop + h * 0.2} Q${cx} ${lidTop - h * 0.12} ${x1} ${lidTop + h * 0.2} V${lidBottom} Z`, fill: shade(paint, 0.22), ...line }));
  // wooden planks: a darker rim along the lid's edge
  g.appendChild(svg("rect", { x: x0, y: lidBottom - h * 0.05, width: w, height: h * 0.1, fill: shade(paint, -0.35), ...line }));
  // brass bands and corners
  for (const bx of [x0 + w * 0.2, x1 - w * 0.2]) {
    g.appendChild(svg("path", { d: `M${bx - w * 0.045} ${base} V${lidTop + h * 0.09} Q${bx} ${lidTop + h * 0.02} ${bx + w * 0.045} ${lidTop + h * 0.09} V${base} Z`, fill: BRASS, stroke: INK, "stroke-width": sw * 0.7 }));
  }
  // the lock
  g.appendChild(svg("rect", { x: cx - w * 0.09, y: lidBottom - h * 0.08, width: w * 0.18, height: h * 0.24, rx: w * 0.03, fill: BRASS, stroke: INK, "stroke-width": sw * 0.8 }));
  g.appendChild(svg("circle", { cx, cy: lidBottom + h * 0.03, r: w * 0.03, fill: INK }));
  // a glint on the lid
  g.appendChild(svg("path", { d: `M${x0 + w * 0.3} ${lidTop + h * 0.12} Q${cx} ${lidTop + h * 0.02} ${x1 - w * 0.3} ${lidTop + h * 0.12}`, fill: "none", stroke: "rgba(255,255,255,0.55)", "stroke-width": sw * 1.2, "stroke-linecap": "round" }));
  return g;
}

/** A standalone chest picture `size` wide (kind null: an empty place). */
function chestSVG(ctx, kind, size = 22, label = null) {
  const s = ctx.svg("svg", {
    viewBox: "0 0 24 22", width: size, height: Math.round((size * 22) / 24), class: "tc-chest-art",
    role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true",
  });
  s.appendChild(chestGroup(ctx, kind, 12, 20.5, 20));
  if (label) {
    const t = ctx.svg("title");
    t.textContent = label;
    s.appendChild(t);
  }
  return s;
}

/** One room of the treasure chamber: a stone arch with its four chests (or an empty floor). */
function roomSVG(ctx, room, kinds, width, label) {
  const { INK, svgText } = ctx.art;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "0 0 100 74", width, height: Math.round((width * 74) / 100), class: "tc-room-art", role: "img", "aria-label": label });
  s.appendChild(svg("path", { d: "M3 72 V30 Q3 4 50 3 Q97 4 97 30 V72 Z", fill: STONE, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("path", { d: "M12 72 V34 Q12 13 50 12 Q88 13 88 34 V72 Z", fill: "#5b3a22", stroke: INK, "stroke-width": 1.4 }));
  // the stones of the arch
  for (const [x1, y1, x2, y2] of [[7, 30, 13, 33], [18, 14, 23, 20], [50, 3, 50, 12], [82, 14, 77, 20], [93, 30, 87, 33]]) {
    s.appendChild(svg("line", { x1, y1, x2, y2, stroke: STONE_DARK, "stroke-width": 1.4 }));
  }
  s.appendChild(svg("rect", { x: 12, y: 62, width: 76, height: 10, fill: "#7a5232", stroke: INK, "stroke-width": 1 }));
  if (kinds.length) {
    const xs = [27, 43, 59, 75];
    const sorted = [...kinds].sort(byKind);
    sorted.forEach((k, i) => s.appendChild(chestGroup(ctx, k, xs[i], i % 2 ? 63 : 64, 15)));
  } else {
    s.appendChild(svgText(50, 46, "empty", { "font-size": 11, fill: "#e9dcc0", "font-style": "italic" }));
  }
  s.appendChild(svg("circle", { cx: 50, cy: 20, r: 7, fill: BRASS, stroke: INK, "stroke-width": 1.2 }));
  s.appendChild(svgText(50, 24, String(room), { "font-size": 10, "font-weight": 800, fill: INK }));
  return s;
}

/** The bag of chests (a drawstring sack) `size` wide. */
function bagIcon(ctx, size = 26) {
  const { INK } = ctx.art;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "0 0 24 26", width: size, height: Math.round((size * 26) / 24), "aria-hidden": "true", class: "tc-bag" });
  s.appendChild(svg("path", { d: "M8 7 Q3 12 3 18 Q3 24 12 24 Q21 24 21 18 Q21 12 16 7 Z", fill: "#9c6b3c", stroke: INK, "stroke-width": 1.2 }));
  s.appendChild(svg("path", { d: "M7 6 Q12 9 17 6 L16 3 Q12 5 8 3 Z", fill: "#b98450", stroke: INK, "stroke-width": 1 }));
  s.appendChild(svg("path", { d: "M8 8 Q12 10 16 8", fill: "none", stroke: BRASS, "stroke-width": 1.4 }));
  return s;
}

/** A building's chest on the board: bottom left of the tile, on a light plinth (a dark one on the
 * white chambers) so it shows on a tile of its own colour. */
function homeGroup(ctx, kind) {
  const g = ctx.svg("g", { class: "tc-home" });
  const plinth = kind === "chambers" ? "rgba(94,59,26,0.9)" : "rgba(253,246,227,0.92)";
  g.appendChild(ctx.svg("rect", { x: 5, y: 62, width: 33, height: 31, rx: 7, fill: plinth, stroke: ctx.art.INK, "stroke-width": 1.6 }));
  g.appendChild(chestGroup(ctx, kind, 21.5, 89, 25));
  return g;
}

/** A building that may take a chest now: a pulsing gold frame with a faded chest. */
function choiceGroup(ctx, kind) {
  const svg = ctx.svg;
  const g = svg("g", { class: "tc-choice" });
  g.appendChild(svg("rect", { x: 4, y: 4, width: 92, height: 92, rx: 9, fill: "rgba(255,236,170,0.35)", stroke: BRASS, "stroke-width": 6, "stroke-dasharray": "12 6", class: "tc-choice-frame" }));
  const ghost = chestGroup(ctx, kind, 50, 70, 46);
  ghost.setAttribute("opacity", "0.8");
  g.appendChild(ghost);
  return g;
}

// ------------------------------------------------------------------ buying a room
/** The legal room purchases, by room: {room: [{cards, action}]}. */
function roomOffers(ctx, actions) {
  const out = new Map();
  for (const a of actions || ctx.legal) {
    const b = parse(ctx, a);
    if (b && b.type === "buy") {
      if (!out.has(b.room)) out.set(b.room, []);
      out.get(b.room).push({ cards: b.cards, action: b.action });
    }
  }
  return out;
}

const roomLabel = (ctx, room) => `the treasure chests of room ${room}`;

function roomKinds(ctx, room) {
  const rooms = ctx.state && Array.isArray(ctx.state.rooms) ? ctx.state.rooms : [];
  return rooms[room - 1] || [];
}

/** Open the table's payment picker for room `room`. */
function startPay(ctx, room, options) {
  if (!options || !options.length) return;
  const kinds = roomKinds(ctx, room);
  const warning = homelessWarning(ctx, kinds);
  ctx.pay({
    item: { label: roomLabel(ctx, room), price: price(ctx) },
    options,
    title: `Buy the 4 treasure chests of room ${room} (${chestsText(ctx, kinds)})`,
    note: `${warning ? `${warning} ` : ""}Pay at least ${price(ctx)} in any mix of currencies (no card that is not needed). There is no change and no further action, not even for the exact amount; at the end of your turn the chests go into your buildings of their colours, one each, and the rest pass to the left.`,
    confirm: "Buy the chests",
  });
}

function isPaying(ctx, room) {
  const p = ctx.payment;
  return Boolean(p && p.item) && p.item.label === roomLabel(ctx, room);
}

// ------------------------------------------------------------------ panel
function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.rooms)) return null;
  const h = ctx.h;
  const offers = ctx.myTurn ? roomOffers(ctx) : new Map();
  const rooms = st.rooms.map((kinds, i) => {
    const room = i + 1;
    const empty = !kinds.length;
    const label = empty
      ? `Room ${room}: empty${st.closed ? " for good" : ""}`
      : `Room ${room}: ${chests(kinds.length)} (${chestsText(ctx, kinds)})`;
    const art = h("span", { class: "tc-room-face" }, roomSVG(ctx, room, kinds, 62, label),
      h("span", { class: "tc-room-caption", text: empty ? (st.closed ? "empty for good" : "empty") : chestsText(ctx, kinds) }));
    const opts = offers.get(room);
    if (!opts) return h("span", { class: `tc-room ${empty ? "empty" : ""}`, dataset: { room, kinds: kinds.join(" ") } }, art);
    const on = isPaying(ctx, room);
    return h("button", {
      class: `tc-room tc-buy ${on ? "selected" : ""}`, dataset: { room, kinds: kinds.join(" ") },
      "aria-label": `Buy room ${room}: ${chestsText(ctx, kinds)} chests, for at least ${price(ctx)} in any currencies`,
      "aria-pressed": on ? "true" : "false",
      title: `Buy these four chests (your last action this turn)${homelessWarning(ctx, kinds) ? `. ${homelessWarning(ctx, kinds)}` : ""}`,
      onclick: () => startPay(ctx, room, opts),
    }, art);
  });
  const parts = [
    h("p", { class: "muted tc-help", text: `A turn action: pay at least ${price(ctx)} in any currencies for the 4 chests of one room. They go into your buildings of their colours, one each; the most chests score in every scoring.` }),
    h("div", { class: "tc-rooms", role: "group", "aria-label": "The rooms of the treasure chamber" }, ...rooms),
  ];
  // the bag
  const bag = st.bag || {};
  parts.push(h("div", { class: "tc-bagline", title: "The chests in the bag (open information): a room is refilled from here at random" },
    bagIcon(ctx), h("span", { class: "tc-bag-total", text: `${st.bag_total} in the bag` }),
    ...KINDS.map((k) => h("span", { class: `tc-bag-item ${bag[k] ? "" : "none"}`, dataset: { kind: k } },
      chestSVG(ctx, k, 16, `${bag[k] || 0} ${colour(ctx, k)} chest${bag[k] === 1 ? "" : "s"} in the bag`), h("span", { text: String(bag[k] || 0) }))),
    st.closed ? h("span", { class: "tc-closed", text: "no more refills" }) : null));
  // chests on their way
  const placing = st.placing;
  if (placing || (st.bought && st.bought.length)) {
    const kinds = placing ? placing.chests : st.bought;
    let text = `Bought this turn: ${chestsText(ctx, kinds)}; they go into buildings at the end of the turn.`;
    if (placing && placing.seat === ctx.me) {
      const mine = new Set(ctx.legal.map((a) => parse(ctx, a)).filter((a) => a && a.type === "put").map((a) => kindOfTile(ctx, tileAt(ctx, ctx.me, a.x, a.y))));
      const put = kinds.filter((k) => mine.has(k));
      const rest = kinds.filter((k) => !mine.has(k));
      text = `Choose the building for your ${chestsText(ctx, put)} chest${put.length === 1 ? "" : "s"}: click a highlighted building.`;
      if (rest.length) text += ` ${chestsText(ctx, rest)} pass${rest.length === 1 ? "es" : ""} on (no free building of ${rest.length === 1 ? "its" : "their"} colour).`;
    } else if (placing) {
      text = `${ctx.seatName(placing.seat)} chooses buildings for ${chestsText(ctx, kinds)} chest${kinds.length === 1 ? "" : "s"}.`;
    }
    parts.push(h("div", { class: "tc-transit", role: "status" }, h("span", { class: "tc-transit-chests" }, ...[...kinds].sort(byKind).map((k) => chestSVG(ctx, k, 22, `${colour(ctx, k)} chest`))), h("span", { text })));
  }
  // the standing
  const cnts = counts(ctx);
  const rnd = nextRound(ctx);
  const pts = points(ctx)[rnd - 1];
  const aw = awards(cnts, pts);
  const leaders = new Set(st.leaders || []);
  const rows = (st.seats || []).map((s) => standRow(ctx, s.seat, s.count, s.chests.map((c) => c.kind), aw[s.seat], leaders.has(s.seat)));
  if (st.neutral) rows.push(standRow(ctx, -1, st.neutral.count, st.neutral.chests.map((c) => c.kind), aw[cnts.length - 1], leaders.has(-1)));
  parts.push(h("ul", { class: "tc-standing", "aria-label": "Treasure chests in the players' buildings" }, ...rows));
  if (ctx.view && Number(ctx.view.rounds_scored || 0) >= 3) {
    parts.push(h("p", { class: "muted tc-points", text: "All three scorings are done." }));
  } else {
    parts.push(h("p", { class: "muted tc-points" }, `Scoring ${rnd}: `, h("strong", { text: pts.join(" / ") }),
      ` for the most${pts.length > 1 ? ", second most" : ""}${pts.length > 2 ? ", third most" : ""} chests (ties share).${st.neutral ? " Dirk's chests only block." : ""}`));
  }
  return h("div", { class: "tc-panel" }, ...parts);
}

function standRow(ctx, seat, n, kinds, now, leads) {
  const h = ctx.h;
  const over = Boolean(ctx.view) && Number(ctx.view.rounds_scored || 0) >= 3;
  const name = seat === ctx.me ? `${ctx.seatName(seat)} (you)` : who(ctx, seat);
  const mini = [...kinds].sort(byKind).map((k) => chestSVG(ctx, k, 14));
  return h("li", { class: `tc-stand ${leads ? "leads" : ""}`, dataset: { seat } },
    h("span", { class: "swatch", style: `background:${seat === -1 ? "#9a8f7a" : ctx.seatColor(seat)}` }),
    h("span", { class: "tc-stand-name", text: name }),
    h("span", { class: "tc-stand-count", text: `${n}` }),
    h("span", { class: "tc-stand-chests" }, ...mini),
    h("span", { class: "tc-stand-points", title: seat === -1 ? "Dirk's points if the next scoring came now" : "points if the next scoring came now", text: now && !over ? `+${now}` : "" }));
}

// ------------------------------------------------------------------ badges and board
function seatBadges(ctx, seat) {
  const st = ctx.state;
  const s = st && Array.isArray(st.seats) ? st.seats.find((x) => x.seat === seat) : null;
  if (!s || !s.count) return null;
  const leads = (st.leaders || []).includes(seat);
  return {
    text: `${s.count} chest${s.count === 1 ? "" : "s"}${leads ? " ★" : ""}`,
    title: `${chests(s.count)} in the buildings (${chestsText(ctx, s.chests.map((c) => c.kind))})${leads ? "; the most chests now" : ""}`,
    className: "tc-badge",
    icon: chestSVG(ctx, "wood", 16),
  };
}

function boardOverlay(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.seats) || !ctx.view || !ctx.view.seats || !ctx.view.seats[seat]) return null;
  const s = st.seats.find((x) => x.seat === seat);
  const items = [];
  for (const c of (s && s.chests) || []) {
    if (!Number.isInteger(c.x) || !Number.isInteger(c.y)) continue;
    items.push({ x: c.x, y: c.y, node: homeGroup(ctx, c.kind), className: "tc-home-item", title: `A ${colour(ctx, c.kind)} treasure chest in ${shortTile(ctx, c.tile)}` });
  }
  const p = myPlacement(ctx);
  if (p && seat === ctx.me) {
    for (const a of ctx.legal.map((a) => parse(ctx, a)).filter((x) => x && x.type === "put")) {
      const tile = tileAt(ctx, seat, a.x, a.y);
      const kind = tile ? kindOfTile(ctx, tile) : null;
      const label = describeAction(ctx, a.action);
      items.push({ x: a.x, y: a.y, node: choiceGroup(ctx, kind), className: "tc-pick", label, pick: () => ctx.act(a.action, label) });
    }
  }
  return items;
}

// ------------------------------------------------------------------ controls
function actionControls(ctx, actions) {
  const h = ctx.h;
  const handled = [];
  const parts = [];
  const offers = roomOffers(ctx, actions);
  if (offers.size) {
    for (const a of actions) if (parse(ctx, a) && parse(ctx, a).type === "buy") handled.push(a);
    const paying = Boolean(ctx.payment && ctx.payment.item);
    parts.push(h("p", { class: "tc-offer" }, chestSVG(ctx, "garden", 20), h("span", { text: paying
      ? " Pick the cards to pay with (at least 8 in any currencies), then Buy the chests."
      : ` You may buy the 4 chests of a room for at least ${price(ctx)} in any currencies (your last action this turn): pick a room here or in the Treasure Chamber panel.` })));
    parts.push(h("div", { class: "button-row tc-buys" }, ...[...offers].map(([room, opts]) => {
      const on = isPaying(ctx, room);
      const kinds = roomKinds(ctx, room);
      const warning = homelessWarning(ctx, kinds);
      return h("button", {
        class: `secondary tc-buy-button ${on ? "selected" : ""} ${warning ? "tc-homeless" : ""}`, dataset: { room }, "aria-pressed": on ? "true" : "false",
        title: warning || null,
        onclick: () => startPay(ctx, room, opts),
      }, h("span", { class: "tc-buy-chests" }, ...[...kinds].sort(byKind).map((k) => chestSVG(ctx, k, 16))), h("span", { text: `Buy room ${room}: ${chestsText(ctx, kinds)}${warning ? ` (${homeless(ctx, kinds).length} without a building)` : ""}` }));
    })));
  }
  const puts = actions.map((a) => parse(ctx, a)).filter((x) => x && x.type === "put");
  const p = myPlacement(ctx);
  if (puts.length) {
    const free = new Map();
    for (const a of puts) {
      const tile = tileAt(ctx, ctx.me, a.x, a.y);
      const kind = tile ? kindOfTile(ctx, tile) : null;
      if (!free.has(kind)) free.set(kind, []);
      free.get(kind).push({ ...a, tile });
    }
    const have = p ? p.chests : [];
    const choose = [...free.keys()].map((k) => {
      const n = have.filter((x) => x === k).length;
      return `${n === 1 ? "a" : n} ${colour(ctx, k)} chest${n === 1 ? "" : "s"} into ${n === 1 ? "one" : n} of your ${free.get(k).length} ${ctx.art.KIND_NAMES[k] || k} buildings`;
    });
    parts.push(h("div", { class: "tc-decision" },
      h("span", { class: "tc-transit-chests" }, ...[...have].sort(byKind).map((k) => chestSVG(ctx, k, 26, `${colour(ctx, k)} chest`))),
      h("p", { text: `Put ${choose.join(", and ")}: click a highlighted building on your Alhambra or a button. ${p && p.later && p.later.length ? "Chests with no building of their colour then pass on." : ""}`.trim() })));
    parts.push(h("div", { class: "button-row tc-puts" }, ...puts.map((a) => {
      const tile = tileAt(ctx, ctx.me, a.x, a.y);
      const kind = tile ? kindOfTile(ctx, tile) : null;
      return h("button", { class: "secondary tc-put", dataset: { x: a.x, y: a.y, kind: kind || "", action: a.action }, onclick: () => ctx.act(a.action, describeAction(ctx, a.action)) },
        chestSVG(ctx, kind, 18), h("span", { text: `Into ${tile ? shortTile(ctx, tile) : "the building"}, ${where(ctx, a.x, a.y)}` }));
    })));
    handled.push(...puts.map((a) => a.action));
  }
  if (!parts.length) return null;
  return { node: h("div", { class: "tc-controls" }, ...parts), handled };
}

// ------------------------------------------------------------------ texts
function describeAction(ctx, notation) {
  const a = parse(ctx, notation);
  if (!a) return null;
  if (a.type === "buy") {
    const kinds = roomKinds(ctx, a.room);
    return `Buy the 4 treasure chests of room ${a.room} (${chestsText(ctx, kinds)}) for ${cardsText(ctx, a.cards)}`;
  }
  const tile = ctx.me === null || ctx.me === undefined ? null : tileAt(ctx, ctx.me, a.x, a.y);
  const kind = tile ? kindOfTile(ctx, tile) : null;
  return tile ? `Put a ${colour(ctx, kind)} treasure chest into ${shortTile(ctx, tile)}, ${where(ctx, a.x, a.y)}` : `Put a treasure chest into the building ${where(ctx, a.x, a.y)}`;
}

function describeEvent(ctx, e) {
  switch (e.type) {
    case "ItemBought": {
      const m = /^room(\d)$/.exec(e.item || "");
      if (!m) return null;
      return `${ctx.seatName(e.seat)} buys the treasure chests of room ${m[1]} for ${cardsText(ctx, e.payment)}${e.exact ? " (exactly; no further action)" : " (no change)"}`;
    }
    case "ChestsPlaced": {
      const what = e.tiles.map((t, i) => `${colour(ctx, e.kinds[i])} into ${shortTile(ctx, t)}`).join(", ");
      return `${who(ctx, e.seat)} puts ${chests(e.tiles.length)} into buildings: ${what}`;
    }
    case "ChestsPassed":
      return `${who(ctx, e.seat)} has no free building for ${chestsText(ctx, e.chests)} chest${e.chests.length === 1 ? "" : "s"}: ${e.chests.length === 1 ? "it passes" : "they pass"} to ${who(ctx, e.to)}`;
    case "ChestsReturned":
      return `Nobody can place ${chestsText(ctx, e.chests)} chest${e.chests.length === 1 ? "" : "s"}: back into the bag`;
    case "ChestLost":
      return `${shortTile(ctx, e.tile)} leaves the Alhambra of ${who(ctx, e.seat)}: its ${colour(ctx, e.kind)} chest goes back into the bag`;
    case "ChamberRefilled":
      return `Room ${e.room} of the treasure chamber is refilled from the bag: ${chestsText(ctx, e.chests)}`;
    case "ChestsCounted": {
      const have = e.counts.map((c, s) => `${ctx.seatName(s)} ${c}`);
      if (e.neutral >= 0) have.push(`Dirk ${e.neutral}`);
      const won = e.points.map((p, s) => (p ? `${ctx.seatName(s)} +${p}` : null)).filter(Boolean);
      if (e.neutral_points) won.push(`Dirk +${e.neutral_points}`);
      return `Scoring ${e.round_no}, treasure chests: ${have.join(", ")}; ${won.length ? won.join(", ") : "nobody scores"}`;
    }
    case "ChamberRoomLeftEmpty":
      return `Only ${e.left} chest${e.left === 1 ? " is" : "s are"} left in the bag: room ${e.room} stays empty, and no room is refilled any more`;
    default:
      return null;
  }
}

function scoring(ctx, roundEvent) {
  const pts = roundEvent && roundEvent.extra ? roundEvent.extra[ID] : null;
  if (!Array.isArray(pts)) return null;
  // the chest counts the round was scored with (the event logged just before it)
  const counted = [...(ctx.events || [])].reverse().find((e) => e.type === "ChestsCounted" && e.round_no === roundEvent.round);
  const title = "Treasure chests: each player's chests, and the points for the most chests (Dirk's chests only block: his points go to nobody)";
  if (!counted) return [{ label: "Chests (points)", values: pts.map((p) => (p ? `+${p}` : "0")), title }];
  const held = (n) => `${n} chest${n === 1 ? "" : "s"}`;
  const values = pts.map((p, s) => (p ? `${held(counted.counts[s])}: +${p}` : held(counted.counts[s])));
  if (counted.neutral >= 0) values.push(counted.neutral_points ? `${held(counted.neutral)} (${counted.neutral_points} to nobody)` : held(counted.neutral));
  return [{ label: "Chests held: points", values, title }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.seats) ? `${st.bag_total} chests in the bag · ` + seats((i) => { const r = st.seats.find((x) => x.seat === i); return n(r ? r.count : 0, "chest", "chests"); }) : null;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent, scoring });
