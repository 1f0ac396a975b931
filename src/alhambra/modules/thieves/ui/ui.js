// Front-end plug-in of the thieves (module thieves).
// A panel shows your own thieves face up (a hooded thief in the currency's colour), every other
// player's as card backs with their count, the thieves already played (face up, by player) and
// how many were removed face down at setup; a badge on every player gives the count. Between
// turns the face-up money cards your thieves may steal are highlighted in the display (and listed
// in the action panel): clicking one asks "Steal the 4 denar with a denar thief" (currencies,
// never colours); the table's Pass button declines. See docs/writing-a-module.md, "Front-end plug-in".

const ID = "thieves";
const CURRENCIES = ["blue", "green", "orange", "yellow"];
const NIGHT = "#2d3350";
const GOLD = "#e9c46a";
const SKIN = "#e7b98a";

/** `thief CODE` -> the card code; null for anything else. */
function parsePlay(ctx, notation) {
  const a = ctx.argsOf ? ctx.argsOf(notation, "thief") : null;
  return a ? a[0] : null;
}

/** A display card's currency (colour word) and value, from the catalogue (or the code). */
function cardFacts(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  if (c && c.currency) return { currency: c.currency, value: c.value };
  const m = /^([bgoy])(\d+)$/.exec(code || "");
  return m ? { currency: ctx.art.CURRENCY_LETTER[m[1]], value: Number(m[2]) } : { currency: null, value: 0 };
}

const thiefWord = (n) => (n === 1 ? "thief" : "thieves");
/** A currency's name as the table says it ("dirham"), never its colour word. */
const curName = (ctx, c) => (ctx.art.CURRENCY_NAMES && ctx.art.CURRENCY_NAMES[c]) || c;
const article = (word) => (/^[aeiou]/.test(word) ? "an" : "a");

/** The domino mask of the thieves: gold on the backs, ink on the badges. */
function maskPath(ctx, cx, cy, s, fill, holes) {
  const svg = ctx.svg;
  const g = svg("g", { transform: `translate(${cx} ${cy}) scale(${s})` });
  g.appendChild(svg("path", { d: "M-16 -5 L-21 -9 M16 -5 L21 -9", fill: "none", stroke: fill, "stroke-width": 1.6, "stroke-linecap": "round" }));
  g.appendChild(svg("path", {
    d: "M-16 -4 Q-8 -10 0 -5 Q8 -10 16 -4 Q16 6 8 6 Q3 6 0 2 Q-3 6 -8 6 Q-16 6 -16 -4 Z",
    fill, stroke: ctx.art.INK, "stroke-width": 1.2, "stroke-linejoin": "round",
  }));
  g.appendChild(svg("ellipse", { cx: -7.5, cy: -0.5, rx: 3.6, ry: 2.3, fill: holes }));
  g.appendChild(svg("ellipse", { cx: 7.5, cy: -0.5, rx: 3.6, ry: 2.3, fill: holes }));
  return g;
}

/** A thief card face up: in its currency's colour, a hooded, masked thief with a sack of coins
 * before a night window with a crescent moon, and the currency's name. */
function thiefCard(ctx, currency, width = 34) {
  const { CURRENCY_COLORS, CURRENCY_NAMES, INK, PAPER, cardShell, coinGroup, svgText } = ctx.art;
  const svg = ctx.svg;
  const colour = CURRENCY_COLORS[currency] || "#777";
  const s = cardShell(`${CURRENCY_NAMES[currency] || currency} thief`, width);
  s.classList.add("thief-card");
  s.dataset.currency = currency;
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: colour, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, fill: PAPER, stroke: INK, "stroke-width": 1 }));
  // the night window (a horseshoe arch), the moon and two stars
  s.appendChild(svg("path", { d: "M13 64 V30 Q13 12 30 12 Q47 12 47 30 V64 Z", fill: NIGHT, stroke: INK, "stroke-width": 1 }));
  s.appendChild(svg("circle", { cx: 39, cy: 22, r: 4.2, fill: "#f2e3a6" }));
  s.appendChild(svg("circle", { cx: 41.2, cy: 20.6, r: 3.7, fill: NIGHT }));
  for (const [x, y] of [[19, 19], [24, 27], [43, 33]]) s.appendChild(svg("circle", { cx: x, cy: y, r: 0.8, fill: "#f2e3a6" }));
  // the cloak, the hood, the masked face
  s.appendChild(svg("path", { d: "M15 64 Q17 45 30 42 Q43 45 45 64 Z", fill: colour, stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" }));
  s.appendChild(svg("path", { d: "M30 45 V64", stroke: INK, "stroke-width": 0.8, fill: "none", opacity: 0.6 }));
  s.appendChild(svg("path", { d: "M21 41 Q20 25 30 24 Q40 25 39 41 Q35 45 30 45 Q25 45 21 41 Z", fill: colour, stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" }));
  s.appendChild(svg("ellipse", { cx: 30, cy: 36, rx: 5.6, ry: 6.2, fill: SKIN, stroke: INK, "stroke-width": 0.9 }));
  s.appendChild(svg("path", { d: "M24.2 33.2 Q30 31 35.8 33.2 V36.6 Q30 35 24.2 36.6 Z", fill: INK }));
  s.appendChild(svg("circle", { cx: 27.6, cy: 34.4, r: 0.9, fill: PAPER }));
  s.appendChild(svg("circle", { cx: 32.4, cy: 34.4, r: 0.9, fill: PAPER }));
  // the sack of coins over the shoulder
  s.appendChild(svg("path", { d: "M38 50 Q34 58 38 63 H48 Q52 58 48 50 Q43 47 38 50 Z", fill: "#c9a56b", stroke: INK, "stroke-width": 1.1, "stroke-linejoin": "round" }));
  s.appendChild(svg("path", { d: "M39.5 50 Q43 52 46.5 50", fill: "none", stroke: INK, "stroke-width": 1 }));
  s.appendChild(coinGroup(43, 57, 3.2, colour));
  s.appendChild(svgText(30, 73.5, CURRENCY_NAMES[currency] || currency, { "font-size": 7.5, "font-weight": 700 }));
  return s;
}

/** The back of a thief card: night blue with a gold mask (secret thieves, the ones set aside). */
function thiefBack(ctx, width = 24, label = null) {
  const { INK, cardShell } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(label || "a secret thief", width);
  if (!label) s.setAttribute("aria-hidden", "true");
  s.classList.add("thief-back");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: NIGHT, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 6.5, y: 6.5, width: 47, height: 71, rx: 4, fill: "none", stroke: GOLD, "stroke-width": 1.2, "stroke-dasharray": "3 2" }));
  s.appendChild(maskPath(ctx, 30, 42, 1.05, GOLD, NIGHT));
  return s;
}

/** A fan of `n` thief backs (one svg, `width` per card), e.g. another player's secret thieves. */
function backFan(ctx, n, width = 18) {
  const step = 27; // in card units (a card is 60 wide)
  const total = 60 + Math.max(0, n - 1) * step;
  const s = ctx.svg("svg", {
    viewBox: `0 0 ${total} 84`, width: Math.round((width * total) / 60), height: Math.round((width * 84) / 60),
    "aria-hidden": "true", class: "thief-fan",
  });
  for (let i = 0; i < n; i++) {
    const back = thiefBack(ctx, 60);
    back.setAttribute("x", String(i * step));
    back.setAttribute("y", "0");
    back.setAttribute("height", "84");
    s.appendChild(back);
  }
  return s;
}

/** The small mask of the badges. */
function maskIcon(ctx, size = 18) {
  const s = ctx.svg("svg", { viewBox: "-12 -12 24 24", width: size, height: size, "aria-hidden": "true", class: "thief-icon" });
  s.appendChild(maskPath(ctx, 0, 1, 0.55, NIGHT, "#fffaf0"));
  return s;
}

function seatsOf(ctx) {
  const st = ctx.state;
  return st && Array.isArray(st.seats) ? st.seats : null;
}

function seatBadges(ctx, seat) {
  const seats = seatsOf(ctx);
  if (!seats || !seats[seat]) return null;
  const n = seats[seat].count;
  const mine = seat === ctx.me && Array.isArray(seats[seat].thieves);
  return {
    text: `${n} ${thiefWord(n)}`,
    title: mine
      ? `Your thieves: ${seats[seat].thieves.map((c) => `${curName(ctx, c)} thief`).join(", ") || "none left"}. Between other players' turns each one may steal one face-up money card of its currency.`
      : `${ctx.seatName(seat)} holds ${n} secret ${thiefWord(n)}.`,
    className: `thief-badge ${n ? "" : "thief-none"}`,
    icon: maskIcon(ctx),
  };
}

/** How many thieves of each currency the viewer has not seen (other hands and the ones set aside). */
function unseen(ctx) {
  const st = ctx.state;
  const left = Object.fromEntries(CURRENCIES.map((c) => [c, st.per_currency]));
  for (const [, c] of st.played) left[c] -= 1;
  for (const s of st.seats) for (const c of s.thieves || []) left[c] -= 1;
  return left;
}

function panel(ctx) {
  const st = ctx.state;
  const seats = seatsOf(ctx);
  if (!seats) return null;
  const h = ctx.h;
  const parts = [];
  const own = ctx.me !== null && seats[ctx.me] ? seats[ctx.me].thieves : null;
  if (Array.isArray(own)) {
    parts.push(h("div", { class: "th-mine" },
      h("div", { class: "th-head", text: "Your thieves" }),
      own.length
        ? h("div", { class: "th-cards", role: "list", "aria-label": "Your thieves" }, ...own.map((c) => h("span", {
          role: "listitem", class: "th-card", dataset: { currency: c },
          title: `${curName(ctx, c)} thief: steals one face-up ${curName(ctx, c)} money card between turns (not right before your own turn)`,
        }, thiefCard(ctx, c, 34))))
        : h("p", { class: "muted", text: "You have played all your thieves." })));
  }
  const played = new Map();
  for (const [seat, c] of st.played) {
    if (!played.has(seat)) played.set(seat, []);
    played.get(seat).push(c);
  }
  const pending = ctx.view && ctx.view.pending;
  const between = Boolean(pending) && pending.type === "BetweenTurns";
  parts.push(h("ul", { class: "th-seats", "aria-label": "Thieves of each player" }, ...seats.map((s, seat) => {
    const out = played.get(seat) || [];
    const you = seat === ctx.me;
    const next = between && seat === st.next;
    return h("li", { dataset: { seat }, class: next ? "th-next" : "" },
      h("span", { class: "th-who" },
        h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
        h("span", { class: "th-name", text: you ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat) })),
      h("span", { class: "th-hand", title: `${s.count} secret ${thiefWord(s.count)} in hand` },
        s.count && !you ? backFan(ctx, s.count, 20) : null,
        h("span", { class: "th-count", text: `${s.count} in hand` })),
      next ? h("span", { class: "th-tag", title: "The player whose turn it is may not play a thief", text: "plays next: no thief now" }) : null,
      h("span", { class: "th-played", title: "Thieves played (out of the game)" },
        out.length ? h("span", { class: "th-label", text: "played" }) : null,
        ...out.map((c) => h("span", { class: "th-card", dataset: { currency: c } }, thiefCard(ctx, c, 18)))));
  })));
  parts.push(h("p", { class: "th-aside", title: "Thieves not dealt are removed from the game face down" },
    st.aside_count ? backFan(ctx, st.aside_count, 14) : null,
    h("span", { text: st.aside_count ? `${st.aside_count} removed face down at setup (nobody knows them)` : "None removed at setup: all 12 were dealt" })));
  const left = unseen(ctx);
  const total = CURRENCIES.reduce((n, c) => n + left[c], 0);
  parts.push(h("p", { class: "th-unseen", title: "Thieves in other hands or set aside, as far as you can tell" },
    h("span", { text: ctx.me === null ? "Not yet played: " : "Not seen by you: " }),
    ...(total ? CURRENCIES.filter((c) => left[c] > 0).map((c) => h("span", { class: "th-dot", dataset: { currency: c } },
      h("span", { class: "swatch", style: `background:${ctx.art.CURRENCY_COLORS[c]}` }), `${curName(ctx, c)} ${left[c]}`)) : [h("span", { text: "none" })])));
  const next = Number.isInteger(st.next) ? ctx.seatName(st.next) : null;
  parts.push(h("p", { class: "muted th-rule", text: between && next
    ? `Between turns: ${next} plays next and may not use a thief; everybody else may steal now.`
    : "After each turn, every player except the next one may play a thief to steal one face-up money card of its currency." }));
  return h("div", { class: "thieves-panel" }, ...parts);
}

function actionControls(ctx, actions) {
  const plays = actions.map((a) => [a, parsePlay(ctx, a)]).filter(([, code]) => code);
  if (!plays.length) return null;
  const h = ctx.h;
  const cards = [];
  const buttons = [];
  for (const [notation, code] of plays) {
    const f = cardFacts(ctx, code);
    const label = `steal it with your ${curName(ctx, f.currency)} thief`;
    (ctx.view.display || []).forEach((c, i) => {
      if (c === code) cards.push({ slot: i + 1, label, actions: [notation], pick: () => ctx.act(notation) });
    });
    buttons.push(h("button", {
      class: "secondary thief-steal", dataset: { action: notation, code },
      "aria-label": describeAction(ctx, notation),
      onclick: () => ctx.act(notation),
    }, thiefCard(ctx, f.currency, 20), h("span", { class: "th-arrow", "aria-hidden": "true", text: "→" }), ctx.cardArt(code, 20),
    h("span", { text: `Steal the ${f.value} ${curName(ctx, f.currency)}` })));
  }
  const node = h("div", { class: "thieves-controls" },
    h("p", { class: "thief-offer" }, maskIcon(ctx, 22),
      h("span", { text: " Your thieves may strike: pick a highlighted face-up card to steal it with a thief of its currency (the thief is then out of the game), or pass." })),
    h("div", { class: "button-row thief-steals", role: "group", "aria-label": "Cards your thieves may steal" }, ...buttons));
  return { node, handled: plays.map(([a]) => a), cards };
}

function describeAction(ctx, notation) {
  const code = parsePlay(ctx, notation);
  if (!code) return null;
  const f = cardFacts(ctx, code);
  if (!f.currency) return `Steal ${ctx.cardName(code)} with a thief`;
  const cur = curName(ctx, f.currency);
  return `Steal the ${f.value} ${cur} with ${article(cur)} ${cur} thief`;
}

function describeEvent(ctx, e) {
  const names = ctx.art.CURRENCY_NAMES;
  if (e.type === "ThiefPlayed") {
    const cur = names[e.currency] || e.currency;
    return `${ctx.seatName(e.seat)} plays ${article(cur)} ${cur} thief`;
  }
  if (e.type === "MoneyTaken") {
    const i = ctx.events.indexOf(e);
    const before = i > 0 ? ctx.events[i - 1] : null;
    if (before && before.type === "ThiefPlayed" && before.seat === e.seat) {
      return `${ctx.seatName(e.seat)}'s ${names[before.currency] || before.currency} thief steals ${e.cards.map(ctx.cardName).join(" + ")} from the display`;
    }
  }
  return null;
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.seats) ? seats((i) => `${st.seats[i].count} in hand`) + ` · ${(st.played || []).length} played` : null;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, actionControls, describeAction, describeEvent });
