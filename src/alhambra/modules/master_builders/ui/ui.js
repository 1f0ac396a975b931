// Front-end plug-in of the master-builder cards (module master_builders).
// The cards are money worth 3 with a master-builder emblem (compass and trowel): the table draws
// them with this art wherever money appears (display, hand, ways to pay) and its payment picker
// and take controls treat them as the money they are. A badge on every player shows how many they
// hold (and how many were dealt face down); the panel shows every player's cards (your own face
// up, the others' secret ones as backs) and the cards out of the game. At the end of your turn the
// choice gets its own controls: the card to give up, then one redesign on a copy of your Alhambra
// and reserve board (clickable tiles and highlighted spots, like the table's redesign), or Skip.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "master_builders";
const TOTAL = 16;
const CELL = 100;

// ------------------------------------------------------------------------------ cards
/** Currency and value of master-builder card `code` (catalogue first), or null. */
function face(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  if (c && c.module === ID && c.currency) return { currency: c.currency, value: c.value };
  if (c) return null;
  const m = /^m([bgoy])(\d+)$/.exec(code || "");
  return m ? { currency: ctx.art.CURRENCY_LETTER[m[1]], value: Number(m[2]) } : null;
}

function cardName(ctx, code) {
  const f = face(ctx, code);
  return f ? `${f.value} ${ctx.art.CURRENCY_NAMES[f.currency]} (master builder)` : null;
}

/** The master builder's emblem: a drafting compass crossed by a mason's trowel, in a gilt disc
 * of radius `r` centred at (cx, cy) (drawn in a 24-unit square, scaled). */
function emblem(ctx, cx, cy, r, ring = null) {
  const { INK } = ctx.art;
  const svg = ctx.svg;
  const g = svg("g", { class: "mb-emblem" });
  g.appendChild(svg("circle", { cx, cy, r, fill: "#f6e7b8", stroke: ring || INK, "stroke-width": r > 8 ? 1.6 : 1 }));
  const inner = svg("g", { transform: `translate(${cx} ${cy}) scale(${(r * 0.86) / 12})` });
  const ink = { fill: "none", stroke: INK, "stroke-linecap": "round", "stroke-linejoin": "round" };
  // the compass: two legs from a brass hinge, the arc that holds them, a handle on top
  inner.appendChild(svg("path", { d: "M0 -7.5 L-7 10.5 M0 -7.5 L7 10.5", ...ink, "stroke-width": 2.4 }));
  inner.appendChild(svg("path", { d: "M-4.6 4.2 Q0 6.6 4.6 4.2", ...ink, "stroke-width": 1.2 }));
  inner.appendChild(svg("line", { x1: 0, y1: -9.5, x2: 0, y2: -12.2, ...ink, "stroke-width": 2 }));
  inner.appendChild(svg("circle", { cx: 0, cy: -7.5, r: 2.3, fill: "#c9a227", stroke: INK, "stroke-width": 1 }));
  // the trowel across it: a broad pointed steel blade down left, a wooden handle up right
  inner.appendChild(svg("path", { d: "M-13 12 Q-11.4 4.6 -7.4 0.6 Q-4.5 2.6 -1.6 6.4 Q-6 10.4 -13 12 Z", fill: "#dfe4ea", stroke: INK, "stroke-width": 1.2, "stroke-linejoin": "round" }));
  inner.appendChild(svg("path", { d: "M-4.5 3.5 L-2.2 -0.6 L3 -4.6", ...ink, "stroke-width": 1.4 }));
  inner.appendChild(svg("line", { x1: 3, y1: -4.6, x2: 9.8, y2: -11.4, ...ink, "stroke-width": 4.6 }));
  inner.appendChild(svg("line", { x1: 3, y1: -4.6, x2: 9.8, y2: -11.4, ...ink, stroke: "#b0702f", "stroke-width": 2.6 }));
  g.appendChild(inner);
  return g;
}

/** A small emblem on its own (badges, headings). */
function emblemIcon(ctx, size = 18) {
  const s = ctx.svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", class: "mb-icon" });
  s.appendChild(emblem(ctx, 12, 12, 11));
  return s;
}

/** The card: money of value 3 in its currency (colour, coin, corner values, currency name) with
 * a gilt inner frame and the master builder's emblem in the middle, so it is never mistaken for
 * a plain 3. */
function cardArt(ctx, code, width = 48) {
  const f = face(ctx, code);
  if (!f) return null;
  const { CURRENCY_COLORS, CURRENCY_NAMES, INK, PAPER, cardShell, coinGroup, svgText } = ctx.art;
  const svg = ctx.svg;
  const colour = CURRENCY_COLORS[f.currency];
  const s = cardShell(cardName(ctx, code), width);
  s.classList.add("mb-card");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: colour, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 4.2, y: 4.2, width: 51.6, height: 75.6, rx: 5, fill: "none", stroke: "#f2cf5b", "stroke-width": 1.6 }));
  s.appendChild(svg("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, fill: PAPER, stroke: colour, "stroke-width": 1.5 }));
  s.appendChild(coinGroup(30, 20, 9, colour, f.value));
  for (const [x, y] of [[13, 17], [47, 75]]) s.appendChild(svgText(x, y, f.value, { "font-size": 10, "font-weight": 700, fill: colour }));
  s.appendChild(emblem(ctx, 30, 46.5, 15, colour));
  s.appendChild(svgText(28, 72.5, CURRENCY_NAMES[f.currency], { "font-size": 7.5 }));
  return s;
}

/** A master-builder card face down (its currency unknown): the money back with the emblem. */
function backArt(ctx, width, label) {
  const { INK, cardShell } = ctx.art;
  const svg = ctx.svg;
  const s = cardShell(label, width);
  s.classList.add("mb-back");
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 57, height: 81, rx: 6, fill: "#7b2d26", stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("rect", { x: 4.2, y: 4.2, width: 51.6, height: 75.6, rx: 5, fill: "none", stroke: "#f2cf5b", "stroke-width": 1.6 }));
  s.appendChild(svg("path", { d: "M30 10 L51 42 L30 74 L9 42 Z", fill: "#e9c46a", stroke: INK, "stroke-width": 1.5, "stroke-linejoin": "round" }));
  s.appendChild(emblem(ctx, 30, 42, 14));
  return s;
}

// ------------------------------------------------------------------------------ state at a glance
/** The cards' codes in the hand of `seat` as the viewer sees them: every seat's master-builder
 * cards that were taken openly (from the log: taken from the display, not yet spent), checked
 * against the view's counts (faces the log cannot tell come out as null). */
function openCards(ctx) {
  const st = ctx.state;
  const n = st.held.length;
  const open = Array.from({ length: n }, () => []);
  for (const e of ctx.events || []) {
    if (!e || typeof e.seat !== "number" || e.seat < 0 || e.seat >= n) continue;
    const mine = open[e.seat];
    if (e.type === "MoneyTaken" && Array.isArray(e.cards)) {
      for (const c of e.cards) if (face(ctx, c)) mine.push(c);
    } else if (Array.isArray(e.payment)) {
      for (const c of e.payment) {
        const i = mine.indexOf(c);
        if (i >= 0) mine.splice(i, 1); // a seen copy is spent first; otherwise it was a secret one
      }
    }
  }
  return open.map((cards, s) => {
    const want = Math.max(0, st.held[s] - st.secret[s]);
    const out = cards.slice(Math.max(0, cards.length - want));
    while (out.length < want) out.push(null);
    return out;
  });
}

/** The viewer's own master-builder cards: [{code, secret}] (secret: dealt face down, unseen by
 * the others). */
function ownCards(ctx) {
  const seat = ctx.me;
  if (seat === null || seat === undefined) return null;
  const hand = (ctx.view.seats[seat] && ctx.view.seats[seat].hand) || [];
  const secret = (ctx.state.own_secret || []).slice();
  return hand.filter((c) => face(ctx, c)).sort().map((code) => {
    const i = secret.indexOf(code);
    if (i >= 0) secret.splice(i, 1);
    return { code, secret: i >= 0 };
  });
}

function plural(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.held) || st.held[seat] === undefined) return null;
  const held = st.held[seat];
  if (!held) return null;
  const secret = st.secret[seat] || 0;
  const mine = seat === ctx.me;
  const text = `${plural(held, "master builder", "master builders")}${secret ? ` (${secret} ${mine ? "secret" : "face down"})` : ""}`;
  const title = `${plural(held, "master-builder card", "master-builder cards")} in hand: money worth 3 each, or one extra redesign at the end of a turn.` +
    (secret ? (mine ? ` ${secret} of yours ${secret === 1 ? "was" : "were"} dealt face down: the others do not know the currency.` :
      ` ${secret} of them ${secret === 1 ? "was" : "were"} dealt face down: the currency is unknown.`) : "");
  return { text, title, className: "mb-badge", icon: emblemIcon(ctx, 16) };
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.held)) return null;
  const h = ctx.h;
  const v = ctx.view;
  const open = openCards(ctx);
  const own = ownCards(ctx);
  const W = 24;
  const rows = st.held.map((held, seat) => {
    const mine = seat === ctx.me && own !== null;
    const secret = st.secret[seat] || 0;
    let cards;
    if (mine) {
      cards = own.map(({ code, secret: hidden }) => h("span", {
        class: `mb-slot ${hidden ? "hidden-to-others" : ""}`, dataset: { code },
        title: `${cardName(ctx, code)}${hidden ? ": dealt face down, the others do not know its currency" : ""}`,
      }, ctx.cardArt(code, W), hidden ? h("span", { class: "mb-eye", "aria-hidden": "true", text: "◐" }) : null));
    } else {
      cards = [
        ...open[seat].map((code) => code ? h("span", { class: "mb-slot", dataset: { code }, title: `${cardName(ctx, code)} (taken from the display)` }, ctx.cardArt(code, W))
          : h("span", { class: "mb-slot", title: "A master-builder card taken openly" }, backArt(ctx, W, "A master-builder card"))),
        ...Array.from({ length: secret }, () => h("span", { class: "mb-slot", title: "Dealt face down: its currency is secret" }, backArt(ctx, W, "A master-builder card, face down"))),
      ];
    }
    const note = held === 0 ? "none" : `${held} in hand${secret ? `, ${secret} ${seat === ctx.me ? "secret" : "face down"}` : ""}`;
    return h("li", { class: `mb-seat ${seat === ctx.me ? "me" : ""}`, dataset: { seat } },
      h("span", { class: "mb-who" }, h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
        h("span", { class: "mb-name", text: seat === ctx.me ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat) }),
        h("span", { class: "mb-count muted", text: note })),
      cards.length ? h("span", { class: "mb-cards", role: "list", "aria-label": `Master-builder cards of ${ctx.seatName(seat)}` },
        ...cards.map((c) => { c.setAttribute("role", "listitem"); return c; })) : null);
  });
  const onDisplay = (v.display || []).filter((c) => c && face(ctx, c)).length;
  const held = st.held.reduce((a, b) => a + b, 0);
  const removed = st.removed || [];
  const inDeck = Math.max(0, TOTAL - held - onDisplay - removed.length - (st.set_aside || 0));
  const unseen = st.unseen || {};
  const unseenText = Object.keys(unseen).sort().filter((c) => unseen[c] > 0)
    .map((c) => `${unseen[c]} ${ctx.art.CURRENCY_NAMES[face(ctx, c).currency]}`).join(" · ");
  return h("div", { class: "mb-panel" },
    h("p", { class: "muted mb-help", text: "Money worth 3; or give one up at the end of your turn for one extra redesign. Spent cards leave the game." }),
    h("ul", { class: "mb-seats" }, ...rows),
    h("div", { class: "mb-out" },
      h("span", { class: "mb-label", text: `Out of the game (${removed.length + (st.set_aside || 0)})` }),
      removed.length ? h("span", { class: "mb-cards", role: "list", "aria-label": "Spent master-builder cards" },
        ...removed.map((c) => h("span", { class: "mb-slot spent", role: "listitem", title: `${cardName(ctx, c)}: spent` }, ctx.cardArt(c, 20)))) : null,
      st.set_aside ? h("span", { class: "mb-aside", title: "Left over at the start: out of the game face down, nobody knows their currencies" },
        backArt(ctx, 20, "Master-builder cards set aside face down"), h("span", { text: `× ${st.set_aside} set aside` })) : null,
      !removed.length && !st.set_aside ? h("span", { class: "muted", text: "none" }) : null),
    h("p", { class: "mb-rest", text: (inDeck ? `Still in the draw pile: ${inDeck} (shuffled into its 3rd and 5th piles)` : "None left in the draw pile") +
      (onDisplay ? `; ${onDisplay} on the display.` : ".") }),
    unseenText && ctx.me !== null ? h("p", { class: "muted mb-unseen", text: `Not yet seen by you: ${unseenText}.` }) : null);
}

// ------------------------------------------------------------------------------ the choice
/** A master-builder action as {kind, card, tile, x, y, other, action}; null for anything else. */
function parse(ctx, notation) {
  const args = (kw) => (ctx.argsOf ? ctx.argsOf(notation, kw) : null);
  let m = args("builder build");
  if (m) return { kind: "build", card: m[0], tile: m[1], x: m[2].x, y: m[2].y, action: notation };
  m = args("builder remove");
  if (m) return { kind: "remove", card: m[0], tile: m[1], action: notation };
  m = args("builder exchange");
  if (m) return { kind: "exchange", card: m[0], tile: m[1], other: m[2], action: notation };
  m = args("builder use");
  if (m) return { kind: "use", card: m[0], action: notation };
  if (notation === "builder skip") return { kind: "skip", action: notation };
  return null;
}

/** Make an SVG group a keyboard- and mouse-operable button. */
function clickable(ctx, g, label, fn) {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.classList.add("clickable");
  g.addEventListener("click", (ev) => { ev.stopPropagation(); fn(); });
  g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); } });
  const t = ctx.svg("title");
  t.textContent = label;
  g.appendChild(t);
}

/** A tile drawn inside the board at cell (x, y). */
function tileAt(ctx, code, x, y) {
  const s = ctx.tileArt(code, CELL);
  s.setAttribute("x", String(x * CELL));
  s.setAttribute("y", String(y * CELL));
  s.setAttribute("width", String(CELL));
  s.setAttribute("height", String(CELL));
  return ctx.svg("g", { class: "mb-tile", "data-tile": code, "data-x": x, "data-y": y }, [s]);
}

/** My Alhambra for the extra redesign: removable tiles (no reserve tile picked), or the spots a
 * picked reserve tile can go to and the tiles it can replace. */
function board(ctx, moves, sel) {
  const svg = ctx.svg;
  const seat = ctx.view.seats[ctx.me];
  const spots = sel.tile ? moves.filter((a) => a.kind === "build" && a.tile === sel.tile) : [];
  const swaps = sel.tile ? moves.filter((a) => a.kind === "exchange" && a.tile === sel.tile) : [];
  const removals = sel.tile ? [] : moves.filter((a) => a.kind === "remove");
  const cells = seat.alhambra.map((c) => ({ x: c.x, y: c.y })).concat(spots.map((a) => ({ x: a.x, y: a.y })));
  const minX = Math.min(...cells.map((c) => c.x)) - 0.15, maxX = Math.max(...cells.map((c) => c.x)) + 1.15;
  const minY = Math.min(...cells.map((c) => c.y)) - 0.15, maxY = Math.max(...cells.map((c) => c.y)) + 1.15;
  const root = svg("svg", {
    class: "mb-board", viewBox: `${minX * CELL} ${minY * CELL} ${(maxX - minX) * CELL} ${(maxY - minY) * CELL}`,
    role: "group", "aria-label": "Your Alhambra for the extra redesign",
  });
  for (const c of seat.alhambra) {
    const g = tileAt(ctx, c.tile, c.x, c.y);
    const swap = swaps.find((a) => a.other === c.tile);
    const removal = removals.find((a) => a.tile === c.tile);
    if (swap) {
      g.classList.add("mb-exchange");
      g.appendChild(svg("rect", { x: c.x * CELL + 4, y: c.y * CELL + 4, width: 92, height: 92, rx: 6, fill: "none", class: "mb-swap-outline" }));
      clickable(ctx, g, describeAction(ctx, swap.action), () => ctx.act(swap.action));
    } else if (removal) {
      g.classList.add("mb-removable");
      g.appendChild(svg("rect", { x: c.x * CELL + 3, y: c.y * CELL + 3, width: 94, height: 94, rx: 7, fill: "none", class: "mb-outline" }));
      clickable(ctx, g, describeAction(ctx, removal.action), () => ctx.act(removal.action));
    }
    root.appendChild(g);
  }
  for (const a of spots) {
    const g = svg("g", { class: "mb-spot", "data-x": a.x, "data-y": a.y, "data-action": a.action });
    g.appendChild(svg("rect", { x: a.x * CELL + 6, y: a.y * CELL + 6, width: CELL - 12, height: CELL - 12, rx: 10, fill: "rgba(255,214,0,0.25)", stroke: "#e0a800", "stroke-width": 5, "stroke-dasharray": "12 8" }));
    const plus = svg("text", { x: a.x * CELL + 50, y: a.y * CELL + 62, "text-anchor": "middle", "font-size": 36, fill: "#a07800" });
    plus.textContent = "+";
    g.appendChild(plus);
    clickable(ctx, g, describeAction(ctx, a.action), () => ctx.act(a.action));
    root.appendChild(g);
  }
  return root;
}

function actionControls(ctx, actions) {
  const moves = actions.map((a) => parse(ctx, a)).filter(Boolean);
  if (!moves.length) return null;
  const h = ctx.h;
  const handled = moves.map((a) => a.action);
  const skip = moves.find((a) => a.kind === "skip");
  const redesigns = moves.filter((a) => a.kind !== "skip");
  const faces = [...new Set(redesigns.map((a) => a.card))].sort();
  const sel = ctx.selection || {};
  const card = faces.length === 1 ? faces[0] : faces.includes(sel.card) ? sel.card : null;
  const uses = card ? redesigns.filter((a) => a.card === card && a.kind === "use") : [];
  const mine = card ? redesigns.filter((a) => a.card === card && a.kind !== "use") : [];
  const tile = mine.some((a) => a.tile === sel.tile && a.kind !== "remove") ? sel.tile : null;
  const parts = [h("p", { class: "mb-offer" }, emblemIcon(ctx, 22),
    h("span", { text: " End of your turn: you may give up one master-builder card for one extra redesign, or skip." }))];
  // 1. the card to give up
  const pick = h("div", { class: "mb-pick", role: "group", "aria-label": "The master-builder card to give up" },
    h("span", { class: "mb-step", text: faces.length > 1 ? "1. The card to give up:" : "The card you give up:" }),
    ...faces.map((c) => h("button", {
      class: `mb-card-button ${c === card ? "selected" : ""}`, dataset: { code: c }, "aria-pressed": c === card ? "true" : "false",
      "aria-label": `Give up ${cardName(ctx, c)}`, title: `Give up ${cardName(ctx, c)}`,
      onclick: () => ctx.select(c === card && faces.length > 1 ? null : { card: c }),
    }, ctx.cardArt(c, 34))));
  parts.push(pick);
  // 2. the redesign
  if (card) {
    const seat = ctx.view.seats[ctx.me];
    const usable = new Set(mine.filter((a) => a.kind !== "remove").map((a) => a.tile));
    const anyRemove = mine.some((a) => a.kind === "remove");
    const hint = !mine.length ? "Give up the card for another kind of redesign (below)."
      : tile ? `Pick a highlighted spot for ${ctx.tileName(tile)}, or an outlined tile of your Alhambra it can replace.`
      : usable.size && anyRemove ? "Pick a reserve tile to build or exchange it, or an outlined tile of your Alhambra to move it to the reserve board."
        : usable.size ? "Pick a reserve tile to build it or exchange it for a tile of your Alhambra."
          : "Pick an outlined tile of your Alhambra to move it to the reserve board.";
    parts.push(h("p", { class: "mb-step", text: `${faces.length > 1 ? "2. " : ""}${hint}` }));
    const reserve = h("div", { class: "reserve mb-reserve", "aria-label": "Your reserve board" },
      h("span", { class: "reserve-label", text: "Reserve" }),
      ...seat.reserve.map((t) => {
        if (!usable.has(t)) return ctx.tileArt(t, 40);
        const on = t === tile;
        return h("button", {
          class: `reserve-tile ${on ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": on ? "true" : "false",
          "aria-label": `Extra redesign: build ${ctx.tileName(t)} from the reserve`,
          onclick: () => ctx.select(on ? { card } : { card, tile: t }),
        }, ctx.tileArt(t, 40));
      }),
      seat.reserve.length ? null : h("span", { class: "muted", text: "empty" }));
    if (mine.length) parts.push(h("div", { class: "mb-redesign" }, board(ctx, mine, { tile }), reserve));
    for (const u of uses) {
      // the other modules' own redesigns (a magical building turned, a tile through a city gate)
      // come after the card is given up, with those modules' controls
      parts.push(h("div", { class: "button-row mb-use" }, h("button", {
        class: "secondary mb-use-button", dataset: { action: u.action }, title: describeAction(ctx, u.action),
        onclick: () => ctx.act(u.action, describeAction(ctx, u.action)),
      }, emblemIcon(ctx, 18), h("span", { text: " Or give it up for another kind of redesign (a magical building turned, a tile through a city gate)…" }))));
    }
  } else {
    parts.push(h("p", { class: "muted mb-step", text: "2. Then pick the redesign: build from the reserve board, move a tile to it, or exchange." }));
  }
  const row = h("div", { class: "button-row" });
  if (skip) {
    row.append(h("button", { id: "btn-builder-skip", class: "secondary", onclick: () => ctx.act(skip.action) },
      h("span", { text: "Skip: no extra redesign" })));
  }
  parts.push(row);
  return { node: h("div", { class: "mb-controls" }, ...parts), handled };
}

// ------------------------------------------------------------------------------ texts
function describeAction(ctx, notation) {
  const a = parse(ctx, notation);
  if (!a) return null;
  if (a.kind === "skip") return "Give up no master-builder card: no extra redesign";
  const give = `Give up ${cardName(ctx, a.card) || a.card}`;
  if (a.kind === "use") return `${give} for a redesign you choose next (a magical building turned, a tile through a city gate)`;
  if (a.kind === "build") return `${give}: build ${ctx.tileName(a.tile)} from the reserve ${ctx.placeText ? ctx.placeText(a.x, a.y) : `at ${a.x},${a.y}`}`;
  if (a.kind === "remove") return `${give}: move ${ctx.tileName(a.tile)} to your reserve board`;
  return `${give}: exchange ${ctx.tileName(a.other)} for ${ctx.tileName(a.tile)} from your reserve`;
}

function describeEvent(ctx, e) {
  if (e.type === "MasterBuildersUsed") {
    return `${ctx.seatName(e.seat)} gives up ${(e.payment || []).map((c) => cardName(ctx, c) || c).join(" + ")} for an extra redesign`;
  }
  if (e.type === "MasterBuildersDeclined") return `${ctx.seatName(e.seat)} gives up no master-builder card (no extra redesign)`;
  if (e.type === "MasterBuildersRevealed") {
    return `The ${cardName(ctx, e.card) || e.card} was one of the cards dealt face down to ${ctx.seatName(e.seat)}`;
  }
  return null;
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.held) ? `${(st.removed || []).length} out of the game · ` + seats((i) => `${n(st.held[i] || 0, "card", "cards")}`) : null;
}

window.Alhambra.registerModule(ID, { summary, cardArt, cardName, seatBadges, panel, actionControls, describeAction, describeEvent });
