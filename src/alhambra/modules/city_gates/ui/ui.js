// Front-end plug-in of the City gates (module city_gates).
// A wooden gate is drawn on the edge of the Alhambra where it opened a double wall (an arch in
// wood over the gap, on the new tile's side); the gate card is a card with an arch. The panel shows
// the open card, the cards each player holds and the gates left. Controls: "Take the city-gate
// card" is a button; a tile that only a gate can join is built by clicking the double wall on the
// Alhambra: a faded arch marks every wall a gate can open (for a tile that turns, a magical
// building, the turn is chosen in the same move). Several tiles: pick the tile first.
// The actions are read from the server's structured legal actions (`ctx.move`), never parsed.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "city_gates";
const SIDES = { n: "north", e: "east", s: "south", w: "west" };
const TURN = { n: 0, e: 90, s: 180, w: 270 };
const HOW = { "gate place": "place", "gate build": "build", "gate turn": "turn" };

/** A city gates action as {type, tile, x, y, side, walls, action} (type take, place, build or
 * turn; walls: the turned tile's wall letters, or null), from the server's structured action. */
function parse(ctx, notation) {
  const m = ctx.move ? ctx.move(notation) : null;
  if (!m) return null;
  if (m.keyword === "gate take") return { type: "take", action: notation };
  const type = HOW[m.keyword];
  if (!type) return null;
  const arg = (t) => (m.args.find((a) => a.type === t) || {}).value;
  const words = m.args.filter((a) => a.type.startsWith("word:")).map((a) => a.value);
  const cell = arg("cell");
  return { type, tile: arg("tile"), x: cell.x, y: cell.y, side: words[0], walls: words[1] || null, action: notation };
}

function wallWords(walls) {
  return [...walls].map((c) => SIDES[c]).join(" and ");
}

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

// ------------------------------------------------------------------------------ choosing
/** The gate builds legal now ({type place/build/turn ...}). */
function gateMoves(ctx, actions) {
  return (actions || ctx.legal || []).map((a) => parse(ctx, a)).filter((a) => a && a.type !== "take");
}

/** The tile the player builds through a gate: the one picked, or the only one. */
function chosenTile(ctx, moves) {
  const tiles = [...new Set(moves.map((a) => a.tile))];
  const sel = ctx.selection;
  if (sel && tiles.includes(sel.tile)) return sel.tile;
  return tiles.length === 1 ? tiles[0] : null;
}

/** A faded arch on side `side` of a place: the double wall a gate may open (click it). */
function pickNode(ctx, side, chosen) {
  const svg = ctx.svg("svg", { viewBox: "0 0 100 100", class: `gate-pick-mark ${chosen ? "chosen" : ""}`, "data-side": side });
  const g = ctx.svg("g", { transform: `rotate(${TURN[side]} 50 50)` });
  g.appendChild(ctx.svg("rect", { x: 8, y: 0, width: 84, height: 30, rx: 6, fill: "rgba(255,214,0,0.35)", stroke: "#e0a800", "stroke-width": 4, "stroke-dasharray": "9 6" }));
  const a = arch(ctx, { transform: "translate(0 6)" });
  a.setAttribute("opacity", chosen ? "1" : "0.6");
  g.appendChild(a);
  svg.appendChild(g);
  return svg;
}

/** Wooden gates on a seat's Alhambra; on my turn, a faded arch on every double wall a gate can
 * open for the chosen tile (click it to build the tile there through the gate). */
function boardOverlay(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.gates)) return null;
  const items = st.gates.filter((g) => g.seat === seat).map((g) => ({
    x: g.x, y: g.y, className: "gate-item",
    node: (() => {
      const svg = ctx.svg("svg", { viewBox: "0 0 100 100", class: "gate-overlay", "data-side": g.side });
      svg.appendChild(arch(ctx, { transform: `rotate(${TURN[g.side]} 50 50)` }));
      return svg;
    })(),
    title: `A city gate on the ${SIDES[g.side]} side: these two tiles are never redesigned`,
  }));
  if (seat !== ctx.me || !ctx.myTurn) return items;
  const moves = gateMoves(ctx);
  const tile = chosenTile(ctx, moves);
  if (!tile) return items;
  const sel = ctx.selection || {};
  const byWall = new Map();
  for (const a of moves.filter((m) => m.tile === tile)) {
    const key = `${a.x},${a.y},${a.side}`;
    if (!byWall.has(key)) byWall.set(key, []);
    byWall.get(key).push(a);
  }
  for (const list of byWall.values()) {
    const a = list[0];
    const chosen = sel.tile === tile && sel.x === a.x && sel.y === a.y && sel.side === a.side;
    items.push({
      x: a.x, y: a.y, node: pickNode(ctx, a.side, chosen), className: "gate-pick",
      label: list.length === 1 ? describeAction(ctx, a.action) : `A city gate on the ${SIDES[a.side]} side of ${ctx.placeText ? ctx.placeText(a.x, a.y) : `${a.x},${a.y}`}: then choose how ${ctx.tileName(tile)} is turned`,
      pick: () => {
        if (list.length === 1) {
          ctx.select(null);
          ctx.act(a.action, describeAction(ctx, a.action));
        } else {
          ctx.select({ tile, x: a.x, y: a.y, side: a.side });
        }
      },
    });
  }
  return items;
}

function describeAction(ctx, notation) {
  const a = parse(ctx, notation);
  if (!a) return null;
  if (a.type === "take") return "Take the city-gate card (instead of money; this ends your actions)";
  const where = ctx.placeText ? ctx.placeText(a.x, a.y) : `at ${a.x},${a.y}`;
  const from = a.type === "build" ? " from the reserve" : "";
  const turned = a.walls ? `, turned to show walls ${wallWords(a.walls)},` : "";
  return `Build ${ctx.tileName(a.tile)}${from}${turned} ${where} through a city gate on its ${SIDES[a.side]} side (uses a city-gate card)`;
}

function actionControls(ctx, actions) {
  const take = actions.map((a) => parse(ctx, a)).find((a) => a && a.type === "take");
  const moves = gateMoves(ctx, actions);
  if (!take && !moves.length) return null;
  const h = ctx.h;
  const parts = [];
  if (take) {
    parts.push(h("div", { class: "button-row gate-controls" }, h("button", {
      class: "secondary gate-button gate-take", dataset: { action: take.action }, title: describeAction(ctx, take.action),
      onclick: () => ctx.act(take.action, describeAction(ctx, take.action)),
    }, cardArt(ctx, (ctx.state && ctx.state.open) || "gt1", 22), h("span", { text: " Take the city-gate card" }))));
  }
  if (moves.length) {
    const tiles = [...new Set(moves.map((a) => a.tile))];
    const tile = chosenTile(ctx, moves);
    parts.push(h("p", { class: "gate-title" }, cardArt(ctx, "gt1", 18),
      h("strong", { text: " Build through a city gate" }),
      h("span", { class: "muted", text: " — a tile no path reaches, joined by a double wall that a gate opens (uses a city-gate card)." })));
    if (tiles.length > 1) {
      parts.push(h("div", { class: "button-row gate-tiles" }, ...tiles.map((t) => h("button", {
        class: `secondary gate-tile ${t === tile ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": t === tile ? "true" : "false",
        onclick: () => ctx.select(t === tile ? null : { tile: t }),
      }, ctx.tileArt(t, 26), h("span", { text: ctx.tileName(t) })))));
    }
    const sel = ctx.selection || {};
    const turns = tile && sel.tile === tile && sel.side ? moves.filter((a) => a.tile === tile && a.x === sel.x && a.y === sel.y && a.side === sel.side) : [];
    if (turns.length > 1) {
      parts.push(h("p", { class: "muted gate-where", text: `How is ${ctx.tileName(tile)} turned?` }));
      parts.push(h("div", { class: "button-row gate-turns" }, ...turns.map((a) => h("button", {
        class: "secondary gate-turn", dataset: { walls: a.walls }, title: describeAction(ctx, a.action),
        onclick: () => { ctx.select(null); ctx.act(a.action, describeAction(ctx, a.action)); },
      }, h("span", { text: `Walls ${wallWords(a.walls)}` })))));
    } else {
      const n = tile ? new Set(moves.filter((a) => a.tile === tile).map((a) => `${a.x},${a.y},${a.side}`)).size : 0;
      parts.push(h("p", { class: "muted gate-where", text: tile ? `Click ${n === 1 ? "the faded gate" : `one of the ${n} faded gates`} on a double wall of your Alhambra.` : "Choose the tile, then click a faded gate on your Alhambra." }));
    }
  }
  const handled = [...(take ? [take.action] : []), ...moves.map((a) => a.action)];
  return { node: h("div", { class: "gate-controls-panel" }, ...parts), handled };
}

function describeEvent(ctx, e) {
  if (e.type === "CityGateCardShown") return e.discarded ? "A city-gate card comes up and goes onto the discard pile" : "A city-gate card is laid open beside the gates";
  if (e.type === "CityGateTaken") return `${ctx.seatName(e.seat)} takes the city-gate card`;
  if (e.type === "CityGateOpened") return `${ctx.seatName(e.seat)} builds ${ctx.tileName(e.tile)}${e.walls ? ` turned to show walls ${wallWords(e.walls)}` : ""} through a city gate`;
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

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  const held = Array.isArray(st.held) ? seats((i) => n((st.held[i] || []).length, "card", "cards")) : "";
  return `${st.open ? "a gate card lies open" : "no card open"} · ${st.gates_left} gates left · ${held}`;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent, cardArt, cardName });
