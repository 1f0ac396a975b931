// Front-end plug-in of the Caravanserai (module caravanserai).
// Each of the eight cards is drawn in the house style: a frame in the card's currency, a small
// caravanserai (a walled inn with a gate and two domes) at the top, and its track: the main
// column of coins 0-5 in the card's currency and, at 2, 3 and 4, a branch coin in another
// currency; the marker cube stands on its spot. The panel shows the cards still beside the market
// (buyable ones are buttons that open the table's payment picker) and, per player, the kinds built,
// the price of a card for them and the cards in front of them with their markers; the seat badges
// say what each player's markers are worth. At the start of a turn the marker move gets one button
// per step ("Caravanserai 3: forward to 3 dirham") plus "Leave the markers", the target spots
// highlighted (and clickable) on the player's cards drawn big. Confirmations and the log read as
// sentences; a marker in a payment is named "caravanserai 3", never by its token.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "caravanserai";
const WOOD = "#c08a4a";
const SAND = "#f1dfb4";
const WALL = "#d8b27a";
const LEVEL_Y = (level) => 74 - level * 10;
const MAIN_X = 19;
const BRANCH_X = 42;

// ------------------------------------------------------------------ facts
const cards = (ctx) => (ctx.state && Array.isArray(ctx.state.cards) ? ctx.state.cards : []);
const byItem = (ctx, item) => cards(ctx).find((c) => c.card === item) || null;
const byToken = (ctx, token) => cards(ctx).find((c) => c.token === token) || null;
const curName = (ctx, cur) => ctx.art.CURRENCY_NAMES[cur] || cur;
const money = (ctx, value, cur) => `${value} ${curName(ctx, cur)}`;
/** "caravanserai 3 (dirham)": a card by its number and own currency. */
const cardTitle = (ctx, c) => `caravanserai ${c.number} (${curName(ctx, c.currency)})`;

/** `buy caraN CARDS` as {item, cards, action}; null for anything else. */
function parseBuy(ctx, notation) {
  const a = ctx.argsOf ? ctx.argsOf(notation, "buy") : null;
  return a && typeof a[0] === "string" && /^cara\d+$/.test(a[0]) ? { item: a[0], cards: a[1], action: notation } : null;
}

/** `cara move caraN forward|side` as {item, direction, action}; null for anything else. */
function parseMove(ctx, notation) {
  const a = ctx.argsOf ? ctx.argsOf(notation, "cara move") : null;
  return a ? { item: a[0], direction: a[1], action: notation } : null;
}

/** Where a marker step of card `c` leads: {currency, value} (from the view's `moves`). */
function stepTarget(c, direction) {
  const m = (c.moves || []).find((x) => x[0] === direction);
  return m ? { currency: m[1], value: m[2] } : null;
}

/** A payment's card codes as words, markers as "caravanserai N". */
function payText(ctx, codes) {
  return codes.map((code) => {
    const c = byToken(ctx, code);
    return c ? `caravanserai ${c.number}` : ctx.cardName(code);
  }).join(" + ");
}

const myPending = (ctx) => {
  const p = ctx.view ? ctx.view.pending : null;
  return p && p.type === "CaravanseraiMove" && p.seat === ctx.me ? p : null;
};

// ------------------------------------------------------------------ art
/** Mix hex colour `c` with white (t > 0) or black (t < 0). */
function shade(c, t) {
  const n = parseInt(c.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(t >= 0 ? v + (255 - v) * t : v * (1 + t)));
  return `#${ch.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** A marker cube (isometric, `s` wide) centred at (cx, cy). */
function cubeGroup(ctx, cx, cy, s, colour = WOOD) {
  const { INK } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "cara-cube" });
  const w = s / 2;
  const q = s / 4;
  const line = { stroke: INK, "stroke-width": Math.max(0.45, s / 14), "stroke-linejoin": "round" };
  g.appendChild(svg("path", { d: `M${cx} ${cy - w} L${cx + w} ${cy - q} L${cx} ${cy} L${cx - w} ${cy - q} Z`, fill: shade(colour, 0.35), ...line }));
  g.appendChild(svg("path", { d: `M${cx - w} ${cy - q} L${cx} ${cy} L${cx} ${cy + w} L${cx - w} ${cy + q} Z`, fill: colour, ...line }));
  g.appendChild(svg("path", { d: `M${cx + w} ${cy - q} L${cx} ${cy} L${cx} ${cy + w} L${cx + w} ${cy + q} Z`, fill: shade(colour, -0.3), ...line }));
  return g;
}

/** The caravanserai: a walled inn with a horseshoe gate and two domes, in card units, 42 wide at
 * (x, y) top left. */
function innGroup(ctx, x, y) {
  const { INK } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "cara-inn" });
  const line = { stroke: INK, "stroke-width": 0.8, "stroke-linejoin": "round" };
  g.appendChild(svg("path", { d: `M${x + 8} ${y + 6} Q${x + 12} ${y} ${x + 16} ${y + 6} Z`, fill: "#e9c46a", ...line }));
  g.appendChild(svg("path", { d: `M${x + 26} ${y + 6} Q${x + 30} ${y} ${x + 34} ${y + 6} Z`, fill: "#e9c46a", ...line }));
  g.appendChild(svg("rect", { x, y: y + 6, width: 42, height: 9, fill: WALL, ...line }));
  for (let i = 0; i < 7; i += 1) g.appendChild(svg("rect", { x: x + 1 + i * 6, y: y + 4.6, width: 3, height: 1.6, fill: WALL, ...line, "stroke-width": 0.5 }));
  g.appendChild(svg("path", { d: `M${x + 17.5} ${y + 15} V${y + 10.5} Q${x + 17.5} ${y + 7} ${x + 21} ${y + 7} Q${x + 24.5} ${y + 7} ${x + 24.5} ${y + 10.5} V${y + 15} Z`, fill: "#5a3a22", ...line }));
  g.appendChild(svg("rect", { x: x + 5, y: y + 9, width: 3, height: 3, rx: 1.2, fill: "#5a3a22" }));
  g.appendChild(svg("rect", { x: x + 34, y: y + 9, width: 3, height: 3, rx: 1.2, fill: "#5a3a22" }));
  return g;
}

/** One coin of the track: value `value` in `cur` at (x, y); the start spot 0 is a plain ring. */
function spotGroup(ctx, x, y, value, cur) {
  const { CURRENCY_COLORS, INK, PAPER, svgText } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "cara-spot" });
  if (value === 0) {
    g.appendChild(svg("circle", { cx: x, cy: y, r: 4.7, fill: PAPER, stroke: INK, "stroke-width": 0.8 }));
    g.appendChild(svgText(x, y + 2.1, "0", { "font-size": 6, "font-weight": 800, fill: INK }));
    return g;
  }
  g.appendChild(svg("circle", { cx: x, cy: y, r: 4.8, fill: CURRENCY_COLORS[cur] || "#777", stroke: INK, "stroke-width": 0.8 }));
  g.appendChild(svg("circle", { cx: x, cy: y, r: 3.5, fill: "none", stroke: PAPER, "stroke-width": 0.5, "stroke-dasharray": "1 1" }));
  g.appendChild(svgText(x, y + 2.2, String(value), { "font-size": 6.2, "font-weight": 800, fill: PAPER }));
  return g;
}

/** Where the spot of `level` (in the branch with `branch`) is drawn. */
const spotXY = (level, branch) => [branch ? BRANCH_X : MAIN_X, LEVEL_Y(level)];

/**
 * A caravanserai card `width` wide (viewBox 60 x 84): its currency's frame, the inn, the track,
 * the marker on its spot (when the card is in front of a player; `opts.marker` false hides it).
 * `opts.targets`: marker steps to highlight ({direction, pick}); a target with `pick` is clickable.
 */
function caravanseraiSVG(ctx, c, width, opts = {}) {
  const { CURRENCY_COLORS, INK, PAPER, svgText, cardShell } = ctx.art;
  const svg = ctx.svg;
  const colour = CURRENCY_COLORS[c.currency] || "#777";
  const label = opts.label || cardLabel(ctx, c);
  const s = cardShell(label, width);
  s.classList.add("cara-card");
  s.dataset.card = c.card;
  s.dataset.spot = String(c.spot);
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: colour, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 5, y: 5, width: 50, height: 74, rx: 4, fill: PAPER, stroke: INK, "stroke-width": 0.8 }));
  s.appendChild(svg("rect", { x: 5.4, y: 5.4, width: 49.2, height: 14.5, rx: 3.6, fill: SAND }));
  s.appendChild(innGroup(ctx, 9, 4.5));
  s.appendChild(svgText(51, 12.5, String(c.number), { "font-size": 5.5, "font-weight": 800, fill: colour, "text-anchor": "end" }));
  // the main column with arrows up, then the branches
  s.appendChild(svg("line", { x1: MAIN_X, y1: LEVEL_Y(0), x2: MAIN_X, y2: LEVEL_Y(5), stroke: INK, "stroke-width": 1.1 }));
  for (let lv = 0; lv < 5; lv += 1) {
    const y = LEVEL_Y(lv) - 5;
    s.appendChild(svg("path", { d: `M${MAIN_X - 1.6} ${y + 0.4} L${MAIN_X} ${y - 1.4} L${MAIN_X + 1.6} ${y + 0.4}`, fill: "none", stroke: INK, "stroke-width": 0.8 }));
  }
  for (const [lv, cur] of c.branches || []) {
    const y = LEVEL_Y(lv);
    s.appendChild(svg("line", { x1: MAIN_X + 4.8, y1: y, x2: BRANCH_X - 5.8, y2: y, stroke: INK, "stroke-width": 0.9, "stroke-dasharray": "1.6 1" }));
    s.appendChild(svg("path", { d: `M${BRANCH_X - 7.4} ${y - 1.6} L${BRANCH_X - 5.4} ${y} L${BRANCH_X - 7.4} ${y + 1.6}`, fill: "none", stroke: INK, "stroke-width": 0.8 }));
  }
  for (let lv = 0; lv <= 5; lv += 1) s.appendChild(spotGroup(ctx, MAIN_X, LEVEL_Y(lv), lv, c.currency));
  for (const [lv, cur] of c.branches || []) s.appendChild(spotGroup(ctx, BRANCH_X, LEVEL_Y(lv), lv, cur));
  // targets of the marker move
  for (const t of opts.targets || []) {
    const to = t.direction === "forward" ? spotXY(c.level + 1, false) : spotXY(c.level, true);
    const ring = svg("circle", { cx: to[0], cy: to[1], r: 6.2, fill: "rgba(255,214,0,0.3)", stroke: "#e0a800", "stroke-width": 1.3, "stroke-dasharray": "2 1.2", class: "cara-target" });
    const g = svg("g", { class: "cara-target-spot", "data-direction": t.direction }, [ring]);
    if (t.pick) {
      g.setAttribute("role", "button");
      g.setAttribute("tabindex", "0");
      g.setAttribute("aria-label", t.label || t.direction);
      g.addEventListener("click", (ev) => { ev.stopPropagation(); t.pick(); });
      g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); t.pick(); } });
      const title = svg("title");
      title.textContent = t.label || t.direction;
      g.appendChild(title);
    }
    s.appendChild(g);
  }
  // the marker
  if (c.owner !== null && c.owner !== undefined && opts.marker !== false) {
    const [x, y] = spotXY(c.level, c.in_branch);
    s.appendChild(svg("circle", { cx: x, cy: y, r: 5.4, fill: "none", stroke: INK, "stroke-width": 1.2 }));
    s.appendChild(cubeGroup(ctx, c.in_branch ? x + 9 : x - 9.5, y - 0.5, 7.5));
  }
  return s;
}

/** An accessible description of a card: its track and where its marker stands. */
function cardLabel(ctx, c) {
  const branches = (c.branches || []).map(([lv, cur]) => `${lv} ${curName(ctx, cur)}`).join(", ");
  const where = c.owner === null || c.owner === undefined ? "beside the market" : `marker on ${money(ctx, c.value, c.marker_currency)}${c.in_branch ? " (in a branch)" : ""}`;
  return `Caravanserai ${c.number}: track 0-5 ${curName(ctx, c.currency)}, branches ${branches}; ${where}`;
}

/** A small coin icon for buttons and badges. */
function coinIcon(ctx, cur, value, size = 18) {
  const s = ctx.svg("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true", class: "cara-coin-icon" });
  s.appendChild(ctx.art.coinGroup(10, 10, 8.5, value ? ctx.art.CURRENCY_COLORS[cur] || "#777" : "#bbb", String(value)));
  return s;
}

// ------------------------------------------------------------------ names and card art
function cardName(ctx, code) {
  const t = byToken(ctx, code);
  if (t) return `caravanserai ${t.number} (${money(ctx, t.value, t.marker_currency)})`;
  const c = byItem(ctx, code);
  return c ? `caravanserai card ${c.number} (${curName(ctx, c.currency)})` : null;
}

function cardArt(ctx, code, width = 48) {
  const c = byToken(ctx, code) || byItem(ctx, code);
  return c ? caravanseraiSVG(ctx, c, width) : null;
}

// ------------------------------------------------------------------ buying
const price = (ctx) => (ctx.state && Array.isArray(ctx.state.price) && ctx.me !== null ? ctx.state.price[ctx.me] : null);

/** The cards the viewer may buy now (items), from `actions` (default: every legal action). */
function buyable(ctx, actions) {
  return [...new Set((actions || ctx.legal).map((a) => parseBuy(ctx, a)).filter(Boolean).map((b) => b.item))];
}

function isPaying(ctx, item) {
  const p = ctx.payment;
  const c = byItem(ctx, item);
  return Boolean(p && p.item && c) && p.item.label === cardTitle(ctx, c);
}

/** Open the table's payment picker for card `item` (its legal `buy ITEM CARDS` actions). */
function startPay(ctx, item) {
  const c = byItem(ctx, item);
  const options = ctx.legal.map((a) => parseBuy(ctx, a)).filter((b) => b && b.item === item).map((b) => ({ cards: b.cards, action: b.action }));
  if (!c || !options.length) return;
  const p = price(ctx);
  ctx.pay({
    item: { label: cardTitle(ctx, c), price: p },
    options,
    title: `Buy caravanserai ${c.number}`,
    note: `Pay ${p} in any one currency; an exact payment lets you act again. Its marker starts on 0 and climbs one step at the start of each of your turns.`,
  });
}

// ------------------------------------------------------------------ panel
function priceText(ctx, seat) {
  const st = ctx.state;
  const kinds = st.kinds ? st.kinds[seat] : 0;
  const held = cards(ctx).filter((c) => c.owner === seat).length;
  const max = st.max_cards || 2;
  const need = (st.kinds_needed || [4, 5])[held];
  const p = st.price ? st.price[seat] : null;
  if (held >= max) return `${kinds} kinds built · holds ${max} (the most)`;
  if (p === null || p === undefined) return `${kinds} kinds built · needs ${need} for a${held ? " second" : ""} card`;
  return `${kinds} kinds built · a card costs ${p}`;
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.cards)) return null;
  const h = ctx.h;
  const canBuy = new Set(ctx.myTurn ? buyable(ctx) : []);
  const stack = st.cards.filter((c) => c.owner === null).map((c) => {
    const art = caravanseraiSVG(ctx, c, 56);
    if (!canBuy.has(c.card)) return h("span", { class: "cara-slot", dataset: { card: c.card } }, art);
    const on = isPaying(ctx, c.card);
    return h("button", {
      class: `cara-slot cara-buy ${on ? "selected" : ""}`, dataset: { card: c.card },
      "aria-label": `Buy ${cardTitle(ctx, c)} for ${price(ctx)} in any one currency`,
      "aria-pressed": on ? "true" : "false",
      title: "Buy this caravanserai card (your action; an exact payment lets you act again)",
      onclick: () => startPay(ctx, c.card),
    }, art);
  });
  const prices = (st.prices || []).map(([k, p]) => `${p} with ${k} kinds`).join(", ");
  const rows = [h("p", { class: "muted cara-help", text: `A card costs ${prices} built in your Alhambra, in any one currency (the second card needs ${(st.kinds_needed || [4, 5])[1]} kinds; at most ${st.max_cards || 2}). At the start of your turn one marker may climb one step; the card pays as its marker's money, and the marker then starts again from 0.` }),
    h("div", { class: "cara-stack", role: "group", "aria-label": "Caravanserai cards beside the market" },
      h("span", { class: "cara-label", text: `Beside the market (${stack.length})` }),
      stack.length ? h("div", { class: "cara-cards" }, ...stack) : h("span", { class: "muted", text: "all cards are taken" }))];
  const n = ctx.view.seats.length;
  rows.push(h("ul", { class: "cara-owners", "aria-label": "Caravanserai cards in front of the players" }, ...[...Array(n).keys()].map((seat) => {
    const mine = st.cards.filter((c) => c.owner === seat);
    return h("li", { dataset: { seat, kinds: st.kinds ? st.kinds[seat] : 0, cards: mine.length } },
      h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
      h("span", { class: "cara-owner" }, h("strong", { text: seat === ctx.me ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat) }),
        h("span", { class: "cara-kinds", text: priceText(ctx, seat) })),
      mine.length ? h("span", { class: "cara-cards" }, ...mine.map((c) => h("span", { class: "cara-owned", dataset: { card: c.card, value: c.value, currency: c.marker_currency } },
        caravanseraiSVG(ctx, c, 76),
        h("span", { class: "cara-worth", text: c.value ? `worth ${money(ctx, c.value, c.marker_currency)}` : "worth nothing yet" }))))
        : h("span", { class: "muted", text: "no caravanserai" }));
  })));
  return h("div", { class: "cara-panel" }, ...rows);
}

// ------------------------------------------------------------------ badges
function seatBadges(ctx, seat) {
  const mine = cards(ctx).filter((c) => c.owner === seat);
  if (!mine.length) return null;
  const icon = ctx.svg("svg", { viewBox: `0 0 ${mine.length * 20} 20`, width: mine.length * 16, height: 16, "aria-hidden": "true" });
  mine.forEach((c, i) => icon.appendChild(ctx.art.coinGroup(10 + i * 20, 10, 8.5, c.value ? ctx.art.CURRENCY_COLORS[c.marker_currency] : "#bbb", String(c.value))));
  const worth = mine.map((c) => money(ctx, c.value, c.marker_currency));
  return {
    text: `Caravanserai: ${worth.join(", ")}`,
    title: `${mine.length} caravanserai card${mine.length > 1 ? "s" : ""} (${mine.map((c) => c.number).join(", ")}): the markers are worth ${worth.join(" and ")}, paid like money cards; they count at the end for the remaining tiles.`,
    className: "cara-badge",
    icon,
  };
}

// ------------------------------------------------------------------ controls
function moveLabel(ctx, c, direction) {
  const to = stepTarget(c, direction);
  const way = direction === "forward" ? "forward" : "sideways";
  return to ? `Caravanserai ${c.number}: ${way} to ${money(ctx, to.value, to.currency)}` : `Caravanserai ${c.number}: ${way}`;
}

function actionControls(ctx, actions) {
  const h = ctx.h;
  const parts = [];
  const handled = [];
  const buys = buyable(ctx, actions);
  if (buys.length) {
    handled.push(...actions.filter((a) => parseBuy(ctx, a)));
    const paying = Boolean(ctx.payment && ctx.payment.item);
    parts.push(h("p", { class: "cara-offer" }, coinIcon(ctx, null, price(ctx) || 0, 20), h("span", { text: paying
      ? " Pick the cards to pay with (any one currency), then Buy."
      : ` You may buy a caravanserai card for ${price(ctx)} in any one currency: pick it here or in the Caravanserai panel.` })));
    parts.push(h("div", { class: "button-row cara-buys" }, ...buys.map((item) => {
      const c = byItem(ctx, item);
      const on = isPaying(ctx, item);
      return h("button", {
        class: `secondary cara-buy-button ${on ? "selected" : ""}`, dataset: { card: item }, "aria-pressed": on ? "true" : "false",
        onclick: () => startPay(ctx, item),
      }, caravanseraiSVG(ctx, c, 22, { label: "" }), h("span", { text: `Buy caravanserai ${c.number} (${curName(ctx, c.currency)})` }));
    })));
  }
  const moves = actions.map((a) => parseMove(ctx, a)).filter(Boolean);
  if (myPending(ctx) && (moves.length || actions.includes("cara stay"))) {
    const mine = cards(ctx).filter((c) => c.owner === ctx.me);
    parts.push(h("p", { class: "cara-prompt", text: "Start of your turn: you may move one caravanserai marker one step — forward, or sideways into a branch (a dead end until the card is spent) — or leave them where they are." }));
    parts.push(h("div", { class: "cara-decision" }, ...mine.map((c) => {
      const targets = moves.filter((m) => m.item === c.card).map((m) => ({ direction: m.direction, label: moveLabel(ctx, c, m.direction), pick: () => ctx.act(m.action) }));
      return h("span", { class: "cara-big", dataset: { card: c.card } }, caravanseraiSVG(ctx, c, 150, { targets }),
        h("span", { class: "cara-worth", text: `now ${money(ctx, c.value, c.marker_currency)}` }));
    })));
    const row = h("div", { class: "button-row cara-moves" });
    for (const m of moves) {
      const c = byItem(ctx, m.item);
      const to = stepTarget(c, m.direction);
      row.append(h("button", { class: "secondary cara-move", dataset: { card: m.item, direction: m.direction, action: m.action }, onclick: () => ctx.act(m.action) },
        coinIcon(ctx, to ? to.currency : c.currency, to ? to.value : 0), h("span", { text: moveLabel(ctx, c, m.direction) })));
      handled.push(m.action);
    }
    if (actions.includes("cara stay")) {
      row.append(h("button", { id: "btn-cara-stay", class: "secondary", text: "Leave the markers", onclick: () => ctx.act("cara stay") }));
      handled.push("cara stay");
    }
    parts.push(row);
  }
  if (!parts.length) return null;
  return { node: h("div", { class: "cara-controls" }, ...parts), handled };
}

// ------------------------------------------------------------------ texts
function describeAction(ctx, notation) {
  const b = parseBuy(ctx, notation);
  if (b) {
    const c = byItem(ctx, b.item);
    return c ? `Buy ${cardTitle(ctx, c)} for ${payText(ctx, b.cards)}` : null;
  }
  const m = parseMove(ctx, notation);
  if (m) {
    const c = byItem(ctx, m.item);
    return c ? `Move the marker of ${moveLabel(ctx, c, m.direction).replace(/^Caravanserai/, "caravanserai")}` : null;
  }
  if (notation === "cara stay") return "Leave the caravanserai markers where they are";
  // a core purchase paid with a marker
  const mv = ctx.move ? ctx.move(notation) : null;
  const square = mv && (mv.keyword === "buy" || mv.keyword === "vizier buy") ? mv.args.find((x) => x.type === "square") : null;
  const paid = square ? mv.args.find((x) => x.type === "cards").value : [];
  if (square && paid.some((code) => byToken(ctx, code))) {
    const sq = ctx.view.market[square.value - 1];
    const what = sq && sq.tile ? ctx.tileName(sq.tile) : `the tile on square ${square.value}`;
    return `${mv.keyword === "vizier buy" ? "Use the vizier: buy" : "Buy"} ${what} for ${payText(ctx, paid)}`;
  }
  return null;
}

const TOKEN = /\bk[1-9]\b/;

function describeEvent(ctx, e) {
  const who = (seat) => ctx.seatName(seat);
  const card = (item) => byItem(ctx, item);
  switch (e.type) {
    case "CaravanseraiMarkerMoved": {
      const c = card(e.card);
      const way = e.direction === "forward" ? "forward" : "sideways";
      return `${who(e.seat)} moves the marker of caravanserai ${c ? c.number : e.card} ${way} to ${money(ctx, e.value, e.currency)}`;
    }
    case "CaravanseraiMarkersStayed":
      return `${who(e.seat)} leaves the caravanserai markers where they are`;
    case "CaravanseraiMarkerSpent": {
      const c = card(e.card);
      return `${who(e.seat)} spends caravanserai ${c ? c.number : e.card} as ${money(ctx, e.value, e.currency)}; its marker goes back to 0`;
    }
    case "ItemBought": {
      const c = card(e.item);
      if (c) return `${who(e.seat)} buys ${cardTitle(ctx, c)} for ${payText(ctx, e.payment)}${e.exact ? ", exactly" : ""}`;
      break;
    }
    default:
      break;
  }
  // another purchase paid with a marker: the engine's line (as the table writes it) with the marker named
  if (Array.isArray(e.payment) && e.payment.some((code) => byToken(ctx, code)) && typeof e.text === "string" && TOKEN.test(e.text)) {
    return e.text.replace(e.payment.join("+"), payText(ctx, e.payment)).replace(/player (\d+)/g, (_, n) => who(Number(n) - 1));
  }
  return null;
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  const cards = st.cards || [];
  return `${cards.filter((c) => c.owner === null).length} beside the market · ` + seats((i) => `${cards.filter((c) => c.owner === i).length}`);
}

window.Alhambra.registerModule(ID, { summary, cardArt, cardName, panel, seatBadges, actionControls, describeAction, describeEvent });
