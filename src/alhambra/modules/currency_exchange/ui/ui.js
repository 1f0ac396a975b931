// Front-end plug-in of the currency exchange cards (module currency_exchange).
// The table draws the six cards with this art wherever a card appears (display, hand, ways to
// pay), names them in texts, and shows a panel with the cards on the discard pile. Picking an
// exchange card for a payment needs nothing here: the table's payment picker offers every card
// that is part of a legal way to pay. See docs/writing-a-module.md, "Front-end plug-in".

const ID = "currency_exchange";

/** The two currencies (colour words) of exchange card `code`, e.g. ["blue", "yellow"] for xby. */
function pairOf(ctx, code) {
  const known = ctx.state && ctx.state.cards ? ctx.state.cards[code] : null;
  if (Array.isArray(known) && known.length === 2) return known;
  const m = /^x([bgoy])([bgoy])$/.exec(code || "");
  return m ? [ctx.art.CURRENCY_LETTER[m[1]], ctx.art.CURRENCY_LETTER[m[2]]] : null;
}

function isExchange(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  return Boolean(c && c.module === ID) && pairOf(ctx, code) !== null;
}

function cardName(ctx, code) {
  if (!isExchange(ctx, code)) return null;
  const [a, b] = pairOf(ctx, code);
  const names = ctx.art.CURRENCY_NAMES;
  return `exchange card ${names[a]} ⇄ ${names[b]}`;
}

/** The card: framed half in each currency's colour, one coin per currency with arrows between
 * them (you may pay in either), the currency names; no value (it is not money). */
function cardArt(ctx, code, width = 48) {
  if (!isExchange(ctx, code)) return null;
  const { CURRENCY_COLORS, CURRENCY_NAMES, INK, PAPER, cardShell, coinGroup, svgText } = ctx.art;
  const svg = ctx.svg;
  const [a, b] = pairOf(ctx, code);
  const ca = CURRENCY_COLORS[a];
  const cb = CURRENCY_COLORS[b];
  const s = cardShell(cardName(ctx, code), width);
  s.classList.add("exchange-card");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: ca }));
  s.appendChild(svg("path", { d: "M30 1.5 H52.5 A6 6 0 0 1 58.5 7.5 V76.5 A6 6 0 0 1 52.5 82.5 H30 Z", fill: cb }));
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: "none", stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, fill: PAPER, stroke: INK, "stroke-width": 1 }));
  s.appendChild(coinGroup(30, 22, 10, ca));
  s.appendChild(svgText(30, 39, CURRENCY_NAMES[a], { "font-size": 7.5 }));
  s.appendChild(coinGroup(30, 52, 10, cb));
  s.appendChild(svgText(30, 69, CURRENCY_NAMES[b], { "font-size": 7.5 }));
  const arrow = { fill: "none", stroke: INK, "stroke-width": 1.6, "stroke-linecap": "round", "stroke-linejoin": "round" };
  s.appendChild(svg("path", { d: "M14 46 V27 M10.5 30.5 L14 27 L17.5 30.5", ...arrow }));
  s.appendChild(svg("path", { d: "M46 28 V47 M42.5 43.5 L46 47 L49.5 43.5", ...arrow }));
  return s;
}

/** The six cards at a glance: the ones on the discard pile are faded. */
function panel(ctx) {
  const st = ctx.state;
  if (!st || !st.cards) return null;
  const h = ctx.h;
  const codes = Object.keys(st.cards).sort();
  const spent = new Set(st.discarded || []);
  return h("div", { class: "xc-panel" },
    h("p", { class: "muted xc-help", text: "Take one instead of money; spend it on a purchase to pay with either of its two currencies." }),
    h("div", { class: "xc-cards", role: "list", "aria-label": "The exchange cards" }, ...codes.map((code) => h("span", {
      class: `xc-card ${spent.has(code) ? "spent" : ""}`, role: "listitem",
      title: `${cardName(ctx, code)}${spent.has(code) ? " (on the discard pile)" : ""}`,
    }, ctx.cardArt(code, 30)))),
    h("p", { class: "xc-count", text: spent.size ? `${spent.size} of ${codes.length} on the discard pile` : `All ${codes.length} still in the game` }));
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  const all = Object.keys(st.cards || {}).length;
  return `${all} exchange cards · ${(st.discarded || []).length} discarded`;
}

window.Alhambra.registerModule(ID, { summary, cardArt, cardName, panel });
