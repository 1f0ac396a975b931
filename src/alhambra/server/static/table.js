// The live table: the connection, the redraw of the whole table (wiring the parts), focus kept across redraws, the settings box, the supply and the score track.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ------------------------------------------------------------------------------ table page

import { CURRENCY_COLORS, CURRENCY_NAMES, bagSVG, cardBackSVG, h, learnKinds, markerSVG } from "./art.js";
import { autoPick, renderActionPanel } from "./actions.js";
import { recentChanges, renderCities } from "./board.js";
import { pluginContext } from "./context.js";
import { SEAT_COLORS, api, gameTitle, header, setPhase, wallName } from "./core.js";
import { renderModal, renderRounds } from "./dialogs.js";
import { renderHand, startPayment } from "./hand.js";
import { decorate as decorateHint } from "./hint.js";
import { renderLog } from "./log.js";
import { legal, onlyPass, send } from "./moves.js";
import { cardArt, cardName, loadPlugins, moduleControls, modulePanels, seatBadges, setPluginContext, tileArt, tileName } from "./plugins.js";
import { SETTINGS, T, arrival, isMyTurn, me, notify, render, seatName, setRenderer } from "./state.js";

// the parts below ask for a redraw (state.js) and give plug-ins their context (context.js)
setRenderer(renderTable);
setPluginContext(pluginContext);

export function tokenFromHash() {
  const m = /(?:^|[#&])seat=([A-Za-z0-9_-]{8,128})/.exec(location.hash);
  return m ? m[1] : null;
}

export async function tablePage(id) {
  document.body.dataset.page = "table";
  T.id = id;
  T.token = tokenFromHash();
  setPhase("loading");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "table" }, h("p", { text: "Connecting…" })));
  try {
    const [catalogue, info, modules] = await Promise.all([
      api("GET", `/api/tables/${id}/catalogue`), api("GET", `/api/tables/${id}`), api("GET", "/api/modules")]);
    T.catalogue = catalogue;
    learnKinds(catalogue);
    T.moduleInfo = Object.fromEntries(modules.map((m) => [m.id, m]));
    await loadPlugins(info.modules, T.moduleInfo);
  } catch (e) {
    root.replaceChildren(header(), h("main", {}, h("p", { class: "error", role: "alert", text: e.message }), h("a", { href: "/", text: "Back to the lobby" })));
    setPhase("error");
    return;
  }
  document.addEventListener("keydown", (ev) => {
    trapTab(ev);
    if (ev.key === "Escape" && T.msg) { T.sel = null; T.staged = null; T.modal = null; T.placeCleared = true; render(); }
  });
  connect();
}

export function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/tables/${T.id}`);
  T.ws = ws;
  ws.addEventListener("open", () => {
    T.retry = 0;
    const hello = { type: "hello" };
    if (T.token) hello.token = T.token;
    if (T.epoch !== null) { hello.epoch = T.epoch; hello.events = T.events.length; }
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (ev) => {
    let msg;
    try { msg = JSON.parse(ev.data); } catch (_) { return; }
    if (msg.type === "error") {
      if (msg.status === 401 || msg.status === 403 || msg.status === 404 || msg.status === 410) {
        T.fatal = msg.detail;
        if (msg.status === 410) T.msg = null; // the table was deleted: nothing left to show but why
        render();
      } else {
        notify(msg.detail, true);
      }
      return;
    }
    if (msg.type !== "state" && msg.type !== "update") return;
    if (msg.type === "state" || msg.epoch !== T.epoch) T.events = msg.events.slice();
    else if (msg.event_start === T.events.length) T.events = T.events.concat(msg.events);
    else { T.epoch = null; ws.close(); return; }
    const prevVersion = T.msg ? T.msg.version : -1;
    T.epoch = msg.epoch;
    T.msg = msg;
    if (T.catalogue) T.catalogue.walls_now = msg.view.walls || {}; // walls a module changed (art.js tileFacts)
    if (msg.version !== prevVersion) { T.sel = null; T.staged = null; T.placeCleared = false; }
    afterUpdate();
    render();
    autoPass();
  });
  ws.addEventListener("close", () => {
    if (T.fatal) return;
    T.retry = Math.min(T.retry + 1, 6);
    T.reconnecting = true;
    render();
    setTimeout(() => { T.reconnecting = false; connect(); }, 300 * T.retry);
  });
}

export function afterUpdate() {
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (T.seenRounds === 0 && T.firstLoadDone !== true) {
    T.seenRounds = rounds.length; // do not pop up old rounds on (re)load
  } else if (rounds.length > T.seenRounds) {
    T.seenRounds = rounds.length;
    T.modal = { kind: "round", round: rounds[rounds.length - 1] };
  }
  if (T.msg.table.status === "finished" && !T.ended) {
    T.ended = true;
    T.modal = { kind: "summary" };
  }
  T.firstLoadDone = true;
}

/** A decision whose only answer is Pass is not asked: the table passes for the player, once
 * per version, and says so (the log shows it too). */
export function autoPass() {
  const pass = onlyPass();
  if (!pass || T.autoPassed === T.msg.version) return;
  T.autoPassed = T.msg.version;
  T.autoPasses = (T.autoPasses || 0) + 1;
  document.body.dataset.autoPasses = String(T.autoPasses);
  const what = T.msg.view.pending && T.msg.view.pending.type ? T.msg.view.pending.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase() : "decision";
  notify(`Nothing to choose (${what}): you pass.`);
  send(pass);
}

// ------------------------------------------------------------------------------ render
/** Draw the whole table (wired as the redraw of state.js: the parts call render()). */
export function renderTable() {
  const root = document.getElementById("app");
  const settings = root.querySelector(".settings");
  if (settings) T.settingsOpen = settings.open; // the settings stay open across the redraw
  if (!T.msg) {
    root.replaceChildren(header(), h("main", { class: "table" }, h("p", { class: T.fatal ? "error" : "", role: T.fatal ? "alert" : null, text: T.fatal || "Connecting…" })));
    return;
  }
  const msg = T.msg;
  const v = msg.view;
  const seat = me();
  const status = msg.table.status;
  const myTurn = isMyTurn();
  const needsJoin = seat !== null && !msg.table.seats[seat].joined;
  const passing = Boolean(onlyPass());
  setPhase(status === "finished" ? "over" : needsJoin ? "join" : status === "waiting" ? "waiting" : passing ? "passing" : myTurn ? "my-turn" : "their-turn");
  document.body.dataset.version = String(msg.version);
  document.body.dataset.pending = v.pending ? v.pending.type : "";
  const title = msg.table.name || `Table ${msg.table.id.slice(0, 6)}`;
  const statusLine = status === "finished" ? "Game over" : status === "waiting" ? "Waiting for players to join" :
    myTurn ? (v.pending && v.pending.type !== "ChooseAction" && v.pending.type !== "PlaceTiles" ? "Your decision" : "Your turn") :
    v.to_act !== null ? `${seatName(v.to_act)} is playing` : "";
  const top = header(h("div", { class: "top-info" },
    h("span", { class: "t-title", text: title }),
    h("span", { class: `t-status ${myTurn ? "mine" : ""}`, id: "status-line", "aria-live": "polite", title: `Turn ${v.turn} · ${statusLine}`, text: `Turn ${v.turn} · ${statusLine}` }),
    seat === null ? h("span", { class: "badge", text: "Spectator" }) : h("span", { class: "badge", text: `You: ${seatName(seat)}` }),
    T.reconnecting ? h("span", { class: "badge warn", text: "Connection lost: reconnecting…" }) : null,
    renderSettings()));
  autoPick(v, myTurn); // the first waiting tile is picked before the plug-ins are asked (ctx.picked)
  const controls = moduleControls(v, myTurn);
  T.nextKnown = new Set();
  const main = h("main", { class: "table-grid" },
    h("section", { class: "col-left" }, renderSupply(v, controls), renderScores(v)),
    h("section", { class: "col-center" }, renderActionPanel(v, myTurn, controls), renderCities(v, controls)),
    // the log has a pane of its own below the hand and the module panels (which scroll apart)
    h("section", { class: "col-right" },
      h("div", { class: "col-right-panels" }, seat !== null ? renderHand(v, seat) : null, ...modulePanels(controls), renderRounds()),
      renderLog()));
  const parts = [top, main];
  if (T.notice) parts.push(h("div", { class: `toast ${T.notice.isError ? "error" : ""}`, role: "alert", text: T.notice.text }));
  if (needsJoin) parts.push(renderJoin(seat));
  else if (T.modal) parts.push(renderModal());
  const hadModal = Boolean(root.querySelector(".modal"));
  const focused = focusKey(document.activeElement);
  const logBox = document.getElementById("log-list");
  const logAtEnd = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 4;
  const panesBox = root.querySelector(".col-right-panels");
  const panesTop = panesBox ? panesBox.scrollTop : 0;
  root.replaceChildren(...parts);
  showActingPanel(panesTop);
  T.known = T.nextKnown;
  restoreFocus(focused, hadModal);
  decorateHint(msg.version);
  const log = document.getElementById("log-list");
  if (log && logAtEnd) log.scrollTop = log.scrollHeight;
  const game = gameTitle();
  document.title = status === "finished" ? `Game over · ${title} · ${game}` : myTurn ? `▶ Your turn · ${title} · ${game}` : `${title} · ${game}`;
  if (myTurn && !T.wasMyTurn) turnSound();
  // on a phone the page was scrolled down to my Alhambra: my turn is over, back to the top
  // (also when the others' moves came so fast that no update showed their turn: a new turn number)
  const turnOver = T.wasMyTurn && (!myTurn || (T.myTurnNo !== undefined && v.turn !== T.myTurnNo));
  if (turnOver && window.matchMedia && window.matchMedia("(max-width: 760px)").matches) window.scrollTo({ top: 0 });
  T.wasMyTurn = myTurn;
  T.myTurnNo = myTurn ? v.turn : undefined;
}

/** The right-hand pane of the hand and the module panels keeps its scroll across the redraw,
 * except that a module panel offering the viewer a move (`.acting`, the first of them) is
 * scrolled into the pane when it is out of sight. */
export function showActingPanel(top) {
  const pane = document.querySelector(".col-right-panels");
  if (!pane) return;
  pane.scrollTop = top;
  const panel = pane.querySelector(".module-panel.acting");
  if (!panel || pane.scrollHeight <= pane.clientHeight) return;
  const box = pane.getBoundingClientRect();
  const r = panel.getBoundingClientRect();
  // as little as needed (the hand above stays in sight as far as it can): its top, or all of it
  if (r.top < box.top) pane.scrollTop += r.top - box.top - 4;
  else if (r.top + Math.min(r.height, box.height) > box.bottom + 1) pane.scrollTop += r.top + Math.min(r.height, box.height) - box.bottom + 4;
}

// ----- keyboard focus: kept across redraws by a stable key, trapped in dialogs
export const FOCUSABLE = "button:not([disabled]), a[href], input:not([disabled]), select:not([disabled]), textarea, summary, [tabindex]:not([tabindex='-1'])";
export const KEY_DATA = ["key", "square", "slot", "code", "tile", "token", "x", "y", "seat", "round", "action", "kind", "currency", "option"];

/** A key naming a control across redraws: its id, else its tag, first class and identifying
 * data attributes (the square, the card, the tile, the place...), else its text; with the
 * occurrence number among controls of the same key (two equal cards in a hand). */
export function focusKey(el) {
  if (!el || el === document.body || !el.isConnected || !document.getElementById("app").contains(el)) return null;
  const base = baseKey(el);
  let nth = 0;
  for (const other of document.getElementById("app").querySelectorAll(FOCUSABLE)) {
    if (other === el) break;
    if (baseKey(other) === base) nth += 1;
  }
  return { base, nth, inModal: Boolean(el.closest(".modal")) };
}

export function baseKey(el) {
  if (el.id) return `#${el.id}`;
  const cls = (el.getAttribute("class") || "").split(/\s+/).filter(Boolean)[0] || "";
  const data = KEY_DATA.filter((k) => el.dataset && el.dataset[k] !== undefined).map((k) => `${k}=${el.dataset[k]}`).join("|");
  return `${el.tagName}.${cls}[${data || (el.textContent || "").trim().slice(0, 60)}]`;
}

export function findByKey(key) {
  if (!key) return null;
  let nth = key.nth;
  let last = null;
  for (const el of document.getElementById("app").querySelectorAll(FOCUSABLE)) {
    if (baseKey(el) !== key.base) continue;
    last = el;
    if (nth === 0) return el;
    nth -= 1;
  }
  return last; // fewer equal controls now (a card was spent): the last of them
}

/** After a redraw: focus what had it (by key); in a dialog that just opened its first control
 * (the dialog's `data-autofocus` one first), remembering what to return to; when a dialog
 * closed, what had focus before it; when the focused control is gone, the action panel. */
export function restoreFocus(key, hadModal) {
  const modal = document.querySelector("#app .modal");
  if (modal) {
    if (!hadModal) T.returnFocus = key;
    const again = findByKey(key);
    if (again && modal.contains(again)) { again.focus(); return; }
    const first = modal.querySelector("[data-autofocus]") || modal.querySelector(FOCUSABLE);
    // a dialog opens at its top (the winner, the ranking); its buttons stay in view at the bottom
    if (first) first.focus({ preventScroll: !hadModal });
    if (!hadModal) modal.scrollTop = 0;
    return;
  }
  if (hadModal) {
    const back = findByKey(T.returnFocus) || fallbackFocus();
    T.returnFocus = null;
    if (back) back.focus();
    return;
  }
  if (!key) return;
  const again = findByKey(key) || fallbackFocus();
  if (again) again.focus();
}

/** Where focus goes when the focused control disappeared: the next step in the action panel. */
export function fallbackFocus() {
  const panel = document.getElementById("action-panel");
  if (!panel) return null;
  return panel.querySelector("#btn-confirm, .button-row .primary:not([disabled])") || panel;
}

/** Keep Tab inside an open dialog (it cycles through the dialog's controls). */
export function trapTab(ev) {
  if (ev.key !== "Tab") return;
  const modal = document.querySelector("#app .modal");
  if (!modal) return;
  const items = [...modal.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);
  if (!items.length) return;
  const first = items[0], last = items[items.length - 1];
  const inside = modal.contains(document.activeElement);
  if (ev.shiftKey && (!inside || document.activeElement === first)) { ev.preventDefault(); last.focus(); }
  else if (!ev.shiftKey && (!inside || document.activeElement === last)) { ev.preventDefault(); first.focus(); }
}

/** A short chime when it becomes your turn (only with the "sound" setting on). */
export function turnSound() {
  if (!SETTINGS.sound || !T.firstRenderDone) { T.firstRenderDone = true; return; }
  try {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    T.audio ||= new Ctx();
    const ctx = T.audio;
    const o = ctx.createOscillator(), g = ctx.createGain();
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.0001, ctx.currentTime);
    g.gain.exponentialRampToValueAtTime(0.2, ctx.currentTime + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + 0.35);
    o.connect(g).connect(ctx.destination);
    o.start();
    o.stop(ctx.currentTime + 0.4);
    T.chimes = (T.chimes || 0) + 1;
    document.body.dataset.chimes = String(T.chimes);
  } catch (_) {
    // no audio device: the tab title still says it is your turn
  }
}

export function setSetting(key, on) {
  SETTINGS[key] = on;
  try { localStorage.setItem(`alhambra.${key}`, on ? "1" : "0"); } catch (_) { /* private mode: this page only */ }
  render();
}

export function renderSettings() {
  const box = (key, label) => h("label", { class: "setting" },
    h("input", { type: "checkbox", id: `set-${key}`, checked: SETTINGS[key], onchange: (ev) => setSetting(key, ev.target.checked) }), ` ${label}`);
  return h("details", { class: "settings", open: T.settingsOpen },
    h("summary", { id: "settings-toggle", title: "Settings" }, h("span", { class: "settings-word", text: "Settings" })),
    h("div", { class: "settings-box" }, box("notation", "Show notation in the log"), box("sound", "Sound when it is your turn"), box("motion", "Animate moves")));
}

export function renderJoin(seat) {
  const s = T.msg.table.seats[seat];
  const name = h("input", { id: "join-name", type: "text", maxlength: 40, value: T.joinName ?? (s.name || ""), placeholder: "Your name (optional)", "aria-label": "Your name", "data-autofocus": true,
    oninput: (ev) => { T.joinName = ev.target.value; } });
  const go = async (ev) => {
    ev.preventDefault();
    try {
      await api("POST", `/api/tables/${T.id}/join`, name.value.trim() ? { name: name.value.trim() } : {}, T.token);
    } catch (e) {
      notify(e.message, true);
    }
  };
  return h("div", { class: "modal-back" }, h("form", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "join-title", onsubmit: go },
    h("h2", { id: "join-title", text: `Take seat ${seat + 1}` }),
    h("p", { text: "This link is your key to the seat. The game starts when every player has joined." }),
    name, h("button", { type: "submit", id: "btn-join", class: "primary", text: "Join the game" })));
}

// ----- supply: market, display, piles, scoring progress
export function renderSupply(v, controls) {
  const acts = legal();
  const recent = recentChanges();
  const market = h("div", { class: "market", role: "group", "aria-label": "Market" }, ...v.market.map((sq) => {
    const buys = acts.filter((a) => a.type === "buy" && a.square === sq.square);
    const offer = buys.length ? null : controls.squares.get(sq.square) || null;
    const selected = T.sel && T.sel.kind === "pay" && T.sel.square === sq.square;
    const back = sq.tile && sq.back ? `; its other side: ${tileName(sq.back)}` : "";
    const label = sq.tile ? `Market square ${sq.square}: ${tileName(sq.tile)}, paid in ${CURRENCY_NAMES[sq.currency]} (${sq.currency})${back}` : `Market square ${sq.square}: empty`;
    const hint = buys.length ? " — you can buy it" : offer ? ` — ${offer.label || "you can choose it"}` : "";
    return h("button", {
      class: `market-square ${buys.length || offer ? "affordable" : ""} ${selected ? "selected" : ""} ${recent.squares.has(sq.square) ? "recent" : ""}`,
      dataset: { square: sq.square, currency: sq.currency, module: offer ? offer.owner : null },
      style: `--cur:${CURRENCY_COLORS[sq.currency]}`,
      "aria-label": label + hint + (recent.squares.has(sq.square) ? " (new this turn)" : ""),
      title: `${sq.tile ? `${tileName(sq.tile)}, ${CURRENCY_NAMES[sq.currency]} square${back}` : `Empty ${CURRENCY_NAMES[sq.currency]} square`}${offer && offer.label ? ` — ${offer.label}` : hint}${recent.squares.has(sq.square) ? " (new this turn)" : ""}`,
      "aria-pressed": selected ? "true" : "false",
      disabled: !buys.length && !offer,
      onclick: () => {
        if (selected) { T.sel = null; T.staged = null; render(); }
        else if (buys.length) startPayment(null, { square: sq.square });
        else offer.pick();
      },
    }, h("span", { class: "cur-band", text: CURRENCY_NAMES[sq.currency] }), sq.tile ? arrival(h("span", { class: "sq-art" }, tileArt(sq.tile, 66, { backMark: Boolean(sq.back) })), `sq:${sq.square}:${sq.tile}`) : h("span", { class: "empty-slot", text: "—" }));
  }));
  const takes = acts.filter((a) => a.type === "take");
  const picked = T.sel && T.sel.kind === "take" ? T.sel.cards : [];
  const display = h("div", { class: "display", role: "group", "aria-label": "Face-up money" }, ...v.display.map((code, i) => {
    if (!code) return h("span", { class: "card-slot empty", text: "" });
    const on = picked.includes(i);
    const can = takes.some((a) => a.cards.includes(code));
    const offer = can ? null : controls.cards.get(i + 1) || null;
    return h("button", {
      class: `display-card ${on ? "selected" : ""} ${can ? "takeable" : ""} ${offer ? "offered" : ""} ${recent.slots.has(i + 1) ? "recent" : ""}`,
      dataset: { code, slot: i + 1, module: offer ? offer.owner : null },
      "aria-label": `Face-up card: ${cardName(code)}${offer ? ` — ${offer.label || "you can choose it"}` : ""}`,
      title: `${cardName(code)}${offer && offer.label ? ` — ${offer.label}` : ""}${recent.slots.has(i + 1) ? " (new this turn)" : ""}`,
      "aria-pressed": on ? "true" : "false",
      disabled: !can && !offer,
      onclick: () => {
        if (offer) { offer.pick(); return; }
        const cur = T.sel && T.sel.kind === "take" ? T.sel.cards.slice() : [];
        const k = cur.indexOf(i);
        if (k >= 0) cur.splice(k, 1); else cur.push(i);
        T.sel = cur.length ? { kind: "take", cards: cur } : null;
        T.staged = null;
        render();
      },
    }, arrival(h("span", { class: "card-art" }, cardArt(code, 46)), `slot:${i}:${code}`));
  }));
  const drawn = v.scoring_cards_drawn;
  const progress = h("div", { class: "progress", "aria-label": `Scoring cards drawn: ${drawn} of 2; scoring rounds done: ${v.rounds_scored} of 3` },
    h("span", { text: "Scoring" }),
    ...[1, 2, 3].map((r) => h("span", { class: `round-dot ${v.rounds_scored >= r ? "done" : ""}`, title: `Scoring round ${r}`, text: String(r) })));
  return h("div", { class: "panel supply" },
    v.market_face ? h("div", { class: "market-head" }, h("h2", { text: "Market" }), marker(v.market_face)) : h("h2", { text: "Market" }), market,
    h("h2", { text: "Money" }), display,
    h("div", { class: "piles" },
      h("span", { class: "pile", title: "Draw pile" }, cardBackSVG(26), h("span", { id: "deck-count", text: `${v.deck_count} cards` })),
      h("span", { class: "pile", title: "Tile bag" }, bagSVG(26), h("span", { id: "bag-count", text: `${v.bag_count} tiles` })),
      progress));
}

/** Granada's black marker beside the market: which face the next refill shows. */
export function marker(face) {
  const odd = face === "odd";
  return h("span", {
    class: "market-marker", id: "market-marker", dataset: { face },
    title: `The black marker shows the ${face} side: tiles come into the market with their ${odd ? "backs up (odd prices 3-13)" : "fronts up (even prices 2-12)"}. It turns over each time the market has been completely restocked.`,
  }, markerSVG(face, 30), h("span", { class: "marker-text", text: odd ? "Refill: backs (odd)" : "Refill: fronts (even)" }));
}

// ----- score track
export function renderScores(v) {
  const rows = v.seats.map((s) => ({ seat: s.seat, name: seatName(s.seat), score: s.score, hand: s.hand_count, wall: s.longest_wall }));
  if (v.neutral) rows.push({ seat: -1, name: "Dirk (neutral)", score: v.neutral.score, hand: null, wall: null });
  const max = Math.max(10, ...rows.map((r) => r.score));
  return h("div", { class: "panel scores" }, h("h2", { text: "Scores" }),
    h("ol", { class: "score-track" }, ...rows.map((r) => h("li", { class: `${r.seat === v.to_act ? "to-act" : ""} ${r.seat === me() ? "me" : ""}`, dataset: { seat: r.seat } },
      h("span", { class: "swatch", style: `background:${r.seat < 0 ? "#999" : SEAT_COLORS[r.seat]}` }),
      h("span", { class: "s-name", text: r.name }),
      h("span", { class: "bar" }, h("span", { class: "fill", style: `width:${Math.round((100 * r.score) / max)}%;background:${r.seat < 0 ? "#999" : SEAT_COLORS[r.seat]}` })),
      h("strong", { class: "s-score", text: String(r.score) }),
      r.hand !== null ? h("span", { class: "s-meta" }, h("span", { text: `${r.hand} cards · ${wallName()} ${r.wall}` }), seatBadges(r.seat)) : null))));
}
