// Front-end plug-in of the new score cards (module new_score_cards).
// The panel is the "points indicator": the three score cards drawn open at the start, side by
// side, one per scoring round. Each card lists the six building kinds from its top row to its
// bottom row with the points that kind pays in that card's round (1st · 2nd · 3rd place). The
// round scored next is highlighted, the rounds already scored are faded and marked. The scoring
// breakdown needs nothing here: its per-kind points come from the round's event, which the
// engine scored with these cards. See docs/writing-a-module.md, "Front-end plug-in".

const ID = "new_score_cards";

const SLOT_NAMES = { 1: "1st scoring", 2: "2nd scoring", 3: "3rd scoring" };
const PLACES = ["1st", "2nd", "3rd"];

// The card's drawing, in SVG units: a narrow card (the panel's three cards share a side column
// of 250-300 px, or a phone's width), one row per building kind of two lines (name, points).
const W = 78;
const BAND = 34;
const HEAD = 50;
const ROW = 27;
const FOOT = 5;

/** A building kind's name (the catalogue's names when it has its own). */
function kindName(ctx, kind) {
  return ctx.art.KIND_NAMES[kind] || kind.charAt(0).toUpperCase() + kind.slice(1);
}

/** Ink or paper, whichever reads better on the colour `hex` (#rrggbb). */
function textOn(ctx, hex) {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return ctx.art.INK;
  const [r, g, b] = m.slice(1).map((v) => parseInt(v, 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 160 ? ctx.art.INK : ctx.art.PAPER;
}

/** The points of one row: "15 · 7 · 1" (1st · 2nd · 3rd place). */
function pointsText(points) {
  return points.join("\u2009·\u2009");
}

/** The points in words, for titles and screen readers: "16 points for the 1st place, 8 for the 2nd, 1 for the 3rd". */
function pointsWords(points) {
  return points.map((p, i) => (i === 0 ? `${p} point${p === 1 ? "" : "s"} for the ${PLACES[i]} place` : `${p} for the ${PLACES[i]}`)).join(", ");
}

/** Whether slot `round` is scored, next or still to come (`next`: the view's round scored next). */
function status(round, next) {
  if (next === null || next === undefined || round < next) return "scored";
  return round === next ? "next" : "later";
}

/** One score card as an SVG in the house style: a cream card with a dark frame, its slot at the
 * top, then per row (top to bottom) the kind's colour and name and the round's points. */
function cardSVG(ctx, slot, state, label) {
  const { KIND_COLORS, INK, CREAM, PAPER, svgText } = ctx.art;
  const svg = ctx.svg;
  const kinds = slot.kinds || [];
  const height = HEAD + ROW * kinds.length + FOOT;
  const s = svg("svg", { viewBox: `0 0 ${W} ${height}`, role: "img", "aria-label": label, class: "nsc-card-art", preserveAspectRatio: "xMidYMin meet" });
  const title = svg("title");
  title.textContent = label;
  s.appendChild(title);
  const band = state === "next" ? "#e0a800" : state === "scored" ? "#b8a98e" : "#7b2d26";
  const onBand = state === "next" ? INK : PAPER;
  s.appendChild(svg("rect", { x: 1.5, y: 1.5, width: W - 3, height: height - 3, rx: 6, fill: CREAM, stroke: INK, "stroke-width": 2 }));
  s.appendChild(svg("path", { d: `M1.5 ${BAND} V7.5 A6 6 0 0 1 7.5 1.5 H${W - 7.5} A6 6 0 0 1 ${W - 1.5} 7.5 V${BAND} Z`, fill: band, stroke: INK, "stroke-width": 2 }));
  const [ordinal, word] = (SLOT_NAMES[slot.round] || `${slot.round}th scoring`).split(" ");
  s.appendChild(svgText(W / 2, 17, ordinal, { "font-size": 15, "font-weight": 800, fill: onBand }));
  s.appendChild(svgText(W / 2, 29, word, { "font-size": 9.5, "font-weight": 600, fill: onBand }));
  // which place each number pays
  const places = Object.values(slot.points || {})[0] || [];
  const legend = places.length === 1 ? "1st place" : places.map((_, i) => PLACES[i]).join(" · ");
  s.appendChild(svgText(W / 2, BAND + 10, legend, { "font-size": 8.5, fill: "#6b5235", class: "nsc-legend" }));
  kinds.forEach((kind, i) => {
    const y = HEAD + i * ROW;
    const g = svg("g", { class: "nsc-row", "data-kind": kind, "data-row": i + 1 });
    if (i % 2 === 1) g.appendChild(svg("rect", { x: 4, y: y - 2, width: W - 8, height: ROW, rx: 3, fill: PAPER }));
    // the kind's colour as a small tile with the row number (the card's rows are its ranks)
    const colour = KIND_COLORS[kind] || "#b0a48a";
    g.appendChild(svg("rect", { x: 5, y: y + 2, width: 13, height: 19, rx: 3, fill: colour, stroke: INK, "stroke-width": 1.2, class: "nsc-swatch" }));
    g.appendChild(svgText(11.5, y + 15.5, i + 1, { "font-size": 11, "font-weight": 700, fill: textOn(ctx, colour) }));
    g.appendChild(svgText(22, y + 9, kindName(ctx, kind), { "font-size": 10, "text-anchor": "start", class: "nsc-kind" }));
    g.appendChild(svgText(22, y + 22, pointsText((slot.points || {})[kind] || []), { "font-size": 12, "font-weight": 700, "text-anchor": "start", class: "nsc-points" }));
    s.appendChild(g);
  });
  return s;
}

/** The points indicator: the three score cards side by side, the next one highlighted. */
function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.cards)) return null;
  const h = ctx.h;
  const items = st.cards.map((slot) => {
    const state = status(slot.round, st.next);
    const slotName = SLOT_NAMES[slot.round] || `Scoring ${slot.round}`;
    const note = state === "next" ? "scored next" : state === "scored" ? "already scored" : "to come";
    const rows = (slot.kinds || []).map((k, i) => `row ${i + 1} ${kindName(ctx, k)}: ${pointsWords((slot.points || {})[k] || [])}`);
    const label = `Score card of the ${slotName} (${note}). ${rows.join("; ")}.`;
    const caption = state === "next" ? "Next" : state === "scored" ? "✓ Scored" : "\u00a0";
    return h("li", { class: `nsc-card ${state}`, dataset: { round: slot.round, status: state }, "aria-current": state === "next" ? "step" : null },
      cardSVG(ctx, slot, state, label),
      h("span", { class: "nsc-status", "aria-hidden": "true", text: caption }));
  });
  return h("div", { class: "nsc-panel" },
    h("p", { class: "muted nsc-help", text: "These cards replace the scoring table. Points per building kind for each round:" }),
    h("ol", { class: "nsc-cards", "aria-label": "The score cards, one per scoring round" }, ...items));
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  const cards = st.cards || [];
  return `${n(cards.length, "score card", "score cards")} replace the scoring table` + (st.next ? ` · round ${st.next} next` : "");
}

window.Alhambra.registerModule(ID, { summary, panel });
