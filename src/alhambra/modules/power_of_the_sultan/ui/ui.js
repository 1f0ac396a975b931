// Front-end plug-in of the Power of Sultan (module power_of_the_sultan).
// The eight sultan cards are drawn in the house style: a sultan under a palace arch in front of a
// night sky with a crescent, a robe and a coin in the card's currency with its price 7, and the
// marker cube in the colour of the building kind it is marked with. The panel shows the cards
// beside the market (buyable ones are buttons that open the table's payment picker), the cards in
// front of every player, the removed cards, the face-down extra tiles and a tile held while a
// claim is open; the seat badges list each player's marked kinds. The decisions (keep the mark or
// reveal an extra tile, mark one of its two kinds, take a drawn tile or let it go) get buttons
// with sentences, the drawn tile and the extra tile shown big.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "power_of_the_sultan";
const PRICE = 7;
const NIGHT = "#26305a";
const GOLD = "#f2c94c";
const SKIN = "#e7b98a";
const BEARD = "#4a2f1c";

// ------------------------------------------------------------------ facts
/** True for the code of a sultan card of this module. */
function isSultan(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  return Boolean(c && c.module === ID) && /^su[bgoy]\d+$/.test(code);
}

/** The currency (colour word) a sultan card costs. */
function currencyOf(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  if (c && c.currency) return c.currency;
  const m = /^su([bgoy])\d+$/.exec(code || "");
  return m ? ctx.art.CURRENCY_LETTER[m[1]] : "blue";
}

const price = (ctx) => (ctx.state && Number.isInteger(ctx.state.price) ? ctx.state.price : PRICE);

/** Where sultan card `code` is now: {where: beside | owned | used | deck, seat, kind}. */
function whereIs(ctx, code) {
  const st = ctx.state;
  if (!st) return { where: "deck", seat: null, kind: null };
  const b = (st.beside || []).find((c) => c.card === code);
  if (b) return { where: "beside", seat: null, kind: b.kind };
  for (const [seat, cards] of (st.owned || []).entries()) {
    const o = cards.find((c) => c.card === code);
    if (o) return { where: "owned", seat, kind: o.kind };
  }
  if ((st.used || []).includes(code)) return { where: "used", seat: null, kind: null };
  return { where: "deck", seat: null, kind: null };
}

const kindName = (ctx, kind) => (kind ? ctx.art.KIND_NAMES[kind] || kind : "no kind");
/** "marked Garden", or "without a mark" while the card's cube is off. */
const marked = (ctx, kind) => (kind ? `marked ${kindName(ctx, kind)}` : "without a mark");
const curName = (ctx, cur) => ctx.art.CURRENCY_NAMES[cur] || cur;
const cardsText = (ctx, cards) => cards.map(ctx.cardName).join(" + ");

/** The notation `buy CODE CARDS` of a sultan card as {card, cards, action}; null otherwise. */
function parseBuy(ctx, notation) {
  const m = ctx.argsOf ? ctx.argsOf(notation, "buy") : null;
  return m && typeof m[0] === "string" && isSultan(ctx, m[0]) ? { card: m[0], cards: m[1], action: notation } : null;
}

/** The open question of the module, when it is the viewer's: the view's pending. */
function myPending(ctx, type) {
  const p = ctx.view ? ctx.view.pending : null;
  return p && p.type === type && p.seat === ctx.me ? p : null;
}

// ------------------------------------------------------------------ art
/** Mix hex colour `c` with white (t > 0) or black (t < 0). */
function shade(c, t) {
  const n = parseInt(c.slice(1), 16);
  const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => Math.round(t >= 0 ? v + (255 - v) * t : v * (1 + t)));
  return `#${ch.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
}

/** A marker cube (isometric, `s` wide) centred at (cx, cy) in the kind's colour; a dashed empty
 * place when the cube is off the card (kind null). */
function cubeGroup(ctx, kind, cx, cy, s) {
  const { INK, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: `sultan-cube ${kind ? `kind-${kind}` : "empty"}` });
  const w = s / 2;
  const q = s / 4;
  const top = `M${cx} ${cy - w} L${cx + w} ${cy - q} L${cx} ${cy} L${cx - w} ${cy - q} Z`;
  const left = `M${cx - w} ${cy - q} L${cx} ${cy} L${cx} ${cy + w} L${cx - w} ${cy + q} Z`;
  const right = `M${cx + w} ${cy - q} L${cx} ${cy} L${cx} ${cy + w} L${cx + w} ${cy + q} Z`;
  if (!kind) {
    const outline = `M${cx} ${cy - w} L${cx + w} ${cy - q} L${cx + w} ${cy + q} L${cx} ${cy + w} L${cx - w} ${cy + q} L${cx - w} ${cy - q} Z`;
    g.appendChild(svg("path", { d: outline, fill: "none", stroke: INK, "stroke-width": Math.max(0.6, s / 14), "stroke-dasharray": `${s / 8} ${s / 10}`, opacity: 0.7 }));
    return g;
  }
  const base = KIND_COLORS[kind] || "#999";
  const line = { stroke: INK, "stroke-width": Math.max(0.5, s / 16), "stroke-linejoin": "round" };
  g.appendChild(svg("path", { d: top, fill: shade(base, 0.35), ...line }));
  g.appendChild(svg("path", { d: left, fill: base, ...line }));
  g.appendChild(svg("path", { d: right, fill: shade(base, -0.3), ...line }));
  return g;
}

/** A small standalone cube icon for buttons and badges. */
function cubeIcon(ctx, kind, size = 16) {
  const s = ctx.svg("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true", class: "sultan-cube-icon" });
  s.appendChild(cubeGroup(ctx, kind, 10, 10, 16));
  return s;
}

/** A crescent with a star (the sultan's emblem), the crescent `r` high, centred at (cx, cy). */
function crescentGroup(ctx, cx, cy, r, fill = GOLD) {
  const svg = ctx.svg;
  const g = svg("g", { class: "sultan-crescent" });
  // the outer circle minus an inner circle shifted to the right: two arcs between the tips
  const d = r * 0.45;
  const k = r * 0.8;
  const tx = cx + (r * r - k * k + d * d) / (2 * d);
  const ty = Math.sqrt(r * r - (tx - cx) ** 2);
  const f = (n) => n.toFixed(2);
  g.appendChild(svg("path", {
    d: `M${f(tx)} ${f(cy - ty)} A${f(r)} ${f(r)} 0 1 0 ${f(tx)} ${f(cy + ty)} A${f(k)} ${f(k)} 0 1 1 ${f(tx)} ${f(cy - ty)} Z`,
    fill, stroke: ctx.art.INK, "stroke-width": Math.max(0.4, r / 7),
  }));
  const sx = cx + r * 0.75;
  const sr = r * 0.42;
  const pts = [...Array(10).keys()].map((i) => {
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    const rr = i % 2 ? sr * 0.45 : sr;
    return `${(sx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`;
  });
  g.appendChild(svg("polygon", { points: pts.join(" "), fill }));
  return g;
}

/** The sultan: robe in `robe`, a beard, a turban with a jewel and a plume, drawn in card units. */
function sultanGroup(ctx, robe) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "sultan-figure" });
  const line = { stroke: INK, "stroke-width": 1.1, "stroke-linejoin": "round" };
  g.appendChild(svg("path", { d: "M12.5 60 Q13 47 30 45 Q47 47 47.5 60 Z", fill: robe, ...line }));
  g.appendChild(svg("path", { d: "M30 45.5 V60 M24.5 46.5 Q30 52 35.5 46.5", fill: "none", stroke: GOLD, "stroke-width": 1.4 }));
  g.appendChild(svg("circle", { cx: 30, cy: 37, r: 7, fill: SKIN, ...line }));
  g.appendChild(svg("path", { d: "M23.4 38.5 Q24 47.5 30 48.5 Q36 47.5 36.6 38.5 Q33.5 42 30 41.5 Q26.5 42 23.4 38.5 Z", fill: BEARD, ...line, "stroke-width": 0.8 }));
  g.appendChild(svg("path", { d: "M26.5 41 Q30 39.3 33.5 41", fill: "none", stroke: BEARD, "stroke-width": 1.3, "stroke-linecap": "round" }));
  g.appendChild(svg("circle", { cx: 27.4, cy: 36.3, r: 0.8, fill: INK }));
  g.appendChild(svg("circle", { cx: 32.6, cy: 36.3, r: 0.8, fill: INK }));
  g.appendChild(svg("path", { d: "M19 32 Q18 20 30 19 Q42 20 41 32 Q30 35.5 19 32 Z", fill: CREAM, ...line }));
  g.appendChild(svg("path", { d: "M20 28 Q30 24 40 28 M21.5 23.8 Q30 21 38.5 24.5", fill: "none", stroke: INK, "stroke-width": 0.6, opacity: 0.6 }));
  g.appendChild(svg("path", { d: "M30 26 Q27 19 31 14.5 Q31.5 19 33 20.5", fill: GOLD, ...line, "stroke-width": 0.7 }));
  g.appendChild(svg("circle", { cx: 30, cy: 27, r: 2.2, fill: "#c4453a", ...line, "stroke-width": 0.7 }));
  return g;
}

/** A sultan card, `width` wide: the currency's frame and robe, the night arch with the crescent,
 * the coin with the price and the marker cube of `kind` (null: the cube is off). */
function sultanCardSVG(ctx, code, width, kind, label) {
  const { CURRENCY_COLORS, INK, PAPER, cardShell, coinGroup } = ctx.art;
  const svg = ctx.svg;
  const cur = currencyOf(ctx, code);
  const colour = CURRENCY_COLORS[cur] || "#777";
  const s = cardShell(label, width);
  s.classList.add("sultan-card");
  s.dataset.card = code;
  s.dataset.kind = kind || "";
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: colour, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 5.5, y: 5.5, width: 49, height: 73, rx: 4, fill: PAPER, stroke: INK, "stroke-width": 1 }));
  // the palace arch with the night sky, the crescent and the sultan in front of it
  s.appendChild(svg("path", { d: "M9 60 V27 Q9 14 30 8.5 Q51 14 51 27 V60 Z", fill: NIGHT, stroke: INK, "stroke-width": 1.2 }));
  for (const [x, y] of [[15, 24], [46, 31], [17, 40], [43, 43]]) s.appendChild(svg("circle", { cx: x, cy: y, r: 0.7, fill: "#fdf6e3" }));
  s.appendChild(crescentGroup(ctx, 40, 18, 4.2));
  s.appendChild(sultanGroup(ctx, colour));
  s.appendChild(svg("path", { d: "M9 60 V27 Q9 14 30 8.5 Q51 14 51 27 V60 Z", fill: "none", stroke: GOLD, "stroke-width": 1 }));
  // price and mark
  s.appendChild(coinGroup(18, 69.5, 7.2, colour, price(ctx)));
  s.appendChild(svg("rect", { x: 33, y: 62.5, width: 18, height: 14, rx: 3, fill: "#f4ead5", stroke: INK, "stroke-width": 0.7 }));
  s.appendChild(cubeGroup(ctx, kind, 42, 69.5, 11));
  return s;
}

/** An extra tile (viewBox 100 x 100, `size` wide): face up, two kinds, the top one above; face
 * down (kinds null), the back with an eight-pointed star. */
function extraTileSVG(ctx, kinds, size) {
  const { INK, CREAM, KIND_COLORS, svgText } = ctx.art;
  const svg = ctx.svg;
  const label = kinds ? `Extra tile: ${kindName(ctx, kinds[0])} at the top, ${kindName(ctx, kinds[1])} at the bottom` : "Extra tile, face down";
  const s = svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": label, class: "sultan-extra" });
  if (!kinds) {
    s.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 8, fill: "#7b2d26", stroke: INK, "stroke-width": 2 }));
    s.appendChild(svg("rect", { x: 26, y: 26, width: 48, height: 48, fill: GOLD, stroke: INK, "stroke-width": 2 }));
    s.appendChild(svg("rect", { x: 26, y: 26, width: 48, height: 48, fill: GOLD, stroke: INK, "stroke-width": 2, transform: "rotate(45 50 50)" }));
    s.appendChild(crescentGroup(ctx, 47, 50, 11, "#7b2d26"));
    return s;
  }
  const halves = ["M2 50 V10 A8 8 0 0 1 10 2 H90 A8 8 0 0 1 98 10 V50 Z", "M2 50 V90 A8 8 0 0 0 10 98 H90 A8 8 0 0 0 98 90 V50 Z"];
  kinds.forEach((k, i) => {
    const y = 2 + i * 48;
    s.appendChild(svg("path", { d: halves[i], fill: KIND_COLORS[k] || "#999" }));
    s.appendChild(svg("rect", { x: 8, y: y + 9, width: 84, height: 30, rx: 5, fill: CREAM, opacity: 0.92 }));
    s.appendChild(cubeGroup(ctx, k, 20, y + 24, 17));
    s.appendChild(svgText(60, y + 28.5, kindName(ctx, k), { "font-size": 12.5, "font-weight": 700 }));
  });
  s.appendChild(svg("line", { x1: 2, y1: 50, x2: 98, y2: 50, stroke: INK, "stroke-width": 1.5, "stroke-dasharray": "4 3" }));
  s.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 8, fill: "none", stroke: INK, "stroke-width": 2 }));
  return s;
}

// ------------------------------------------------------------------ names and card art
function cardName(ctx, code) {
  if (!isSultan(ctx, code)) return null;
  const at = whereIs(ctx, code);
  const cur = curName(ctx, currencyOf(ctx, code));
  if ((at.where === "beside" || at.where === "owned") && at.kind) return `sultan card marked ${kindName(ctx, at.kind)} (${cur})`;
  return `sultan card (${cur})`;
}

function cardArt(ctx, code, width = 48) {
  if (!isSultan(ctx, code)) return null;
  return sultanCardSVG(ctx, code, width, whereIs(ctx, code).kind, cardName(ctx, code));
}

// ------------------------------------------------------------------ buying
/** Open the table's payment picker for sultan card `code` (the legal `buy CODE CARDS` actions). */
function startPay(ctx, code) {
  const options = ctx.legal.map((a) => parseBuy(ctx, a)).filter((b) => b && b.card === code).map((b) => ({ cards: b.cards, action: b.action }));
  if (!options.length) return;
  const at = whereIs(ctx, code);
  const cur = currencyOf(ctx, code);
  ctx.pay({
    item: { label: itemLabel(ctx, code), price: price(ctx), currency: cur },
    options,
    title: `Buy the sultan card ${marked(ctx, at.kind)}`,
    note: `Pay in ${curName(ctx, cur)}; an exact payment lets you act again. Afterwards you may keep its mark or reveal an extra tile to change it.`,
  });
}

/** True while the table's payment picker is open for sultan card `code`. */
function isPaying(ctx, code) {
  const p = ctx.payment;
  return Boolean(p && p.item) && p.item.label === itemLabel(ctx, code) && p.item.currency === currencyOf(ctx, code);
}

const itemLabel = (ctx, code) => `the sultan card ${marked(ctx, whereIs(ctx, code).kind)}`;

/** The buyable sultan cards (codes) for the viewer now. */
function buyable(ctx, actions) {
  return [...new Set((actions || ctx.legal).map((a) => parseBuy(ctx, a)).filter(Boolean).map((b) => b.card))];
}

// ------------------------------------------------------------------ panel
function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.owned)) return null;
  const h = ctx.h;
  const canBuy = new Set(ctx.myTurn ? buyable(ctx) : []);
  const curOf = (c) => curName(ctx, c.currency || currencyOf(ctx, c.card));
  const beside = (st.beside || []).map((c) => {
    const label = `Sultan card ${marked(ctx, c.kind)}, price ${price(ctx)} ${curOf(c)}`;
    const art = h("span", { class: "sultan-face" }, sultanCardSVG(ctx, c.card, 50, c.kind, label),
      h("span", { class: "sultan-caption" }, h("strong", { text: kindName(ctx, c.kind) }), h("span", { text: `${price(ctx)} ${curOf(c)}` })));
    if (!canBuy.has(c.card)) return h("span", { class: "sultan-slot", dataset: { card: c.card } }, art);
    const on = isPaying(ctx, c.card);
    return h("button", {
      class: `sultan-slot sultan-buy ${on ? "selected" : ""}`, dataset: { card: c.card },
      "aria-label": `Buy the sultan card ${marked(ctx, c.kind)} for ${price(ctx)} ${curOf(c)}`,
      "aria-pressed": on ? "true" : "false",
      title: "Buy this sultan card (your action; exact payment lets you act again)",
      onclick: () => startPay(ctx, c.card),
    }, art);
  });
  const rows = [h("div", { class: "sultan-beside", role: "group", "aria-label": "Sultan cards beside the market" },
    h("span", { class: "sultan-label", text: "Beside the market" }),
    beside.length ? h("div", { class: "sultan-cards" }, ...beside) : h("span", { class: "muted sultan-none", text: "none at the moment" }))];
  if (st.held) {
    const p = ctx.view.pending;
    const who = p && p.type === "SultanClaimOffer" ? ctx.seatName(p.seat) : null;
    rows.push(h("div", { class: "sultan-held", role: "status" }, ctx.tileArt(st.held, 54),
      h("span", { text: `${ctx.tileName(st.held)} was drawn for the market${who ? `: ${who} may take it with a sultan card` : ""}.` })));
  }
  const pend = ctx.view.pending;
  if (pend && pend.type === "PlaceTiles" && pend.reason === "sultan" && Array.isArray(pend.tiles)) {
    const mine = pend.seat === ctx.me;
    const names = pend.tiles.map(ctx.tileName).join(", ");
    rows.push(h("div", { class: "sultan-held sultan-placing", role: "status" }, ...pend.tiles.map((t) => ctx.tileArt(t, 54)),
      h("span", { text: mine ? `You took ${names} with your sultan card: place it now${pend.neutral ? " (or give it to Dirk)" : ""}.` : `${ctx.seatName(pend.seat)} took ${names} with a sultan card and places it now.` })));
  }
  const n = st.owned.length;
  const order = [...Array(n).keys()];
  rows.push(h("ul", { class: "sultan-owners", "aria-label": "Sultan cards in front of the players" }, ...order.map((seat) => {
    const cards = st.owned[seat] || [];
    return h("li", { dataset: { seat } },
      h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
      h("span", { class: "sultan-owner", text: seat === ctx.me ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat) }),
      cards.length ? h("span", { class: "sultan-cards" }, ...cards.map((c) => h("span", { class: "sultan-owned", dataset: { card: c.card, kind: c.kind || "" } },
        sultanCardSVG(ctx, c.card, 30, c.kind, `Sultan card ${marked(ctx, c.kind)} (${curOf(c)})`),
        h("span", { class: "sultan-kind", text: c.kind ? kindName(ctx, c.kind) : "unmarked" }))))
        : h("span", { class: "muted", text: "no sultan card" }));
  })));
  const used = st.used || [];
  rows.push(h("div", { class: "sultan-foot" },
    h("span", { class: "sultan-extras", title: "The extra tiles lie face down; one is revealed for every new sultan card and for a change of mark." },
      extraTileSVG(ctx, null, 22), h("span", { text: `${(st.extra_tiles || []).length || 6} extra tiles` })),
    used.length ? h("span", { class: "sultan-used", title: "Sultan cards used to take a tile leave the game." },
      ...used.map((code) => sultanCardSVG(ctx, code, 18, null, `Used sultan card (${curName(ctx, currencyOf(ctx, code))})`)),
      h("span", { text: `${used.length} used` })) : null));
  return h("div", { class: "sultan-panel" },
    h("p", { class: "muted sultan-help", text: `Buy a card for ${price(ctx)} in its currency; when a tile of its marked kind is drawn for the market, you may take it for free.` }),
    ...rows);
}

// ------------------------------------------------------------------ badges
function seatBadges(ctx, seat) {
  const st = ctx.state;
  const cards = st && Array.isArray(st.owned) ? st.owned[seat] || [] : [];
  if (!cards.length) return null;
  const icon = ctx.svg("svg", { viewBox: `0 0 ${cards.length * 14 + 4} 16`, width: cards.length * 12 + 4, height: 14, "aria-hidden": "true" });
  cards.forEach((c, i) => icon.appendChild(cubeGroup(ctx, c.kind, 9 + i * 14, 8, 13)));
  const kinds = cards.map((c) => (c.kind ? kindName(ctx, c.kind) : "unmarked"));
  return {
    text: `Sultan: ${kinds.join(", ")}`,
    title: `${cards.length} sultan card${cards.length > 1 ? "s" : ""} marked ${kinds.join(", ")}: a drawn tile of such a kind may be taken for free`,
    className: "sultan-badge",
    icon,
  };
}

// ------------------------------------------------------------------ controls
function actionControls(ctx, actions) {
  const h = ctx.h;
  const handled = [];
  const parts = [];
  const row = h("div", { class: "button-row" });
  const buys = buyable(ctx, actions);
  if (buys.length) {
    handled.push(...actions.filter((a) => parseBuy(ctx, a)));
    const paying = Boolean(ctx.payment && ctx.payment.item);
    parts.push(h("p", { class: "sultan-offer" }, crescentIcon(ctx), h("span", { text: paying
      ? " Pick the cards to pay with, then Buy."
      : ` You may buy a sultan card beside the market (${price(ctx)} in its currency): pick it here or in the Power of Sultan panel.` })));
    parts.push(h("div", { class: "button-row sultan-buys" }, ...buys.map((code) => {
      const at = whereIs(ctx, code);
      const on = isPaying(ctx, code);
      return h("button", {
        class: `secondary sultan-buy-button ${on ? "selected" : ""}`, dataset: { card: code }, "aria-pressed": on ? "true" : "false",
        onclick: () => startPay(ctx, code),
      }, sultanCardSVG(ctx, code, 22, at.kind, ""), h("span", { text: `Buy the sultan card: ${kindName(ctx, at.kind)}, ${price(ctx)} ${curName(ctx, currencyOf(ctx, code))}` }));
    })));
  }
  const remark = myPending(ctx, "SultanRemarkOffer");
  if (remark && (actions.includes("sultan keep") || actions.includes("sultan reveal"))) {
    const kind = whereIs(ctx, remark.card).kind;
    parts.push(h("div", { class: "sultan-decision" }, sultanCardSVG(ctx, remark.card, 64, kind, cardName(ctx, remark.card) || "sultan card"),
      h("p", { text: `Your new sultan card is marked ${kindName(ctx, kind)}. Keep this mark, or take the cube off and reveal an extra tile: you must then mark one of its two kinds.` })));
    if (actions.includes("sultan keep")) {
      row.append(h("button", { id: "btn-sultan-keep", class: "primary", onclick: () => ctx.act("sultan keep") }, cubeIcon(ctx, kind, 18), h("span", { text: `Keep ${kindName(ctx, kind)}` })));
      handled.push("sultan keep");
    }
    if (actions.includes("sultan reveal")) {
      row.append(h("button", { id: "btn-sultan-reveal", class: "secondary", onclick: () => ctx.act("sultan reveal") }, extraTileSVG(ctx, null, 18), h("span", { text: "Reveal an extra tile" })));
      handled.push("sultan reveal");
    }
  }
  // [notation, kind] of each legal `sultan mark KIND` (the server's structured actions)
  const marks = actions.map((a) => [a, ctx.argsOf(a, "sultan mark")]).filter(([, m]) => m).map(([a, m]) => [a, m[0]]);
  if (marks.length) {
    const choice = myPending(ctx, "SultanMarkChoice");
    const kinds = choice && Array.isArray(choice.kinds) ? choice.kinds : marks.map((m) => m[1]);
    parts.push(h("div", { class: "sultan-decision" }, extraTileSVG(ctx, kinds, 96),
      choice ? sultanCardSVG(ctx, choice.card, 56, null, "Your sultan card, its cube off") : null,
      h("p", { text: `The extra tile shows ${kinds.map((k) => kindName(ctx, k)).join(" and ")}. Mark one of them on your sultan card.` })));
    for (const m of marks) {
      row.append(h("button", { class: "secondary sultan-mark", dataset: { kind: m[1] }, onclick: () => ctx.act(m[0]) },
        cubeIcon(ctx, m[1], 18), h("span", { text: `Mark ${kindName(ctx, m[1])}` })));
      handled.push(m[0]);
    }
  }
  const claim = myPending(ctx, "SultanClaimOffer");
  if (claim && (actions.includes("sultan claim") || actions.includes("sultan decline"))) {
    const tile = claim.tile;
    const kind = ctx.catalogue && ctx.catalogue.tiles && ctx.catalogue.tiles[tile] ? ctx.catalogue.tiles[tile].kind : null;
    const mine = (ctx.state && ctx.state.owned ? ctx.state.owned[ctx.me] || [] : []).find((c) => c.kind === kind);
    const later = Array.isArray(claim.later) && claim.later.length ? ` If you let it go, ${claim.later.map(ctx.seatName).join(", then ")} may take it.` : " If you let it go, it goes onto the market.";
    parts.push(h("div", { class: "sultan-decision sultan-claim" },
      h("span", { class: "sultan-big-tile" }, ctx.tileArt(tile, 120)),
      mine ? sultanCardSVG(ctx, mine.card, 56, mine.kind, cardName(ctx, mine.card) || "sultan card") : null,
      h("p", {}, h("strong", { text: `${ctx.tileName(tile)} was drawn for the market.` }),
        ` Your sultan card marked ${kindName(ctx, kind)} lets you take it now for free and place it at once; the card then leaves the game.${later}`)));
    if (actions.includes("sultan claim")) {
      row.append(h("button", { id: "btn-sultan-claim", class: "primary", onclick: () => ctx.act("sultan claim") }, crescentIcon(ctx), h("span", { text: "Take it for free" })));
      handled.push("sultan claim");
    }
    if (actions.includes("sultan decline")) {
      row.append(h("button", { id: "btn-sultan-decline", class: "secondary", text: "Let it go", onclick: () => ctx.act("sultan decline") }));
      handled.push("sultan decline");
    }
  }
  if (row.children.length) parts.push(row);
  if (!parts.length) return null;
  return { node: h("div", { class: "sultan-controls" }, ...parts), handled };
}

/** A crescent icon for sentences and buttons. */
function crescentIcon(ctx, size = 18) {
  const s = ctx.svg("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true", class: "sultan-icon" });
  s.appendChild(ctx.svg("circle", { cx: 10, cy: 10, r: 9.5, fill: NIGHT }));
  s.appendChild(crescentGroup(ctx, 8.5, 10, 6));
  return s;
}

// ------------------------------------------------------------------ texts
function describeAction(ctx, notation) {
  const b = parseBuy(ctx, notation);
  if (b) {
    const at = whereIs(ctx, b.card);
    return `Buy the sultan card ${marked(ctx, at.kind)} for ${cardsText(ctx, b.cards)}`;
  }
  if (notation === "sultan keep") {
    const p = ctx.view && ctx.view.pending;
    const kind = p && p.card ? whereIs(ctx, p.card).kind : null;
    return kind ? `Keep the mark ${kindName(ctx, kind)} on your sultan card` : "Keep the mark on your sultan card";
  }
  if (notation === "sultan reveal") return "Take the cube off your sultan card and reveal an extra tile";
  const m = ctx.argsOf ? ctx.argsOf(notation, "sultan mark") : null;
  if (m) return `Mark ${kindName(ctx, m[0])} on your sultan card`;
  const p = ctx.view && ctx.view.pending;
  const tile = p && p.type === "SultanClaimOffer" ? ctx.tileName(p.tile) : "the drawn tile";
  if (notation === "sultan claim") return `Take ${tile} for free with your sultan card`;
  if (notation === "sultan decline") return `Let ${tile} go`;
  return null;
}

function describeEvent(ctx, e) {
  const who = (seat) => ctx.seatName(seat);
  const cur = (code) => curName(ctx, currencyOf(ctx, code));
  switch (e.type) {
    case "SultanCardRevealed":
      return `A sultan card (${curName(ctx, e.currency)}) comes up from the money pile and is laid beside the market; the extra tile revealed for it (${e.extra.map((k) => kindName(ctx, k)).join(" / ")}) marks it ${kindName(ctx, e.kind)}`;
    case "SultanMarkKept":
      return `${who(e.seat)} keeps the mark ${kindName(ctx, e.kind)} on the new sultan card (${cur(e.card)})`;
    case "SultanExtraTileRevealed":
      return `${who(e.seat)} takes the cube off the new sultan card (${cur(e.card)}) and reveals an extra tile: ${e.kinds.map((k) => kindName(ctx, k)).join(" / ")}`;
    case "SultanCardMarked":
      return `${who(e.seat)} marks ${kindName(ctx, e.kind)} on the sultan card (${cur(e.card)})`;
    case "SultanTileOffered":
      return `${ctx.tileName(e.tile)} is drawn for the market: ${e.seats.map(who).join(", then ")} may take it with a sultan card marked ${kindName(ctx, e.kind)}`;
    case "SultanTileClaimed":
      return `${who(e.seat)} takes ${ctx.tileName(e.tile)} for free with the sultan card (${cur(e.card)}); the card leaves the game`;
    case "SultanTileDeclined":
      return `${who(e.seat)} lets ${ctx.tileName(e.tile)} go`;
    case "ItemBought": {
      if (!isSultan(ctx, e.item)) return null;
      const m = /\((\w+)\)$/.exec(e.label || "");
      const mark = m ? ` marked ${kindName(ctx, m[1])}` : "";
      return `${who(e.seat)} buys the sultan card${mark} (${cur(e.item)}) for ${cardsText(ctx, e.payment)}${e.exact ? ", exactly" : ""}`;
    }
    default:
      return null;
  }
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return `${(st.beside || []).length} beside the market · ` + (Array.isArray(st.owned) ? seats((i) => n((st.owned[i] || []).length, "card", "cards")) : "");
}

window.Alhambra.registerModule(ID, { summary, cardArt, cardName, panel, seatBadges, actionControls, describeAction, describeEvent });
