// Front-end plug-in of the street traders (module street_traders).
// Wooden citizens in the six building colours: each player's trader tile (a market stall with up
// to three citizens) stands on its empty place next to the Alhambra, drawn there on the board;
// citizens who moved into a building stand on that tile. A panel shows the general supply and
// every trader; the secret setup choice shows as face-down figures to the other players until
// everybody has chosen. Controls: pick three colours (setup), click a highlighted place for the
// trader tile, move a citizen in / exchange one / skip, take a new citizen from the supply.
// See docs/writing-a-module.md, "Front-end plug-in".

const ID = "street_traders";
const KINDS = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];
const COLOUR_WORDS = { pavilion: "blue", seraglio: "red", arcades: "brown", chambers: "white", garden: "green", tower: "purple" };
const SET_POINTS = [0, 1, 3, 6, 10, 15, 21];
const HIDDEN_FILL = "#a99b82";
const AWNING_LIGHT = "#fbf1da";

// ------------------------------------------------------------------------------ notation and words
/** A street trader action as {type, ...}; null for anything else. */
function parse(ctx, notation) {
  const mv = ctx.move ? ctx.move(notation) : null;
  const m = mv ? mv.args.map((a) => a.value) : [];
  const kw = mv ? mv.keyword : "";
  if (kw === "trader choose") return { type: "choose", kinds: [m[0], m[1], m[2]], action: notation };
  if (kw === "trader place") return { type: "place", x: m[0].x, y: m[0].y, action: notation };
  if (kw === "trader move") return { type: "move", kind: m[0], action: notation };
  if (kw === "trader take") return { type: "take", kind: m[0], action: notation };
  if (kw === "trader exchange") return { type: "exchange", give: m[0], take: m[1], action: notation };
  if (notation === "trader skip") return { type: "skip", action: notation };
  return null;
}

/** The citizen colour of a building kind ("blue" for pavilion). */
function colour(ctx, kind) {
  const c = ctx.state && ctx.state.colours;
  return (c && c[kind]) || COLOUR_WORDS[kind] || kind;
}

const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/** "blue citizen" (with the kind: "blue citizen (Pavilion)"). */
function citizen(ctx, kind, withKind = false) {
  return `${colour(ctx, kind)} citizen${withKind ? ` (${ctx.art.KIND_NAMES[kind] || kind})` : ""}`;
}

/** "blue, red and green". */
function listWords(words) {
  if (words.length <= 1) return words.join("");
  return `${words.slice(0, -1).join(", ")} and ${words[words.length - 1]}`;
}

const byKind = (a, b) => KINDS.indexOf(a) - KINDS.indexOf(b);

/** A tile's short name for sentences: "Tower 9" (the table's full name for other tiles). */
function shortTile(ctx, code) {
  const t = ctx.catalogue && ctx.catalogue.tiles ? ctx.catalogue.tiles[code] : null;
  if (code === "F" || (t && t.kind === "fountain")) return "the fountain";
  if (t && ctx.art.KIND_NAMES[t.kind] && !t.module) return `${ctx.art.KIND_NAMES[t.kind]} ${t.price}`;
  return ctx.tileName(code);
}

/** Where an empty place lies: "east of Fountain" (the first neighbouring tile of the Alhambra). */
function placeWords(ctx, seat, x, y) {
  const seatView = ctx.view && ctx.view.seats ? ctx.view.seats[seat] : null;
  const city = seatView ? seatView.alhambra : [];
  for (const [dx, dy, rel] of [[-1, 0, "east of"], [1, 0, "west of"], [0, -1, "south of"], [0, 1, "north of"]]) {
    const n = city.find((c) => c.x === x + dx && c.y === y + dy);
    if (n) return `${rel} ${shortTile(ctx, n.tile)}`;
  }
  return ctx.placeText ? ctx.placeText(x, y) : `at ${x},${y}`;
}

function trader(ctx, seat) {
  const st = ctx.state;
  return st && Array.isArray(st.traders) ? st.traders.find((t) => t.seat === seat) || null : null;
}

function pending(ctx) {
  const p = ctx.view ? ctx.view.pending : null;
  return p && typeof p.type === "string" && p.type.startsWith("StreetTrader") ? p : null;
}

// ------------------------------------------------------------------------------ art
/** A wooden citizen standing at (cx, base), `height` tall: a ball head on a bell-shaped body, in
 * its building's colour (`kind`), or a plain face-down figure with a question mark (`kind` null). */
function figure(ctx, kind, cx, base, height) {
  const { INK, KIND_COLORS } = ctx.art;
  const svg = ctx.svg;
  const hidden = !kind;
  const fill = hidden ? HIDDEN_FILL : KIND_COLORS[kind];
  const w = height * 0.64;
  const r = height * 0.19;
  const headY = base - height + r;
  const neck = headY + r * 0.95;
  const sw = Math.max(0.8, height / 22);
  const g = svg("g", { class: `st-citizen ${hidden ? "st-hidden" : `st-kind-${kind}`}` });
  g.appendChild(svg("ellipse", { cx, cy: base, rx: w / 2 + sw, ry: height * 0.07, fill: "rgba(58,38,20,0.28)" }));
  g.appendChild(svg("path", {
    d: `M${cx - w / 2} ${base} C${cx - w / 2} ${base - height * 0.32} ${cx - w * 0.2} ${neck + height * 0.14} ${cx - w * 0.15} ${neck} ` +
      `L${cx + w * 0.15} ${neck} C${cx + w * 0.2} ${neck + height * 0.14} ${cx + w / 2} ${base - height * 0.32} ${cx + w / 2} ${base} Z`,
    fill, stroke: INK, "stroke-width": sw, "stroke-linejoin": "round",
  }));
  g.appendChild(svg("circle", { cx, cy: headY, r, fill, stroke: INK, "stroke-width": sw }));
  // the grain of the wood: a soft highlight on the left
  g.appendChild(svg("path", {
    d: `M${cx - w * 0.3} ${base - height * 0.06} C${cx - w * 0.28} ${base - height * 0.3} ${cx - w * 0.14} ${neck + height * 0.18} ${cx - w * 0.1} ${neck + height * 0.08}`,
    fill: "none", stroke: "rgba(255,255,255,0.5)", "stroke-width": sw * 1.1, "stroke-linecap": "round",
  }));
  g.appendChild(svg("circle", { cx: cx - r * 0.35, cy: headY - r * 0.35, r: r * 0.3, fill: "rgba(255,255,255,0.55)" }));
  if (hidden) g.appendChild(ctx.art.svgText(cx, base - height * 0.12, "?", { "font-size": height * 0.36, "font-weight": 800, fill: "#fffaf0" }));
  return g;
}

/** A standalone citizen picture `size` high (null kind: face down). */
function figureSVG(ctx, kind, size = 22, label = null) {
  const s = ctx.svg("svg", { viewBox: "0 0 20 30", width: Math.round((size * 2) / 3), height: size, class: "st-figure", role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true" });
  s.appendChild(figure(ctx, kind, 10, 28, 26));
  return s;
}

/** The trader tile in a 100 x 100 cell: a market stall with an awning in the owner's colour and
 * its citizens in front (`citizens`: kinds, or null entries for face-down figures). */
function traderGroup(ctx, seat, citizens) {
  const { INK, CREAM } = ctx.art;
  const svg = ctx.svg;
  const seatColour = ctx.seatColor(seat);
  const g = svg("g", { class: "st-trader" });
  g.appendChild(svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 9, fill: "#f0dcae", stroke: seatColour, "stroke-width": 4.5 }));
  g.appendChild(svg("rect", { x: 11, y: 11, width: 78, height: 78, rx: 5, fill: "none", stroke: "rgba(107,82,53,0.35)", "stroke-width": 1.2, "stroke-dasharray": "3 3" }));
  // poles and counter
  for (const x of [19, 81]) g.appendChild(svg("rect", { x: x - 1.8, y: 28, width: 3.6, height: 28, fill: "#7a4b24", stroke: INK, "stroke-width": 0.8 }));
  g.appendChild(svg("rect", { x: 13, y: 46, width: 74, height: 9, rx: 2, fill: "#a26b3c", stroke: INK, "stroke-width": 1.4 }));
  // wares on the counter: a jar, a basket, a bundle of cloth
  g.appendChild(svg("path", { d: "M27 46 C23 46 23 38 27 37 H33 C37 38 37 46 33 46 Z", fill: "#d9a441", stroke: INK, "stroke-width": 1 }));
  g.appendChild(svg("path", { d: "M44 46 Q44 39 50 39 Q56 39 56 46 Z", fill: "#c98a2b", stroke: INK, "stroke-width": 1 }));
  g.appendChild(svg("rect", { x: 64, y: 40, width: 12, height: 6, rx: 2, fill: "#8757a8", stroke: INK, "stroke-width": 1 }));
  // the striped awning with a scalloped edge
  const stripes = 6;
  const x0 = 13, x1 = 87, top = 12, bottom = 27;
  const sw = (x1 - x0) / stripes;
  for (let i = 0; i < stripes; i++) {
    const fill = i % 2 ? AWNING_LIGHT : seatColour;
    const xa = x0 + i * sw;
    g.appendChild(svg("path", { d: `M${xa} ${top} H${xa + sw} V${bottom} A${sw / 2} ${sw / 2} 0 0 1 ${xa} ${bottom} Z`, fill, stroke: "none" }));
  }
  let edge = `M${x0} ${top} H${x1} V${bottom}`;
  for (let i = stripes - 1; i >= 0; i--) edge += ` A${sw / 2} ${sw / 2} 0 0 1 ${x0 + i * sw} ${bottom}`;
  g.appendChild(svg("path", { d: `${edge} Z`, fill: "none", stroke: INK, "stroke-width": 1.6, "stroke-linejoin": "round" }));
  g.appendChild(svg("rect", { x: 10, y: 9, width: 80, height: 4.5, rx: 2, fill: CREAM, stroke: INK, "stroke-width": 1.2 }));
  // the citizens in front of the stall
  const list = citizens || [];
  const xs = list.length === 1 ? [50] : list.length === 2 ? [37, 63] : [27, 50, 73];
  list.slice(0, 3).forEach((k, i) => g.appendChild(figure(ctx, k, xs[i], 92, 36)));
  return g;
}

/** The trader tile as a standalone picture `size` wide. */
function traderSVG(ctx, seat, citizens, size, label) {
  const s = ctx.svg("svg", { viewBox: "0 0 100 100", width: size, height: size, class: "st-trader-art", role: "img", "aria-label": label });
  s.appendChild(traderGroup(ctx, seat, citizens));
  return s;
}

/** A citizen standing on a building tile (bottom right, on a small plinth so it shows on a tile of
 * its own colour: a light one, a dark one for the white citizen). */
function homeGroup(ctx, kind) {
  const g = ctx.svg("g", { class: "st-home-figure" });
  const plinth = kind === "chambers" ? "rgba(107,82,53,0.92)" : "rgba(253,246,227,0.92)";
  g.appendChild(ctx.svg("circle", { cx: 77, cy: 75, r: 18, fill: plinth, stroke: ctx.art.INK, "stroke-width": 1.8 }));
  g.appendChild(figure(ctx, kind, 77, 89, 32));
  return g;
}

/** A free place where the trader tile may go: a dashed frame in the player's colour around a
 * faded trader tile. */
function placeGroup(ctx, seat, citizens) {
  const svg = ctx.svg;
  const g = svg("g", { class: "st-place-mark" });
  g.appendChild(svg("rect", { x: 5, y: 5, width: 90, height: 90, rx: 10, fill: "rgba(255,250,240,0.55)", stroke: ctx.seatColor(seat), "stroke-width": 5, "stroke-dasharray": "11 7", class: "st-place-frame" }));
  const ghost = traderGroup(ctx, seat, citizens);
  ghost.setAttribute("opacity", "0.45");
  ghost.setAttribute("transform", "translate(15 15) scale(0.7)");
  g.appendChild(ghost);
  return g;
}

// ------------------------------------------------------------------------------ the board
function boardOverlay(ctx, seat) {
  const t = trader(ctx, seat);
  if (!t || !ctx.view || !ctx.view.seats[seat]) return null;
  const city = ctx.view.seats[seat].alhambra;
  const items = [];
  for (const home of t.homes || []) {
    const cell = city.find((c) => c.tile === home.tile);
    if (!cell) continue;
    items.push({ x: cell.x, y: cell.y, node: homeGroup(ctx, home.kind), className: "st-home", title: `A ${citizen(ctx, home.kind)} lives in ${shortTile(ctx, home.tile)}` });
  }
  const cits = t.citizens || [];
  if (Array.isArray(t.at)) {
    items.push({
      x: t.at[0], y: t.at[1], node: traderGroup(ctx, seat, cits), className: "st-trader-tile",
      title: `Trader tile of ${ctx.seatName(seat)}${cits.length ? ` with the ${listWords(cits.map((k) => colour(ctx, k)))} citizen${cits.length > 1 ? "s" : ""}` : ""}: a building built here lets a citizen of its colour move in`,
    });
  }
  const p = pending(ctx);
  if (p && p.type === "StreetTraderPlacement" && p.seat === seat && seat === ctx.me && ctx.myTurn) {
    for (const a of ctx.legal.map((a) => parse(ctx, a)).filter((x) => x && x.type === "place")) {
      const label = describeAction(ctx, a.action);
      items.push({ x: a.x, y: a.y, node: placeGroup(ctx, seat, cits), className: "st-place", label, pick: () => ctx.act(a.action, label) });
    }
  }
  return items;
}

// ------------------------------------------------------------------------------ state at a glance
function seatStatus(ctx, t) {
  const st = ctx.state;
  const cits = t.citizens;
  if (!st.revealed) {
    if (!t.chosen) return { citizens: [], text: "choosing three citizens…" };
    if (cits === null) return { citizens: [null, null, null], text: "chose three citizens in secret" };
    return { citizens: cits, text: "your secret choice" };
  }
  if (Array.isArray(t.at)) return { citizens: cits, text: `trader ${placeWords(ctx, t.seat, t.at[0], t.at[1])}` };
  if (cits && cits.length) return { citizens: cits, text: "trader set aside (goes back at the end of the turn)" };
  return { citizens: [], text: "trader out of play (no citizen left)" };
}

function panel(ctx) {
  const st = ctx.state;
  if (!st || !st.supply || !Array.isArray(st.traders)) return null;
  const h = ctx.h;
  const setPoints = Array.isArray(st.set_points) ? st.set_points : SET_POINTS;
  const supply = h("div", { class: "st-supply", role: "list", "aria-label": "General supply of citizens" }, ...KINDS.map((k) => {
    const n = st.supply[k] ?? 0;
    return h("span", { class: `st-supply-item ${n ? "" : "empty"}`, role: "listitem", dataset: { kind: k }, title: `${n} ${colour(ctx, k)} citizen${n === 1 ? "" : "s"} (${ctx.art.KIND_NAMES[k]}) in the supply` },
      figureSVG(ctx, k, 24), h("strong", { text: String(n) }));
  }));
  const seats = h("ul", { class: "st-seats" }, ...st.traders.map((t) => {
    const s = seatStatus(ctx, t);
    const homes = (t.homes || []).map((x) => x.kind).sort(byKind);
    const label = s.citizens.length ? `Trader tile of ${ctx.seatName(t.seat)}: ${s.citizens.some((k) => !k) ? "three face-down citizens" : listWords(s.citizens.map((k) => citizen(ctx, k)))}` : `Trader tile of ${ctx.seatName(t.seat)}: no citizen`;
    return h("li", { class: `st-seat ${t.seat === ctx.me ? "me" : ""}`, dataset: { seat: t.seat } },
      traderSVG(ctx, t.seat, s.citizens, 46, label),
      h("div", { class: "st-seat-text" },
        h("div", {}, h("span", { class: "swatch", style: `background:${ctx.seatColor(t.seat)}` }), " ", h("strong", { text: ctx.seatName(t.seat) }), h("span", { class: "muted", text: ` · ${s.text}` })),
        h("div", { class: "st-homes", title: "Citizens in the buildings of this Alhambra" },
          homes.length ? h("span", { class: "st-home-figures" }, ...homes.map((k) => figureSVG(ctx, k, 18, citizen(ctx, k)))) : h("span", { class: "muted", text: "no citizen in a building yet" }),
          h("span", { class: "st-points", text: ` → ${t.points} point${t.points === 1 ? "" : "s"}` }))));
  }));
  return h("div", { class: "st-panel" },
    h("div", { class: "st-label", text: "General supply" }), supply,
    st.revealed ? null : h("p", { class: "muted st-help", text: "The citizens nobody chooses join the supply when the choices are revealed." }),
    seats,
    h("p", { class: "muted st-help", text: `Each scoring round, citizens in buildings score in sets of different colours: ${setPoints.slice(1).join(" / ")} points for 1–6 colours.` }));
}

function seatBadges(ctx, seat) {
  const t = trader(ctx, seat);
  if (!t) return null;
  const n = (t.homes || []).length;
  return {
    text: `${n} citizen${n === 1 ? "" : "s"} · ${t.points} pt${t.points === 1 ? "" : "s"}`,
    title: "Street traders: citizens in this Alhambra's buildings, and what they score in each scoring round",
    className: "st-badge",
    icon: figureSVG(ctx, n ? t.homes[0].kind : "chambers", 16),
  };
}

// ------------------------------------------------------------------------------ decisions
function kindButton(ctx, kind, text, attrs) {
  return ctx.h("button", { class: "secondary st-kind", dataset: { kind }, ...attrs }, figureSVG(ctx, kind, 24), ctx.h("span", { text }));
}

function chooseControls(ctx, chooses) {
  const h = ctx.h;
  const sel = ctx.selection && Array.isArray(ctx.selection.pick) ? ctx.selection.pick : [];
  const toggle = (k) => {
    const next = sel.includes(k) ? sel.filter((x) => x !== k) : [...sel, k];
    ctx.select(next.length ? { pick: next } : null);
  };
  const picked = [...sel].sort(byKind);
  const match = picked.length === 3 ? chooses.find((a) => a.kinds.join(" ") === picked.join(" ")) : null;
  const row = h("div", { class: "st-kinds", role: "group", "aria-label": "Your six citizens" }, ...KINDS.map((k) => {
    const on = sel.includes(k);
    return kindButton(ctx, k, cap(citizen(ctx, k, true)), {
      class: `secondary st-kind st-choose ${on ? "selected" : ""}`,
      "aria-pressed": on ? "true" : "false",
      disabled: !on && sel.length >= 3,
      onclick: () => toggle(k),
    });
  }));
  const bar = h("div", { class: "button-row" });
  if (match) {
    bar.append(h("button", { id: "btn-trader-choose", class: "primary", text: "Put these three on my trader tile", onclick: () => ctx.act(match.action) }));
  }
  return h("div", { class: "st-controls" },
    h("p", {}, h("strong", { text: "Street traders: " }),
      "choose three of your six citizens for your trader tile. The others join the general supply. Nobody sees your choice until everybody has chosen."),
    row,
    h("div", { class: "st-preview" }, traderSVG(ctx, ctx.me, picked, 64, `Your trader tile: ${picked.length ? listWords(picked.map((k) => citizen(ctx, k))) : "empty"}`),
      h("span", { class: "muted", text: picked.length === 3 ? "Ready." : `Pick ${3 - picked.length} more.` })),
    bar);
}

function placeControls(ctx, places) {
  const h = ctx.h;
  const t = trader(ctx, ctx.me);
  const cits = t && t.citizens ? t.citizens : [];
  const start = ctx.view.seats[ctx.me].alhambra.length === 1;
  return h("div", { class: "st-controls" },
    h("div", { class: "st-preview" }, traderSVG(ctx, ctx.me, cits, 64, `Your trader tile: ${listWords(cits.map((k) => citizen(ctx, k)))}`),
      h("p", {}, h("strong", { text: "Street traders: " }),
        start ? "put your trader tile on a side of your fountain. Click one of the highlighted places on your Alhambra."
          : "put your trader tile back on a free place next to your Alhambra. Click one of the highlighted places on your Alhambra.")),
    h("p", { class: "muted", text: `${places.length} place${places.length === 1 ? "" : "s"} to choose from; a building later built there lets a citizen of its colour move in.` }));
}

function arrivalControls(ctx, acts, p) {
  const h = ctx.h;
  const tile = p && p.tile ? shortTile(ctx, p.tile) : "the new building";
  const move = acts.find((a) => a.type === "move");
  const skip = acts.find((a) => a.type === "skip");
  const exchanges = acts.filter((a) => a.type === "exchange");
  const bar = h("div", { class: "button-row" });
  const t = trader(ctx, ctx.me);
  const cits = t && t.citizens ? t.citizens : [];
  const parts = [h("div", { class: "st-preview st-arrival" },
    traderSVG(ctx, ctx.me, cits, 58, `Your trader tile, set aside: ${cits.length ? listWords(cits.map((k) => citizen(ctx, k))) : "no citizen"}`),
    h("span", { class: "st-arrow", "aria-hidden": "true", text: "→" }),
    p && p.tile ? ctx.tileArt(p.tile, 58) : null)];
  if (move) {
    parts.push(h("p", {}, h("strong", { text: "Street traders: " }), `${tile} was built where your trader tile stood. Your ${citizen(ctx, move.kind)} may move in; then you take a new citizen from the supply.`));
    bar.append(h("button", { id: "btn-trader-move", class: "primary st-kind", dataset: { kind: move.kind, action: move.action }, onclick: () => ctx.act(move.action) },
      figureSVG(ctx, move.kind, 24), h("span", { text: `Move the ${citizen(ctx, move.kind)} into ${tile}` })));
    if (skip) bar.append(h("button", { id: "btn-trader-skip", class: "secondary", dataset: { action: skip.action }, text: "Nobody moves in", onclick: () => ctx.act(skip.action) }));
    parts.push(bar);
    return parts;
  }
  parts.push(h("p", {}, h("strong", { text: "Street traders: " }),
    exchanges.length ? `${tile} was built where your trader tile stood, but no citizen on it has its colour. You may exchange one of them for a citizen from the supply: pick one to give back and one to take.`
      : `${tile} was built where your trader tile stood; no citizen can move in.`));
  if (exchanges.length) {
    const sel = ctx.selection || {};
    const gives = [...new Set(exchanges.map((a) => a.give))].sort(byKind);
    const takes = [...new Set(exchanges.map((a) => a.take))].sort(byKind);
    const supply = ctx.state.supply || {};
    const give = gives.includes(sel.give) ? sel.give : null;
    const take = takes.includes(sel.take) ? sel.take : null;
    parts.push(h("div", { class: "st-exchange-row" }, h("span", { class: "st-label", text: "Give back:" }),
      h("div", { class: "st-kinds", role: "group", "aria-label": "The citizen to give back" }, ...gives.map((k) => kindButton(ctx, k, cap(citizen(ctx, k)), {
        class: `secondary st-kind st-give ${give === k ? "selected" : ""}`, "aria-pressed": give === k ? "true" : "false",
        onclick: () => ctx.select({ give: give === k ? null : k, take }),
      })))));
    parts.push(h("div", { class: "st-exchange-row" }, h("span", { class: "st-label", text: "Take:" }),
      h("div", { class: "st-kinds", role: "group", "aria-label": "The citizen to take from the supply" }, ...takes.map((k) => {
        const ok = !give || exchanges.some((a) => a.give === give && a.take === k);
        return kindButton(ctx, k, `${cap(citizen(ctx, k))} (${supply[k] ?? 0} left)`, {
          class: `secondary st-kind st-take-new ${take === k ? "selected" : ""}`, "aria-pressed": take === k ? "true" : "false",
          disabled: !ok,
          onclick: () => ctx.select({ give, take: take === k ? null : k }),
        });
      }))));
    const match = exchanges.find((a) => a.give === give && a.take === take);
    if (match) bar.append(h("button", { id: "btn-trader-exchange", class: "primary", text: `Exchange the ${colour(ctx, give)} citizen for a ${colour(ctx, take)} one`, onclick: () => ctx.act(match.action) }));
  }
  if (skip) bar.append(h("button", { id: "btn-trader-skip", class: "secondary", dataset: { action: skip.action }, text: exchanges.length ? "Exchange none" : "Go on", onclick: () => ctx.act(skip.action) }));
  parts.push(bar);
  return parts;
}

function takeControls(ctx, takes) {
  const h = ctx.h;
  const supply = ctx.state.supply || {};
  return [
    h("p", {}, h("strong", { text: "Street traders: " }), "a citizen moved in. Take a new citizen from the general supply onto your trader tile."),
    h("div", { class: "st-kinds", role: "group", "aria-label": "Citizens in the supply" }, ...takes.map((a) => kindButton(ctx, a.kind, `Take a ${citizen(ctx, a.kind)} (${supply[a.kind] ?? 0} left)`, {
      class: "secondary st-kind st-take", onclick: () => ctx.act(a.action),
    }))),
  ];
}

function actionControls(ctx, actions) {
  const acts = actions.map((a) => parse(ctx, a)).filter(Boolean);
  if (!acts.length || !ctx.state) return null;
  const handled = acts.map((a) => a.action);
  const p = pending(ctx);
  const of = (type) => acts.filter((a) => a.type === type);
  let parts;
  if (of("choose").length) parts = [chooseControls(ctx, of("choose"))];
  else if (of("place").length) parts = [placeControls(ctx, of("place"))];
  else if (of("take").length) parts = takeControls(ctx, of("take"));
  else parts = arrivalControls(ctx, acts, p);
  return { node: ctx.h("div", { class: "st-controls-wrap" }, ...parts), handled };
}

// ------------------------------------------------------------------------------ texts
function describeAction(ctx, notation) {
  const a = parse(ctx, notation);
  if (!a) return null;
  const p = pending(ctx);
  const tile = p && p.tile ? shortTile(ctx, p.tile) : "the new building";
  if (a.type === "choose") return `Put the ${listWords([...a.kinds].sort(byKind).map((k) => colour(ctx, k)))} citizens on your trader tile (in secret)`;
  if (a.type === "place") return `Put your trader tile on the free place ${placeWords(ctx, ctx.me, a.x, a.y)}`;
  if (a.type === "move") return `Move your ${citizen(ctx, a.kind)} into ${tile}`;
  if (a.type === "take") return `Take a ${citizen(ctx, a.kind)} from the supply onto your trader tile`;
  if (a.type === "exchange") return `Exchange your ${citizen(ctx, a.give)} for a ${citizen(ctx, a.take)} from the supply`;
  const canMove = ctx.legal.some((n) => ctx.argsOf && ctx.argsOf(n, "trader move"));
  return canMove ? `Let no citizen move into ${tile}` : "Keep your citizens (no exchange)";
}

function describeEvent(ctx, e) {
  const who = () => ctx.seatName(e.seat);
  switch (e.type) {
    case "StreetTraderCitizensChosen":
      return e.citizens && e.citizens.length
        ? `${who()} chooses the ${listWords(e.citizens.map((k) => colour(ctx, k)))} citizens for the trader tile (secret until everybody has chosen)`
        : `${who()} chooses three citizens for the trader tile in secret`;
    case "StreetTraderCitizensRevealed":
      return `The trader tiles are revealed: ${(e.citizens || []).map((c, s) => `${ctx.seatName(s)} ${listWords(c.map((k) => colour(ctx, k)))}`).join("; ")}. The other citizens join the supply`;
    case "StreetTraderPlaced":
      return `${who()} puts the trader tile ${placeWords(ctx, e.seat, e.x, e.y)}`;
    case "StreetTraderSetAside":
      return `${who()} builds ${shortTile(ctx, e.tile)} where the trader stood: the trader tile is set aside`;
    case "StreetTraderCitizenMovedIn":
      return `A ${citizen(ctx, e.kind)} of ${who()} moves into ${shortTile(ctx, e.tile)}`;
    case "StreetTraderCitizenTaken":
      return `${who()} takes a ${citizen(ctx, e.kind)} from the supply onto the trader tile`;
    case "StreetTraderCitizensExchanged":
      return `${who()} exchanges a ${citizen(ctx, e.gave)} of the trader tile for a ${citizen(ctx, e.took)} from the supply`;
    case "StreetTraderSkipped":
      return `${who()} lets no citizen move in and exchanges none`;
    case "StreetTraderCitizenReturned":
      return `${shortTile(ctx, e.tile)} leaves the Alhambra of ${who()}: its ${citizen(ctx, e.kind)} returns to the supply`;
    case "StreetTraderRetired":
      return `The trader tile of ${who()} has no citizen left and stays out of play`;
    default:
      return null;
  }
}

function scoring(ctx, round) {
  const values = round && round.extra ? round.extra[ID] : null;
  if (!Array.isArray(values)) return null;
  return [{ label: "Citizens", title: "Street traders: citizens in buildings, in sets of different colours (1 / 3 / 6 / 10 / 15 / 21 points)", values }];
}

/** The panel's one-line summary (the table shows it while the panel is folded). */
function summary(ctx) {
  const st = ctx.state;
  if (!st) return null;
  const seats = ctx.seatsLine;
  const n = ctx.count;
  return Array.isArray(st.traders) ? seats((i) => { const t = st.traders.find((x) => x.seat === i); return t ? `${n(t.homes.length, "citizen", "citizens")} housed, ${t.points} pts` : "—"; }) : null;
}

window.Alhambra.registerModule(ID, { summary, panel, seatBadges, boardOverlay, actionControls, describeAction, describeEvent, scoring });
