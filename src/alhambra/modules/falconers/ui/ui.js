// Front-end plug-in of the Falconers (module falconers).
// A falcon is drawn in the house style: a falcon in flight (black, brown or white) on a small
// round token whose rim is split into two half rings in the colours of the two buildings on the
// falcon's back. The panel shows the supply by type, each player's falcons per type with the
// points they score in a round now, and the points table. On the board every falcon stands on
// its intersection (the south-east corner of its place); while the viewer may buy falcons the
// free intersections where a falcon fits are pick targets. Controls: "Buy falcons (your whole
// turn)": a falcon, an intersection (either first), then the money card that pays; during the
// falcon turn the same, and "Done".
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "falconers";
const TYPES = ["black", "brown", "white"];
const POINTS = [0, 2, 6, 12, 20, 30];
const COLOUR_WORDS = { pavilion: "blue", seraglio: "red", arcades: "brown", chambers: "white", garden: "green", tower: "purple" };
const BIRD = { black: "#2b2420", brown: "#8a5a2b", white: "#faf6ec" };
const BIRD_LINE = { black: "#f3e6c6", brown: "#3a2614", white: "#3a2614" };
const SKY = "#cfe3ee";
const GOLD = "#e0a800";

// ------------------------------------------------------------------ facts and words
/** A falconers action as {type, ...}; null for anything else. */
function parse(ctx, notation) {
  if (notation === "falcon done") return { type: "done", action: notation };
  const m = ctx.argsOf ? ctx.argsOf(notation || "", "falcon") : null;
  if (!m) return null;
  return { type: "buy", falcon: m[0], x: m[1].x, y: m[1].y, card: m[2], action: notation };
}

const types = (ctx) => (ctx.state && Array.isArray(ctx.state.types) ? ctx.state.types : TYPES);
const points = (ctx) => (ctx.state && Array.isArray(ctx.state.points) ? ctx.state.points : POINTS);

/** Every falcon the view knows (supply and placed), by code: {falcon, type, kinds}. */
function falconFacts(ctx) {
  const out = new Map();
  const st = ctx.state;
  if (!st) return out;
  for (const f of st.supply || []) out.set(f.falcon, f);
  for (const row of st.placed || []) for (const f of row) out.set(f.falcon, f);
  return out;
}

/** "the white falcon (garden, tower)". */
function falconText(ctx, code) {
  const f = falconFacts(ctx).get(code);
  if (!f) return "a falcon";
  return `the ${f.type} falcon (${f.kinds.join(", ")})`;
}

/** "green (garden) and purple (tower)": the two colours of a falcon's back, in words. */
function coloursText(f) {
  return f.kinds.map((k) => `${COLOUR_WORDS[k] || k} (${k})`).join(" and ");
}

/** A tile's short name: "Garden 8", "the fountain". */
function shortTile(ctx, code) {
  if (code === "F") return "the fountain";
  const t = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles[code] : null;
  if (t && ctx.art.KIND_NAMES[t.kind] && !t.module) return `${ctx.art.KIND_NAMES[t.kind]} ${t.price}`;
  return ctx.tileName(code);
}

/** The tile of `seat`'s Alhambra at x,y (its code), or null. */
function tileAt(ctx, seat, x, y) {
  const s = ctx.view && ctx.view.seats ? ctx.view.seats[seat] : null;
  const cell = s && Array.isArray(s.alhambra) ? s.alhambra.find((c) => c.x === x && c.y === y) : null;
  return cell ? cell.tile : null;
}

/** A place in words, from the fountain: "2 north and 1 east of the fountain". */
function placeText(x, y) {
  if (x === 0 && y === 0) return "the fountain";
  const parts = [];
  if (y) parts.push(`${Math.abs(y)} ${y < 0 ? "north" : "south"}`);
  if (x) parts.push(`${Math.abs(x)} ${x > 0 ? "east" : "west"}`);
  return `${parts.join(" and ")} of the fountain`;
}

/** The intersection south-east of place x,y in words: the four tiles that meet there (when
 * `tiles` are given or all four stand in `seat`'s Alhambra), else the place. */
function cornerText(ctx, seat, x, y, tiles = null) {
  let codes = tiles;
  if (!codes && seat !== null && seat !== undefined) {
    codes = [[0, 0], [1, 0], [0, 1], [1, 1]].map(([dx, dy]) => tileAt(ctx, seat, x + dx, y + dy));
  }
  if (codes && codes.length === 4 && codes.every(Boolean)) {
    const names = codes.map((c) => shortTile(ctx, c));
    return `where ${names.slice(0, 3).join(", ")} and ${names[3]} meet`;
  }
  return `at the south-east corner of the place ${placeText(x, y)}`;
}

/** A money card's value (for "the cheapest first"). */
function cardValue(ctx, code) {
  const c = ctx.catalogue && ctx.catalogue.cards ? ctx.catalogue.cards[code] : null;
  if (c && Number.isFinite(c.value)) return c.value;
  const m = /(\d+)$/.exec(code || "");
  return m ? Number(m[1]) : 0;
}

/** The points for `n` falcons of one type. */
function typePoints(ctx, n) {
  const p = points(ctx);
  return p[Math.min(n, p.length - 1)] || 0;
}

const who = (ctx, seat) => (seat === ctx.me ? `${ctx.seatName(seat)} (you)` : ctx.seatName(seat));

// ------------------------------------------------------------------ art
/** A falcon in flight seen from below (long pointed wings bent at the wrist, a small head, a
 * narrow tail), in a 40 x 40 box, about 34 wide, centred near 20,20.5. */
const FALCON_PATH =
  "M20 9.5 C21.8 9.5 22.6 11 22.3 12.8 L23.2 15 C26 13.2 29.5 12.6 31 13 C33.5 13.8 35.5 17 37 20.5 " +
  "C33 19 29 19 25.5 20.5 C24.2 21.2 23.6 22.5 23.2 24.5 L24.6 31 C21.5 32 18.5 32 15.4 31 L16.8 24.5 " +
  "C16.4 22.5 15.8 21.2 14.5 20.5 C11 19 7 19 3 20.5 C4.5 17 6.5 13.8 9 13 C10.5 12.6 14 13.2 16.8 15 " +
  "L17.7 12.8 C17.4 11 18.2 9.5 20 9.5 Z";

/** The falcon token as a group: a round token `r` units wide in radius centred at cx,cy (the
 * falcon inside, the rim split into two half rings of the two building colours). */
function tokenGroup(ctx, f, cx, cy, r, extraClass = "") {
  const { INK, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const type = f ? f.type : "white";
  const g = svg("g", { class: `fal-token fal-${type} ${extraClass}`.trim(), "data-falcon": f ? f.falcon : "" });
  const ring = r * 0.2;
  const mid = r - ring / 2;
  g.appendChild(svg("circle", { cx, cy: cy + r * 0.08, r, fill: "rgba(58,38,20,0.3)" }));
  g.appendChild(svg("circle", { cx, cy, r: r - ring, fill: SKY }));
  if (f && Array.isArray(f.kinds) && f.kinds.length === 2) {
    // the left half ring: the first colour; the right: the second
    const [a, b] = f.kinds;
    g.appendChild(svg("path", { d: `M${cx} ${cy - mid} A${mid} ${mid} 0 0 0 ${cx} ${cy + mid}`, fill: "none", stroke: KIND_COLORS[a] || "#999", "stroke-width": ring, class: "fal-half", "data-kind": a }));
    g.appendChild(svg("path", { d: `M${cx} ${cy - mid} A${mid} ${mid} 0 0 1 ${cx} ${cy + mid}`, fill: "none", stroke: KIND_COLORS[b] || "#999", "stroke-width": ring, class: "fal-half", "data-kind": b }));
  }
  g.appendChild(svg("circle", { cx, cy, r, fill: "none", stroke: INK, "stroke-width": Math.max(0.6, r * 0.06) }));
  g.appendChild(svg("circle", { cx, cy, r: r - ring, fill: "none", stroke: INK, "stroke-width": Math.max(0.4, r * 0.04) }));
  const s = ((r - ring) * 0.93) / 17.5;
  g.appendChild(svg("path", {
    d: FALCON_PATH, fill: BIRD[type] || BIRD.white, stroke: INK, "stroke-width": 1.4, "stroke-linejoin": "round",
    transform: `translate(${cx - 20 * s} ${cy - 20.5 * s}) scale(${s})`, class: "fal-bird",
  }));
  // the dark wing tips and the eyes
  const tip = type === "black" ? BIRD_LINE.black : INK;
  for (const [x0, x1] of [[3, 9.5], [37, 30.5]]) {
    g.appendChild(svg("path", { d: `M${x0} 20.5 Q${(x0 + x1) / 2} 16 ${x1} 13.4`, fill: "none", stroke: tip, "stroke-width": 1.1, "stroke-linecap": "round", opacity: 0.8,
      transform: `translate(${cx - 20 * s} ${cy - 20.5 * s}) scale(${s})` }));
  }
  for (const ex of [18.9, 21.1]) g.appendChild(svg("circle", { cx: cx + (ex - 20) * s, cy: cy + (11.6 - 20.5) * s, r: 0.75 * s, fill: tip }));
  return g;
}

/** A standalone falcon token `size` px wide (an <svg>), titled with its type and colours. */
function falconSVG(ctx, f, size = 28, label = null) {
  const text = label || (f ? `${f.type} falcon: ${coloursText(f)}` : "falcon");
  const s = ctx.svg("svg", { viewBox: "0 0 40 40", width: size, height: size, class: "fal-art", role: "img", "aria-label": text });
  const t = ctx.svg("title");
  t.textContent = text;
  s.appendChild(t);
  s.appendChild(tokenGroup(ctx, f, 20, 19.4, 18.6));
  return s;
}

/** A falcon on the board: the token on the intersection south-east of its cell. */
function placedGroup(ctx, f) {
  const g = ctx.svg("g", { class: "fal-placed", transform: "translate(100 100)" });
  g.appendChild(tokenGroup(ctx, f, 0, 0, 21));
  return g;
}

/** A free intersection to pick: a pulsing gold ring on the corner (with the chosen falcon faded in). */
function pickGroup(ctx, f, chosen) {
  const svg = ctx.svg;
  const g = svg("g", { class: `fal-pick-mark ${chosen ? "chosen" : ""}`, transform: "translate(100 100)" });
  g.appendChild(svg("circle", { cx: 0, cy: 0, r: 28, fill: "rgba(255,236,170,0.6)", stroke: GOLD, "stroke-width": 6, "stroke-dasharray": "8 5", class: "fal-pick-ring" }));
  if (f) {
    const ghost = tokenGroup(ctx, f, 0, 0, 19);
    ghost.setAttribute("opacity", chosen ? "1" : "0.7");
    g.appendChild(ghost);
  } else {
    g.appendChild(svg("circle", { cx: 0, cy: 0, r: 5, fill: GOLD, stroke: ctx.art.INK, "stroke-width": 1.5 }));
  }
  return g;
}

// ------------------------------------------------------------------ the purchase being chosen
/** The legal purchases (of `actions`, else the legal actions), parsed. */
function buys(ctx, actions) {
  return (actions || ctx.legal || []).map((a) => parse(ctx, a)).filter((a) => a && a.type === "buy");
}

/** The plug-in's selection: {falcon?, x?, y?} (a falcon and / or an intersection chosen). */
function chosen(ctx) {
  const s = ctx.selection;
  return s && typeof s === "object" && s.fal ? s : { fal: true, falcon: null, x: null, y: null };
}

const corner = (a) => `${a.x},${a.y}`;

/** The purchases that fit the selection. */
function fitting(ctx, list) {
  const sel = chosen(ctx);
  return list.filter((a) => (!sel.falcon || a.falcon === sel.falcon) && (sel.x === null || (a.x === sel.x && a.y === sel.y)));
}

function choose(ctx, change) {
  const sel = { ...chosen(ctx), ...change };
  const list = buys(ctx);
  // a choice that leaves no purchase drops the other half of the selection
  if (!fitting({ ...ctx, selection: sel }, list).length) {
    if ("falcon" in change) sel.x = sel.y = null;
    else sel.falcon = null;
  }
  ctx.select(sel.falcon || sel.x !== null ? sel : null);
}

/** Play a purchase (the cheapest card first is the caller's order). */
function buy(ctx, a) {
  ctx.select(null);
  ctx.act(a.action, describeAction(ctx, a.action));
}

// ------------------------------------------------------------------ panel
function panel(ctx) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.supply) || !Array.isArray(st.placed)) return null;
  const h = ctx.h;
  const tps = types(ctx);
  const pts = points(ctx);
  const sel = chosen(ctx);
  const canBuy = ctx.myTurn ? new Set(buys(ctx).map((a) => a.falcon)) : new Set();
  const supply = tps.map((type) => {
    const fs = st.supply.filter((f) => f.type === type);
    return h("div", { class: "fal-supply-row", dataset: { type } },
      h("span", { class: "fal-type-name", text: `${type[0].toUpperCase()}${type.slice(1)}` }),
      h("span", { class: "fal-tokens" }, ...fs.map((f) => {
        const title = `${type} falcon: ${coloursText(f)}`;
        if (!canBuy.has(f.falcon)) return h("span", { class: "fal-supply", dataset: { falcon: f.falcon }, title }, falconSVG(ctx, f, 30, title));
        const on = sel.falcon === f.falcon;
        return h("button", {
          class: `fal-supply fal-choose ${on ? "selected" : ""}`, dataset: { falcon: f.falcon }, title: `${title} (can be placed now)`,
          "aria-pressed": on ? "true" : "false", "aria-label": `Choose the ${type} falcon (${f.kinds.join(", ")})`,
          onclick: () => choose(ctx, { falcon: on ? null : f.falcon }),
        }, falconSVG(ctx, f, 30, title));
      }), fs.length ? null : h("span", { class: "muted fal-none", text: "none left" })));
  });
  const owners = st.placed.map((row, seat) => {
    const cells = tps.map((type) => {
      const mine = row.filter((f) => f.type === type);
      const title = `${mine.length} ${type} falcon${mine.length === 1 ? "" : "s"}${mine.length ? ` (${mine.map((f) => f.kinds.join(", ")).join("; ")})` : ""}: ${typePoints(ctx, mine.length)} points`;
      return h("span", { class: `fal-own ${mine.length ? "" : "none"}`, dataset: { type, count: mine.length }, title },
        ...mine.map((f) => falconSVG(ctx, f, 18, title)), mine.length ? null : falconSVG(ctx, { falcon: "", type, kinds: [] }, 18, title));
    });
    const now = Array.isArray(st.points_now) ? st.points_now[seat] : 0;
    return h("li", { class: "fal-seat", dataset: { seat } },
      h("span", { class: "swatch", style: `background:${ctx.seatColor(seat)}` }),
      h("span", { class: "fal-seat-name", text: who(ctx, seat) }),
      h("span", { class: "fal-owns" }, ...cells),
      h("span", { class: "fal-now", title: "what these falcons score in every scoring round", text: `${now} pt${now === 1 ? "" : "s"}` }));
  });
  const table = h("table", { class: "fal-points", "aria-label": "Points per falcon type in every scoring round" },
    h("tr", {}, h("th", { text: "Falcons of a type" }), ...pts.slice(1).map((_, i) => h("td", { text: String(i + 1) }))),
    h("tr", {}, h("th", { text: "Points" }), ...pts.slice(1).map((p) => h("td", { text: String(p) }))));
  return h("div", { class: "fal-panel" },
    h("p", { class: "muted fal-help", text: "As your whole turn: buy falcons for one money card each and place them where four tiles meet, next to buildings of both colours on the falcon's rim." }),
    h("div", { class: "fal-supply-list", role: "group", "aria-label": "The falcons in the supply" }, ...supply),
    h("ul", { class: "fal-seats", "aria-label": "Falcons in the players' Alhambras" }, ...owners),
    table);
}

// ------------------------------------------------------------------ badges and board
function seatBadges(ctx, seat) {
  const st = ctx.state;
  const row = st && Array.isArray(st.placed) ? st.placed[seat] : null;
  if (!row || !row.length) return null;
  const now = Array.isArray(st.points_now) ? st.points_now[seat] : 0;
  return {
    text: `${row.length} falcon${row.length === 1 ? "" : "s"}`,
    title: `${row.length} falcon${row.length === 1 ? "" : "s"} in the Alhambra: ${now} points in every scoring round`,
    className: "fal-badge",
    icon: falconSVG(ctx, row[0], 16),
  };
}

function boardOverlay(ctx, seat) {
  const st = ctx.state;
  if (!st || !Array.isArray(st.placed) || !Array.isArray(st.placed[seat])) return null;
  const items = [];
  for (const f of st.placed[seat]) {
    items.push({
      x: f.x, y: f.y, node: placedGroup(ctx, f), className: "fal-placed-item",
      title: `${ctx.seatName(seat)}'s ${f.type} falcon (${f.kinds.join(", ")}), ${cornerText(ctx, seat, f.x, f.y, f.tiles)}`,
    });
  }
  if (seat === ctx.me && ctx.myTurn) {
    const list = buys(ctx);
    const sel = chosen(ctx);
    const shown = sel.falcon ? list.filter((a) => a.falcon === sel.falcon) : list;
    const seen = new Set();
    const facts = falconFacts(ctx);
    for (const a of shown) {
      if (seen.has(corner(a))) continue;
      seen.add(corner(a));
      const on = sel.x === a.x && sel.y === a.y;
      const where = cornerText(ctx, seat, a.x, a.y);
      const label = sel.falcon ? `Place ${falconText(ctx, sel.falcon)} ${where}` : `Choose the intersection ${where} for a falcon`;
      items.push({
        x: a.x, y: a.y, node: pickGroup(ctx, sel.falcon ? facts.get(sel.falcon) : null, on), className: `fal-pick ${on ? "selected" : ""}`, label,
        pick: () => choose(ctx, on ? { x: null, y: null } : { x: a.x, y: a.y }),
      });
    }
  }
  return items;
}

// ------------------------------------------------------------------ controls
function actionControls(ctx, actions) {
  const h = ctx.h;
  const list = buys(ctx, actions);
  const done = actions.find((a) => a === "falcon done");
  if (!list.length && !done) return null;
  const handled = [...list.map((a) => a.action), ...(done ? [done] : [])];
  const facts = falconFacts(ctx);
  const sel = chosen(ctx);
  const parts = [];
  const more = Boolean(done);
  if (list.length) {
    const fit = fitting(ctx, list);
    const falcons = [...new Set(list.filter((a) => sel.x === null || (a.x === sel.x && a.y === sel.y)).map((a) => a.falcon))];
    parts.push(h("p", { class: "fal-title" }, falconSVG(ctx, facts.get(falcons[0]) || null, 22),
      h("strong", { text: more ? " Buy another falcon" : " Buy falcons (your whole turn)" }),
      h("span", { class: "muted", text: more ? " — one money card each." : " — one money card each; then no other action this turn." })));
    // 1. the falcon
    parts.push(h("div", { class: "fal-step" }, h("span", { class: "fal-step-label", text: "1. Falcon:" }),
      h("span", { class: "button-row fal-falcons" }, ...falcons.map((code) => {
        const f = facts.get(code);
        const on = sel.falcon === code;
        return h("button", {
          class: `secondary fal-falcon ${on ? "selected" : ""}`, dataset: { falcon: code }, "aria-pressed": on ? "true" : "false",
          title: f ? `${f.type} falcon: ${coloursText(f)}` : "falcon",
          onclick: () => choose(ctx, { falcon: on ? null : code }),
        }, falconSVG(ctx, f, 24), h("span", { text: f ? `${f.type} (${f.kinds.join(", ")})` : "falcon" }));
      }))));
    // 2. the intersection
    const spots = new Map();
    for (const a of list.filter((b) => !sel.falcon || b.falcon === sel.falcon)) spots.set(corner(a), a);
    parts.push(h("div", { class: "fal-step" }, h("span", { class: "fal-step-label", text: "2. Intersection:" }),
      sel.x !== null
        ? h("span", { class: "fal-where" }, h("span", { text: cornerText(ctx, ctx.me, sel.x, sel.y) }), " ",
          h("button", { class: "secondary fal-unpick", text: "Change", onclick: () => choose(ctx, { x: null, y: null }) }))
        : h("span", { class: "muted fal-where", text: spots.size === 1 ? "click the gold ring on your Alhambra" : `click one of the ${spots.size} gold rings on your Alhambra` })));
    // 3. the card
    if (sel.falcon && sel.x !== null && fit.length) {
      const cards = [...fit].sort((a, b) => cardValue(ctx, a.card) - cardValue(ctx, b.card) || a.card.localeCompare(b.card));
      parts.push(h("div", { class: "fal-step" }, h("span", { class: "fal-step-label", text: "3. Pay with:" }),
        h("span", { class: "button-row fal-cards" }, ...cards.map((a, i) => h("button", {
          class: `${i === 0 ? "primary" : "secondary"} fal-card`, dataset: { card: a.card, action: a.action },
          "aria-label": describeAction(ctx, a.action), title: describeAction(ctx, a.action),
          onclick: () => buy(ctx, a),
        }, ctx.cardArt(a.card, 22), h("span", { text: ctx.cardName(a.card) }))))));
    } else {
      parts.push(h("div", { class: "fal-step muted" }, h("span", { class: "fal-step-label", text: "3. Pay with:" }), h("span", { text: "one money card, once the falcon and the intersection are chosen" })));
    }
  }
  if (done) {
    parts.push(h("div", { class: "button-row fal-done-row" },
      h("button", { class: "primary fal-done", dataset: { action: done }, onclick: () => { ctx.select(null); ctx.act(done, describeAction(ctx, done)); } },
        "Done"), h("span", { class: "muted fal-done-note", text: "buy no more falcons; your turn ends" })));
  }
  return { node: h("div", { class: "fal-controls" }, ...parts), handled };
}

// ------------------------------------------------------------------ texts
function describeAction(ctx, notation) {
  const a = parse(ctx, notation);
  if (!a) return null;
  if (a.type === "done") return "Buy no more falcons";
  const f = falconFacts(ctx).get(a.falcon);
  const what = f ? `the ${f.type} falcon (${f.kinds.join(", ")})` : "a falcon";
  return `Buy ${what} for ${ctx.cardName(a.card)} and place it ${cornerText(ctx, ctx.me, a.x, a.y)}`;
}

function describeEvent(ctx, e) {
  switch (e.type) {
    case "FalconBought": {
      const row = ctx.state && Array.isArray(ctx.state.placed) ? ctx.state.placed[e.seat] || [] : [];
      const still = row.find((f) => f.falcon === e.falcon && f.x === e.x && f.y === e.y);
      return `${ctx.seatName(e.seat)} buys ${falconText(ctx, e.falcon)} for ${ctx.cardName((e.payment || [])[0])} and places it ${cornerText(ctx, null, e.x, e.y, still ? still.tiles : null)}`;
    }
    case "FalconReturned":
      return `A tile under ${ctx.seatName(e.seat)}'s ${falconText(ctx, e.falcon).replace(/^the /, "")} was moved: the falcon goes back to the supply`;
    case "FalconsFinished":
      return `${ctx.seatName(e.seat)} buys no more falcons`;
    default:
      return null;
  }
}

function scoring(ctx, roundEvent) {
  const pts = roundEvent && roundEvent.extra ? roundEvent.extra[ID] : null;
  if (!Array.isArray(pts)) return null;
  const table = points(ctx).slice(1).join(" / ");
  return [{ label: "Falconers", values: pts.map((v) => (v > 0 ? `+${v}` : String(v))), title: `Falcons: ${table} points for 1 to 5 falcons of one type, each type apart` }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.placed) ? seats((i) => `${n(st.placed[i].length, "falcon", "falcons")}, ${(st.points_now || [])[i] || 0} pts`) : null;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent, scoring });
