// The Alhambra table in the browser: lobby (create / join tables) and the live table.
// The server is the single source of truth: every move offered here is one of the view's
// legal_actions, sent back as notation. Names and texts are always inserted as text.

import {
  KIND_NAMES, CURRENCY_COLORS, CURRENCY_NAMES, bagSVG, cardBackSVG, cardFacts, cardSVG,
  logoSVG, svgEl, tileFacts, tileGroup, tileLabel, tileSVG,
} from "./art.js";

// ------------------------------------------------------------------------------ helpers
function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = String(v);
    else if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k === "style") {
      // CSSOM, not the style attribute: the page's Content-Security-Policy forbids inline styles
      for (const part of String(v).split(";")) {
        const i = part.indexOf(":");
        if (i > 0) el.style.setProperty(part.slice(0, i).trim(), part.slice(i + 1).trim());
      }
    }
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return el;
}

async function api(method, path, body, token) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await res.json();
  } catch (_) {
    data = null;
  }
  if (!res.ok) {
    const err = new Error((data && data.detail) || `request failed (${res.status})`);
    err.status = res.status;
    throw err;
  }
  return data;
}

const CURRENCIES = ["blue", "green", "orange", "yellow"];
const KINDS = ["pavilion", "seraglio", "arcades", "chambers", "garden", "tower"];
const SEAT_COLORS = ["#d1495b", "#2e86ab", "#e09f3e", "#3a7d44", "#7b5ea7", "#5c5c5c"];

/** Parse one action line into a description the table can present (never a rule check). */
function parseAction(text) {
  const w = text.split(/\s+/);
  const cards = (s) => (s ? s.split("+") : []);
  const xy = (s) => { const [x, y] = s.split(",").map(Number); return { x, y }; };
  if (w[0] === "take") return { type: "take", cards: cards(w[1]), text };
  if (w[0] === "buy") return { type: "buy", square: Number(w[1]), cards: cards(w[2]), text };
  if (w[0] === "place") {
    const target = w[2];
    if (target === "reserve" || target === "neutral") return { type: "place", tile: w[1], target, text };
    return { type: "place", tile: w[1], target: "spot", ...xy(target), text };
  }
  if (w[0] === "redesign" && w[1] === "build") return { type: "rbuild", tile: w[2], ...xy(w[3]), text };
  if (w[0] === "redesign" && w[1] === "remove") return { type: "rremove", tile: w[2], text };
  if (w[0] === "redesign" && w[1] === "exchange") return { type: "rexchange", tile: w[2], other: w[3], text };
  if (w[0] === "end") return { type: "end", text };
  return { type: "other", text };
}

const sameMultiset = (a, b) => a.length === b.length && [...a].sort().join("+") === [...b].sort().join("+");

// ------------------------------------------------------------------------------ routing
function start() {
  const m = /^\/table\/([A-Za-z0-9]{1,32})\/?$/.exec(location.pathname);
  if (m) tablePage(m[1]);
  else lobby();
}

function setPhase(phase) {
  document.body.dataset.phase = phase;
}

function header(extra) {
  return h("header", { class: "topbar" },
    h("a", { href: "/", class: "brand", "aria-label": "Alhambra lobby" }, logoSVG(32), h("span", { text: "Alhambra" })),
    extra || null);
}

// ------------------------------------------------------------------------------ lobby
async function lobby() {
  setPhase("lobby");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { text: "Loading…" })));
  let modules = [];
  let bots = [];
  try {
    [modules, bots] = await Promise.all([api("GET", "/api/modules"), api("GET", "/api/bots")]);
  } catch (e) {
    root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { class: "error", text: e.message })));
    return;
  }
  const seatsBox = h("div", { class: "seat-rows" });
  const count = h("select", { id: "seat-count", "aria-label": "Number of players" },
    ...[2, 3, 4, 5, 6].map((n) => h("option", { value: n, text: `${n} players` })));
  const makeRow = (i) => {
    const kind = h("select", { class: "seat-kind", "aria-label": `Seat ${i + 1}: person or bot` },
      h("option", { value: "person", text: "Person" }), h("option", { value: "bot", text: "Bot" }));
    const level = h("select", { class: "seat-bot", "aria-label": `Seat ${i + 1}: bot level` },
      ...bots.map((b) => h("option", { value: b.id, text: `${b.label} — ${b.description}` })));
    level.value = "greedy";
    const name = h("input", { class: "seat-name", type: "text", maxlength: 40, placeholder: i === 0 ? "Your name (optional)" : "Name (optional)", "aria-label": `Seat ${i + 1}: name` });
    if (i > 0) kind.value = "bot";
    const sync = () => { level.hidden = kind.value !== "bot"; };
    kind.addEventListener("change", sync);
    sync();
    return h("div", { class: "seat-row" }, h("span", { class: "seat-no", text: `Seat ${i + 1}` }), kind, level, name);
  };
  const rows = [];
  const syncRows = () => {
    const n = Number(count.value);
    while (rows.length < n) rows.push(makeRow(rows.length));
    seatsBox.replaceChildren(...rows.slice(0, n));
  };
  count.addEventListener("change", syncRows);
  syncRows();
  const modBoxes = modules.map((m) =>
    h("label", { class: "module" }, h("input", { type: "checkbox", value: m.id }),
      h("span", {}, h("strong", { text: m.title }), " — ", m.description)));
  const tableName = h("input", { id: "table-name", type: "text", maxlength: 40, placeholder: "Table name (optional)", "aria-label": "Table name" });
  const pub = h("input", { id: "table-public", type: "checkbox" });
  const out = h("div", { class: "created", "aria-live": "polite" });
  const create = async (ev) => {
    ev.preventDefault();
    const n = Number(count.value);
    const seats = rows.slice(0, n).map((r) => {
      const kind = r.querySelector(".seat-kind").value;
      const name = r.querySelector(".seat-name").value.trim();
      const s = { kind };
      if (kind === "bot") s.bot = r.querySelector(".seat-bot").value;
      if (name) s.name = name;
      return s;
    });
    const body = { seats, modules: modBoxes.map((l) => l.querySelector("input")).filter((i) => i.checked).map((i) => i.value), public: pub.checked };
    if (tableName.value.trim()) body.name = tableName.value.trim();
    try {
      const res = await api("POST", "/api/tables", body);
      showCreated(out, res);
    } catch (e) {
      out.replaceChildren(h("p", { class: "error", role: "alert", text: e.message }));
    }
  };
  const form = h("form", { class: "panel create-form", onsubmit: create },
    h("h2", { text: "New table" }),
    h("label", { class: "row" }, "Players ", count),
    seatsBox,
    h("fieldset", { class: "modules" }, h("legend", { text: "Big Box modules" }), ...modBoxes),
    h("label", { class: "row" }, tableName),
    h("label", { class: "row" }, pub, " List this table so anyone can take a free seat"),
    h("button", { type: "submit", id: "btn-create", class: "primary", text: "Create table" }));
  const openList = h("div", { class: "open-list" });
  const refresh = async () => {
    try {
      const [open, playing] = await Promise.all([api("GET", "/api/tables?which=open"), api("GET", "/api/tables?which=playing")]);
      const item = (t, joinable) => h("li", {},
        h("span", { class: "t-name", text: t.name || `Table ${t.id.slice(0, 6)}` }),
        h("span", { class: "t-seats", text: t.seats.map((s) => s.name || (s.kind === "bot" ? "bot" : "free seat")).join(", ") }),
        joinable ? h("button", { class: "small", text: "Take a seat", onclick: () => claim(t.id) }) : null,
        h("a", { href: `/table/${t.id}`, class: "small-link", text: "Watch" }));
      openList.replaceChildren(
        h("h3", { text: "Open tables" }),
        open.length ? h("ul", {}, ...open.map((t) => item(t, true))) : h("p", { class: "muted", text: "No open tables right now." }),
        h("h3", { text: "Games in progress" }),
        playing.length ? h("ul", {}, ...playing.map((t) => item(t, false))) : h("p", { class: "muted", text: "None." }));
    } catch (e) {
      openList.replaceChildren(h("p", { class: "error", text: e.message }));
    }
  };
  const claim = async (id) => {
    const name = prompt("Your name (optional)") || undefined;
    try {
      const res = await api("POST", `/api/tables/${id}/join`, name ? { name } : {});
      location.assign(`/table/${id}#seat=${res.token}`);
    } catch (e) {
      alert(e.message);
    }
  };
  root.replaceChildren(header(), h("main", { class: "lobby" },
    h("section", { class: "intro" }, h("h1", { text: "Alhambra" }),
      h("p", { text: "Build the most splendid Alhambra. Create a table, send each player their secret link, and put bots in any seat." })),
    form, out, h("section", { class: "panel" }, openList)));
  refresh();
}

function showCreated(out, res) {
  const items = res.seats.map((s) => {
    if (s.kind !== "person") return h("li", {}, h("strong", { text: `Seat ${s.seat + 1}` }), ` — ${s.name} (bot)`);
    const input = h("input", { type: "text", readonly: true, value: s.invite_url, "aria-label": `Invitation link for seat ${s.seat + 1}` });
    return h("li", {}, h("strong", { text: `Seat ${s.seat + 1}` }), s.name ? ` — ${s.name} ` : " ",
      input,
      h("button", { type: "button", class: "small", text: "Copy", onclick: () => { input.select(); navigator.clipboard && navigator.clipboard.writeText(s.invite_url).catch(() => {}); } }),
      h("a", { href: s.invite_url, class: "play-link", dataset: { seat: s.seat }, text: `Play seat ${s.seat + 1}` }));
  });
  out.replaceChildren(h("section", { class: "panel" },
    h("h2", { text: "Table created" }),
    h("p", { text: "Each link is the secret key to one seat: send it only to that player. The server keeps no copy of it." }),
    h("ul", { class: "links" }, ...items),
    h("p", {}, "Spectators: ", h("a", { href: res.spectator_url, text: res.spectator_url }))));
}

// ------------------------------------------------------------------------------ table page
const T = {
  id: null, token: null, msg: null, events: [], epoch: null, catalogue: null, sel: null, staged: null,
  ws: null, retry: 0, boxes: {}, seenRounds: 0, busy: false, notice: null, modal: null, ended: false,
};

function tokenFromHash() {
  const m = /(?:^|[#&])seat=([A-Za-z0-9_-]{8,128})/.exec(location.hash);
  return m ? m[1] : null;
}

async function tablePage(id) {
  T.id = id;
  T.token = tokenFromHash();
  setPhase("loading");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "table" }, h("p", { text: "Connecting…" })));
  try {
    T.catalogue = await api("GET", `/api/tables/${id}/catalogue`);
  } catch (e) {
    root.replaceChildren(header(), h("main", {}, h("p", { class: "error", role: "alert", text: e.message }), h("a", { href: "/", text: "Back to the lobby" })));
    setPhase("error");
    return;
  }
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") { T.sel = null; T.staged = null; T.modal = null; render(); }
  });
  connect();
}

function connect() {
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
      if (msg.status === 401 || msg.status === 403 || msg.status === 404) {
        T.fatal = msg.detail;
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
    if (msg.version !== prevVersion) { T.sel = null; T.staged = null; }
    afterUpdate();
    render();
  });
  ws.addEventListener("close", () => {
    if (T.fatal) return;
    T.retry = Math.min(T.retry + 1, 6);
    T.reconnecting = true;
    render();
    setTimeout(() => { T.reconnecting = false; connect(); }, 300 * T.retry);
  });
}

function afterUpdate() {
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

function notify(text, isError = false) {
  T.notice = { text, isError };
  render();
  clearTimeout(T.noticeTimer);
  T.noticeTimer = setTimeout(() => { T.notice = null; render(); }, 5000);
}

function me() { return T.msg ? T.msg.seat : null; }
function seatName(seat) {
  if (seat === -1) return "Dirk";
  const s = T.msg && T.msg.table.seats[seat];
  if (!s) return `Player ${seat + 1}`;
  return s.name || `Player ${seat + 1}`;
}
function eventText(text) {
  return text.replace(/player (\d+)/g, (_, n) => seatName(Number(n) - 1));
}

async function send(action) {
  if (T.busy) return;
  T.busy = true;
  try {
    // the selection is cleared by the update that carries the new version (it may arrive
    // before this response does, and the next move may already be under way)
    await api("POST", `/api/tables/${T.id}/actions`, { action, version: T.msg.version }, T.token);
  } catch (e) {
    notify(e.message, true);
  } finally {
    T.busy = false;
  }
}

async function undo() {
  try {
    await api("POST", `/api/tables/${T.id}/undo`, { version: T.msg.version }, T.token);
  } catch (e) {
    notify(e.message, true);
  }
}

/** Choose an action: final ones (end the turn, reveal something) wait for an explicit confirmation. */
function choose(action, label) {
  if (!T.msg.view.legal_actions.includes(action)) { notify("That move is not possible now.", true); return; }
  if (T.msg.final_actions.includes(action)) {
    T.staged = { action, label };
    render();
    const b = document.getElementById("btn-confirm");
    if (b) b.focus();
  } else {
    send(action);
  }
}

function legal() {
  return T.msg ? T.msg.view.legal_actions.map(parseAction) : [];
}

// ------------------------------------------------------------------------------ render
function render() {
  const root = document.getElementById("app");
  if (!T.msg) {
    root.replaceChildren(header(), h("main", { class: "table" }, h("p", { class: T.fatal ? "error" : "", role: T.fatal ? "alert" : null, text: T.fatal || "Connecting…" })));
    return;
  }
  const msg = T.msg;
  const v = msg.view;
  const seat = me();
  const status = msg.table.status;
  const myTurn = seat !== null && v.to_act === seat && status === "playing";
  const needsJoin = seat !== null && !msg.table.seats[seat].joined;
  setPhase(status === "finished" ? "over" : needsJoin ? "join" : status === "waiting" ? "waiting" : myTurn ? "my-turn" : "their-turn");
  document.body.dataset.version = String(msg.version);
  document.body.dataset.pending = v.pending ? v.pending.type : "";
  const title = msg.table.name || `Table ${msg.table.id.slice(0, 6)}`;
  const statusLine = status === "finished" ? "Game over" : status === "waiting" ? "Waiting for players to join" :
    myTurn ? (v.pending && v.pending.type !== "ChooseAction" && v.pending.type !== "PlaceTiles" ? "Your decision" : "Your turn") :
    v.to_act !== null ? `${seatName(v.to_act)} is playing` : "";
  const top = header(h("div", { class: "top-info" },
    h("span", { class: "t-title", text: title }),
    h("span", { class: `t-status ${myTurn ? "mine" : ""}`, id: "status-line", "aria-live": "polite", text: `Turn ${v.turn} · ${statusLine}` }),
    seat === null ? h("span", { class: "badge", text: "Spectator" }) : h("span", { class: "badge", text: `You: ${seatName(seat)}` }),
    T.reconnecting ? h("span", { class: "badge warn", text: "Reconnecting…" }) : null));
  const main = h("main", { class: "table-grid" },
    h("section", { class: "col-left" }, renderSupply(v), renderScores(v)),
    h("section", { class: "col-center" }, renderActionPanel(v, myTurn), renderCities(v)),
    h("section", { class: "col-right" }, seat !== null ? renderHand(v, seat) : null, renderRounds(), renderLog()));
  const parts = [top, main];
  if (T.notice) parts.push(h("div", { class: `toast ${T.notice.isError ? "error" : ""}`, role: "alert", text: T.notice.text }));
  if (needsJoin) parts.push(renderJoin(seat));
  else if (T.modal) parts.push(renderModal());
  const focusId = document.activeElement && document.activeElement.id;
  root.replaceChildren(...parts);
  if (focusId) { const again = document.getElementById(focusId); if (again) again.focus(); }
  const log = document.getElementById("log-list");
  if (log) log.scrollTop = log.scrollHeight;
}

function renderJoin(seat) {
  const s = T.msg.table.seats[seat];
  const name = h("input", { id: "join-name", type: "text", maxlength: 40, value: s.name || "", placeholder: "Your name (optional)", "aria-label": "Your name" });
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
function renderSupply(v) {
  const acts = legal();
  const market = h("div", { class: "market", role: "group", "aria-label": "Market" }, ...v.market.map((sq) => {
    const buys = acts.filter((a) => a.type === "buy" && a.square === sq.square);
    const selected = T.sel && T.sel.kind === "buy" && T.sel.square === sq.square;
    const label = sq.tile ? `Market square ${sq.square}: ${tileLabel(sq.tile, T.catalogue)}, paid in ${CURRENCY_NAMES[sq.currency]} (${sq.currency})` : `Market square ${sq.square}: empty`;
    return h("button", {
      class: `market-square ${buys.length ? "affordable" : ""} ${selected ? "selected" : ""}`,
      dataset: { square: sq.square, currency: sq.currency },
      style: `--cur:${CURRENCY_COLORS[sq.currency]}`,
      "aria-label": label + (buys.length ? " — you can buy it" : ""),
      "aria-pressed": selected ? "true" : "false",
      disabled: !buys.length,
      onclick: () => { T.sel = selected ? null : { kind: "buy", square: sq.square, cards: [] }; T.staged = null; render(); },
    }, h("span", { class: "cur-band", text: CURRENCY_NAMES[sq.currency] }), sq.tile ? tileSVG(sq.tile, T.catalogue, 66) : h("span", { class: "empty-slot", text: "—" }));
  }));
  const takes = acts.filter((a) => a.type === "take");
  const picked = T.sel && T.sel.kind === "take" ? T.sel.cards : [];
  const display = h("div", { class: "display", role: "group", "aria-label": "Face-up money" }, ...v.display.map((code, i) => {
    if (!code) return h("span", { class: "card-slot empty", text: "" });
    const on = picked.includes(i);
    const can = takes.some((a) => a.cards.includes(code));
    const f = cardFacts(code, T.catalogue);
    return h("button", {
      class: `display-card ${on ? "selected" : ""} ${can ? "takeable" : ""}`,
      dataset: { code, slot: i + 1 },
      "aria-label": `Face-up card ${f.value} ${CURRENCY_NAMES[f.currency] || code}`,
      "aria-pressed": on ? "true" : "false",
      disabled: !can,
      onclick: () => {
        const cur = T.sel && T.sel.kind === "take" ? T.sel.cards.slice() : [];
        const k = cur.indexOf(i);
        if (k >= 0) cur.splice(k, 1); else cur.push(i);
        T.sel = cur.length ? { kind: "take", cards: cur } : null;
        T.staged = null;
        render();
      },
    }, cardSVG(code, T.catalogue, 46));
  }));
  const drawn = v.scoring_cards_drawn;
  const progress = h("div", { class: "progress", "aria-label": `Scoring cards drawn: ${drawn} of 2; scoring rounds done: ${v.rounds_scored} of 3` },
    h("span", { text: "Scoring" }),
    ...[1, 2, 3].map((r) => h("span", { class: `round-dot ${v.rounds_scored >= r ? "done" : ""}`, title: `Scoring round ${r}`, text: String(r) })));
  return h("div", { class: "panel supply" },
    h("h2", { text: "Market" }), market,
    h("h2", { text: "Money" }), display,
    h("div", { class: "piles" },
      h("span", { class: "pile", title: "Draw pile" }, cardBackSVG(26), h("span", { id: "deck-count", text: `${v.deck_count} cards` })),
      h("span", { class: "pile", title: "Tile bag" }, bagSVG(26), h("span", { id: "bag-count", text: `${v.bag_count} tiles` })),
      progress));
}

// ----- score track
function renderScores(v) {
  const rows = v.seats.map((s) => ({ seat: s.seat, name: seatName(s.seat), score: s.score, hand: s.hand_count, wall: s.longest_wall }));
  if (v.neutral) rows.push({ seat: -1, name: "Dirk (neutral)", score: v.neutral.score, hand: null, wall: null });
  const max = Math.max(10, ...rows.map((r) => r.score));
  return h("div", { class: "panel scores" }, h("h2", { text: "Scores" }),
    h("ol", { class: "score-track" }, ...rows.map((r) => h("li", { class: `${r.seat === v.to_act ? "to-act" : ""} ${r.seat === me() ? "me" : ""}` },
      h("span", { class: "swatch", style: `background:${r.seat < 0 ? "#999" : SEAT_COLORS[r.seat]}` }),
      h("span", { class: "s-name", text: r.name }),
      h("span", { class: "bar" }, h("span", { class: "fill", style: `width:${Math.round((100 * r.score) / max)}%;background:${r.seat < 0 ? "#999" : SEAT_COLORS[r.seat]}` })),
      h("strong", { class: "s-score", text: String(r.score) }),
      r.hand !== null ? h("span", { class: "s-meta", text: `${r.hand} cards · wall ${r.wall}` }) : null))));
}

// ----- my hand
function renderHand(v, seat) {
  const hand = v.seats[seat].hand || [];
  const sel = T.sel && T.sel.kind === "buy" ? T.sel : null;
  const sqCurrency = sel ? v.market[sel.square - 1].currency : null;
  const groups = CURRENCIES.map((cur) => {
    const idx = hand.map((c, i) => [c, i]).filter(([c]) => cardFacts(c, T.catalogue).currency === cur);
    if (!idx.length) return null;
    const total = idx.reduce((s, [c]) => s + cardFacts(c, T.catalogue).value, 0);
    return h("div", { class: `hand-group ${sqCurrency && sqCurrency !== cur ? "dim" : ""}` },
      h("div", { class: "hand-head", style: `color:${CURRENCY_COLORS[cur]}` }, h("strong", { text: CURRENCY_NAMES[cur] }), ` · ${total}`),
      h("div", { class: "hand-cards" }, ...idx.map(([c, i]) => {
        const on = sel && sel.cards.includes(i);
        return h("button", {
          class: `hand-card ${on ? "selected" : ""}`,
          dataset: { code: c },
          "aria-pressed": on ? "true" : "false",
          "aria-label": `${cardFacts(c, T.catalogue).value} ${CURRENCY_NAMES[cur]}`,
          disabled: !sel || sqCurrency !== cur,
          onclick: () => {
            const k = sel.cards.indexOf(i);
            if (k >= 0) sel.cards.splice(k, 1); else sel.cards.push(i);
            render();
          },
        }, cardSVG(c, T.catalogue, 40));
      })));
  }).filter(Boolean);
  const other = hand.filter((c) => !cardFacts(c, T.catalogue).currency);
  return h("div", { class: "panel hand" }, h("h2", { text: `Your hand (${hand.length})` }),
    groups.length ? groups : h("p", { class: "muted", text: "No money." }),
    other.length ? h("div", { class: "hand-group" }, h("div", { class: "hand-head", text: "Special cards" }), h("div", { class: "hand-cards" }, ...other.map((c) => cardSVG(c, T.catalogue, 40)))) : null);
}

// ----- action panel
function renderActionPanel(v, myTurn) {
  const box = h("div", { class: "panel actions", id: "action-panel", "aria-live": "polite" });
  const acts = legal();
  const bar = h("div", { class: "button-row" });
  if (T.msg.can_undo) bar.appendChild(h("button", { id: "btn-undo", class: "secondary", text: "↶ Undo", onclick: undo }));
  if (T.staged) {
    box.append(h("p", { class: "staged", text: `${T.staged.label}. This ends your turn — it cannot be taken back.` }));
    bar.append(h("button", { id: "btn-confirm", class: "primary", text: "End turn", onclick: () => send(T.staged.action) }),
      h("button", { id: "btn-cancel", class: "secondary", text: "Cancel", onclick: () => { T.staged = null; render(); } }));
    box.append(bar);
    return box;
  }
  if (T.msg.table.status === "finished") {
    box.append(h("p", { text: "The game is over." }), h("div", { class: "button-row" },
      h("button", { class: "primary", id: "btn-summary", text: "Show the summary", onclick: () => { T.modal = { kind: "summary" }; render(); } }),
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
  if (pending.type === "PlaceTiles") {
    const tiles = pending.tiles;
    box.append(h("p", { text: pending.reason === "final" ? "The game ends: place the tiles you were awarded." : "Place your new tile: pick it, then a highlighted spot in your Alhambra (or drag it there), or the reserve board." }));
    box.append(h("div", { class: "waiting-tiles", role: "group", "aria-label": "Tiles to place" }, ...[...new Set(tiles)].map((t) => {
      const on = sel && sel.kind === "place" && sel.tile === t;
      const b = h("button", {
        class: `waiting-tile ${on ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": on ? "true" : "false",
        "aria-label": `Place ${tileLabel(t, T.catalogue)}`,
        onclick: () => { T.sel = on ? null : { kind: "place", tile: t }; render(); },
      }, tileSVG(t, T.catalogue, 58));
      makeDraggable(b, { kind: "place", tile: t });
      return b;
    })));
    if (sel && sel.kind === "place") {
      const res = acts.find((a) => a.type === "place" && a.tile === sel.tile && a.target === "reserve");
      const neu = acts.find((a) => a.type === "place" && a.tile === sel.tile && a.target === "neutral");
      if (res) bar.append(h("button", { id: "btn-reserve", class: "secondary", text: "To the reserve board", onclick: () => choose(res.text, `Put ${sel.tile} on your reserve board`) }));
      if (neu) bar.append(h("button", { id: "btn-neutral", class: "secondary", text: "Give it to Dirk", onclick: () => choose(neu.text, `Give ${sel.tile} to Dirk`) }));
    } else if (tiles.length) {
      T.sel = { kind: "place", tile: tiles[0] };
      return renderActionPanel(v, myTurn);
    }
  } else if (pending.type === "ChooseAction") {
    if (sel && sel.kind === "buy") box.append(renderBuy(v, sel, acts, bar));
    else if (sel && sel.kind === "take") box.append(renderTake(v, sel, acts, bar));
    else if (sel && sel.kind === "rbuild") box.append(h("p", { text: `Redesign: pick a highlighted spot for ${sel.tile}, or a tile of your Alhambra it can replace (outlined).` }));
    else if (sel && sel.kind === "rremove") {
      const a = acts.find((x) => x.type === "rremove" && x.tile === sel.tile);
      box.append(h("p", { text: `Move ${tileLabel(sel.tile, T.catalogue)} from your Alhambra to the reserve board?` }));
      if (a) bar.append(h("button", { id: "btn-remove", class: "primary", text: "Move to the reserve board", onclick: () => choose(a.text, `Move ${sel.tile} to your reserve board`) }));
    } else {
      box.append(h("p", { text: pending.actions > 0 ? "Exact payment! Take another action, or end your turn." : "Your turn: take money (pick face-up cards), buy a tile (pick a market square), or redesign your Alhambra (pick a reserve or Alhambra tile)." }));
    }
    const end = acts.find((a) => a.type === "end");
    if (end) bar.append(h("button", { id: "btn-end", class: "primary", text: "End turn", onclick: () => send(end.text) }));
  }
  const others = acts.filter((a) => a.type === "other");
  if (pending.type && pending.type !== "ChooseAction" && pending.type !== "PlaceTiles") {
    box.append(h("p", { text: `A decision for you (${pending.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()}): choose one of these moves.` }));
  }
  if (others.length) {
    box.append(h("div", { class: "other-moves", role: "group", "aria-label": "Other moves" }, ...others.map((a) =>
      h("button", { class: "secondary small other-move", dataset: { action: a.text }, text: a.text, onclick: () => choose(a.text, a.text) }))));
  }
  if (sel) bar.append(h("button", { id: "btn-clear", class: "secondary", text: "Clear selection", onclick: () => { T.sel = null; render(); } }));
  if (bar.children.length) box.append(bar);
  return box;
}

function renderBuy(v, sel, acts, bar) {
  const sq = v.market[sel.square - 1];
  const price = tileFacts(sq.tile, T.catalogue).price;
  const hand = v.seats[me()].hand || [];
  const options = acts.filter((a) => a.type === "buy" && a.square === sel.square).map((a) => {
    const total = a.cards.reduce((s, c) => s + cardFacts(c, T.catalogue).value, 0);
    return { ...a, total, over: total - price };
  }).sort((a, b) => a.over - b.over || a.cards.length - b.cards.length);
  const chosen = sel.cards.map((i) => hand[i]);
  const match = options.find((o) => sameMultiset(o.cards, chosen));
  const total = chosen.reduce((s, c) => s + cardFacts(c, T.catalogue).value, 0);
  const wrap = h("div", { class: "buy" },
    h("p", {}, h("strong", { text: `Buy ${tileLabel(sq.tile, T.catalogue)}` }), ` — price ${price} ${CURRENCY_NAMES[sq.currency]}. Pick cards from your hand or a payment below. An exact payment lets you act again.`),
    h("div", { class: "pay-options", role: "group", "aria-label": "Ways to pay" }, ...options.slice(0, 12).map((o) =>
      h("button", {
        class: `pay-option ${o.over === 0 ? "exact" : "over"} ${match && match.text === o.text ? "selected" : ""}`,
        dataset: { action: o.text },
        onclick: () => {
          const used = [];
          for (const c of o.cards) {
            const i = hand.findIndex((x, k) => x === c && !used.includes(k));
            used.push(i);
          }
          sel.cards = used;
          render();
        },
      }, h("span", { text: o.cards.join(" + ") }), h("em", { text: o.over === 0 ? "exact" : `overpay ${o.over}` })))));
  wrap.append(h("p", { class: "pay-sum", text: chosen.length ? `Selected ${total} for ${price}: ${total === price ? "exact — you may act again" : total > price ? `overpaying by ${total - price}` : `${price - total} short`}` : "No cards selected." }));
  if (match) bar.append(h("button", { id: "btn-buy", class: "primary", text: match.over === 0 ? "Buy (exact)" : `Buy (overpay ${match.over})`, onclick: () => choose(match.text, `Buy ${sq.tile}`) }));
  return wrap;
}

function renderTake(v, sel, acts, bar) {
  const codes = sel.cards.map((i) => v.display[i]);
  const match = acts.find((a) => a.type === "take" && sameMultiset(a.cards, codes));
  const total = codes.reduce((s, c) => s + cardFacts(c, T.catalogue).value, 0);
  const wrap = h("div", {}, h("p", { text: `Take ${codes.join(" + ")} (${total}). One card of any value, or several cards worth 5 at most together.` }));
  if (match) {
    const final = T.msg.final_actions.includes(match.text);
    bar.append(h("button", { id: "btn-take", class: "primary", text: final ? "Take and end turn" : "Take", onclick: () => choose(match.text, `Take ${codes.join(" + ")}`) }));
  } else {
    wrap.append(h("p", { class: "muted", text: "These cards cannot be taken together." }));
  }
  return wrap;
}

// ----- Alhambras
const CELL = 100;

function renderCities(v) {
  const seat = me();
  const order = v.seats.map((s) => s.seat);
  if (seat !== null) order.sort((a, b) => (a === seat ? -1 : b === seat ? 1 : a - b));
  const wrap = h("div", { class: "cities" });
  for (const s of order) wrap.appendChild(renderCity(v, v.seats[s], s === seat));
  if (v.neutral) {
    wrap.appendChild(h("div", { class: "panel city neutral" }, h("h3", { text: `Dirk (neutral) · ${v.neutral.score} points` }),
      h("div", { class: "reserve-tiles" }, ...v.neutral.tiles.map((t) => tileSVG(t, T.catalogue, 34)))));
  }
  return wrap;
}

function renderCity(v, s, mine) {
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
  const cells = s.alhambra.map((c) => ({ x: c.x, y: c.y }));
  for (const a of spots) cells.push({ x: a.x, y: a.y });
  const minX = Math.min(...cells.map((c) => c.x)) - 1, maxX = Math.max(...cells.map((c) => c.x)) + 1;
  const minY = Math.min(...cells.map((c) => c.y)) - 1, maxY = Math.max(...cells.map((c) => c.y)) + 1;
  const fit = { x: minX * CELL, y: minY * CELL, w: (maxX - minX + 1) * CELL, h: (maxY - minY + 1) * CELL };
  const key = `city-${s.seat}`;
  let box = T.boxes[key];
  if (!box || box.auto) box = T.boxes[key] = { ...fit, auto: true };
  const svg = svgEl("svg", { class: "city-svg", viewBox: `${box.x} ${box.y} ${box.w} ${box.h}`, role: "group", "aria-label": `Alhambra of ${seatName(s.seat)}` });
  svg.appendChild(svgEl("rect", { x: box.x - 5000, y: box.y - 5000, width: 10000 + box.w, height: 10000 + box.h, fill: "transparent", class: "pan-area" }));
  for (const c of s.alhambra) {
    const g = tileGroup(c.tile, T.catalogue, c.x * CELL, c.y * CELL, CELL);
    g.setAttribute("data-tile", c.tile);
    g.setAttribute("data-x", c.x);
    g.setAttribute("data-y", c.y);
    const ex = exchange.find((a) => a.other === c.tile);
    const title = svgEl("title");
    title.textContent = `${tileLabel(c.tile, T.catalogue)} at ${c.x},${c.y}`;
    g.appendChild(title);
    if (ex) {
      g.classList.add("exchange-target");
      g.appendChild(svgEl("rect", { x: 4, y: 4, width: 92, height: 92, rx: 6, fill: "none", stroke: "#ffd400", "stroke-width": 7, "stroke-dasharray": "10 6" }));
      interactive(g, `Exchange ${c.tile} for ${sel.tile}`, () => choose(ex.text, `Exchange ${c.tile} for ${sel.tile} from your reserve`));
    } else if (removable.has(c.tile) && (!sel || sel.kind === "rremove")) {
      g.classList.add("removable");
      interactive(g, `Redesign: move ${tileLabel(c.tile, T.catalogue)} to the reserve board`, () => { T.sel = { kind: "rremove", tile: c.tile }; render(); });
      makeDraggable(g, { kind: "rremove", tile: c.tile });
    }
    svg.appendChild(g);
  }
  for (const a of spots) {
    const g = svgEl("g", { class: "spot", "data-x": a.x, "data-y": a.y, "data-action": a.text });
    g.appendChild(svgEl("rect", { x: a.x * CELL + 6, y: a.y * CELL + 6, width: CELL - 12, height: CELL - 12, rx: 10, fill: "rgba(255,214,0,0.25)", stroke: "#e0a800", "stroke-width": 5, "stroke-dasharray": "12 8" }));
    const plus = svgEl("text", { x: a.x * CELL + 50, y: a.y * CELL + 62, "text-anchor": "middle", "font-size": 36, fill: "#a07800" });
    plus.textContent = "+";
    g.appendChild(plus);
    const label = sel.kind === "place" ? `Place ${sel.tile} at ${a.x},${a.y}` : `Build ${sel.tile} from the reserve at ${a.x},${a.y}`;
    interactive(g, label, () => choose(a.text, label));
    svg.appendChild(g);
  }
  if (staged && (staged.type === "place" || staged.type === "rbuild") && staged.target !== "reserve" && staged.target !== "neutral") {
    const ghost = tileGroup(staged.tile, T.catalogue, staged.x * CELL, staged.y * CELL, CELL);
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
      const canBuild = acts.some((a) => (a.type === "rbuild" || a.type === "rexchange") && a.tile === t);
      if (!canBuild) return tileSVG(t, T.catalogue, 40);
      const on = sel && sel.kind === "rbuild" && sel.tile === t;
      const b = h("button", {
        class: `reserve-tile ${on ? "selected" : ""}`, dataset: { tile: t }, "aria-pressed": on ? "true" : "false",
        "aria-label": `Redesign: build ${tileLabel(t, T.catalogue)} from the reserve`,
        onclick: () => { T.sel = on ? null : { kind: "rbuild", tile: t }; render(); },
      }, tileSVG(t, T.catalogue, 40));
      makeDraggable(b, { kind: "rbuild", tile: t });
      return b;
    }),
    s.reserve.length ? null : h("span", { class: "muted", text: "empty" }));
  const cls = `panel city ${mine ? "mine" : ""} ${s.seat === T.msg.view.to_act ? "to-act" : ""}`;
  return h("div", { class: cls, dataset: { seat: s.seat } },
    h("h3", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s.seat]}` }), `${seatName(s.seat)} · ${s.score} points · wall ${s.longest_wall}`),
    h("div", { class: "city-frame" }, svg, tools), reserve);
}

function interactive(g, label, fn) {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.classList.add("clickable");
  g.addEventListener("click", (ev) => { ev.stopPropagation(); if (!T.dragMoved) fn(); });
  g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); fn(); } });
}

function zoomBy(key, f, cx, cy) {
  const b = T.boxes[key];
  if (!b) return;
  const nw = Math.min(4000, Math.max(150, b.w * f)), nh = Math.min(4000, Math.max(150, b.h * f));
  const px = cx === undefined ? b.x + b.w / 2 : cx, py = cy === undefined ? b.y + b.h / 2 : cy;
  T.boxes[key] = { x: px - ((px - b.x) * nw) / b.w, y: py - ((py - b.y) * nh) / b.h, w: nw, h: nh, auto: false };
  render();
}

function enablePanZoom(svg, key) {
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
function makeDraggable(el, what) {
  el.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    const x0 = ev.clientX, y0 = ev.clientY;
    let ghost = null;
    T.dragMoved = false;
    const move = (e) => {
      if (!ghost && Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) > 8) {
        T.dragMoved = true;
        ghost = h("div", { class: "drag-ghost" }, tileSVG(what.tile, T.catalogue, 56));
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
      const acts = legal();
      if (spot) choose(spot.getAttribute("data-action"), spot.getAttribute("aria-label"));
      else if (tile) tile.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      else if (reserve && what.kind === "rremove") {
        const a = acts.find((x) => x.type === "rremove" && x.tile === what.tile);
        if (a) choose(a.text, `Move ${what.tile} to your reserve board`);
      } else if (reserve && what.kind === "place") {
        const a = acts.find((x) => x.type === "place" && x.tile === what.tile && x.target === "reserve");
        if (a) choose(a.text, `Put ${what.tile} on your reserve board`);
      }
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  });
}

// ----- log and scoring
function renderLog() {
  const items = [];
  for (const e of T.events) {
    if (e.type === "TurnStarted") items.push(h("li", { class: "turn-head", text: `Turn ${e.turn} · ${seatName(e.seat)}` }));
    else if (e.type === "TurnEnded") continue;
    else items.push(h("li", { class: e.type === "RoundScored" || e.type === "GameEnded" ? "highlight" : "", text: eventText(e.text) }));
  }
  return h("div", { class: "panel log" }, h("h2", { text: "Game log" }), h("ul", { id: "log-list", class: "log-list", "aria-live": "polite" }, ...items));
}

function roundTable(e) {
  const n = e.points.length;
  const rows = [];
  const head = h("tr", {}, h("th", { text: "" }), ...KINDS.map((k) => h("th", { scope: "col", title: KIND_NAMES[k], text: KIND_NAMES[k] })), h("th", { text: "Wall" }),
    ...Object.keys(e.extra).map((m) => h("th", { text: m })), h("th", { text: "Round" }), h("th", { text: "Total" }));
  const seats = [...Array(n).keys()];
  if (e.counts[KINDS[0]].length > n) seats.push(n);
  for (const s of seats) {
    const neutral = s === n;
    rows.push(h("tr", {}, h("th", { scope: "row", text: neutral ? "Dirk" : seatName(s) }),
      ...KINDS.map((k) => h("td", { class: e.kinds[k][s] ? "scored" : "" , text: e.kinds[k][s] ? `${e.counts[k][s]} → ${e.kinds[k][s]}` : String(e.counts[k][s]) })),
      h("td", { text: neutral ? "" : String(e.walls[s]) }),
      ...Object.values(e.extra).map((v) => h("td", { text: neutral ? "" : String(v[s]) })),
      h("td", { text: `+${neutral ? e.neutral_points : e.points[s]}` }),
      h("td", {}, h("strong", { text: String(neutral ? e.neutral_score : e.scores[s]) }))));
  }
  return h("table", { class: "round-table" }, h("caption", { text: `Scoring round ${e.round}: buildings → points per kind, longest wall` }), h("thead", {}, head), h("tbody", {}, ...rows));
}

function renderRounds() {
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (!rounds.length) return null;
  return h("div", { class: "panel rounds" }, h("h2", { text: "Scoring rounds" }),
    ...rounds.map((e) => h("details", {}, h("summary", { text: `Round ${e.round}` }), roundTable(e))));
}

function progressChart(history, n) {
  const W = 420, H = 220, L = 40, B = 30;
  const series = [...Array(n).keys()].map((s) => [0, ...history.map((r) => r[s])]);
  const max = Math.max(10, ...series.flat());
  const xs = (i) => L + (i * (W - L - 45)) / Math.max(1, history.length);
  const ys = (v) => H - B - (v * (H - B - 15)) / max;
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img", "aria-label": "Scores after each scoring round" });
  svg.appendChild(svgEl("line", { x1: L, y1: H - B, x2: W - 10, y2: H - B, stroke: "#6b5235" }));
  svg.appendChild(svgEl("line", { x1: L, y1: 10, x2: L, y2: H - B, stroke: "#6b5235" }));
  for (let i = 0; i <= history.length; i++) {
    const t = svgEl("text", { x: xs(i), y: H - 10, "text-anchor": "middle", "font-size": 12, fill: "#3a2614" });
    t.textContent = i === 0 ? "start" : `round ${i}`;
    svg.appendChild(t);
  }
  for (const v of [0, Math.round(max / 2), max]) {
    const t = svgEl("text", { x: L - 6, y: ys(v) + 4, "text-anchor": "end", "font-size": 11, fill: "#3a2614" });
    t.textContent = String(v);
    svg.appendChild(t);
  }
  series.forEach((pts, s) => {
    const d = pts.map((v, i) => `${i ? "L" : "M"}${xs(i)} ${ys(v)}`).join(" ");
    svg.appendChild(svgEl("path", { d, fill: "none", stroke: SEAT_COLORS[s], "stroke-width": 3 }));
    pts.forEach((v, i) => svg.appendChild(svgEl("circle", { cx: xs(i), cy: ys(v), r: 4, fill: SEAT_COLORS[s] })));
  });
  return svg;
}

function renderModal() {
  const close = () => { T.modal = null; render(); };
  let body;
  let title;
  if (T.modal.kind === "round") {
    title = `Scoring round ${T.modal.round.round}`;
    body = roundTable(T.modal.round);
  } else {
    const v = T.msg.view;
    const n = v.players;
    const ended = T.events.find((e) => e.type === "GameEnded");
    const winners = ended ? ended.winners : [];
    title = "Game over";
    const ranking = [...Array(n).keys()].sort((a, b) => v.seats[b].score - v.seats[a].score);
    body = h("div", {},
      h("p", { class: "winner", text: winners.length > 1 ? `Shared win: ${winners.map(seatName).join(" and ")}` : `${seatName(winners[0])} wins!` }),
      h("ol", { class: "ranking" }, ...ranking.map((s) => h("li", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), `${seatName(s)} — ${v.seats[s].score} points`)),
        v.neutral ? h("li", { class: "muted", text: `Dirk (neutral) — ${v.neutral.score} points` }) : null),
      h("h3", { text: "Score progression per scoring round" }),
      progressChart(v.score_history, n),
      h("div", { class: "legend" }, ...[...Array(n).keys()].map((s) => h("span", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), seatName(s)))));
  }
  return h("div", { class: "modal-back", onclick: (ev) => { if (ev.target === ev.currentTarget) close(); } },
    h("div", { class: "modal", role: "dialog", "aria-modal": "true", "aria-labelledby": "modal-title", id: T.modal.kind === "round" ? "round-modal" : "summary-modal" },
      h("h2", { id: "modal-title", text: title }), body,
      h("button", { id: "btn-close-modal", class: "primary", text: "Continue", onclick: close })));
}

start();
