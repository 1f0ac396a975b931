// Front-end plug-in of the Squares (module squares).
// A square is drawn as an open plaza in the house style: paving stones in the colour of its
// building kind, a round basin with a tree in the middle, its walls exactly as the base tiles
// draw them (`art.tileWalls`), no price. The table uses this art wherever a square appears
// (Alhambras, reserve boards, tiles waiting to be placed).
// The panel shows the six piles at a glance (the open square of each, how many lie face down
// under it) and, on your turn, a "Take" button under every open square you may take; a badge
// per seat gives its squares (of 3) and what they add in scoring now.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "squares";
const LETTERS = { p: "pavilion", s: "seraglio", a: "arcades", c: "chambers", g: "garden", t: "tower" };
/** The kind of a legal `square take KIND` (the server's structured action), or null. */
function takeKind(ctx, notation) {
  const m = ctx.argsOf ? ctx.argsOf(notation, "square take") : null;
  return m ? m[0] : null;
}

/** The building kind of square `code` ("Qg2" -> "garden"), or null for another code. */
function kindOf(ctx, code) {
  const tiles = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles : null;
  const t = tiles && Object.hasOwn(tiles, code) ? tiles[code] : null;
  if (tiles && (!t || t.module !== ID)) return null;
  const m = /^Q([psacgt])\d+$/.exec(code || "");
  return m ? LETTERS[m[1]] : null;
}

function kindName(ctx, kind) {
  return (ctx.art.KIND_NAMES && ctx.art.KIND_NAMES[kind]) || kind;
}

function tileName(ctx, code) {
  const kind = kindOf(ctx, code);
  return kind ? `${kindName(ctx, kind)} square` : null;
}

function wallsOf(ctx, code) {
  const t = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles[code] : null;
  return t && t.walls ? t.walls : "";
}

/** The plaza: paving in the kind's colour, a basin and a tree, walls as the base tiles draw them. */
function tileArt(ctx, code, size = 64) {
  const kind = kindOf(ctx, code);
  if (!kind) return null;
  const { INK, CREAM, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const colour = KIND_COLORS[kind] || "#999";
  const s = svg("svg", { viewBox: "0 0 100 100", width: size, height: size, role: "img", "aria-label": tileName(ctx, code), class: "square-tile", "data-module": ID, "data-square": code });
  const g = svg("g", { class: `tile kind-square square-${kind}` });
  g.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 96, rx: 6, fill: CREAM, stroke: colour, "stroke-width": 3 }));
  // paving stones: a checker of the kind's colour, faint
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      if ((i + j) % 2) continue;
      g.appendChild(svg("rect", { x: 10 + i * 20, y: 10 + j * 20, width: 20, height: 20, fill: colour, opacity: 0.28 }));
    }
  }
  for (const el of ctx.art.tileWalls(wallsOf(ctx, code), ctx.catalogue)) g.appendChild(el);
  g.appendChild(svg("circle", { cx: 50, cy: 50, r: 20, fill: "#9fd0e6", stroke: INK, "stroke-width": 2 }));
  g.appendChild(svg("circle", { cx: 50, cy: 50, r: 11, fill: colour, stroke: INK, "stroke-width": 1.6 }));
  g.appendChild(svg("path", { d: "M50 44 V56 M44 50 H56", stroke: CREAM, "stroke-width": 2.2, "stroke-linecap": "round" }));
  s.appendChild(g);
  return s;
}

/** A small square (badges): a basin on paving. */
function squareIcon(ctx, kind, size = 14) {
  const { INK, CREAM, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "0 0 20 20", width: size, height: size, "aria-hidden": "true", class: "square-icon" });
  s.appendChild(svg("rect", { x: 0.5, y: 0.5, width: 19, height: 19, rx: 3, fill: CREAM, stroke: kind ? KIND_COLORS[kind] : INK, "stroke-width": 1.5 }));
  s.appendChild(svg("circle", { cx: 10, cy: 10, r: 5, fill: kind ? KIND_COLORS[kind] : "#9fd0e6", stroke: INK, "stroke-width": 1 }));
  return s;
}

function bonusText(ctx, bonus) {
  const parts = Object.entries(bonus || {}).map(([k, n]) => `${n} ${kindName(ctx, k).toLowerCase()}`);
  return parts.length ? `they count as ${parts.join(", ")} more now` : "they add nothing in scoring now";
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.piles)) return null;
  const h = ctx.h;
  const legal = new Set((ctx.legal || []).filter((a) => takeKind(ctx, a)));
  const piles = st.piles.map((p) => {
    const action = `square take ${p.kind}`;
    const can = legal.has(action);
    const art = p.top ? tileArt(ctx, p.top, 46) : h("div", { class: "sq-empty", text: "–" });
    const under = p.top ? `${p.left} face down` : "all taken";
    return h("div", { class: `sq-pile ${p.top ? "" : "empty"}`, dataset: { kind: p.kind }, title: `${kindName(ctx, p.kind)} squares: ${p.top ? "one open, " : ""}${under}` },
      art, h("span", { class: "sq-left", text: under }),
      can ? h("button", { class: "secondary sq-take", dataset: { kind: p.kind }, onclick: () => ctx.act(action, describeAction(ctx, action)), text: "Take" }) : null);
  });
  const mine = ctx.me !== null && ctx.me !== undefined && Array.isArray(st.owned) ? st.owned[ctx.me] : null;
  const help = mine === null
    ? `At most ${st.max} squares per player, the reserve board included.`
    : `You have ${mine} of ${st.max} squares${mine ? `: ${bonusText(ctx, st.bonus[ctx.me])}` : ""}. Taking one is free and ends your actions.`;
  return h("div", { class: "sq-panel" }, h("div", { class: "sq-piles" }, ...piles), h("p", { class: "muted sq-help", text: help }));
}

function actionControls(ctx, actions) {
  const takes = actions.filter((a) => takeKind(ctx, a));
  if (!takes.length) return null;
  const h = ctx.h;
  const row = h("div", { class: "button-row sq-controls" });
  for (const a of takes) {
    const kind = takeKind(ctx, a);
    const st = ctx.state;
    const pile = st && Array.isArray(st.piles) ? st.piles.find((p) => p.kind === kind) : null;
    row.append(h("button", { class: "secondary", dataset: { kind }, onclick: () => ctx.act(a, describeAction(ctx, a)) },
      pile && pile.top ? tileArt(ctx, pile.top, 26) : squareIcon(ctx, kind, 20), h("span", { text: `Take the ${kindName(ctx, kind).toLowerCase()} square` })));
  }
  return { node: h("div", {}, h("p", { class: "muted", text: "Or take an open square for free (this ends your actions):" }), row), handled: takes };
}

function describeAction(ctx, notation) {
  const kind = takeKind(ctx, notation);
  if (!kind) return null;
  return `Take the open ${kindName(ctx, kind).toLowerCase()} square (free; this ends your actions)`;
}

function describeEvent(ctx, e) {
  if (e.type === "SquareTaken") {
    const next = e.shown ? `; the next ${kindName(ctx, e.kind).toLowerCase()} square is turned up` : `; the ${kindName(ctx, e.kind).toLowerCase()} squares are all taken`;
    return `${ctx.seatName(e.seat)} takes the ${ctx.tileName(e.tile)}${next}`;
  }
  if (e.type === "SquaresLaidOut") return "The six piles of squares are laid out, each with its top square open";
  return null;
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.owned) || seat < 0 || seat >= st.owned.length) return null;
  const n = st.owned[seat];
  if (!n) return null;
  const extra = Object.values(st.bonus[seat] || {}).reduce((a, b) => a + b, 0);
  return {
    text: extra ? `${n}/${st.max} +${extra}` : `${n}/${st.max}`,
    title: `Squares: ${n} of ${st.max}; ${bonusText(ctx, st.bonus[seat])}`,
    className: "square-badge",
    icon: squareIcon(ctx, null, 14),
  };
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.owned) ? seats((i) => `${st.owned[i]} of ${st.max} squares`) : null;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, actionControls, describeAction, describeEvent, tileArt, tileName });
