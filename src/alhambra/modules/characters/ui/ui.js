// Front-end plug-in of the Characters (module characters).
// A character card is drawn in the house style: a cream card with an arch and the figure's
// emblem in the middle (each character its own sign and colour), its name underneath; the
// face-down back (the card in the money pile) shows the arch only.
// The panel shows, at a glance, the auction under way (the card, the highest bid and who holds
// it, who is to bid), every seat's characters with their abilities, the cards out of the game
// and the surplus pile. The controls: a bid stepper with "Bid" and "Pass" for the auction, the
// table's payment picker for a won card, Keep / Swap for the Entertainer, the Dancer's market
// squares, the Beggar's draw, the Rich Patron's squares, the Moneychanger's and Miser's open
// cards, the Wise Man's kind and the Master Builder's redesigns (and, when another module offers a
// redesign of its own, "another kind of redesign", after which that module's controls show it),
// each with words, never notation.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "characters";
const CODE = "char";
const SIGNS = {
  rich_patron: ["♛", "#b8860b"],
  miser: ["⚖", "#6b4f2a"],
  master_builder: ["⚒", "#7a3b1d"],
  trader: ["⇄", "#2f6f4f"],
  entertainer: ["♪", "#8e3b8e"],
  wise_man: ["✦", "#2c4f8e"],
  dancer: ["❀", "#c0392b"],
  moneychanger: ["⟳", "#1f7a7a"],
  beggar: ["☂", "#5a5a5a"],
  city_watch: ["⛨", "#34495e"],
};
const HELP = {
  rich_patron: "Takes a building from the market with its price paid exactly, then you act again (once; then out of the game)",
  miser: "After buying a building of price 10 or more, take one open money card (once a turn)",
  master_builder: "An extra redesign at the end of your turn (once a turn)",
  trader: "Take several money cards worth up to 7 together (instead of 5)",
  entertainer: "8 points at the end of the game",
  wise_man: "Half a building more of a kind you name in every scoring round",
  dancer: "Before your turn, exchange a market building for a new one from the bag (once a turn)",
  moneychanger: "Exchange a money card of your hand for an open one of equal or lesser value (once a turn)",
  beggar: "At the start of your turn, with at most 2 money cards, draw the top card of the money pile",
  city_watch: "1 point more for every 3 wall points in each scoring round",
};
const RE = {
  bid: /^character bid (\d+)$/,
  pay: /^character pay (\S+)$/,
  dancer: /^character dancer ([1-4])$/,
  patron: /^character patron ([1-4])$/,
  change: /^character change (\S+) (\S+)$/,
  miser: /^character miser (\S+)$/,
  wise: /^character wise ([a-z]+)$/,
  build: /^character build (\S+) (-?\d+),(-?\d+)$/,
  remove: /^character remove (\S+)$/,
  exchange: /^character exchange (\S+) (\S+)$/,
};

/** Whether `a` is the Master Builder's redesign by another module's own redesign (read from the
 * structured action the server sends, `ctx.move`: its keyword, never the notation's words). */
function isMasonUse(ctx, a) {
  const mv = ctx.move ? ctx.move(a) : null;
  return mv ? mv.keyword === "character redesign" : a === "character redesign";
}

function nameOf(ctx, key) {
  const st = ctx.state;
  return (st && st.names && st.names[key]) || key;
}

function kindName(ctx, kind) {
  return (ctx.art.KIND_NAMES && ctx.art.KIND_NAMES[kind]) || kind;
}

/** A character card (or the face-down back when `key` is null), viewBox 60 x 84. */
function characterSVG(ctx, key, width = 44) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const [sign, colour] = key ? SIGNS[key] || ["?", "#777"] : ["", "#7a5c3a"];
  const label = key ? nameOf(ctx, key) : "character card (face down)";
  const s = svg("svg", { viewBox: "0 0 60 84", width, height: Math.round((width * 84) / 60), role: "img", "aria-label": label, class: "character-card", "data-module": ID, "data-character": key || "back" });
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 5, fill: key ? CREAM : colour, stroke: INK, "stroke-width": 1.6 }));
  s.appendChild(svg("path", { d: "M12 60 V30 Q30 8 48 30 V60 Z", fill: key ? colour : "#a98457", opacity: key ? 0.18 : 0.9, stroke: key ? colour : CREAM, "stroke-width": 1.4 }));
  if (key) {
    const t = svg("text", { x: 30, y: 47, "text-anchor": "middle", "font-size": 22, fill: colour });
    t.textContent = sign;
    s.appendChild(t);
    const words = label.split(" ");
    words.slice(-2).forEach((w, i, all) => {
      const n = svg("text", { x: 30, y: all.length === 2 ? 70 + i * 8 : 74, "text-anchor": "middle", "font-size": 7.5, fill: INK });
      n.textContent = w;
      s.appendChild(n);
    });
  }
  return s;
}

function cardArt(ctx, code, width) {
  return code === CODE ? characterSVG(ctx, null, width) : null;
}

function cardName(ctx, code) {
  return code === CODE ? "character card" : null;
}

const PENDINGS = new Set(["Auction", "CharacterPayment", "EntertainerChoice", "TurnStart", "MiserChoice", "MasterBuilderChoice", "WiseChoice"]);

function topPending(ctx) {
  const p = ctx.view && ctx.view.pending;
  return p && PENDINGS.has(p.type) ? p : null;
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.owned)) return null;
  const h = ctx.h;
  const parts = [];
  const stack = (ctx.view && ctx.view.pending_stack) || [];
  const auction = stack.find((p) => p.type === "Auction");
  if (auction) {
    const lead = auction.leader >= 0 ? `${auction.high} by ${ctx.seatName(auction.leader)}` : "no bid yet";
    parts.push(h("div", { class: "ch-auction" }, characterSVG(ctx, auction.character, 40),
      h("div", {}, h("strong", { text: `Auction: ${nameOf(ctx, auction.character)}` }),
        h("p", { class: "muted", text: HELP[auction.character] || "" }),
        h("p", { text: `Highest bid: ${lead}. ${ctx.seatName(auction.seat)} bids or passes.` }))));
  }
  const rows = st.owned.map((keys, seat) => h("div", { class: "ch-seat", dataset: { seat: String(seat) } },
    h("span", { class: "ch-seat-name", style: `border-color:${ctx.seatColor(seat)}`, text: ctx.seatName(seat) }),
    keys.length ? h("span", { class: "ch-cards" }, ...keys.map((k) => h("span", { class: "ch-owned", title: `${nameOf(ctx, k)}: ${HELP[k] || ""}` }, characterSVG(ctx, k, 30),
      st.wise && st.wise[seat] && k === "wise_man" ? h("span", { class: "muted", text: ` (${kindName(ctx, st.wise[seat])})` }) : null)))
      : h("span", { class: "muted", text: "no characters" })));
  parts.push(h("div", { class: "ch-seats" }, ...rows));
  const out = st.out.length ? `Out of the game: ${st.out.map((k) => nameOf(ctx, k)).join(", ")}. ` : "";
  parts.push(h("p", { class: "muted ch-help", text: `${out}Surplus pile: ${st.surplus} face down${st.known.length ? ` (the ${st.known.map((k) => nameOf(ctx, k)).join(", ")} among them)` : ""}; ${st.in_piles} still in the money piles.` }));
  return h("div", { class: "ch-panel" }, ...parts);
}

function button(ctx, text, action, extra) {
  return ctx.h("button", { class: "secondary", dataset: { action }, onclick: () => ctx.act(action, describeAction(ctx, action)) }, extra || null, ctx.h("span", { text }));
}

function actionControls(ctx, actions) {
  const mine = actions.filter((a) => a.startsWith("character "));
  if (!mine.length) return null;
  const h = ctx.h;
  const p = topPending(ctx);
  const nodes = [];
  const squares = [];
  const cards = [];
  const bids = mine.filter((a) => RE.bid.test(a)).map((a) => Number(RE.bid.exec(a)[1]));
  if (p && p.type === "Auction") {
    const box = h("div", { class: "ch-bid" });
    if (bids.length) {
      const lo = Math.min(...bids);
      const hi = Math.max(...bids);
      const sel = ctx.selection && typeof ctx.selection.bid === "number" ? Math.min(hi, Math.max(lo, ctx.selection.bid)) : lo;
      const input = h("input", { type: "number", min: String(lo), max: String(hi), value: String(sel), "aria-label": "Your bid", class: "ch-bid-input",
        onchange: (ev) => ctx.select({ bid: Number(ev.target.value) }) });
      box.append(h("label", { text: `Bid (${lo}–${hi}, in one currency): ` }), input,
        h("button", { class: "primary", onclick: () => { const v = Math.min(hi, Math.max(lo, Number(input.value) || lo)); ctx.act(`character bid ${v}`, `Bid ${v} for the ${nameOf(ctx, p.character)}`); }, text: "Bid" }));
    } else {
      box.append(h("p", { class: "muted", text: `You cannot pay more than ${p.high} in one currency.` }));
    }
    box.append(button(ctx, "Pass", "character pass"));
    nodes.push(h("p", { text: `${nameOf(ctx, p.character)}: ${HELP[p.character] || ""}` }), box);
  }
  const pays = mine.filter((a) => RE.pay.test(a));
  if (pays.length && p && p.type === "CharacterPayment") {
    const options = pays.map((a) => ({ cards: RE.pay.exec(a)[1].split("+"), action: a }));
    nodes.push(h("button", { class: "primary", onclick: () => ctx.pay({ item: { label: `the ${nameOf(ctx, p.character)}`, price: p.bid }, options, title: `Pay ${p.bid} for the ${nameOf(ctx, p.character)}`, note: "Money of one currency (or diamonds alone); paying more is allowed.", confirm: "Pay" }), text: `Pay ${p.bid} for the ${nameOf(ctx, p.character)}` }));
  }
  if (mine.includes("character keep")) nodes.push(h("div", { class: "button-row" }, button(ctx, "Keep the Entertainer (8 points)", "character keep"), button(ctx, "Swap it for the top card of the surplus pile", "character swap")));
  for (const a of mine) {
    let m;
    if ((m = RE.dancer.exec(a))) squares.push({ square: Number(m[1]), label: `Dancer: exchange the building on square ${m[1]}`, pick: () => ctx.act(a, describeAction(ctx, a)), actions: [a] });
    else if ((m = RE.patron.exec(a))) squares.push({ square: Number(m[1]), label: `Rich Patron: take the building on square ${m[1]}`, pick: () => ctx.act(a, describeAction(ctx, a)), actions: [a] });
    else if ((m = RE.miser.exec(a))) {
      const slot = (ctx.view.display || []).findIndex((c) => c === m[1]);
      if (slot >= 0) cards.push({ slot: slot + 1, label: `Miser: take ${ctx.cardName(m[1])}`, pick: () => ctx.act(a, describeAction(ctx, a)), actions: [a] });
    }
  }
  const others = mine.filter((a) => RE.dancer.test(a) || RE.patron.test(a) || RE.change.test(a) || RE.miser.test(a) || RE.wise.test(a) || RE.build.test(a) || RE.remove.test(a) || RE.exchange.test(a)
    || isMasonUse(ctx, a) || ["character beggar", "character go", "character skip"].includes(a));
  if (others.length) {
    const row = h("div", { class: "button-row ch-controls" });
    for (const a of others) row.append(button(ctx, describeAction(ctx, a), a));
    nodes.push(row);
  }
  const handled = mine.filter((a) => RE.bid.test(a) || RE.pay.test(a) || others.includes(a) || ["character pass", "character keep", "character swap"].includes(a));
  return { node: h("div", { class: "ch-actions" }, ...nodes), handled, squares, cards };
}

function place(ctx, x, y) {
  return ctx.placeText ? ctx.placeText(Number(x), Number(y)) : `${x},${y}`;
}

function describeAction(ctx, a) {
  let m;
  if ((m = RE.bid.exec(a))) return `Bid ${m[1]}`;
  if (a === "character pass") return "Pass (no more bids for this card)";
  if ((m = RE.pay.exec(a))) return `Pay with ${m[1].split("+").map((c) => ctx.cardName(c)).join(" + ")}`;
  if (a === "character keep") return "Keep the Travelling Entertainer (8 points)";
  if (a === "character swap") return "Swap the Entertainer for the top card of the surplus pile";
  if ((m = RE.dancer.exec(a))) return `Dancer: exchange the building on square ${m[1]} for a new one`;
  if (a === "character beggar") return "Beggar: draw the top card of the money pile";
  if (a === "character go") return "Start your turn";
  if ((m = RE.patron.exec(a))) return `Rich Patron: take the building on square ${m[1]} (then act again)`;
  if ((m = RE.change.exec(a))) return `Moneychanger: give ${ctx.cardName(m[1])} for ${ctx.cardName(m[2])}`;
  if ((m = RE.miser.exec(a))) return `Miser: take ${ctx.cardName(m[1])}`;
  if (a === "character skip") return "Do without it";
  if ((m = RE.wise.exec(a))) return `Wise Man: half a ${kindName(ctx, m[1]).toLowerCase()} this round`;
  if ((m = RE.build.exec(a))) return `Master Builder: build ${ctx.tileName(m[1])} ${place(ctx, m[2], m[3])}`;
  if ((m = RE.remove.exec(a))) return `Master Builder: move ${ctx.tileName(m[1])} to the reserve board`;
  if ((m = RE.exchange.exec(a))) return `Master Builder: ${ctx.tileName(m[1])} takes the place of ${ctx.tileName(m[2])}`;
  if (isMasonUse(ctx, a)) return "Master Builder: another kind of redesign… (chosen next)";
  return null;
}

function describeEvent(ctx, e) {
  const n = (k) => nameOf(ctx, k);
  switch (e.type) {
    case "CharacterDrawn": return `The ${n(e.character)} comes up and is auctioned`;
    case "BidMade": return `${ctx.seatName(e.seat)} bids ${e.amount} for the ${n(e.character)}`;
    case "BidPassed": return `${ctx.seatName(e.seat)} passes on the ${n(e.character)}`;
    case "CharacterWon": return `${ctx.seatName(e.seat)} takes the ${n(e.character)} (bid ${e.bid})`;
    case "ItemBought": return e.item === "character" ? `${ctx.seatName(e.seat)} pays ${e.payment.map((c) => ctx.cardName(c)).join(" + ")} for ${e.label}` : null;
    case "CharacterRemoved": return `The ${n(e.character)} leaves the game (${e.why})`;
    case "EntertainerDecided": return e.got ? `${ctx.seatName(e.seat)} swaps the Entertainer for the ${n(e.got)}` : `${ctx.seatName(e.seat)} keeps the Travelling Entertainer`;
    case "CharacterUsed": return `${ctx.seatName(e.seat)} uses the ${n(e.character)}: ${e.detail}`;
    case "CardGivenUp": return `${ctx.seatName(e.seat)} discards ${e.payment.map((c) => ctx.cardName(c)).join(" + ")}`;
    default: return null;
  }
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.owned) || seat < 0 || seat >= st.owned.length) return null;
  const keys = st.owned[seat];
  if (!keys.length) return null;
  const { INK } = ctx.art;
  const icon = ctx.svg("svg", { viewBox: "0 0 14 14", width: 14, height: 14, "aria-hidden": "true" });
  icon.appendChild(ctx.svg("path", { d: "M3 12 V6 Q7 1 11 6 V12 Z", fill: "none", stroke: INK, "stroke-width": 1.4 }));
  return { text: keys.map((k) => (SIGNS[k] || ["?"])[0]).join(""), title: `Characters: ${keys.map((k) => nameOf(ctx, k)).join(", ")}`, className: "character-badge", icon };
}

function scoring(ctx, roundEvent) {
  const extra = roundEvent && roundEvent.extra ? roundEvent.extra[ID] : null;
  if (!extra) return null;
  const label = roundEvent.round === 3 ? "Characters (City Watch, Entertainer)" : "Characters (City Watch)";
  return [{ label, values: extra, title: "City Watch: 1 point per 3 wall points; Travelling Entertainer kept: 8 points at the end" }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  const stack = (ctx.view && ctx.view.pending_stack) || [];
  const auction = stack.find((p) => p.type === "Auction");
  const name = (k) => (st.names && st.names[k]) || k;
  const owned = Array.isArray(st.owned) ? seats((i) => (st.owned[i].length ? st.owned[i].map(name).join(", ") : "—")) : "";
  return auction ? `Auction: the ${name(auction.character)} · ${owned}` : owned;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, actionControls, describeAction, describeEvent, cardArt, cardName, scoring });
