// The decision panel: what you may do now, confirmations, Pass, the module controls, hints, turning a tile over, taking money.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ----- action panel

import { h } from "./art.js";
import { makeDraggable, turnedTiles } from "./board.js";
import { rematchButtons } from "./dialogs.js";
import { cardsValue, pickIndices, renderPay, startPayment } from "./hand.js";
import { hintButton } from "./hint.js";
import { choose, legal, onlyPass, send, undo } from "./moves.js";
import { askPlugins, backName, cardArt, cardName, describeAction, parseAction, sameMultiset, tileArt, tileName } from "./plugins.js";
import { SETTINGS, T, me, pickedTile, render, seatName } from "./state.js";

export function renderActionPanel(v, myTurn, controls) {
  const box = h("div", { class: "panel actions", id: "action-panel", "aria-live": "polite", tabindex: "-1", "aria-label": "Your move" });
  const acts = legal();
  const bar = h("div", { class: "button-row" });
  if (T.msg.can_undo && !T.staged) bar.appendChild(h("button", { id: "btn-undo", class: "secondary", text: "↶ Undo", onclick: undo }));
  if (T.staged) {
    // between turns a final move reveals something but ends nobody's turn
    const between = Boolean(v.pending) && v.pending.type === "BetweenTurns";
    const note = T.staged.note || (between ? "It cannot be taken back." : "This ends your turn: it cannot be taken back.");
    // the confirmation shows what it is about: the tile, or the cards
    const sa = parseAction(T.staged.action);
    const pics = sa.tile ? [tileArt(sa.tile, 44)] : (sa.cards || []).map((c) => cardArt(c, 30));
    // Element.append writes a null as the word "null": only nodes go in
    box.append(h("p", { class: "staged" }, pics.length ? h("span", { class: "staged-art" }, ...pics) : null, `${T.staged.label || describeAction(T.staged.action)}. ${note}`));
    if (SETTINGS.notation) box.append(h("p", { class: "notation", text: `Notation: ${T.staged.action}` }));
    bar.append(h("button", { id: "btn-confirm", class: "primary", text: T.staged.button || (between ? "Confirm" : "End turn"), onclick: () => send(T.staged.action) }),
      h("button", { id: "btn-cancel", class: "secondary", text: "Cancel", onclick: () => { T.staged = null; render(); } }));
    box.append(bar);
    return box;
  }
  if (onlyPass()) {
    box.append(h("p", { class: "muted auto-pass", text: "Nothing to choose: you pass." }));
    return box;
  }
  if (T.msg.table.status === "finished") {
    box.append(h("p", { text: "The game is over." }), h("div", { class: "button-row" },
      h("button", { class: "primary", id: "btn-summary", text: "Show the summary", onclick: () => { T.modal = { kind: "summary" }; render(); } }),
      ...rematchButtons(false),
      h("a", { class: "button secondary", href: `/api/tables/${T.id}/record`, download: `alhambra-${T.id}.json`, text: "Download the game record" })));
    return box;
  }
  if (!myTurn) {
    const who = v.to_act !== null ? seatName(v.to_act) : "nobody";
    box.append(h("p", { class: "muted", text: me() === null ? `Watching. ${who} is to play.` : `Waiting for ${who}…` }));
    if (bar.children.length) box.append(bar);
    return box;
  }
  const pending = v.pending || {};
  const sel = T.sel;
  const moduleNodes = controls.nodes.map(([id, node]) => h("div", { class: "module-controls", dataset: { module: id } }, node));
  if (pending.type === "PlaceTiles") {
    const tiles = pending.tiles;
    const pk = pickedTile();
    const placing = pk && pk.kind === "place" ? pk : null; // also while a plug-in chooses where it goes
    box.append(h("p", { text: pending.reason === "final" ? "The game ends: place the tiles you were awarded." : "Place your new tile: pick it, then a highlighted spot in your Alhambra (or drag it there), or the reserve board." }));
    box.append(h("div", { class: "waiting-tiles", role: "group", "aria-label": "Tiles to place" }, ...[...new Set(tiles)].map((t) => {
      const on = Boolean(placing) && placing.tile === t;
      const b = h("button", {
        class: `waiting-tile ${on ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": on ? "true" : "false",
        "aria-label": `Place ${tileName(t)}`,
        onclick: () => { T.sel = on ? null : { kind: "place", tile: t }; T.placeCleared = !T.sel; render(); },
      }, tileArt(t, 58, { backMark: true, turned: turnedTiles(v).has(t) }));
      makeDraggable(b, { kind: "place", tile: t });
      return b;
    })));
    if (sel && sel.kind === "pay" && sel.owner === TURN_OVER) {
      box.append(renderPay(v, sel, bar));
    } else if (placing) {
      const res = acts.find((a) => a.type === "place" && a.tile === placing.tile && a.target === "reserve");
      const neu = acts.find((a) => a.type === "place" && a.tile === placing.tile && a.target === "neutral");
      if (res) bar.append(h("button", { id: "btn-reserve", class: "secondary", dataset: { action: res.text }, text: "To the reserve board", onclick: () => choose(res.text, describeAction(res.text)) }));
      if (neu) bar.append(h("button", { id: "btn-neutral", class: "secondary", dataset: { action: neu.text }, text: "Give it to Dirk", onclick: () => choose(neu.text, describeAction(neu.text)) }));
      // a two-sided tile may also go into the reserve on its other face, for free
      const back = T.catalogue && T.catalogue.tiles && T.catalogue.tiles[placing.tile] ? T.catalogue.tiles[placing.tile].back : null;
      const resBack = back ? acts.find((a) => a.type === "place" && a.tile === back && a.target === "reserve") : null;
      if (resBack) {
        bar.append(h("button", {
          id: "btn-reserve-turned", class: "secondary", dataset: { action: resBack.text }, text: "To the reserve board, turned over",
          title: `Put it on the reserve board as ${tileName(back)} (free)`, onclick: () => choose(resBack.text, describeAction(resBack.text)),
        }));
      }
      const turns = acts.filter((a) => a.type === "turn" && a.tile === placing.tile);
      if (turns.length) box.append(turnOffer(placing.tile, turns));
    } else if (autoPick(v, myTurn)) {
      return renderActionPanel(v, myTurn, controls);
    }
    box.append(...moduleNodes);
  } else if (pending.type === "ChooseAction") {
    if (sel && sel.kind === "pay") box.append(renderPay(v, sel, bar));
    else if (sel && sel.kind === "take") box.append(renderTake(v, sel, acts, bar));
    else if (sel && sel.kind === "rbuild") box.append(h("p", { text: `Redesign: pick a highlighted spot for ${tileName(sel.tile)}, or a tile of your Alhambra it can replace (outlined).` }));
    else if (sel && sel.kind === "rremove") {
      const a = acts.find((x) => x.type === "rremove" && x.tile === sel.tile);
      box.append(h("p", { text: `Move ${tileName(sel.tile)} from your Alhambra to the reserve board?` }));
      if (a) bar.append(h("button", { id: "btn-remove", class: "primary", dataset: { action: a.text }, text: "Move to the reserve board", onclick: () => choose(a.text, describeAction(a.text)) }));
    } else if (!sel || sel.kind !== "module") {
      box.append(h("p", { text: pending.actions > 0 ? "Exact payment! Take another action, or end your turn." : "Your turn: take money (pick face-up cards), buy a tile (pick a market square), or redesign your Alhambra (pick a reserve or Alhambra tile)." }));
    }
    box.append(...moduleNodes);
    const end = acts.find((a) => a.type === "end");
    if (end) bar.append(h("button", { id: "btn-end", class: "primary", dataset: { action: end.text }, text: "End turn", onclick: () => send(end.text) }));
  } else {
    // a decision that is not one of the core's own (between turns, a module's choice)
    box.append(...moduleNodes);
    if (sel && sel.kind === "pay") box.append(renderPay(v, sel, bar));
    if (!moduleNodes.length) {
      const what = pending.type ? ` (${pending.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()})` : "";
      box.append(h("p", { text: `A decision for you${what}: choose one of these moves.` }));
    }
  }
  const pass = acts.find((a) => a.type === "pass");
  if (pass) bar.append(h("button", { id: "btn-pass", class: "secondary pass-button", dataset: { action: pass.text }, text: "Pass", onclick: () => choose(pass.text, "Pass") }));
  // module actions no plug-in took care of: a button each, named by describeAction
  const others = acts.filter((a) => a.type === "other" && !controls.handled.has(a.text));
  if (others.length) {
    box.append(h("div", { class: "other-moves", role: "group", "aria-label": "Other moves" }, ...others.map((a) => {
      const label = describeAction(a.text);
      return h("button", { class: "secondary small other-move", dataset: { action: a.text }, text: label, onclick: () => choose(a.text, label) });
    })));
  }
  const hint = hintButton(T.msg.table, T.token, T.msg.version, {
    show: (a) => showHinted(a, controls),
    owner: (a) => controls.owners.get(a) || null,
    squares: (a) => offeredSquares(controls, a).map((o) => o.square),
    cards: (a) => [...controls.cards.values()].filter((o) => Array.isArray(o.actions) && o.actions.includes(a)).map((o) => o.slot),
  });
  if (hint) bar.append(hint);
  if (sel) bar.append(h("button", { id: "btn-clear", class: "secondary", text: "Clear selection", onclick: () => { T.sel = null; T.placeCleared = true; render(); } }));
  if (bar.children.length) box.append(bar);
  return box;
}

/** On my turn to place tiles with nothing selected (and the selection not cleared on purpose),
 * pick the first waiting tile, so its places show at once (a plug-in's selection, e.g. a place
 * whose turn is still to choose, is kept). True when it picked one. Called before the plug-ins'
 * controls are asked (table.js), so they see the pick (`ctx.picked`). */
export function autoPick(v, myTurn) {
  const pending = v.pending || {};
  if (!myTurn || pending.type !== "PlaceTiles" || T.sel || T.staged || T.placeCleared || !pending.tiles.length) return false;
  T.sel = { kind: "place", tile: pending.tiles[0] };
  return true;
}

/** The market squares a plug-in offers (`controls.squares`) that lead to the module's move
 * `action` (the square's `actions`). */
export function offeredSquares(controls, action) {
  return [...controls.squares.values()].filter((o) => Array.isArray(o.actions) && o.actions.includes(action));
}

/** Select on the table what the hinted move `action` needs (its waiting or reserve tile, the
 * face-up cards to take, the payment for a square, a plug-in's square: `controls`), so that
 * its spot, its exchange target and its buttons are drawn for the hint to mark (hint.js);
 * other moves clear the selection. */
export function showHinted(action, controls) {
  if (!T.msg || !T.msg.view.legal_actions.includes(action)) return;
  const a = parseAction(action);
  T.staged = null;
  T.sel = null;
  if (a.type === "place" || a.type === "turn") {
    T.sel = { kind: "place", tile: a.tile };
    T.placeCleared = false;
  } else if (a.type === "rbuild" || a.type === "rexchange") T.sel = { kind: "rbuild", tile: a.tile };
  else if (a.type === "rremove") T.sel = { kind: "rremove", tile: a.tile };
  else if (a.type === "take") {
    const cards = [];
    for (const c of a.cards) {
      const i = T.msg.view.display.findIndex((x, k) => x === c && !cards.includes(k));
      if (i >= 0) cards.push(i);
    }
    if (cards.length) T.sel = { kind: "take", cards };
  } else if (a.type === "buy") {
    startPayment(null, { square: a.square });
    Object.assign(T.sel, pickIndices(a.cards));
  } else if (a.type === "other") {
    // a module's move offered on a market square: pick the square, then the move's payment
    const [offer] = offeredSquares(controls, action);
    if (offer) {
      offer.pick();
      const option = T.sel && T.sel.kind === "pay" ? T.sel.options.find((o) => o.action === action) : null;
      if (option) Object.assign(T.sel, pickIndices(option.cards));
    } else {
      // else its plug-in may select what the move needs (a magical building's place)
      askPlugins("showHint", action);
    }
  }
  render();
}

// ----- turning a tile over (two-sided tiles: Granada)
/** The selection owner of a turn-over payment (never a module id: those have no colon). */
export const TURN_OVER = "core:turn";

/** The offer to build the waiting tile `tile` turned over: the other face and the price. */
export function turnOffer(tile, turns) {
  const cost = T.catalogue && Number.isFinite(T.catalogue.turn_over_cost) ? T.catalogue.turn_over_cost : 3;
  const back = T.catalogue && T.catalogue.tiles && T.catalogue.tiles[tile] ? T.catalogue.tiles[tile].back : null;
  return h("div", { class: "turn-offer", role: "group", "aria-label": "Turn the tile over" },
    back ? tileArt(back, 46, { turned: true }) : null,
    h("p", {}, h("strong", { text: "Or turn it over: " }), `build ${backName(tile)} instead, for ${cost} of one currency (cards of one currency worth at least ${cost}; no change).`),
    h("button", {
      type: "button", id: "btn-turn", class: "secondary", dataset: { tile },
      "aria-label": `Turn ${tileName(tile)} over to ${backName(tile)} for ${cost}`,
      text: `Turn over (${cost})`, onclick: () => startTurnOver(tile, turns, cost),
    }));
}

/** Choose the cards that pay for turning `tile` over (the legal turn actions are the ways to pay). */
export function startTurnOver(tile, turns, cost) {
  const options = turns.map((a) => ({ cards: a.cards, action: a.text }));
  T.sel = {
    kind: "pay", owner: TURN_OVER, square: null, tile,
    item: { label: `turning ${tileName(tile)} over`, price: cost, currency: null, code: tile },
    options, title: `Turn ${tileName(tile)} over to ${backName(tile)}`,
    note: `Pick cards of one currency worth at least ${cost} from your hand, or a way to pay below (no change is given); then build ${backName(tile)} in your Alhambra.`,
    confirm: "Pay and turn over", cards: [], sources: [],
  };
  if (options.length === 1) Object.assign(T.sel, pickIndices(options[0].cards));
  T.staged = null;
  render();
}

export function renderTake(v, sel, acts, bar) {
  const codes = sel.cards.map((i) => v.display[i]);
  const match = acts.find((a) => a.type === "take" && sameMultiset(a.cards, codes));
  const total = cardsValue(codes);
  const names = codes.map(cardName).join(" + ");
  const wrap = h("div", {}, h("p", { text: `Take ${names}${total ? ` (${total})` : ""}. One card of any value, or several cards worth 5 at most together.` }));
  if (match) {
    const final = T.msg.final_actions.includes(match.text);
    // the button says what happens: it is the one confirmation (no second "End turn")
    bar.append(h("button", { id: "btn-take", class: "primary", dataset: { action: match.text }, text: final ? "Take and end turn" : "Take", onclick: () => send(match.text) }));
  } else {
    wrap.append(h("p", { class: "muted", text: "These cards cannot be taken together." }));
  }
  return wrap;
}
