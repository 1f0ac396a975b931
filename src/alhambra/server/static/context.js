// The context a module plug-in's hook gets (ctx): read access to the table and the helpers it may call.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table", and
// docs/writing-a-module.md ("Front-end plug-in"). table.js wires it into plugins.js (setPluginContext).

import * as ART from "./art.js";
import { h, svgEl } from "./art.js";
import { SEAT_COLORS, placeText } from "./core.js";
import { chosenCodes, startPayment } from "./hand.js";
import { choose } from "./moves.js";
import { actionData, cardArt, cardName, describeAction, tileArt, tileName } from "./plugins.js";
import { T, isMyTurn, me, pickedTile, render, seatName } from "./state.js";

/** The context a plug-in hook gets: read access to the table and helpers (see the docs). */
export function pluginContext(id) {
  const v = T.msg ? T.msg.view : null;
  return {
    id,
    view: v,
    state: v && v.module_views ? v.module_views[id] ?? null : null,
    me: me(),
    myTurn: isMyTurn(),
    legal: v ? v.legal_actions.slice() : [],
    moves: T.msg && Array.isArray(T.msg.actions) ? T.msg.actions.slice() : [],
    move: (notation) => actionData(notation),
    argsOf: (notation, ...keywords) => {
      const m = actionData(notation);
      return m && keywords.includes(m.keyword) ? m.args.map((a) => a.value) : null;
    },
    finalActions: T.msg ? T.msg.final_actions.slice() : [],
    events: T.events,
    catalogue: T.catalogue,
    module: T.moduleInfo[id] || { id, title: id, description: "", assumptions: [] },
    seatName,
    /** One line of every seat: "Ann 2 · Ben 0" from f(seat) (panel summaries). */
    seatsLine: (f) => (v && Array.isArray(v.seats) ? v.seats : []).map((s) => `${seatName(s.seat)} ${f(s.seat)}`).join(" · "),
    /** A count with its noun: count(1, "coin", "coins") is "1 coin". */
    count: (k, one, many) => `${k} ${k === 1 ? one : many}`,
    seatColor: (seat) => (seat < 0 ? "#999" : SEAT_COLORS[seat]),
    h,
    svg: svgEl,
    art: ART,
    cardArt,
    tileArt,
    cardName,
    tileName,
    placeText,
    act: (notation, label, confirm) => choose(notation, label || describeAction(notation), confirm),
    /** The tile the viewer picked to build (a waiting tile: kind "place"; a reserve tile:
     * kind "rbuild"), as {kind, tile}, or null: a plug-in offers that tile's places on the board. */
    get picked() { return pickedTile(); },
    get selection() { return T.sel && T.sel.kind === "module" && T.sel.owner === id ? T.sel.data : null; },
    select(data) {
      // a selection about the picked tile (data.tile) keeps it picked (state.pickedTile)
      const pk = pickedTile();
      const keep = pk && data && data.tile === pk.tile ? pk : null;
      T.sel = data === null || data === undefined ? null : { kind: "module", owner: id, data, picked: keep };
      T.staged = null;
      render();
    },
    pay(request) { startPayment(id, request); },
    get payment() {
      const s = T.sel;
      return s && s.kind === "pay" && s.owner === id ? { square: s.square, item: s.item, cards: chosenCodes(s) } : null;
    },
    rerender: () => render(),
  };
}
