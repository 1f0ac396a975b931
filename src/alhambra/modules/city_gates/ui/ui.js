// Front-end plug-in of the City gates (module city_gates).
// A wooden gate is drawn on the edge of the Alhambra where it opened a double wall (an arch in
// wood over the gap, on the new tile's side); the gate card is a card with an arch. The panel shows
// the open card, the cards each player holds and the gates left; the controls give "Take the
// city-gate card" and, for a tile that only a gate can join, one button per place and side.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "city_gates";
const PLACE = /^gate (place|build) (\S+) (-?\d+,-?\d+) ([nesw])$/;
const SIDES = { n: "north", e: "east", s: "south", w: "west" };
const TURN = { n: 0, e: 90, s: 180, w: 270 };

function arch(ctx, attrs = {}) {
  const svg = ctx.svg;
  const g = svg("g", { class: "gate-arch", ...attrs });
  g.appendChild(svg("path", { d: "M30 16 V4 Q50 -8 70 4 V16 H62 V8 Q50 0 38 8 V16 Z", fill: "#8b5a2b", stroke: ctx.art.INK, "stroke-width": 1.6 }));
  return g;
}

function cardArt(ctx, code, width = 48) {
  if (!/^gt\d$/.test(code || "")) return null;
  const svg = ctx.svg;
  const s = svg("svg", { viewBox: "0 0 100 140", width, height: Math.round(width * 1.4), role: "img", "aria-label": "city-gate card", class: "citygate-card", "data-card": code });
  s.appendChild(svg("rect", { x: 2, y: 2, width: 96, height: 136, rx: 8, fill: "#e8dcc0", stroke: ctx.art.INK, "stroke-width": 2 }));
  s.appendChild(arch(ctx, { transform: "translate(0 50) scale(1)" }));
  const t = svg("text", { x: 50, y: 118, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: ctx.art.INK, "font-family": "sans-serif" });
  t.textContent = "GATE";
  s.appendChild(t);
  return s;
}

function cardName(ctx, code) {
  return /^gt\d$/.test(code || "") ? "city-gate card" : null;
}

/** The wooden gates on a seat's Alhambra: one arch on the edge of each gated double wall. */
function boardOverlay(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.gates)) return null;
  return st.gates.filter((g) => g.seat === seat).map((g) => ({
    x: g.x, y: g.y, className: "gate-item",
    node: (() => {
      const svg = ctx.svg("svg", { viewBox: "0 0 100 100", class: "gate-overlay", "data-side": g.side });
      svg.appendChild(arch(ctx, { transform: `rotate(${TURN[g.side]} 50 50)` }));
      return svg;
    })(),
    title: `A city gate on the ${SIDES[g.side]} side: these two tiles are never redesigned`,
  }));
}

function describeAction(ctx, notation) {
  if (notation === "gate take") return "Take the city-gate card (instead of money; this ends your actions)";
  const m = PLACE.exec(notation);
  if (!m) return null;
  const verb = m[1] === "place" ? "Build" : "Build from the reserve";
  return `${verb} ${ctx.tileName(m[2])} at ${m[3]} through a city gate on its ${SIDES[m[4]]} side (uses a city-gate card)`;
}

function actionControls(ctx, actions) {
  const mine = actions.filter((a) => a === "gate take" || PLACE.test(a));
  if (!mine.length) return null;
  const h = ctx.h;
  const row = h("div", { class: "button-row gate-controls" });
  for (const a of mine) {
    const m = PLACE.exec(a);
    const text = m ? `${m[1] === "place" ? "Gate" : "Gate from reserve"}: ${ctx.tileName(m[2])} at ${m[3]} (${SIDES[m[4]]})` : "Take the city-gate card";
    row.append(h("button", { class: "secondary gate-button", dataset: { action: a }, title: describeAction(ctx, a), onclick: () => ctx.act(a, describeAction(ctx, a)) }, h("span", { text })));
  }
  return { node: h("div", {}, h("p", { class: "muted", text: "City gates:" }), row), handled: mine };
}

function describeEvent(ctx, e) {
  if (e.type === "CityGateCardShown") return e.discarded ? "A city-gate card comes up and goes onto the discard pile" : "A city-gate card is laid open beside the gates";
  if (e.type === "CityGateTaken") return `${ctx.seatName(e.seat)} takes the city-gate card`;
  if (e.type === "CityGateOpened") return `${ctx.seatName(e.seat)} builds ${ctx.tileName(e.tile)} through a city gate`;
  return null;
}

function seatBadges(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.held) || !st.held[seat] || !st.held[seat].length) return null;
  const n = st.held[seat].length;
  return { text: `${n} gate${n > 1 ? "s" : ""}`, title: `${ctx.seatName(seat)} holds ${n} city-gate card${n > 1 ? "s" : ""}`, className: "gate-badge" };
}

function panel(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const h = ctx.h;
  return h("div", { class: "gate-panel" },
    st.open ? cardArt(ctx, st.open, 34) : h("span", { class: "muted", text: "No city-gate card lies open." }),
    h("p", { class: "muted", text: `${st.gates_left} wooden gates left; ${st.gates.length} built.` }));
}

window.Alhambra.registerModule(ID, { panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent, cardArt, cardName });
