// Front-end plug-in of the Bazaars (module bazaars).
// A bazaar is drawn as a market stall in the house style: the coin of its currency in the corner
// (where a building shows its price) and an awning in the colours of its three building kinds,
// with three matching dots on the counter. The table uses this art wherever a bazaar tile appears
// (beside the market, in an Alhambra, on a reserve board, with Dirk, waiting to be placed).
// The panel shows the bazaars lying beside the market with their price; those the viewer can buy
// now are buttons that open the table's payment picker (exact money only: the core's
// `buy ITEM CARDS`, or `vizier buy ITEM CARDS` between turns). It also lists what every
// player's bazaars would score now; the final scoring shows the bazaar points in a column.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "bazaars";

const STALL_GROUND = "#e8c894";
const STALL_WOOD = "#8a5a2b";

/** The facts of bazaar `code` ({currency, kinds}) from the module's view; null for other codes. */
function bazaarOf(ctx, code) {
  const all = ctx.state && ctx.state.bazaars ? ctx.state.bazaars : null;
  return all && Object.hasOwn(all, code) ? all[code] : null;
}

function kindList(ctx, kinds) {
  return kinds.map((k) => ctx.art.KIND_NAMES[k] || k).join(", ");
}

function tileName(ctx, code) {
  const b = bazaarOf(ctx, code);
  if (!b) return null;
  return `Bazaar (${ctx.art.CURRENCY_NAMES[b.currency]}: ${kindList(ctx, b.kinds)})`;
}

/** `[vizier ]buy CODE CARDS` of a bazaar as {code, cards, action, vizier}, from the server's
 * structured action (`ctx.move`: keyword and arguments); null otherwise. */
function parseBuy(ctx, notation) {
  const m = ctx.move ? ctx.move(notation) : null;
  if (!m || (m.keyword !== "buy" && m.keyword !== "vizier buy")) return null;
  const arg = (type) => (m.args.find((a) => a.type === type) || {}).value;
  const code = arg("item");
  if (code === undefined || !bazaarOf(ctx, code)) return null;
  return { code, cards: arg("cards"), action: notation, vizier: m.keyword === "vizier buy" };
}

/** Where a bazaar is built and how it scores now: {seat, points, matching, kinds} or null. */
function builtScore(ctx, code) {
  const built = ctx.state && Array.isArray(ctx.state.built) ? ctx.state.built : [];
  for (let seat = 0; seat < built.length; seat++) {
    for (const b of built[seat] || []) if (b.tile === code) return { seat, ...b };
  }
  return null;
}

/** The stall drawn into `g` (a 100 x 100 tile): ground, posts, awning in the three colours,
 * counter with three coloured wares. */
function drawStall(ctx, g, kinds) {
  const { KIND_COLORS, INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const line = { stroke: INK, "stroke-width": 2, "stroke-linejoin": "round" };
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: STALL_GROUND, stroke: "#6b5235", "stroke-width": 1.5 }));
  g.appendChild(svg("rect", { x: 8, y: 8, width: 84, height: 84, rx: 4, fill: "none", stroke: "rgba(255,255,255,0.45)", "stroke-width": 1.5 }));
  // paving stones under the stall
  for (const x of [14, 34, 54, 74]) g.appendChild(svg("path", { d: `M${x} 90 L${x + 6} 84`, stroke: "rgba(107,82,53,0.35)", "stroke-width": 1.5 }));
  // the roof: a little dome with a finial over the awning
  g.appendChild(svg("path", { d: "M36 34 Q50 14 64 34 Z", fill: CREAM, ...line }));
  g.appendChild(svg("line", { x1: 50, y1: 22, x2: 50, y2: 12, stroke: INK, "stroke-width": 2 }));
  g.appendChild(svg("circle", { cx: 50, cy: 11, r: 2.6, fill: "#f2c94c", stroke: INK, "stroke-width": 1.2 }));
  // posts
  g.appendChild(svg("path", { d: "M22 46 V80 M78 46 V80", stroke: STALL_WOOD, "stroke-width": 4, "stroke-linecap": "round" }));
  // the awning: one panel per colour, scalloped at the bottom
  const left = 14;
  const w = 72 / kinds.length;
  kinds.forEach((k, i) => {
    const x0 = left + i * w;
    const x1 = x0 + w;
    const half = w / 2;
    const d = `M${x0} 34 H${x1} V46 Q${x1 - half / 2} 53 ${x1 - half} 46 Q${x0 + half / 2} 53 ${x0} 46 Z`;
    g.appendChild(svg("path", { d, fill: KIND_COLORS[k] || "#999", ...line, "stroke-width": 1.6 }));
  });
  g.appendChild(svg("path", { d: "M12 34 H88", stroke: INK, "stroke-width": 2.5, "stroke-linecap": "round" }));
  // the counter with its wares: a heap in each colour
  g.appendChild(svg("path", { d: "M18 66 H82 V82 H18 Z", fill: CREAM, ...line }));
  g.appendChild(svg("path", { d: "M18 70 H82", stroke: INK, "stroke-width": 1 }));
  kinds.forEach((k, i) => {
    const cx = 32 + i * 18;
    g.appendChild(svg("path", { d: `M${cx - 7} 66 Q${cx} 52 ${cx + 7} 66 Z`, fill: KIND_COLORS[k] || "#999", stroke: INK, "stroke-width": 1.4 }));
  });
}

/** The tile: a stall, the coin of its currency top left; a built bazaar shows its points now. */
function tileArt(ctx, code, size = 64) {
  const b = bazaarOf(ctx, code);
  if (!b) return null;
  const { CURRENCY_COLORS, INK, coinGroup, svgText } = ctx.art;
  const svg = ctx.svg;
  const score = builtScore(ctx, code);
  const label = `${tileName(ctx, code)}${score ? `, scores ${score.points} now` : ""}`;
  const s = svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": label, class: "bazaar-tile", "data-bazaar": code });
  const g = svg("g", { class: "tile kind-bazaar" });
  drawStall(ctx, g, b.kinds);
  g.appendChild(coinGroup(17, 17, 11, CURRENCY_COLORS[b.currency] || "#777"));
  if (score) {
    g.appendChild(svg("circle", { cx: 84, cy: 17, r: 11, fill: "#f2c94c", stroke: INK, "stroke-width": 1.8 }));
    g.appendChild(svgText(84, 22, score.points, { "font-size": score.points >= 10 ? 12 : 14, "font-weight": 800 }));
  }
  s.appendChild(g);
  return s;
}

/** A small stall (for badges and the panel): a striped awning over a counter. */
function stallIcon(ctx, size = 16) {
  const s = ctx.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, "aria-hidden": "true", class: "bazaar-icon" });
  const g = ctx.svg("g", {});
  drawStall(ctx, g, ["seraglio", "arcades", "garden"]);
  s.appendChild(g);
  return s;
}

/** The legal bazaar purchases now, by bazaar code: {vizier, options: [{cards, action}]}. */
function purchases(ctx, actions = ctx.legal) {
  const out = new Map();
  if (!ctx.myTurn) return out;
  for (const a of actions) {
    const b = parseBuy(ctx, a);
    if (!b) continue;
    if (!out.has(b.code)) out.set(b.code, { vizier: b.vizier, options: [] });
    const entry = out.get(b.code);
    if (entry.vizier === b.vizier) entry.options.push({ cards: b.cards, action: b.action });
  }
  return out;
}

/** Open the table's payment picker for bazaar `entry` (an item of beside_market). */
function startBuying(ctx, entry, buy) {
  const paying = ctx.payment;
  if (paying && paying.item && paying.item.code === entry.tile) { ctx.select(null); return; }
  const money = `${entry.price} ${ctx.art.CURRENCY_NAMES[entry.currency]}`;
  ctx.pay({
    item: entry.tile,
    price: entry.price,
    currency: entry.currency,
    options: buy.options,
    title: buy.vizier ? `The vizier's favour: ${tileName(ctx, entry.tile)}` : `Buy ${tileName(ctx, entry.tile)}`,
    note: buy.vizier
      ? `Pay exactly ${money}. The vizier places it at once and falls asleep; there is no extra action.`
      : `Pay exactly ${money} (a bazaar takes exact money only); you then act again, and place it at the end of your turn.`,
    confirm: buy.vizier ? "Use vizier" : "Buy the bazaar",
  });
}

function priceTag(ctx, entry) {
  const h = ctx.h;
  const { CURRENCY_COLORS, CURRENCY_NAMES, coinGroup } = ctx.art;
  if (entry.price === null || entry.price === undefined) {
    return h("span", { class: "bz-price none", title: `The ${CURRENCY_NAMES[entry.currency]} market square is empty`, text: "not now" });
  }
  const coin = ctx.svg("svg", { viewBox: "0 0 24 24", width: 16, height: 16, "aria-hidden": "true" }, [coinGroup(12, 12, 10, CURRENCY_COLORS[entry.currency])]);
  return h("span", { class: "bz-price" }, coin, h("strong", { text: String(entry.price) }), h("span", { text: ` ${CURRENCY_NAMES[entry.currency]}` }));
}

/** One bazaar beside the market: a button when the viewer can buy it now. */
function besideItem(ctx, entry, buys) {
  const h = ctx.h;
  const buy = buys.get(entry.tile);
  const paying = ctx.payment;
  const selected = Boolean(paying && paying.item && paying.item.code === entry.tile);
  const name = tileName(ctx, entry.tile);
  const price = entry.price === null || entry.price === undefined
    ? `cannot be bought now: the ${ctx.art.CURRENCY_NAMES[entry.currency]} market square is empty`
    : `costs ${entry.price} ${ctx.art.CURRENCY_NAMES[entry.currency]}, exact money only`;
  const hint = buy ? (buy.vizier ? " — your vizier can buy it now" : " — you can buy it") : "";
  return h("button", {
    class: `bz-offer ${buy ? "buyable" : ""} ${selected ? "selected" : ""}`,
    dataset: { tile: entry.tile, currency: entry.currency, vizier: buy && buy.vizier ? "1" : null },
    style: `--cur:${ctx.art.CURRENCY_COLORS[entry.currency]}`,
    "aria-label": `${name}: ${price}${hint}`,
    title: `${name}: ${price}`,
    "aria-pressed": selected ? "true" : "false",
    disabled: !buy,
    onclick: () => { if (buy) startBuying(ctx, entry, buy); },
  }, ctx.tileArt(entry.tile, 56), priceTag(ctx, entry));
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.beside_market)) return null;
  const h = ctx.h;
  const buys = purchases(ctx);
  const beside = st.beside_market;
  const seats = ctx.view && Array.isArray(ctx.view.seats) ? ctx.view.seats.map((s) => s.seat) : [];
  const points = Array.isArray(st.points) ? st.points : [];
  const built = Array.isArray(st.built) ? st.built : [];
  return h("div", { class: "bz-panel" },
    h("h3", { class: "bz-head" }, stallIcon(ctx, 18), h("span", { text: "Beside the market" })),
    beside.length
      ? h("div", { class: "bz-beside", role: "group", "aria-label": "Bazaars beside the market" }, ...beside.map((e) => besideItem(ctx, e, buys)))
      : h("p", { class: "muted bz-none", text: "No bazaar beside the market now." }),
    h("p", { class: "muted bz-help", text: "Price: the building on the square of its coin's currency, paid exactly. Final scoring: neighbouring buildings (diagonals too) of its colours × how many of its colours are there." }),
    h("ul", { class: "bz-points", "aria-label": "Bazaar points if the game ended now" }, ...seats.map((seat) => {
      const mine = built[seat] || [];
      const pts = points[seat] || 0;
      return h("li", { dataset: { seat } },
        h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
        h("span", { class: "bz-who", text: ctx.seatName(seat) }),
        h("span", { class: "bz-pts", text: mine.length ? `${pts} points (${mine.length} ${mine.length === 1 ? "bazaar" : "bazaars"})` : "no bazaar built" }));
    })));
}

function seatBadges(ctx, seat) {
  const built = ctx.state && Array.isArray(ctx.state.built) ? ctx.state.built[seat] || [] : [];
  if (!built.length) return null;
  const pts = ctx.state.points ? ctx.state.points[seat] || 0 : 0;
  const detail = built.map((b) => `${tileName(ctx, b.tile)}: ${b.matching} neighbours × ${b.kinds.length} colours = ${b.points}`).join("; ");
  return {
    text: `Bazaars ${pts}`,
    title: `${built.length} ${built.length === 1 ? "bazaar" : "bazaars"} in the Alhambra would score ${pts} points in the final scoring now. ${detail}`,
    className: "bazaar-badge",
    icon: stallIcon(ctx, 16),
  };
}

function actionControls(ctx, actions) {
  const buys = purchases(ctx, actions);
  if (!buys.size) return null;
  const h = ctx.h;
  const handled = actions.filter((a) => parseBuy(ctx, a));
  const beside = (ctx.state && ctx.state.beside_market) || [];
  const paying = ctx.payment;
  const vizier = [...buys.values()].some((b) => b.vizier);
  const text = paying && paying.item
    ? "Pick the cards that pay the bazaar exactly (or another bazaar)."
    : vizier
      ? "Your vizier may buy a bazaar beside the market too, with exact money:"
      : "You can buy a bazaar beside the market with exact money (then you act again):";
  const row = h("div", { class: "button-row bz-buttons", role: "group", "aria-label": "Bazaars you can buy" }, ...beside.filter((e) => buys.has(e.tile)).map((e) => {
    const on = Boolean(paying && paying.item && paying.item.code === e.tile);
    return h("button", {
      class: `secondary small bz-buy ${on ? "selected" : ""}`,
      dataset: { tile: e.tile },
      "aria-pressed": on ? "true" : "false",
      onclick: () => startBuying(ctx, e, buys.get(e.tile)),
    }, ctx.tileArt(e.tile, 28), h("span", { text: `${tileName(ctx, e.tile)} for ${e.price} ${ctx.art.CURRENCY_NAMES[e.currency]}` }));
  }));
  return { node: h("div", { class: "bz-controls" }, h("p", { class: "bz-offer-text" }, stallIcon(ctx, 20), h("span", { text: ` ${text}` })), row), handled };
}

function describeAction(ctx, notation) {
  const b = parseBuy(ctx, notation);
  if (!b) return null;
  const what = `${tileName(ctx, b.code)} for ${b.cards.map(ctx.cardName).join(" + ")}`;
  return b.vizier ? `Use the vizier: buy ${what}` : `Buy ${what}`;
}

function describeEvent(ctx, e) {
  if (e.type === "BazaarDrawn" && bazaarOf(ctx, e.tile)) return `${tileName(ctx, e.tile)} is laid out beside the market`;
  const pay = (p) => (Array.isArray(p) ? p.map(ctx.cardName).join(" + ") : "");
  if (e.type === "ItemBought" && bazaarOf(ctx, e.item)) {
    return `${ctx.seatName(e.seat)} buys ${tileName(ctx, e.item)} for ${pay(e.payment)}${e.exact ? " (exactly)" : ""}`;
  }
  if (e.type === "VizierUsed" && typeof e.square === "string" && bazaarOf(ctx, e.square)) {
    return `${ctx.seatName(e.seat)} uses the vizier: buys ${tileName(ctx, e.square)} for ${pay(e.payment)}`;
  }
  return null;
}

function scoring(ctx, roundEvent) {
  const values = roundEvent && roundEvent.extra ? roundEvent.extra[ID] : null;
  if (!Array.isArray(values)) return null;
  return [{ label: "Bazaars", values, title: "Each bazaar: neighbouring buildings of its colours (diagonals too) × how many of its colours they show" }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return `${(st.beside_market || []).length} beside the market · ` + seats((i) => `${((st.built || [])[i] || []).length} built, ${(st.points || [])[i] || 0} pts`);
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, actionControls, describeAction, describeEvent, tileArt, tileName, scoring });
