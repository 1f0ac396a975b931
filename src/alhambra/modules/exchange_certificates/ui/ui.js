// Front-end plug-in of the Exchange Certificates (module exchange_certificates).
// A certificate board is drawn in the house style as a sealed parchment: a stored credit shows
// its currency token (a disc in the currency's colour) and the amount on the scale 1-6; an empty
// board shows the empty scale. The panel shows the currency tokens left in the centre and every
// player's certificate; a seat badge shows a stored credit. Right after a building purchase
// overpaid by 1 to 6 the buyer chooses with buttons: store it with one of the tokens left, or
// not (with Change in the game: take the coins of change instead). Paying with the credit needs
// no code here: the table lists it under the hand ("Outside your hand", token cr) and this
// plug-in draws and names it.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "exchange_certificates";
const TOKEN = "cr";
const CURRENCIES = ["blue", "green", "orange", "yellow"];
const LETTER = { blue: "b", green: "g", orange: "o", yellow: "y" };
const PARCHMENT = "#f3e2b8";

const curName = (ctx, cur) => ctx.art.CURRENCY_NAMES[cur] || cur;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;

function isCredit(ctx, code) {
  const tokens = ctx.catalogue && ctx.catalogue.money_tokens;
  return code === TOKEN && (!tokens || tokens[code] === undefined || tokens[code] === ID);
}

/** The credit on `seat`'s certificate: {currency, amount} or null. */
function boardOf(ctx, seat) {
  const st = ctx.state;
  return st && Array.isArray(st.boards) && seat !== null && seat !== undefined ? st.boards[seat] || null : null;
}

/** The open decision of the viewer: the view's StoreChoice pending, or null. */
function myChoice(ctx) {
  const p = ctx.view ? ctx.view.pending : null;
  return p && p.type === "StoreChoice" && p.seat === ctx.me ? p : null;
}

// ------------------------------------------------------------------ art
/** A currency token: a disc in the currency's colour with an eight-pointed star (the token
 * lies on the certificate or in the centre); grey and dashed for "no token". */
function tokenGroup(ctx, cur, cx, cy, r) {
  const { CURRENCY_COLORS, INK, PAPER } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: `cert-token ${cur ? `currency-${cur}` : "empty"}` });
  if (!cur) {
    g.appendChild(svg("circle", { cx, cy, r, fill: "none", stroke: INK, "stroke-width": Math.max(0.6, r / 10), "stroke-dasharray": `${r / 3} ${r / 4}`, opacity: 0.55 }));
    return g;
  }
  g.appendChild(svg("circle", { cx, cy, r, fill: CURRENCY_COLORS[cur] || "#888", stroke: INK, "stroke-width": Math.max(0.6, r / 9) }));
  const pts = [...Array(16).keys()].map((i) => {
    const a = -Math.PI / 2 + (i * Math.PI) / 8;
    const rr = i % 2 ? r * 0.32 : r * 0.62;
    return `${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`;
  });
  g.appendChild(svg("polygon", { points: pts.join(" "), fill: PAPER, opacity: 0.9 }));
  return g;
}

/** A small standalone token icon. */
function tokenIcon(ctx, cur, size = 16, label = null) {
  const attrs = { viewBox: "0 0 20 20", width: size, height: size, class: "cert-token-icon" };
  const s = ctx.svg("svg", label ? { ...attrs, role: "img", "aria-label": label } : { ...attrs, "aria-hidden": "true" });
  s.appendChild(tokenGroup(ctx, cur, 10, 10, 8.5));
  return s;
}

/** A certificate (card-sized, 60 x 84 units, `width` wide): a parchment with a red seal, the
 * scale 1-6 and, for a credit, its token on the amount and the amount in big numbers. */
function certificateSVG(ctx, credit, width, label) {
  const { INK, cardShell, svgText } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(label, width);
  s.classList.add("cert-board");
  s.dataset.currency = credit ? credit.currency : "";
  s.dataset.amount = credit ? String(credit.amount) : "0";
  s.appendChild(svg("path", { d: "M6 4 H54 Q57 4 57 8 V76 Q57 80 54 80 H6 Q3 80 3 76 V8 Q3 4 6 4 Z", fill: PARCHMENT, stroke: INK, "stroke-width": 1.6 }));
  s.appendChild(svg("path", { d: "M3 12 Q8 9 3 6 M57 12 Q52 9 57 6 M3 78 Q8 75 3 72 M57 78 Q52 75 57 72", fill: "none", stroke: INK, "stroke-width": 0.8 }));
  s.appendChild(svgText(30, 14, "CERTIFICATE", { "font-size": 6, "font-weight": 700, "letter-spacing": 0.6 }));
  for (const y of [18, 21]) s.appendChild(svg("line", { x1: 12, y1: y, x2: 48, y2: y, stroke: INK, "stroke-width": 0.4, opacity: 0.5 }));
  // the scale 1-6 in two rows; the token lies on the stored amount
  for (let k = 1; k <= 6; k++) {
    const x = 14 + ((k - 1) % 3) * 16;
    const y = 32 + Math.floor((k - 1) / 3) * 15;
    const on = credit && credit.amount === k;
    s.appendChild(svg("circle", { cx: x, cy: y, r: 6, fill: on ? "none" : "#fffaf0", stroke: INK, "stroke-width": 0.7 }));
    if (on) s.appendChild(tokenGroup(ctx, credit.currency, x, y, 6.5));
    else s.appendChild(svgText(x, y + 2.6, k, { "font-size": 7, fill: INK, opacity: 0.7 }));
  }
  if (credit) {
    s.appendChild(svgText(24, 74, credit.amount, { "font-size": 18, "font-weight": 800, fill: ctx.art.CURRENCY_COLORS[credit.currency] || INK, stroke: INK, "stroke-width": 0.5 }));
    s.appendChild(svgText(37, 73, curName(ctx, credit.currency), { "font-size": 6, "text-anchor": "start" }));
  } else {
    s.appendChild(svgText(30, 70, "empty", { "font-size": 7, opacity: 0.6 }));
  }
  if (!credit) s.appendChild(svg("circle", { cx: 49, cy: 72, r: 5, fill: "#b5452f", stroke: INK, "stroke-width": 0.6 }));
  return s;
}

// ------------------------------------------------------------------ art and names (the table asks)
function cardArt(ctx, code, width = 40) {
  if (!isCredit(ctx, code)) return null;
  const credit = boardOf(ctx, ctx.me);
  return certificateSVG(ctx, credit, width, cardName(ctx, code));
}

function cardName(ctx, code) {
  if (!isCredit(ctx, code)) return null;
  return "credit of the exchange certificate";
}

// ------------------------------------------------------------------ state at a glance
function panel(ctx) {
  const st = ctx.state;
  if (!st || !st.centre || !Array.isArray(st.boards)) return null;
  const h = ctx.h;
  const centre = h("div", { class: "cert-centre", role: "list", "aria-label": "Currency tokens in the centre" },
    ...CURRENCIES.map((c) => h("span", {
      class: "cert-centre-slot", role: "listitem", dataset: { currency: c, count: st.centre[c] },
      title: `${plural(st.centre[c], `${curName(ctx, c)} token`, `${curName(ctx, c)} tokens`)} left in the centre (of ${st.in_play})`,
    }, ...[...Array(st.in_play).keys()].map((i) => tokenIcon(ctx, i < st.centre[c] ? c : null, 16)))));
  const boards = st.boards.map((b, seat) => h("li", { dataset: { seat }, class: seat === ctx.me ? "me" : "" },
    certificateSVG(ctx, b, 30, b ? `Certificate of ${ctx.seatName(seat)}: a credit of ${b.amount} ${curName(ctx, b.currency)}` : `Certificate of ${ctx.seatName(seat)}: empty`),
    h("span", { class: "cert-owner" }, h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }), ctx.seatName(seat)),
    h("span", { class: b ? "cert-credit" : "muted", text: b ? `${b.amount} ${curName(ctx, b.currency)}` : "empty" })));
  return h("div", { class: "cert-panel" },
    h("div", { class: "cert-label", text: "Tokens in the centre" }), centre,
    h("ul", { class: "cert-boards", "aria-label": "Exchange certificates" }, ...boards),
    h("p", { class: "muted cert-help", text: `Overpay a building by 1 to ${st.max_credit || 6} and store the difference with any token left; spend it later, whole, like one money card of the token's currency.` }));
}

function seatBadges(ctx, seat) {
  const b = boardOf(ctx, seat);
  if (!b) return null;
  return {
    text: `Credit ${b.amount}`,
    title: `${ctx.seatName(seat)} has a credit of ${b.amount} ${curName(ctx, b.currency)} on the exchange certificate: it pays like one money card of ${b.amount} ${curName(ctx, b.currency)}.`,
    className: "cert-badge",
    icon: tokenIcon(ctx, b.currency, 14),
  };
}

// ------------------------------------------------------------------ the decision
/** `certificate store X` as its currency word, or null. */
function storeCurrency(ctx, notation) {
  const m = ctx.argsOf ? ctx.argsOf(notation, "certificate store") : null;
  return m ? CURRENCIES.find((c) => LETTER[c] === m[0]) : null;
}

function declineText(choice) {
  if (choice && choice.change > 0) return `Take ${plural(choice.change, "coin", "coins")} of change instead`;
  return "Do not store it";
}

function actionControls(ctx, actions) {
  const mine = actions.filter((a) => ctx.argsOf(a, "certificate store", "certificate decline"));
  const choice = myChoice(ctx);
  if (!mine.length || !choice) return null;
  const h = ctx.h;
  const amount = choice.amount;
  const withChange = ctx.state && ctx.state.with_change;
  const stores = mine.filter((a) => storeCurrency(ctx, a)).map((a) => {
    const cur = storeCurrency(ctx, a);
    return h("button", {
      class: "secondary cert-store", dataset: { currency: cur }, "aria-label": `Store ${amount} as ${curName(ctx, cur)} (${cur} token)`,
      onclick: () => ctx.act(a, describeAction(ctx, a)),
    }, tokenIcon(ctx, cur, 18), h("span", { text: `Store ${amount} ${curName(ctx, cur)}` }));
  });
  const decline = mine.find((a) => a === "certificate decline");
  const coins = withChange && choice.change > 0;
  const note = withChange && choice.change === 0 && amount < 2 ? ` (an overpayment of ${amount} gives no change)` : "";
  const node = h("div", { class: "cert-decision" },
    certificateSVG(ctx, null, 44, "Your exchange certificate (empty)"),
    h("div", { class: "cert-question" },
      h("p", {}, h("strong", { text: `You overpaid by ${amount}.` }),
        ` Store it on your exchange certificate with a token of any currency left in the centre${withChange ? ", or take the change" : ""}?${note}`),
      stores.length ? h("div", { class: "cert-stores", role: "group", "aria-label": "Store the overpayment with a token" }, ...stores) : null,
      decline ? h("button", {
        id: "btn-cert-decline", class: "secondary",
        text: declineText(coins ? choice : null),
        onclick: () => ctx.act(decline, describeAction(ctx, decline), coins ? { note: "The coins are drawn blind from the bag; it cannot be taken back.", button: "Take the change" } : undefined),
      }) : null));
  return { node, handled: mine };
}

function describeAction(ctx, notation) {
  const choice = myChoice(ctx);
  const amount = choice ? choice.amount : null;
  const cur = storeCurrency(ctx, notation);
  if (cur) return amount ? `Store the ${amount} overpaid on your exchange certificate as ${amount} ${curName(ctx, cur)}` : `Store the overpayment as ${curName(ctx, cur)}`;
  if (notation === "certificate decline") {
    const coins = choice && ctx.state && ctx.state.with_change && choice.change > 0;
    return coins ? declineText(choice) : amount ? `Do not store the ${amount} overpaid` : "Do not store the overpayment";
  }
  return null;
}

// ------------------------------------------------------------------ the log
function describeEvent(ctx, e) {
  if (e.type === "CreditStored") return `${ctx.seatName(e.seat)} stores a credit of ${e.amount} ${curName(ctx, e.currency)} on the exchange certificate`;
  if (e.type === "CreditDeclined") return `${ctx.seatName(e.seat)} does not store the ${e.amount} overpaid on the exchange certificate`;
  return null;
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  if (!Array.isArray(st.boards)) return null;
  return `${st.in_play} in play · ` + seats((i) => (st.boards[i] ? `credit ${st.boards[i].amount} ${ctx.art.CURRENCY_NAMES ? ctx.art.CURRENCY_NAMES[st.boards[i].currency] || st.boards[i].currency : st.boards[i].currency}` : "no credit"));
}

window.Alhambra.registerModule(ID, { summary, cardArt, cardName, panel, seatBadges, actionControls, describeAction, describeEvent });
