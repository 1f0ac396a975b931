// The game log: every event in a sentence, places in words.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ----- log and scoring

import { CURRENCY_NAMES, h } from "./art.js";
import { placeText } from "./core.js";
import { roundHasDirk, signed } from "./dialogs.js";
import { askPlugins, cardName, codeWords, tileName } from "./plugins.js";
import { SETTINGS, T, seatName } from "./state.js";

export const cardsText = (cards) => (cards && cards.length ? cards.map(cardName).join(" + ") : "nothing");

/** A sentence for each event of the core (the log never shows notation); null for others. */
export function coreEventText(e) {
  const who = (s) => seatName(s);
  const squareText = (sq) => {
    const m = T.msg ? T.msg.view.market[sq - 1] : null;
    return m ? `the ${CURRENCY_NAMES[m.currency]} square` : `square ${sq}`;
  };
  switch (e.type) {
    case "GameStarted": return `A game of ${e.players} players begins; ${who(e.starting_player)} starts.`;
    case "MoneyTaken": return `${who(e.seat)} takes ${cardsText(e.cards)}.`;
    case "ItemBought": return `${who(e.seat)} buys ${codeWords(e.label || e.item)} for ${cardsText(e.payment)}${e.exact ? " (exact payment: another action)" : ""}.`;
    case "Passed": return `${who(e.seat)} passes.`;
    case "BuildingBought": return `${who(e.seat)} buys ${tileName(e.tile)} from ${squareText(e.square)} for ${cardsText(e.payment)}${e.exact ? " (exact payment: another action)" : " (overpaid)"}.`;
    case "BuildingPlaced": {
      const t = e.target;
      if (Array.isArray(t)) return `${who(e.seat)} builds ${tileName(e.tile)} ${placeText(t[0], t[1])}.`;
      return t === "neutral" ? `${who(e.seat)} gives ${tileName(e.tile)} to Dirk.` : `${who(e.seat)} puts ${tileName(e.tile)} on the reserve board.`;
    }
    case "AlhambraRedesigned":
      if (e.how === "build") return `${who(e.seat)} builds ${tileName(e.tile)} from the reserve ${placeText(e.x, e.y)}.`;
      if (e.how === "remove") return `${who(e.seat)} moves ${tileName(e.tile)} (${placeText(e.x, e.y)}) to the reserve board.`;
      return `${who(e.seat)} exchanges ${tileName(e.other)} (${placeText(e.x, e.y)}) for ${tileName(e.tile)} from the reserve.`;
    case "TurnEnded": return `${who(e.seat)} ends the turn.`;
    case "TileTurnedOver": return `${who(e.seat)} pays ${cardsText(e.payment)} to turn ${tileName(e.tile)} over: it is built as ${tileName(e.face)}.`;
    case "MarkerSwitched": return `The market is fully restocked: the black marker turns to the ${e.face} side (new tiles show their ${e.face === "odd" ? "backs, odd prices" : "fronts, even prices"}).`;
    case "DisplayRefilled": return `New money is laid out: ${cardsText(e.cards)}.`;
    case "MarketRefilled": return `New tiles in the market: ${e.tiles.map((t, i) => `${tileName(t)} on ${squareText(e.squares[i])}`).join("; ")}.`;
    case "DeckReshuffled": return `The discards are shuffled into a new draw pile of ${e.cards} cards.`;
    case "ScoringCardDrawn": return `Scoring card ${e.round} comes up: a scoring round follows this turn.`;
    case "NeutralTilesReceived": return e.tiles.length ? `Dirk receives ${e.tiles.map(tileName).join(", ")}.` : "Dirk receives nothing.";
    case "RoundScored": return `Scoring round ${e.round}: ${e.points.map((p, s) => `${who(s)} ${signed(p)}`).join(", ")}${roundHasDirk(e) ? `, Dirk ${signed(e.neutral_points)}` : ""}.`;
    case "MarketTileAwarded": {
      const m = T.msg ? T.msg.view.market[e.square - 1] : null;
      return `At the end, ${who(e.seat)} receives ${tileName(e.tile)} from ${squareText(e.square)}${m ? ` (the most ${CURRENCY_NAMES[m.currency]})` : ""}.`;
    }
    case "GameEnded": {
      const w = e.winners.map(who).join(" and ");
      return `${e.outcome === "finished" ? "The game is over" : "The game stopped at the turn limit"}: ${e.winners.length > 1 ? `shared win for ${w}` : `${w} wins`}.`;
    }
    default: return null;
  }
}

export function eventText(text) {
  // the engine writes payments as code+code and seats as "player N"; cards and tiles get names
  const spaced = text.replace(/[A-Za-z][A-Za-z0-9]*(?:\+[A-Za-z][A-Za-z0-9]*)+/g, (cards) => cards.split("+").join(" + "));
  return codeWords(spaced).replace(/player (\d+)/g, (_, n) => seatName(Number(n) - 1))
    .replace(/\bsquare ([1-9])\b/g, (all, n) => { const m = T.msg ? T.msg.view.market[Number(n) - 1] : null; return m ? `the ${CURRENCY_NAMES[m.currency]} square` : all; });
}

/** The log line of an event: a plug-in's text, else the engine's with the players' names. */
export function describeEvent(e) {
  for (const [, text] of askPlugins("describeEvent", e)) if (typeof text === "string") return text;
  return coreEventText(e) ?? eventText(e.text);
}

export function renderLog() {
  const items = [];
  for (const e of T.events) {
    if (e.type === "TurnStarted") items.push(h("li", { class: "turn-head", text: `Turn ${e.turn} · ${seatName(e.seat)}` }));
    else if (e.type === "TurnEnded") continue;
    else {
      items.push(h("li", { class: e.type === "RoundScored" || e.type === "GameEnded" ? "highlight" : "" }, describeEvent(e),
        SETTINGS.notation && e.text ? h("code", { class: "notation", text: ` ${e.text}` }) : null));
    }
  }
  return h("div", { class: "panel log" }, h("h2", { text: "Game log" }), h("ul", { id: "log-list", class: "log-list", "aria-live": "polite", tabindex: "0", "aria-label": "Game log" }, ...items));
}
