// Front-end plug-in of Change (module change).
// The 24 coins are drawn in the house style: a round coin in its currency's colour with a rim
// of little studs, the value 1 and the currency's initial. The table shows the viewer's coins
// under the hand ("Outside your hand") and lets them be picked for a payment like money cards
// (docs/writing-a-module.md, "Money held outside the hand"); this plug-in draws and names them.
// The panel shows the bag (how many coins of each currency are still in it) and the coins in
// front of every player; a seat badge counts a player's coins; the log says who took which
// change. Change needs no decision: it is given automatically.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "change";
const TOKEN_CURRENCY = { cb: "blue", cg: "green", co: "orange", cy: "yellow" };
const CURRENCIES = ["blue", "green", "orange", "yellow"];

/** The currency (colour word) of coin token `code`, or null for anything else. */
function coinCurrency(ctx, code) {
  const tokens = ctx.catalogue && ctx.catalogue.money_tokens;
  if (tokens && tokens[code] !== undefined && tokens[code] !== ID) return null;
  return Object.hasOwn(TOKEN_CURRENCY, code) ? TOKEN_CURRENCY[code] : null;
}

const curName = (ctx, cur) => ctx.art.CURRENCY_NAMES[cur] || cur;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** Mix hex colour `c` with white (t > 0) or black (t < 0). */
function shade(c, t) {
  const n = parseInt(c.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(t >= 0 ? v + (255 - v) * t : v * (1 + t)));
  return `#${ch.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** The coin as a group centred at (cx, cy), radius r: rim with studs, face, value, initial. */
function coinFace(ctx, cur, cx, cy, r) {
  const { CURRENCY_COLORS, INK, PAPER, svgText } = ctx.art;
  const svg = ctx.svg;
  const colour = CURRENCY_COLORS[cur] || "#888";
  const g = svg("g", { class: `change-coin currency-${cur}` });
  g.appendChild(svg("circle", { cx, cy, r, fill: shade(colour, -0.25), stroke: INK, "stroke-width": Math.max(0.8, r / 14) }));
  g.appendChild(svg("circle", { cx, cy, r: r * 0.8, fill: colour, stroke: shade(colour, 0.45), "stroke-width": Math.max(0.5, r / 18) }));
  for (let i = 0; i < 12; i++) {
    const a = (i * Math.PI) / 6;
    g.appendChild(svg("circle", { cx: cx + r * 0.9 * Math.cos(a), cy: cy + r * 0.9 * Math.sin(a), r: r * 0.055, fill: shade(colour, 0.55) }));
  }
  g.appendChild(svgText(cx, cy + r * 0.26, "1", { "font-size": r * 0.95, "font-weight": 800, fill: PAPER }));
  const initial = curName(ctx, cur).charAt(0).toUpperCase();
  g.appendChild(svgText(cx, cy + r * 0.66, initial, { "font-size": r * 0.32, "font-weight": 700, fill: shade(colour, 0.7) }));
  return g;
}

/** A standalone coin `size` wide with an accessible label (or hidden when `label` is null). */
function coinSVG(ctx, cur, size, label) {
  const attrs = { viewBox: "0 0 60 60", width: size, height: size, class: "change-coin-art" };
  const s = ctx.svg("svg", label ? { ...attrs, role: "img", "aria-label": label } : { ...attrs, "aria-hidden": "true" });
  s.appendChild(coinFace(ctx, cur, 30, 30, 27));
  return s;
}

/** The cloth bag of coins, with a few coins peeking out (aria-hidden: the text says the count). */
function bagSVG(ctx, size, count) {
  const { INK, CURRENCY_COLORS } = ctx.art;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "0 0 60 64", width: size, height: Math.round((size * 64) / 60), "aria-hidden": "true", class: "change-bag" });
  const line = { stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round" };
  if (count > 0) {
    s.appendChild(svg("circle", { cx: 24, cy: 17, r: 6, fill: CURRENCY_COLORS.yellow, ...line, "stroke-width": 1 }));
    s.appendChild(svg("circle", { cx: 34, cy: 15, r: 6, fill: CURRENCY_COLORS.blue, ...line, "stroke-width": 1 }));
  }
  s.appendChild(svg("path", { d: "M18 22 Q6 44 12 58 Q30 64 48 58 Q54 44 42 22 Z", fill: "#8a5a33", ...line }));
  s.appendChild(svg("path", { d: "M16 22 Q30 16 44 22 Q30 27 16 22 Z", fill: "#a97648", ...line }));
  s.appendChild(svg("path", { d: "M20 27 Q30 31 40 27", fill: "none", stroke: "#e9c46a", "stroke-width": 2 }));
  s.appendChild(svg("path", { d: "M40 27 Q47 31 45 37", fill: "none", stroke: "#e9c46a", "stroke-width": 1.6, "stroke-linecap": "round" }));
  return s;
}

// ------------------------------------------------------------------ art and names (the table asks)
function cardArt(ctx, code, width = 40) {
  const cur = coinCurrency(ctx, code);
  return cur ? coinSVG(ctx, cur, width, cardName(ctx, code)) : null;
}

function cardName(ctx, code) {
  const cur = coinCurrency(ctx, code);
  return cur ? `1 ${curName(ctx, cur)} coin` : null;
}

// ------------------------------------------------------------------ state at a glance
/** Coins per currency as small coins with a count, e.g. ● ×2 ● ×1. */
function coinRow(ctx, counts, size) {
  const h = ctx.h;
  return CURRENCIES.filter((c) => (counts[c] || 0) > 0).map((c) => h("span", {
    class: "change-count", dataset: { currency: c }, title: `${plural(counts[c], `${curName(ctx, c)} coin`, `${curName(ctx, c)} coins`)}`,
  }, coinSVG(ctx, c, size, null), h("span", { text: `×${counts[c]}` })));
}

function total(counts) {
  return CURRENCIES.reduce((n, c) => n + (counts[c] || 0), 0);
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !st.bag || !Array.isArray(st.coins)) return null;
  const h = ctx.h;
  const left = st.bag_count;
  const seats = st.coins.map((counts, seat) => {
    const n = total(counts);
    return h("li", { dataset: { seat }, class: seat === ctx.me ? "me" : "" },
      h("span", { class: "change-owner" }, h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }), ctx.seatName(seat)),
      n ? h("span", { class: "change-coins" }, ...coinRow(ctx, counts, 20)) : h("span", { class: "muted", text: "no coins" }));
  });
  return h("div", { class: "change-panel" },
    h("div", { class: "change-bag-row", title: `${left} of ${st.total} coins in the bag` },
      bagSVG(ctx, 34, left),
      h("span", { class: "change-bag-count" }, h("strong", { text: left ? plural(left, "coin", "coins") : "The bag is empty" }), left ? " in the bag" : " — no more change"),
      h("span", { class: "change-coins" }, ...coinRow(ctx, st.bag, 16))),
    h("ul", { class: "change-seats", "aria-label": "Coins in front of the players" }, ...seats),
    h("p", { class: "muted change-help", text: `A building overpaid earns 1 coin from the bag for every ${st.overpaid_per_coin || 2} overpaid. Coins are worth 1, pay like money of their currency and go back into the bag.` }));
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.coins) || !st.coins[seat]) return null;
  const counts = st.coins[seat];
  const n = total(counts);
  if (!n) return null;
  const parts = CURRENCIES.filter((c) => counts[c]).map((c) => `${counts[c]} ${curName(ctx, c)}`);
  const main = CURRENCIES.reduce((best, c) => ((counts[c] || 0) > (counts[best] || 0) ? c : best), CURRENCIES[0]);
  return {
    text: plural(n, "coin", "coins"),
    title: `Coins in front of ${ctx.seatName(seat)}: ${parts.join(", ")} (worth 1 each)`,
    className: "change-badge",
    icon: coinSVG(ctx, main, 14, null),
  };
}

// ------------------------------------------------------------------ the log
function describeEvent(ctx, e) {
  if (e.type !== "ChangeGiven") return null;
  const who = ctx.seatName(e.seat);
  if (!e.coins.length) return `${who} overpaid by ${e.overpaid}, but the bag of coins is empty: no change`;
  const names = e.coins.map((t) => curName(ctx, TOKEN_CURRENCY[t] || t)).join(", ");
  const short = e.coins.length < e.due ? ` (the bag held only ${e.coins.length} of ${e.due})` : "";
  return `${who} overpaid by ${e.overpaid} and takes ${plural(e.coins.length, "coin", "coins")} of change from the bag: ${names}${short}`;
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  if (!Array.isArray(st.coins)) return null;
  const sum = (c) => Object.values(c || {}).reduce((a, b) => a + b, 0);
  return `${n(st.bag_count, "coin", "coins")} in the bag · ` + seats((i) => n(sum(st.coins[i]), "coin", "coins"));
}

window.Alhambra.registerModule(ID, { summary, cardArt, cardName, panel, seatBadges, describeEvent });
