// Front-end plug-in of the Vizier's favour (module vizier).
// A badge on every player's panel shows whether their vizier is awake; between turns the offer
// is answered by picking a highlighted market square and the exact cards (the table's payment
// picker, confirmed with "Use vizier") or "Pass"; waking the vizier is a button on your turn.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "vizier";

/** `vizier buy SQUARE CARDS` as {square, cards, action}, from the server's structured action
 * (`ctx.move`: keyword and arguments from the declared grammar); null for anything else. */
function parseBuy(ctx, notation) {
  const m = ctx.move ? ctx.move(notation) : null;
  if (!m || m.keyword !== "vizier buy") return null;
  const arg = (type) => (m.args.find((a) => a.type === type) || {}).value;
  return arg("square") === undefined ? null : { square: arg("square"), cards: arg("cards"), action: notation };
}

/** A small vizier: turbaned head, eyes open when awake, closed with a "z" when asleep. */
function vizierIcon(ctx, awake, size = 18) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const line = { fill: "none", stroke: INK, "stroke-width": 1.2, "stroke-linecap": "round" };
  const s = svg("svg", { viewBox: "0 0 24 24", width: size, height: size, "aria-hidden": "true", class: "vizier-icon" });
  s.appendChild(svg("circle", { cx: 12, cy: 14.5, r: 6, fill: "#e7b98a", stroke: INK, "stroke-width": 1.2 }));
  s.appendChild(svg("path", { d: "M7.2 16.5 Q12 25 16.8 16.5 Q12 19 7.2 16.5 Z", fill: "#5a3a22", stroke: INK, "stroke-width": 1 }));
  s.appendChild(svg("ellipse", { cx: 12, cy: 8.2, rx: 7.5, ry: 5, fill: CREAM, stroke: INK, "stroke-width": 1.2 }));
  s.appendChild(svg("path", { d: "M6 9.5 Q12 6 18 9.5", ...line, "stroke-width": 0.9 }));
  s.appendChild(svg("circle", { cx: 12, cy: 6.4, r: 1.6, fill: "#c4453a", stroke: INK, "stroke-width": 0.8 }));
  if (awake) {
    s.appendChild(svg("circle", { cx: 9.8, cy: 14.2, r: 0.95, fill: INK }));
    s.appendChild(svg("circle", { cx: 14.2, cy: 14.2, r: 0.95, fill: INK }));
  } else {
    s.appendChild(svg("path", { d: "M8.8 14 Q9.8 15.2 10.8 14 M13.2 14 Q14.2 15.2 15.2 14", ...line }));
    s.appendChild(svg("path", { d: "M18.5 1.5 H22.5 L18.5 5.5 H22.5", ...line }));
  }
  return s;
}

function seatBadges(ctx, seat) {
  const awake = ctx.state && Array.isArray(ctx.state.awake) ? ctx.state.awake[seat] : undefined;
  if (awake === undefined) return null;
  return {
    text: awake ? "Vizier awake" : "Vizier asleep",
    title: awake
      ? "After any turn this player may buy one market tile out of turn, paying exactly its price."
      : "This vizier sleeps: its owner must spend a turn action to wake it.",
    className: `vizier-badge ${awake ? "vizier-awake" : "vizier-asleep"}`,
    icon: vizierIcon(ctx, Boolean(awake)),
  };
}

function actionControls(ctx, actions) {
  const h = ctx.h;
  const buys = actions.map((a) => parseBuy(ctx, a)).filter(Boolean);
  const wake = actions.includes("vizier wake") ? "vizier wake" : null;
  if (!buys.length && !wake) return null;
  const parts = [];
  const handled = [];
  const squares = [];
  if (buys.length) {
    const bySquare = new Map();
    for (const b of buys) {
      if (!bySquare.has(b.square)) bySquare.set(b.square, []);
      bySquare.get(b.square).push(b);
    }
    for (const [square, options] of bySquare) {
      const tile = ctx.view.market[square - 1].tile;
      squares.push({
        square,
        label: "you may buy it with your vizier (exact money)",
        actions: options.map((o) => o.action),
        pick: () => ctx.pay({
          square,
          options,
          title: `The vizier's favour: ${ctx.tileName(tile)}`,
          note: "Pay exactly the price. Your vizier then falls asleep; there is no extra action.",
          confirm: "Use vizier",
        }),
      });
    }
    handled.push(...buys.map((b) => b.action));
    const picking = ctx.payment !== null;
    parts.push(h("p", { class: "vizier-offer" }, vizierIcon(ctx, true, 22),
      h("span", { text: picking ? " Pick the cards that pay exactly, then Use vizier (or pick another square)." :
        " Your vizier is awake: you may buy one market tile now, out of turn, paying exactly its price. Pick a highlighted market square, or pass." })));
  }
  const row = h("div", { class: "button-row" });
  if (wake) {
    parts.push(h("p", { class: "muted", text: "Your vizier sleeps. Waking it is your whole action for this turn." }));
    row.append(h("button", { class: "secondary", id: "btn-vizier-wake", onclick: () => ctx.act(wake, "Wake your vizier (this is your action)") },
      vizierIcon(ctx, false, 20), h("span", { text: "Wake the vizier" })));
    handled.push(wake);
  }
  if (row.children.length) parts.push(row);
  return { node: h("div", { class: "vizier-controls" }, ...parts), handled, squares };
}

/** A market square as the table says it: "the dirham square" (each square keeps its currency). */
function squareName(ctx, square) {
  const sq = ctx.view && ctx.view.market ? ctx.view.market[square - 1] : null;
  const cur = sq ? (ctx.art.CURRENCY_NAMES && ctx.art.CURRENCY_NAMES[sq.currency]) || sq.currency : null;
  return cur ? `the ${cur} square` : `square ${square}`;
}

function describeAction(ctx, notation) {
  if (notation === "vizier wake") return "Wake your vizier (this is your action)";
  const b = parseBuy(ctx, notation);
  if (!b) return null;
  const sq = ctx.view.market[b.square - 1];
  const what = sq && sq.tile ? ctx.tileName(sq.tile) : `the tile on ${squareName(ctx, b.square)}`;
  return `Use the vizier: buy ${what} for ${b.cards.map(ctx.cardName).join(" + ")}`;
}

function describeEvent(ctx, e) {
  if (e.type === "VizierUsed") {
    return `${ctx.seatName(e.seat)} uses the vizier: buys ${ctx.tileName(e.tile)} from ${squareName(ctx, e.square)} for ${e.payment.map(ctx.cardName).join(" + ")}`;
  }
  if (e.type === "VizierPassed") return `${ctx.seatName(e.seat)} does not use the vizier`;
  if (e.type === "VizierWoken") return `${ctx.seatName(e.seat)} wakes the vizier`;
  return null;
}

window.Alhambra.registerModule(ID, { seatBadges, actionControls, describeAction, describeEvent });
