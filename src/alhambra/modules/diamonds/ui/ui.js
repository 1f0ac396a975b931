// Front-end plug-in of the diamonds (module diamonds): ten money cards of a fifth currency that
// pays for any building, but only on its own.
// The table draws every diamond card with this art (display, hand, ways to pay), names them in
// texts and the log ("diamond 5"), and groups them in the hand under their own currency (the
// table does that for every currency of catalogue.extra_currencies). The panel shows the ten
// cards, the viewer's diamonds and, on the viewer's turn, a button per market square the
// diamonds alone can pay, which opens the table's payment picker with only the diamond payments.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "diamonds";
const TEAL = "#177e89";
const GEM = { light: "#c9f1f3", mid: "#7fd3d9", dark: "#3aa7b1", deep: "#1d6f78" };

function facts(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  return c && c.module === ID ? c : null;
}

const isDiamond = (ctx, code) => facts(ctx, code) !== null;

function cardName(ctx, code) {
  const f = facts(ctx, code);
  return f ? `diamond ${f.value}` : null;
}

/** A cut gem (crown, girdle, pavilion) centred on (cx, cy), `w` wide. */
function gemGroup(ctx, cx, cy, w) {
  const { INK } = ctx.art;
  const s = w / 34;
  const g = ctx.svg("g", { class: "dm-gem", transform: `translate(${cx - 17 * s} ${cy - 16 * s}) scale(${s})` });
  const line = { fill: "none", stroke: INK, "stroke-width": 1.1, "stroke-linejoin": "round" };
  g.appendChild(ctx.svg("path", { d: "M8 0 H26 L34 10 L17 32 L0 10 Z", fill: GEM.mid, stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round" }));
  g.appendChild(ctx.svg("path", { d: "M8 0 L12 10 L0 10 Z", fill: GEM.light }));
  g.appendChild(ctx.svg("path", { d: "M17 0 L12 10 H22 Z", fill: GEM.light }));
  g.appendChild(ctx.svg("path", { d: "M26 0 L22 10 H34 Z", fill: GEM.dark }));
  g.appendChild(ctx.svg("path", { d: "M22 10 L17 32 L34 10 Z", fill: GEM.dark }));
  g.appendChild(ctx.svg("path", { d: "M0 10 L17 32 L12 10 Z", fill: GEM.light, opacity: 0.7 }));
  g.appendChild(ctx.svg("path", { d: "M0 10 H34 M8 0 L12 10 L17 0 L22 10 L26 0 M12 10 L17 32 L22 10", ...line }));
  g.appendChild(ctx.svg("path", { d: "M8 0 H26 L34 10 L17 32 L0 10 Z", fill: "none", stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round" }));
  return g;
}

/** The card: a deep teal frame, a cut gem, the value on a small plaque and in two corners, the
 * word "diamonds". */
function cardArt(ctx, code, width = 48) {
  const f = facts(ctx, code);
  if (!f) return null;
  const { INK, PAPER, cardShell, svgText } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(`${cardName(ctx, code)} (pays alone for any building)`, width);
  s.classList.add("diamond-card");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: TEAL, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, fill: PAPER, stroke: TEAL, "stroke-width": 1.5 }));
  // a small gem in the corners of the frame, the value beside it
  s.appendChild(svgText(14, 19, f.value, { "font-size": 11, "font-weight": 700, fill: TEAL }));
  s.appendChild(svgText(46, 72, f.value, { "font-size": 11, "font-weight": 700, fill: TEAL }));
  s.appendChild(gemGroup(ctx, 30, 34, 30));
  s.appendChild(svg("rect", { x: 21, y: 50, width: 18, height: 13, rx: 3, fill: TEAL, stroke: INK, "stroke-width": 1 }));
  s.appendChild(svgText(30, 60.5, f.value, { "font-size": 11, "font-weight": 800, fill: PAPER }));
  s.appendChild(svgText(27, 72, "diamonds", { "font-size": 7, fill: INK }));
  return s;
}

/** My diamond payments per market square: square -> [{cards, action}] (legal buy actions paid
 * in diamonds only). */
function diamondBuys(ctx) {
  const out = new Map();
  for (const a of ctx.legal) {
    const m = ctx.argsOf ? ctx.argsOf(a, "buy") : null;
    if (!m || typeof m[0] !== "number") continue;
    const cards = m[1];
    if (!cards.every((c) => isDiamond(ctx, c))) continue;
    const sq = m[0];
    if (!out.has(sq)) out.set(sq, []);
    out.get(sq).push({ cards, action: a });
  }
  return out;
}

function startPaying(ctx, square, options) {
  const sq = ctx.view.market[square - 1];
  ctx.pay({
    square,
    options,
    title: `Buy ${ctx.tileName(sq.tile)} with diamonds`,
    note: "Diamonds pay on their own, never mixed with other money or an exchange card; an exact payment lets you act again.",
  });
}

/** Every copy of the ten cards, in face order: [{code, value, assumed}]. */
function allCards(st) {
  const out = [];
  for (const c of st.cards || []) for (let i = 0; i < c.copies; i += 1) out.push(c);
  return out;
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.cards)) return null;
  const h = ctx.h;
  const spent = [...(st.discarded || [])];
  const shown = [...(st.display || [])];
  const cards = allCards(st).map((c) => {
    let where = "";
    let k = spent.indexOf(c.code);
    if (k >= 0) { spent.splice(k, 1); where = "spent"; }
    else if ((k = shown.indexOf(c.code)) >= 0) { shown.splice(k, 1); where = "shown"; }
    const title = `${cardName(ctx, c.code)}${where === "spent" ? " (on the discard pile)" : where === "shown" ? " (face up in the display)" : ""}`;
    return h("span", { class: `dm-card ${where}`, role: "listitem", title, dataset: { code: c.code } }, ctx.cardArt(c.code, 26));
  });
  const values = allCards(st).map((c) => c.value).join(", ");
  const box = h("div", { class: "dm-panel" },
    h("p", { class: "muted dm-help", text: "A fifth currency: diamonds pay for any building on their own (never mixed with other money or an exchange card) and never count in the final hand-out." }),
    h("div", { class: "dm-cards", role: "list", "aria-label": "The ten diamond cards" }, ...cards),
    h("p", { class: "dm-count muted", text: `${(st.discarded || []).length} of 10 on the discard pile · ${(st.display || []).length} in the display · values ${values}${st.cards.some((c) => c.assumed) ? " (repeats assumed)" : ""}` }));
  if (Array.isArray(st.mine)) {
    const total = st.mine.reduce((s, code) => s + ((facts(ctx, code) || {}).value || 0), 0);
    const names = (st.payable || []).map((sq) => {
      const t = ctx.view.market[sq - 1];
      return t && t.tile ? ctx.tileName(t.tile) : `square ${sq}`;
    });
    box.append(h("p", { class: "dm-mine" },
      h("strong", { text: st.mine.length ? `Your diamonds: ${total}` : "You hold no diamonds." }),
      st.mine.length ? h("span", { text: names.length ? ` — enough for ${names.join(", ")}` : " — not enough for any building on the market now" }) : null));
    const buys = ctx.myTurn && ctx.view.pending && ctx.view.pending.type === "ChooseAction" ? diamondBuys(ctx) : new Map();
    if (buys.size) {
      const paying = ctx.payment;
      box.append(h("div", { class: "button-row dm-buttons", role: "group", "aria-label": "Pay with diamonds" }, ...[...buys.entries()].sort((a, b) => a[0] - b[0]).map(([sq, options]) => {
        const t = ctx.view.market[sq - 1];
        const on = Boolean(paying && paying.square === sq);
        return h("button", {
          class: `secondary small dm-pay ${on ? "selected" : ""}`,
          dataset: { square: sq },
          "aria-pressed": on ? "true" : "false",
          onclick: () => startPaying(ctx, sq, options),
        }, gemIcon(ctx, 16), h("span", { text: `Pay ${ctx.tileName(t.tile).split(",")[0]} with diamonds` }));
      })));
    }
  }
  return box;
}

function gemIcon(ctx, size) {
  const s = ctx.svg("svg", { viewBox: "0 0 40 40", width: size, height: size, "aria-hidden": "true" });
  s.appendChild(gemGroup(ctx, 20, 20, 34));
  return s;
}

/** My own row: what my diamonds are worth (the other seats' hands stay hidden). */
function seatBadges(ctx, seat) {
  const st = ctx.state;
  if (!st || seat !== ctx.me || !Array.isArray(st.mine) || !st.mine.length) return null;
  const total = st.mine.reduce((s, code) => s + ((facts(ctx, code) || {}).value || 0), 0);
  return {
    text: `${total} in diamonds`,
    title: `Your diamonds: ${st.mine.map((c) => cardName(ctx, c)).join(" + ")}. They pay alone for any building and do not count in the final hand-out.`,
    className: "diamond-badge",
    icon: gemIcon(ctx, 14),
  };
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return `${(st.display || []).length} in the display · ${(st.discarded || []).length} discarded · ${(st.mine || []).length} in your hand`;
}

window.Alhambra.registerModule(ID, { summary, cardArt, cardName, panel, seatBadges });
