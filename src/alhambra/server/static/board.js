// The Alhambras: every board with its reserve, spots, exchanges, overlays of plug-ins, zoom, pan and drag and drop.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ----- Alhambras

import { h, svgEl } from "./art.js";
import { SEAT_COLORS, placeText, wallName } from "./core.js";
import { choose, legal } from "./moves.js";
import { boardOverlays, describeAction, parseAction, seatBadges, tileArt, tileName, tileNode } from "./plugins.js";
import { T, arrival, me, notify, render, seatName } from "./state.js";

export const CELL = 100;

/** What changed in the last turn (and in the turn under way): places built ("seat:x,y"),
 * market squares and display slots refilled. */
export function recentChanges() {
  if (T.recent && T.recent.events === T.events) return T.recent;
  const starts = [];
  T.events.forEach((e, i) => { if (e.type === "TurnStarted") starts.push(i); });
  const from = starts.length >= 2 ? starts[starts.length - 2] : 0;
  const out = { events: T.events, built: new Set(), squares: new Set(), slots: new Set() };
  for (const e of T.events.slice(from)) {
    if (e.type === "BuildingPlaced" && Array.isArray(e.target)) out.built.add(`${e.seat}:${e.target[0]},${e.target[1]}`);
    else if (e.type === "AlhambraRedesigned" && e.how !== "remove") out.built.add(`${e.seat}:${e.x},${e.y}`);
    else if (e.type === "MarketRefilled") for (const q of e.squares) out.squares.add(q);
    else if (e.type === "DisplayRefilled") for (const q of e.slots) out.slots.add(q);
  }
  T.recent = out;
  return out;
}

export function renderCities(v, controls = null) {
  const seat = me();
  const order = v.seats.map((s) => s.seat);
  if (seat !== null) order.sort((a, b) => (a === seat ? -1 : b === seat ? 1 : a - b));
  const wrap = h("div", { class: `cities ${seat === null ? "spectating" : ""}`, style: `--others:${Math.max(1, order.length - (seat !== null ? 1 : 0) + (v.neutral ? 1 : 0))}` });
  for (const s of order) wrap.appendChild(renderCity(v, v.seats[s], s === seat, controls));
  wrap.appendChild(h("button", {
    type: "button", id: "btn-boards", class: "secondary small boards-button", text: "Every Alhambra at a glance",
    title: "All the Alhambras side by side, large", onclick: () => { T.modal = { kind: "boards" }; render(); },
  }));
  if (v.neutral) {
    wrap.appendChild(h("div", { class: "panel city neutral" }, h("h3", { text: `Dirk (neutral) · ${v.neutral.score} points` }),
      h("div", { class: "reserve-tiles" }, ...v.neutral.tiles.map((t) => tileArt(t, 34)))));
  }
  return wrap;
}

export function renderCity(v, s, mine, controls = null) {
  const recent = recentChanges();
  const acts = mine ? legal() : [];
  const sel = mine ? T.sel : null;
  let spots = [];
  let exchange = [];
  if (sel && sel.kind === "place") spots = acts.filter((a) => a.type === "place" && a.tile === sel.tile && a.target === "spot");
  if (sel && sel.kind === "rbuild") {
    spots = acts.filter((a) => a.type === "rbuild" && a.tile === sel.tile);
    exchange = acts.filter((a) => a.type === "rexchange" && a.tile === sel.tile);
  }
  const removable = new Set(acts.filter((a) => a.type === "rremove").map((a) => a.tile));
  const staged = mine && T.staged ? parseAction(T.staged.action) : null;
  const overlays = boardOverlays(s.seat);
  const cells = s.alhambra.map((c) => ({ x: c.x, y: c.y }));
  for (const a of spots) cells.push({ x: a.x, y: a.y });
  for (const it of overlays) cells.push({ x: it.x, y: it.y });
  const minX = Math.min(...cells.map((c) => c.x)) - 1, maxX = Math.max(...cells.map((c) => c.x)) + 1;
  const minY = Math.min(...cells.map((c) => c.y)) - 1, maxY = Math.max(...cells.map((c) => c.y)) + 1;
  const fit = { x: minX * CELL, y: minY * CELL, w: (maxX - minX + 1) * CELL, h: (maxY - minY + 1) * CELL };
  const key = `city-${s.seat}`;
  let box = T.boxes[key];
  if (!box || box.auto) box = T.boxes[key] = { ...fit, auto: true };
  const svg = svgEl("svg", { class: "city-svg", viewBox: `${box.x} ${box.y} ${box.w} ${box.h}`, role: "group", "aria-label": `Alhambra of ${seatName(s.seat)}` });
  svg.appendChild(svgEl("rect", { x: box.x - 5000, y: box.y - 5000, width: 10000 + box.w, height: 10000 + box.h, fill: "transparent", class: "pan-area" }));
  const turned = turnedTiles(v);
  for (const c of s.alhambra) {
    // a fountain whose walls a module changed (city walls) is keyed by its seat in the view's `walls`
    const fountainWalls = c.tile === "F" && v.walls ? v.walls[`F${s.seat + 1}`] : undefined;
    const g = tileNode(c.tile, c.x * CELL, c.y * CELL, CELL, { turned: turned.has(c.tile), walls: fountainWalls });
    g.setAttribute("data-tile", c.tile);
    g.setAttribute("data-x", c.x);
    g.setAttribute("data-y", c.y);
    arrival(g, `city:${s.seat}:${c.x},${c.y}:${c.tile}`);
    const ex = exchange.find((a) => a.other === c.tile);
    const fresh = recent.built.has(`${s.seat}:${c.x},${c.y}`);
    const title = svgEl("title");
    title.textContent = `${tileName(c.tile)}, ${placeText(c.x, c.y)}${turned.has(c.tile) ? " (built turned over)" : ""}${fresh ? " (new this turn)" : ""}`;
    g.appendChild(title);
    if (fresh) {
      g.classList.add("recent");
      g.appendChild(svgEl("rect", { x: 3, y: 3, width: 94, height: 94, rx: 7, fill: "none", stroke: "#ffd400", "stroke-width": 6, class: "recent-mark" }));
      g.appendChild(svgEl("circle", { cx: 84, cy: 16, r: 9, fill: "#ffd400", stroke: "#3a2614", "stroke-width": 2, class: "recent-mark" }));
    }
    if (ex) {
      g.classList.add("exchange-target");
      g.setAttribute("data-action", ex.text);
      g.appendChild(svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 6, fill: "none", stroke: "#ffd400", "stroke-width": 7, "stroke-dasharray": "10 6" }));
      interactive(g, `Exchange ${tileName(c.tile)} for ${tileName(sel.tile)}`, () => choose(ex.text, describeAction(ex.text)));
    } else if (removable.has(c.tile) && (!sel || sel.kind === "rremove")) {
      g.classList.add("removable");
      interactive(g, `Redesign: move ${tileName(c.tile)} to the reserve board`, () => { T.sel = { kind: "rremove", tile: c.tile }; render(); });
      makeDraggable(g, { kind: "rremove", tile: c.tile });
    }
    svg.appendChild(g);
  }
  for (const it of overlays) svg.appendChild(overlayNode(it));
  for (const a of spots) {
    const g = svgEl("g", { class: "spot", "data-x": a.x, "data-y": a.y, "data-action": a.text });
    g.appendChild(svgEl("rect", { x: a.x * CELL + 6, y: a.y * CELL + 6, width: CELL - 12, height: CELL - 12, rx: 10, fill: "rgba(255,214,0,0.25)", stroke: "#e0a800", "stroke-width": 5, "stroke-dasharray": "12 8" }));
    const plus = svgEl("text", { x: a.x * CELL + 50, y: a.y * CELL + 62, "text-anchor": "middle", "font-size": 36, fill: "#a07800" });
    plus.textContent = "+";
    g.appendChild(plus);
    const label = describeAction(a.text);
    interactive(g, label, () => choose(a.text, label));
    svg.appendChild(g);
  }
  if (staged && (staged.type === "place" || staged.type === "rbuild") && staged.target !== "reserve" && staged.target !== "neutral") {
    const ghost = tileNode(staged.tile, staged.x * CELL, staged.y * CELL, CELL);
    ghost.setAttribute("class", "ghost");
    svg.appendChild(ghost);
  }
  enablePanZoom(svg, key);
  const tools = h("div", { class: "zoom-tools" },
    h("button", { class: "icon", "aria-label": "Zoom in", text: "+", onclick: () => zoomBy(key, 0.8) }),
    h("button", { class: "icon", "aria-label": "Zoom out", text: "−", onclick: () => zoomBy(key, 1.25) }),
    h("button", { class: "icon", "aria-label": "Fit the whole Alhambra", text: "⤢", onclick: () => { T.boxes[key] = { ...fit, auto: true }; render(); } }));
  const reserve = h("div", { class: "reserve", dataset: { dropReserve: mine ? "1" : "" }, "aria-label": `Reserve board of ${seatName(s.seat)}` },
    h("span", { class: "reserve-label", text: "Reserve" }),
    ...s.reserve.map((t) => {
      // a plug-in may build a reserve tile with a move of its own (a magical building, turned)
      const canBuild = acts.some((a) => (a.type === "rbuild" || a.type === "rexchange") && a.tile === t) || Boolean(mine && controls && controls.tiles.has(t));
      if (!canBuild) {
        // my redesign turn, yet this tile has no place: say why instead of a silent picture
        const redesigning = mine && acts.some((a) => a.type === "rbuild" || a.type === "rexchange" || a.type === "rremove" || a.type === "take");
        if (!redesigning) return tileArt(t, 40);
        const why = `${tileName(t)} cannot be built now: no free place of your Alhambra fits its ${wallName()}s, and no building can be exchanged for it.`;
        return h("button", {
          class: "reserve-tile blocked", dataset: { tile: t }, "aria-disabled": "true", title: why, "aria-label": why,
          onclick: () => notify(why),
        }, tileArt(t, 40));
      }
      const on = sel && sel.kind === "rbuild" && sel.tile === t;
      const b = h("button", {
        class: `reserve-tile ${on ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": on ? "true" : "false",
        "aria-label": `Redesign: build ${tileName(t)} from the reserve`,
        onclick: () => { T.sel = on ? null : { kind: "rbuild", tile: t }; render(); },
      }, tileArt(t, 40));
      makeDraggable(b, { kind: "rbuild", tile: t });
      return b;
    }),
    s.reserve.length ? null : h("span", { class: "muted", text: "empty" }));
  const cls = `panel city ${mine ? "mine" : ""} ${s.seat === T.msg.view.to_act ? "to-act" : ""}`;
  return h("div", { class: cls, dataset: { seat: s.seat } },
    h("h3", { title: `${seatName(s.seat)}: ${s.score} points, longest ${wallName()} ${s.longest_wall}` }, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s.seat]}` }),
      h("span", { class: "city-name", text: seatName(s.seat) }), h("span", { class: "city-meta", text: `${s.score} points · ${wallName()} ${s.longest_wall}` }), seatBadges(s.seat)),
    h("div", { class: "city-frame", style: `--rows:${Math.min(8, Math.round(fit.h / CELL))}` }, svg, tools), reserve);
}

/** The tiles shown on the face they were turned to (view.turned). */
export function turnedTiles(v) {
  return new Set(v.turned || []);
}

/** One overlay item as a group at its cell: the plug-in's node (drawn in the cell's 100 x 100
 * units), a tooltip, and a click / keyboard choice when it has `pick`. */
export function overlayNode(it) {
  const g = svgEl("g", { transform: `translate(${it.x * CELL} ${it.y * CELL})`, class: `board-overlay ${it.className || ""}`, "data-module": it.owner, "data-x": it.x, "data-y": it.y });
  if (typeof it.action === "string") g.setAttribute("data-action", it.action); // the one move it makes (a hint marks it)
  if (it.node instanceof SVGSVGElement) {
    for (const [k, v] of [["x", 0], ["y", 0], ["width", CELL], ["height", CELL]]) it.node.setAttribute(k, String(v));
  }
  if (it.node instanceof SVGElement) g.appendChild(it.node);
  if (it.title || it.label) {
    const title = svgEl("title");
    title.textContent = String(it.title || it.label);
    g.appendChild(title);
  }
  if (typeof it.pick === "function") {
    interactive(g, String(it.label || it.title || "Choose this place"), () => {
      try { it.pick(); } catch (e) { console.error(`module ${it.owner}: a board choice failed:`, e); }
    });
  }
  return g;
}

export function interactive(g, label, fn) {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.classList.add("clickable");
  g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!T.dragMoved) fn(); });
  g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); } });
}

export function zoomBy(key, f, cx, cy) {
  const b = T.boxes[key];
  if (!b) return;
  const nw = Math.min(4000, Math.max(150, b.w * f)), nh = Math.min(4000, Math.max(150, b.h * f));
  const px = cx === undefined ? b.x + b.w / 2 : cx, py = cy === undefined ? b.y + b.h / 2 : cy;
  T.boxes[key] = { x: px - ((px - b.x) * nw) / b.w, y: py - ((py - b.y) * nh) / b.h, w: nw, h: nh, auto: false };
  render();
}

export function enablePanZoom(svg, key) {
  svg.addEventListener("wheel", (ev) => {
    ev.preventDefault();
    const b = T.boxes[key];
    const r = svg.getBoundingClientRect();
    const cx = b.x + ((ev.clientX - r.left) / r.width) * b.w, cy = b.y + ((ev.clientY - r.top) / r.height) * b.h;
    zoomBy(key, ev.deltaY > 0 ? 1.15 : 0.87, cx, cy);
  }, { passive: false });
  let start = null;
  svg.addEventListener("pointerdown", (ev) => {
    if (!ev.target.classList || !ev.target.classList.contains("pan-area")) return;
    start = { x: ev.clientX, y: ev.clientY, box: { ...T.boxes[key] } };
    svg.setPointerCapture(ev.pointerId);
  });
  svg.addEventListener("pointermove", (ev) => {
    if (!start) return;
    const r = svg.getBoundingClientRect();
    const dx = ((ev.clientX - start.x) / r.width) * start.box.w, dy = ((ev.clientY - start.y) / r.height) * start.box.h;
    if (Math.abs(dx) + Math.abs(dy) < 2) return;
    T.boxes[key] = { ...start.box, x: start.box.x - dx, y: start.box.y - dy, auto: false };
    svg.setAttribute("viewBox", `${T.boxes[key].x} ${T.boxes[key].y} ${start.box.w} ${start.box.h}`);
  });
  const stop = () => { start = null; };
  svg.addEventListener("pointerup", stop);
  svg.addEventListener("pointercancel", stop);
}

// Drag and drop with pointer events (mouse and touch): a floating copy follows the pointer;
// dropping on a highlighted spot, a tile to exchange or the reserve board chooses that move.
export function makeDraggable(el, what) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const x0 = ev.clientX, y0 = ev.clientY;
    let ghost = null;
    T.dragMoved = false;
    const move = (e) => {
      if (!ghost && Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) > 8) {
        T.dragMoved = true;
        ghost = h("div", { class: "drag-ghost" }, tileArt(what.tile, 56));
        document.body.appendChild(ghost);
        if (what.kind !== "rremove") { T.sel = { kind: what.kind, tile: what.tile }; render(); }
      }
      if (ghost) { ghost.style.left = `${e.clientX - 28}px`; ghost.style.top = `${e.clientY - 28}px`; }
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      if (!ghost) return;
      ghost.remove();
      const target = document.elementFromPoint(e.clientX, e.clientY);
      setTimeout(() => { T.dragMoved = false; }, 0);
      if (!target) return;
      const spot = target.closest(".spot");
      const tile = target.closest(".exchange-target");
      const reserve = target.closest("[data-drop-reserve='1']");
      const offered = target.closest(".board-overlay.clickable"); // a plug-in's place (a magical building's)
      const acts = legal();
      if (spot) choose(spot.getAttribute("data-action"), spot.getAttribute("aria-label"));
      else if (tile) tile.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      else if (offered && what.kind !== "rremove") offered.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      else if (reserve && what.kind === "rremove") {
        const a = acts.find((x) => x.type === "rremove" && x.tile === what.tile);
        if (a) choose(a.text, describeAction(a.text));
      } else if (reserve && what.kind === "place") {
        const a = acts.find((x) => x.type === "place" && x.tile === what.tile && x.target === "reserve");
        if (a) choose(a.text, describeAction(a.text));
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  });
}
