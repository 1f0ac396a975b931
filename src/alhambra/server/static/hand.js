// Your hand and payments: picking the cards (and money held outside the hand) that pay for a purchase.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ----- payments: picking the cards for a purchase (the core's buy, or a plug-in's)

import { CURRENCY_COLORS, CURRENCY_NAMES, cardFacts, h, tileFacts } from "./art.js";
import { CURRENCIES } from "./core.js";
import { choose, legal } from "./moves.js";
import { cardArt, cardName, describeAction, sameMultiset, tileName, tokenFacts, tokenOwner } from "./plugins.js";
import { T, arrival, me, render } from "./state.js";

/** Start choosing a payment for market square `req.square`. `owner` null: the core's buy (the
 * options are the legal buy actions); otherwise a plug-in's request with its own `options`
 * ({cards, action}), `title`, `note` and `confirm` (the text of the button that sends it), and
 * instead of a square it may name any other `item` it sells: {label, price, currency?}, or a
 * tile code with `req.price` and `req.currency` (named by its tileName). */
export function startPayment(owner, req) {
  const v = T.msg.view;
  let options;
  if (owner === null) {
    options = legal().filter((a) => a.type === "buy" && a.square === req.square).map((a) => ({ cards: a.cards, action: a.text }));
  } else {
    options = (req.options || []).filter((o) => o && Array.isArray(o.cards) && v.legal_actions.includes(o.action))
      .map((o) => ({ cards: o.cards.slice(), action: o.action }));
  }
  const spec = typeof req.item === "string" ? { label: tileName(req.item), price: req.price, currency: req.currency, code: req.item } : req.item;
  const item = owner !== null && spec && Number.isFinite(Number(spec.price))
    ? { label: String(spec.label || ""), price: Number(spec.price), currency: CURRENCIES.includes(spec.currency) ? spec.currency : null, code: spec.code || null } : null;
  T.sel = { kind: "pay", owner, square: item ? null : req.square, item, options, title: req.title || null, note: req.note || null, confirm: req.confirm || null, cards: [], sources: [] };
  if (options.length === 1) Object.assign(T.sel, pickIndices(options[0].cards));
  T.staged = null;
  render();
}

/** The codes `codes` of a payment as indices in my hand (`cards`) and in my money held outside
 * the hand (`sources`, view.seats[me].money_sources), each card or source once. */
export function pickIndices(codes) {
  const mine = T.msg.view.seats[me()];
  const hand = mine.hand || [];
  const held = mine.money_sources || [];
  const cards = [];
  const sources = [];
  for (const c of codes) {
    const i = hand.findIndex((x, k) => x === c && !cards.includes(k));
    if (i >= 0) { cards.push(i); continue; }
    const j = held.findIndex((x, k) => x.token === c && !sources.includes(k));
    if (j >= 0) sources.push(j);
  }
  return { cards, sources };
}

/** The codes a payment selection holds: the picked hand cards, then the picked money tokens. */
export function chosenCodes(sel) {
  const mine = T.msg.view.seats[me()];
  const hand = mine.hand || [];
  const held = mine.money_sources || [];
  return [...sel.cards.map((i) => hand[i]), ...(sel.sources || []).map((i) => (held[i] ? held[i].token : null)).filter(Boolean)];
}

/** The value of a card or of a money token (what the view says the viewer's source is worth). */
export function codeValue(code) {
  if (tokenOwner(code)) { const f = tokenFacts(code); return f ? f.value : 0; }
  return cardFacts(code, T.catalogue).value;
}

export const cardsValue = (cards) => cards.reduce((s, c) => s + codeValue(c), 0);

export function renderPay(v, sel, bar) {
  const sq = sel.item ? null : v.market[sel.square - 1];
  if (!sel.item && (!sq || !sq.tile)) return h("p", { class: "muted", text: "That market square is empty now." });
  const price = sel.item ? sel.item.price : tileFacts(sq.tile, T.catalogue).price;
  const currency = sel.item ? sel.item.currency : sq.currency;
  const outside = (v.seats[me()].money_sources || []).length ? ", your money outside it" : "";
  const options = sel.options.map((o) => {
    const total = cardsValue(o.cards);
    return { ...o, total, over: total - price };
  }).sort((a, b) => a.over - b.over || a.cards.length - b.cards.length);
  const chosen = chosenCodes(sel);
  const match = options.find((o) => sameMultiset(o.cards, chosen));
  const total = cardsValue(chosen);
  const core = sel.owner === null;
  const wrap = h("div", { class: "buy", dataset: { module: sel.owner } },
    h("p", {}, h("strong", { text: sel.title || `Buy ${sel.item ? sel.item.label : tileName(sq.tile)}` }),
      ` — price ${price}${currency ? ` ${CURRENCY_NAMES[currency]}` : ""}. ${sel.note || `Pick cards from your hand${outside} or a payment below.`}${core ? " An exact payment lets you act again." : ""}`),
    // at most 12 ways to pay are drawn, always with the one picked (a hint picks any of them)
    h("div", { class: "pay-options", role: "group", "aria-label": "Ways to pay" }, ...options.filter((o, i) => i < 12 || (match && match.action === o.action)).map((o) => {
      const how = o.over === 0 ? "exact" : `overpay ${o.over}`;
      return h("button", {
        class: `pay-option ${o.over === 0 ? "exact" : "over"} ${match && match.action === o.action ? "selected" : ""}`,
        dataset: { action: o.action },
        "aria-label": `Pay ${o.cards.map(cardName).join(" + ")} (${how})`,
        onclick: () => { Object.assign(sel, pickIndices(o.cards)); render(); },
      }, h("span", { class: "pay-cards" }, ...o.cards.map((c) => cardArt(c, 22))), h("em", { text: how }));
    })));
  const state = total === price ? `exact${core ? " — you may act again" : ""}` : total > price ? `overpaying by ${total - price}` : `${price - total} short`;
  wrap.append(h("p", { class: "pay-sum", text: chosen.length ? `Selected ${total} for ${price}: ${state}` : "No cards selected." }));
  if (match) {
    const text = sel.confirm || (match.over === 0 ? "Buy (exact)" : `Buy (overpay ${match.over})`);
    bar.append(h("button", { id: "btn-buy", class: "primary", dataset: { action: match.action }, text, onclick: () => choose(match.action, describeAction(match.action)) }));
  } else if (chosen.length) {
    wrap.append(h("p", { class: "muted", text: "These cards are not one of the ways to pay." }));
  }
  return wrap;
}

// ----- my hand
export function renderHand(v, seat) {
  const hand = v.seats[seat].hand || [];
  const sel = T.sel && T.sel.kind === "pay" ? T.sel : null;
  const usable = new Set(sel ? sel.options.flatMap((o) => o.cards) : []);
  const button = (c, i) => {
    const on = Boolean(sel) && sel.cards.includes(i);
    return h("button", {
      class: `hand-card ${on ? "selected" : ""}`,
      dataset: { code: c },
      "aria-pressed": on ? "true" : "false",
      "aria-label": cardName(c),
      title: cardName(c),
      disabled: !sel || !(on || usable.has(c)),
      onclick: () => {
        const k = sel.cards.indexOf(i);
        if (k >= 0) sel.cards.splice(k, 1); else sel.cards.push(i);
        render();
      },
    }, arrival(h("span", { class: "card-art" }, cardArt(c, 40)), `hand:${c}:${hand.slice(0, i).filter((x) => x === c).length}`));
  };
  // the four base currencies, then any currency a module adds (catalogue.extra_currencies), each its own group
  const currencies = [...CURRENCIES, ...((T.catalogue && T.catalogue.extra_currencies) || [])];
  const groups = currencies.map((cur) => {
    const idx = hand.map((c, i) => [c, i]).filter(([c]) => cardFacts(c, T.catalogue).currency === cur);
    if (!idx.length) return null;
    const total = idx.reduce((s, [c]) => s + cardFacts(c, T.catalogue).value, 0);
    const dim = sel && !idx.some(([c]) => usable.has(c));
    const colour = CURRENCY_COLORS[cur];
    return h("div", { class: `hand-group ${dim ? "dim" : ""} ${CURRENCIES.includes(cur) ? "" : "extra-currency"}`, dataset: { currency: cur } },
      h("div", { class: "hand-head", style: colour ? `color:${colour}` : null }, h("strong", { text: CURRENCY_NAMES[cur] || cur }), ` · ${total}`),
      h("div", { class: "hand-cards" }, ...idx.map(([c, i]) => button(c, i))));
  }).filter(Boolean);
  const other = hand.map((c, i) => [c, i]).filter(([c]) => !currencies.includes(cardFacts(c, T.catalogue).currency));
  const otherDim = sel && !other.some(([c]) => usable.has(c));
  const outside = renderOutside(v.seats[seat].money_sources || [], sel, usable);
  return h("div", { class: "panel hand" }, h("h2", { text: `Your hand (${hand.length})` }),
    groups.length || outside ? groups : h("p", { class: "muted", text: "No money." }),
    other.length ? h("div", { class: `hand-group special ${otherDim ? "dim" : ""}` }, h("div", { class: "hand-head", text: "Special cards" }),
      h("div", { class: "hand-cards" }, ...other.map(([c, i]) => button(c, i)))) : null,
    outside);
}

/** Money the viewer holds outside the hand (coins, a stored credit... : view.seats[me].money_sources),
 * drawn by the owning plug-in's cardArt (a generic coin otherwise) and picked for a payment like
 * hand cards (`sel.sources` holds their indices). */
export function renderOutside(sources, sel, usable) {
  if (!sources.length) return null;
  const chip = (src, i) => {
    const on = Boolean(sel) && sel.sources.includes(i);
    return h("button", {
      class: `hand-card money-source ${on ? "selected" : ""}`,
      dataset: { token: src.token, module: src.module, currency: src.currency },
      "aria-pressed": on ? "true" : "false",
      "aria-label": `${cardName(src.token)} (worth ${src.value})`,
      disabled: !sel || !(on || usable.has(src.token)),
      onclick: () => {
        const k = sel.sources.indexOf(i);
        if (k >= 0) sel.sources.splice(k, 1); else sel.sources.push(i);
        render();
      },
    }, cardArt(src.token, 40));
  };
  const total = sources.reduce((n, src) => n + src.value, 0);
  const dim = sel && !sources.some((src) => usable.has(src.token));
  return h("div", { class: `hand-group outside ${dim ? "dim" : ""}`, role: "group", "aria-label": "Money outside your hand" },
    h("div", { class: "hand-head" }, h("strong", { text: "Outside your hand" }), ` · ${total}`),
    h("div", { class: "hand-cards" }, ...sources.map(chip)));
}
