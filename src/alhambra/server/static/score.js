// "Score a real game": the companion for an evening with the physical box. Players, modules,
// then per scoring round a form per player (counts), the breakdown and a running total over the
// three rounds; saved in the browser as you type, and to / from a file. Scores offline (the
// rules are in score-core.js and each module's ui/companion.js; score-sw.js caches them).
import { loadModules, scoreTable } from "/static/score-core.js";

const root = document.getElementById("score-app");
const STORE = "alhambra-score-evening";
let cat = null;
let ev = null;
let tab = 1;
let whyOpen = false;
const openPlayers = new Set([0]);
let pick = null;  // the grid place being edited: { who, x, y, kind, price, walls }

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

const game = () => cat.games.find((g) => g.id === ev.game);
const modInfo = (id) => cat.modules.find((m) => m.id === id);
const wallWord = () => game().wall_name;

function emptyRound() {
  return { table: {}, players: ev.names.map(() => ({ buildings: {}, wall: 0, dearest: {}, modules: {} })), neutral: { buildings: {}, dearest: {}, modules: {} } };
}

function newEvening(players = 4) {
  ev = { version: 1, game: "alhambra", modules: [], names: Array.from({ length: players }, (_, i) => `Player ${i + 1}`), rounds: [] };
  ev.rounds = [1, 2, 3].map(() => emptyRound());
}

function save() { localStorage.setItem(STORE, JSON.stringify(ev)); }

/** Make a loaded or stored evening whole (players added or removed, fields missing). */
function repair(data) {
  if (!data || data.version !== 1 || !Array.isArray(data.names) || !Array.isArray(data.rounds) || data.rounds.length !== 3) throw new Error("this is not a saved evening of this page");
  if (!cat.games.some((g) => g.id === data.game)) throw new Error(`unknown game ${data.game}`);
  ev = data;
  ev.modules = (ev.modules || []).filter((m) => modInfo(m) && modInfo(m).games.includes(ev.game));
  for (const r of ev.rounds) {
    r.table = r.table || {};
    r.players = ev.names.map((_, i) => (r.players || [])[i] || { buildings: {}, wall: 0, dearest: {}, modules: {} });
    r.neutral = r.neutral || { buildings: {}, dearest: {}, modules: {} };
  }
}

/** The table document of round r (1-3), with each player's score before it. */
function tableDoc(r, before) {
  const rd = ev.rounds[r - 1];
  const doc = {
    game: ev.game, round: r, modules: [...ev.modules],
    table: Object.fromEntries(ev.modules.map((m) => [m, rd.table[m] || {}])),
    players: ev.names.map((name, i) => ({ name, score: before[i], buildings: rd.players[i].buildings, wall: rd.players[i].wall || 0, dearest: rd.players[i].dearest, modules: rd.players[i].modules })),
  };
  if (ev.names.length === 2) doc.neutral = { name: "Dirk", buildings: rd.neutral.buildings, dearest: rd.neutral.dearest, modules: rd.neutral.modules };
  return doc;
}

/** Every round scored in turn: round r starts from the totals after round r - 1. */
function scoreAll() {
  let before = ev.names.map(() => 0);
  return [1, 2, 3].map((r) => {
    const res = scoreTable(cat, tableDoc(r, before));
    before = res.seats.slice(0, ev.names.length).map((s) => s.total);
    return res;
  });
}

// ------------------------------------------------------------------------------ inputs
function stepper(label, value, min, max, onchange) {
  const input = h("input", { type: "number", inputmode: "numeric", min, max, value: String(value || 0), "aria-label": label });
  const set = (v) => {
    const n = Math.max(min, Math.min(max, Number.isFinite(v) ? Math.trunc(v) : 0));
    input.value = String(n);
    onchange(n);
  };
  input.onchange = () => set(Number(input.value));
  return h("span", { class: "stepper" },
    h("button", { type: "button", "aria-label": `${label}: one fewer`, text: "−", onclick: () => set(Number(input.value) - 1) }),
    input,
    h("button", { type: "button", "aria-label": `${label}: one more`, text: "+", onclick: () => set(Number(input.value) + 1) }));
}

function fieldInput(f, values, who) {
  const label = `${who}: ${f.label}`;
  const on = (v) => { values[f.key] = v; changed(); };
  if (f.kind === "choice") {
    const sel = h("select", { "aria-label": label, onchange: (e) => on(e.target.value) }, ...f.choices.map((c) => h("option", { value: c, text: c, selected: values[f.key] === c })));
    return h("label", { class: "field" }, h("span", { text: f.label }), sel);
  }
  if (f.kind === "numbers") {
    const input = h("input", { type: "text", inputmode: "numeric", "aria-label": label, placeholder: f.length ? `${f.length} numbers` : "e.g. 4, 3", value: (values[f.key] || []).join(", ") });
    input.onchange = () => {
      const nums = input.value.split(/[^0-9]+/).filter(Boolean).map(Number).map((n) => Math.max(f.min, Math.min(f.max, n)));
      on(nums);
    };
    return h("label", { class: "field" }, h("span", { text: f.label }), input);
  }
  return h("div", { class: "field" }, h("span", { text: f.label }), stepper(label, values[f.key], f.min, f.max, on));
}

function playerForm(r, i, neutral) {
  const rd = ev.rounds[r - 1];
  const p = neutral ? rd.neutral : rd.players[i];
  const name = neutral ? "Dirk (neutral)" : ev.names[i];
  const g = game();
  const fields = [];
  g.kinds.forEach((k, j) => {
    fields.push(h("div", { class: "field" }, h("span", { text: g.kind_names[j] }),
      stepper(`${name}: ${g.kind_names[j]}`, p.buildings[k], 0, g.limits[k], (v) => { p.buildings[k] = v; changed(); })));
  });
  if (!neutral) {
    fields.push(h("div", { class: "field" }, h("span", { text: `longest ${wallWord()}` }),
      stepper(`${name}: longest ${wallWord()}`, p.wall, 0, g.max_wall, (v) => { p.wall = v; changed(); })));
  }
  if (g.scoring !== "table") {
    fields.push(h("div", { class: "module-title", text: "dearest building of each kind (breaks ties)" }));
    g.kinds.forEach((k, j) => {
      fields.push(h("div", { class: "field" }, h("span", { text: `dearest ${g.kind_names[j]}` }),
        stepper(`${name}: dearest ${g.kind_names[j]}`, p.dearest[k], 0, 13, (v) => { p.dearest[k] = v; changed(); })));
    });
  }
  for (const m of ev.modules) {
    const mi = modInfo(m);
    const fs = mi.seat_fields.filter((f) => (f.neutral || !neutral) && f.rounds.includes(r));
    if (!fs.length) continue;
    p.modules[m] = p.modules[m] || {};
    fields.push(h("div", { class: "module-title", text: mi.title }));
    for (const f of fs) fields.push(fieldInput(f, p.modules[m], name));
  }
  const key = neutral ? -1 : i;
  const modeBtn = neutral ? null : h("button", {
    type: "button", class: "secondary small mode", "aria-pressed": String(p.mode === "tiles"),
    text: p.mode === "tiles" ? "Enter counts instead" : "Lay out the tiles instead",
    onclick: () => { p.mode = p.mode === "tiles" ? "counts" : "tiles"; if (p.mode === "tiles") checkTiles(p); save(); render(); },
  });
  const body = p.mode === "tiles" && !neutral ? [tileGrid(p, i, name), h("div", { class: "fields" }, ...fields.slice(g.kinds.length + 1 + (g.scoring !== "table" ? g.kinds.length + 1 : 0)))] : [h("div", { class: "fields" }, ...fields)];
  return h("details", { class: "player", open: openPlayers.has(key), ontoggle: (e) => { if (e.target.open) openPlayers.add(key); else openPlayers.delete(key); } },
    h("summary", { text: name }), modeBtn, ...body);
}

// ------------------------------------------------------------------------------ tiles
const SIDES = ["N", "E", "S", "W"];

/** Check a player's tiles on the server (the building rules, real tiles) and take the
 * buildings and the longest wall from the answer. */
async function checkTiles(p) {
  // the buildings (and Granada's dearest) are counted here at once, offline too
  p.buildings = Object.fromEntries(game().kinds.map((k) => [k, 0]));
  p.dearest = {};
  for (const t of p.tiles || []) {
    p.buildings[t.kind] = (p.buildings[t.kind] || 0) + 1;
    p.dearest[t.kind] = Math.max(p.dearest[t.kind] || 0, t.price);
  }
  const tiles = [{ x: 0, y: 0, kind: "fountain" }, ...(p.tiles || [])];
  try {
    const r = await fetch(`/api/layout?game=${encodeURIComponent(ev.game)}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ tiles }) });
    const data = await r.json();
    if (!r.ok) { p.problems = [data.detail || "the tiles cannot be read"]; }
    else {
      p.wall = data.longest_wall;
      p.problems = data.violations.map((v) => (v.x === null ? v.message : `at ${v.x},${v.y}: ${v.message}`));
    }
    p.offline = false;
  } catch (e) {
    p.offline = true;
    p.problems = [];
  }
  save();
  render();
}

window.addEventListener("online", () => {
  if (!ev) return;
  for (const rd of ev.rounds) for (const p of rd.players) if (p.mode === "tiles" && p.offline) checkTiles(p);
});

function tileGrid(p, i, name) {
  const g = game();
  p.tiles = p.tiles || [];
  const at = new Map(p.tiles.map((t) => [`${t.x},${t.y}`, t]));
  const xs = [0, ...p.tiles.map((t) => t.x)];
  const ys = [0, ...p.tiles.map((t) => t.y)];
  const x0 = Math.min(-2, Math.min(...xs) - 1);
  const x1 = Math.max(2, Math.max(...xs) + 1);
  const y0 = Math.min(-2, Math.min(...ys) - 1);
  const y1 = Math.max(2, Math.max(...ys) + 1);
  const cells = [];
  for (let y = y0; y <= y1; y++) {
    for (let x = x0; x <= x1; x++) {
      const t = at.get(`${x},${y}`);
      const fountain = x === 0 && y === 0;
      const k = t ? g.kinds.indexOf(t.kind) : -1;
      const label = fountain ? "F" : t ? `${g.kind_names[k].slice(0, 2)}${t.price}` : "";
      const walls = t ? t.walls || "" : "";
      const picked = pick && pick.who === i && pick.x === x && pick.y === y;
      cells.push(h("button", {
        type: "button", class: `cell${fountain ? " fountain" : ""}${t ? " tile" : ""}${picked ? " picked" : ""} ${[...walls].map((w) => `w${w}`).join(" ")}`,
        "aria-label": `${name}: ${fountain ? "fountain" : t ? `${g.kind_names[k]} ${t.price}${walls ? ` (${g.wall_name}s ${walls})` : ""}` : "empty place"} at ${x},${y}`,
        disabled: fountain, text: label,
        onclick: () => { pick = t ? { who: i, x, y, kind: t.kind, price: t.price, walls: t.walls || "" } : { who: i, x, y, kind: g.kinds[0], price: 2, walls: "" }; render(); },
      }));
    }
  }
  const grid = h("div", { class: "grid" }, ...cells);
  grid.style.gridTemplateColumns = `repeat(${x1 - x0 + 1}, 40px)`;  // CSSOM: allowed by the page's CSP
  const offline = p.offline ? h("p", { class: "muted", text: `Offline: the buildings are counted; the longest ${g.wall_name} (${p.wall || 0}) and the building rules are checked when the network is back.` }) : null;
  const problems = (p.problems || []).length
    ? h("ul", { class: "error tile-problems" }, ...p.problems.map((m) => h("li", { text: m })))
    : h("p", { class: "muted", text: `${p.tiles.length} tiles: ${g.kinds.filter((k) => p.buildings[k]).map((k) => `${p.buildings[k]} ${g.kind_names[g.kinds.indexOf(k)]}`).join(", ") || "no building"}; longest ${g.wall_name} ${p.wall || 0}` });
  return h("div", { class: "tiles" }, grid, pick && pick.who === i ? picker(p, name) : h("p", { class: "muted", text: "Tap a place to lay a tile." }), offline, problems);
}

function picker(p, name) {
  const g = game();
  const kind = h("select", { "aria-label": `${name}: kind`, onchange: (e) => { pick.kind = e.target.value; } },
    ...g.kinds.map((k, j) => h("option", { value: k, text: g.kind_names[j], selected: k === pick.kind })));
  const price = stepper(`${name}: price`, pick.price, 1, 13, (v) => { pick.price = v; });
  const walls = SIDES.map((side) => h("button", {
    type: "button", class: "secondary small", "aria-pressed": String(pick.walls.includes(side)), "aria-label": `${name}: ${g.wall_name} ${side}`, text: side,
    onclick: (e) => {
      pick.walls = pick.walls.includes(side) ? pick.walls.replace(side, "") : SIDES.filter((s2) => s2 === side || pick.walls.includes(s2)).join("");
      e.target.setAttribute("aria-pressed", String(pick.walls.includes(side)));
    },
  }));
  const place = () => {
    p.tiles = p.tiles.filter((t) => t.x !== pick.x || t.y !== pick.y);
    p.tiles.push({ x: pick.x, y: pick.y, kind: pick.kind, price: pick.price, walls: pick.walls });
    pick = null;
    checkTiles(p);
  };
  const remove = () => { p.tiles = p.tiles.filter((t) => t.x !== pick.x || t.y !== pick.y); pick = null; checkTiles(p); };
  return h("div", { class: "picker", role: "group", "aria-label": `Tile at ${pick.x},${pick.y}` },
    h("div", { class: "row" }, kind, price),
    h("div", { class: "row" }, h("span", { text: `${g.wall_name}s:` }), ...walls),
    h("div", { class: "row" }, h("button", { type: "button", class: "primary", text: "Lay the tile", onclick: place }),
      h("button", { type: "button", class: "secondary", text: "Remove", onclick: remove }),
      h("button", { type: "button", class: "secondary", text: "Cancel", onclick: () => { pick = null; render(); } })));
}

// ------------------------------------------------------------------------------ results
function breakdown(res) {
  const g = game();
  const seats = res.seats;
  const head = h("tr", {}, h("th", { text: "" }), ...seats.map((s) => h("th", { scope: "col", text: s.neutral ? "Dirk" : s.name })));
  const rows = g.kinds.map((k, j) => h("tr", {}, h("th", { scope: "row", text: g.kind_names[j] }),
    ...seats.map((s) => {
      const x = s.kinds[k];
      const tie = x.tied_with.length ? `, tied with ${x.tied_with.join(", ")}` : "";
      return h("td", { title: x.count ? `${x.count} buildings, place ${x.place}${tie}` : "none", text: x.count ? `${x.count} → ${x.points}` : "–" });
    })));
  rows.push(h("tr", {}, h("th", { scope: "row", text: `Longest ${wallWord()}` }), ...seats.map((s) => h("td", { text: s.neutral ? "" : String(s.wall) }))));
  for (const m of res.modules) {
    for (const [key, suffix] of [["modules", ""], ["after", " (after)"]]) {
      if (!seats.some((s) => s[key][m])) continue;
      rows.push(h("tr", {}, h("th", { scope: "row", text: `${modInfo(m).title}${suffix}` }),
        ...seats.map((s) => h("td", { title: s[key][m] ? s[key][m].reason : "", text: s[key][m] ? (s[key][m].points > 0 ? "+" : "") + s[key][m].points : "" }))));
    }
  }
  rows.push(h("tr", { class: "total" }, h("th", { scope: "row", text: `Round ${res.round}` }), ...seats.map((s) => h("td", { text: `+${s.round_points}`.replace("+-", "−") }))));
  rows.push(h("tr", { class: "total" }, h("th", { scope: "row", text: "Total" }), ...seats.map((s) => h("td", { "data-total": s.neutral ? null : s.name, text: s.neutral ? "" : String(s.total) }))));
  const why = seats.map((s) => h("li", {}, h("strong", { text: s.neutral ? "Dirk" : s.name }), h("ul", {}, ...reasons(s).map((r) => h("li", { text: r })))));
  return h("div", {},
    h("div", { class: "breakdown", "data-round": res.round },
      h("table", { "aria-label": `Scoring round ${res.round}` }, h("thead", {}, head), h("tbody", {}, ...rows))),
    h("details", { class: "why", id: "reasons", open: whyOpen, ontoggle: (e) => { whyOpen = e.target.open; } }, h("summary", { text: "Why: place, ties, each module" }), h("ul", {}, ...why)));
}

/** Whether anything was entered for round r (a round nobody has filled in is not in the total yet). */
function entered(r) {
  const rd = ev.rounds[r - 1];
  const any = (o) => Object.values(o || {}).some((v) => (Array.isArray(v) ? v.length > 0 : typeof v === "object" && v ? any(v) : !!v && typeof v === "number"));
  return rd.players.some((p) => any(p.buildings) || p.wall || any(p.modules)) || any(rd.neutral.buildings) || any(rd.neutral.modules);
}

const PLACES = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th"];

/** The reasons of one participant's round, as `alhambra score` prints them. */
function reasons(s) {
  const g = game();
  const out = [];
  g.kinds.forEach((k, j) => {
    const x = s.kinds[k];
    if (!x.count && !x.points) return;
    const tie = x.tied_with.length ? `, tied with ${x.tied_with.join(", ")}` : "";
    out.push(`${g.kind_names[j]}: ${x.count} building${x.count !== 1 ? "s" : ""}, ${PLACES[x.place - 1]}${tie}: ${x.points}`);
  });
  out.push(...s.notes);
  if (!s.neutral) out.push(`longest outer ${wallWord()}: ${s.wall}`);
  for (const [m, line] of [...Object.entries(s.modules), ...Object.entries(s.after)]) out.push(`${modInfo(m).title}: ${line.reason}: ${line.points > 0 ? "+" : ""}${line.points}`);
  return out;
}

function standings(results) {
  const done = [1, 2, 3].filter(entered);
  const last = done.length ? done[done.length - 1] : 0;
  const rows = ev.names.map((name, i) => ({
    name,
    per: results.map((r, j) => (done.includes(j + 1) ? String(r.seats[i].round_points) : "–")),
    total: last ? results[last - 1].seats[i].total : 0,
  }));
  const best = Math.max(...rows.map((r) => r.total));
  const leaders = rows.filter((r) => r.total === best).map((r) => r.name);
  return h("div", { class: "standings", id: "standings" },
    h("h2", { text: "Running total" }),
    h("div", { class: "breakdown" }, h("table", { "aria-label": "Running total" },
      h("thead", {}, h("tr", {}, h("th", { text: "" }), h("th", { text: "R1" }), h("th", { text: "R2" }), h("th", { text: "R3" }), h("th", { text: "Total" }))),
      h("tbody", {}, ...rows.map((r) => h("tr", {}, h("th", { scope: "row", text: r.name }), ...r.per.map((p) => h("td", { text: p })), h("td", { "data-final": r.name, text: String(r.total) })))))),
    h("p", { id: "leader", text: last ? `${last === 3 ? "Winner" : "Leading"}: ${leaders.join(" and ")} with ${best}` : "Enter the first scoring round." }));
}

// ------------------------------------------------------------------------------ page
let resultsBox = null;
function changed() {
  save();
  renderResults();
}

function renderResults() {
  if (!resultsBox) return;
  try {
    const results = scoreAll();
    resultsBox.replaceChildren(h("h2", { text: `Scoring round ${tab}` }), breakdown(results[tab - 1]), standings(results));
  } catch (e) {
    resultsBox.replaceChildren(h("p", { class: "error", role: "alert", text: `Cannot score: ${e.message}` }));
  }
}

function setup() {
  const count = h("select", { id: "players", "aria-label": "Players", onchange: (e) => {
    const n = Number(e.target.value);
    ev.names = Array.from({ length: n }, (_, i) => ev.names[i] || `Player ${i + 1}`);
    repair(ev); save(); render();
  } }, ...[2, 3, 4, 5, 6].map((n) => h("option", { value: n, text: `${n} players`, selected: n === ev.names.length })));
  const gameSel = h("select", { id: "game", "aria-label": "Game", onchange: (e) => {
    ev.game = e.target.value;
    ev.rounds = [1, 2, 3].map(() => emptyRound());
    repair(ev); save(); render();
  } }, ...cat.games.map((g) => h("option", { value: g.id, text: g.title, selected: g.id === ev.game })));
  const names = ev.names.map((n, i) => h("input", { type: "text", maxlength: 40, value: n, "aria-label": `Name of player ${i + 1}`, onchange: (e) => {
    ev.names[i] = e.target.value.trim() || `Player ${i + 1}`; save(); render();
  } }));
  const mods = cat.modules.filter((m) => m.games.includes(ev.game)).map((m) => h("label", {},
    h("input", { type: "checkbox", value: m.id, checked: ev.modules.includes(m.id), onchange: (e) => {
      ev.modules = e.target.checked ? [...ev.modules, m.id].sort() : ev.modules.filter((x) => x !== m.id);
      save(); render();
    } }), m.title));
  return h("section", { class: "setup" },
    h("h2", { text: "The table" }),
    h("div", { class: "row" }, gameSel, count),
    h("div", { class: "row names" }, ...names),
    h("h3", { text: "Modules that score" }),
    h("div", { class: "mods" }, ...mods));
}

function roundSection() {
  const tabs = h("div", { class: "tabs", role: "tablist" }, ...[1, 2, 3].map((r) => h("button", {
    type: "button", role: "tab", class: "secondary", "aria-selected": String(r === tab), text: `Round ${r}`,
    onclick: () => { tab = r; render(); },
  })));
  const rd = ev.rounds[tab - 1];
  const tableFields = [];
  for (const m of ev.modules) {
    const fs = modInfo(m).table_fields.filter((f) => f.rounds.includes(tab));
    if (!fs.length) continue;
    rd.table[m] = rd.table[m] || {};
    tableFields.push(h("div", { class: "module-title", text: modInfo(m).title }), ...fs.map((f) => fieldInput(f, rd.table[m], "Table")));
  }
  const forms = ev.names.map((_, i) => playerForm(tab, i, false));
  if (ev.names.length === 2) forms.push(playerForm(tab, 2, true));
  const copy = tab > 1 ? h("button", {
    type: "button", class: "secondary small", id: "copy-round", text: `Start from round ${tab - 1}`,
    title: "Copy every player's buildings, wall, tiles and module counts of the round before (they only grow)",
    onclick: () => {
      const prev = ev.rounds[tab - 2];
      const next = JSON.parse(JSON.stringify(prev));
      next.table = ev.rounds[tab - 1].table;  // the table's inputs (the invasion card...) are the round's own
      ev.rounds[tab - 1] = next;
      save(); render();
    },
  }) : null;
  return h("section", { class: "round" }, tabs, copy,
    tableFields.length ? h("div", { class: "fields table-fields" }, ...tableFields) : null, ...forms);
}

function files() {
  const load = h("input", { type: "file", accept: ".json,application/json", id: "load-file", "aria-label": "Load an evening from a file", onchange: async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    try { repair(JSON.parse(await f.text())); save(); render(); } catch (err) { status.textContent = `Cannot load ${f.name}: ${err.message}`; }
  } });
  const status = h("p", { class: "muted", id: "file-status", role: "status" });
  const saveBtn = h("button", { type: "button", class: "secondary", id: "save-file", text: "Save as a file", onclick: () => {
    const blob = new Blob([JSON.stringify(ev, null, 1)], { type: "application/json" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `alhambra-evening-${new Date().toISOString().slice(0, 10)}.json` });
    document.body.append(a); a.click(); a.remove();
    status.textContent = "Saved.";
  } });
  const fresh = h("button", { type: "button", class: "secondary", text: "New evening", onclick: () => { newEvening(ev.names.length); save(); tab = 1; render(); } });
  return h("section", { class: "files" }, h("div", { class: "row" }, saveBtn, h("label", { class: "button secondary" }, "Load a file", load), fresh), status,
    h("p", { class: "muted offline", id: "offline-note", text: navigator.onLine ? "Works offline once loaded." : "Offline: scoring goes on." }));
}

function render() {
  resultsBox = h("section", { class: "results", id: "results", "aria-live": "polite" });
  root.replaceChildren(setup(), roundSection(), resultsBox, files());
  renderResults();
  document.body.dataset.phase = "ready";
}

async function main() {
  try {
    cat = await (await fetch("/api/companion")).json();
    await loadModules(cat);
  } catch (e) {
    root.replaceChildren(h("p", { class: "error", role: "alert", text: `Cannot load the scoring rules: ${e.message}` }));
    return;
  }
  try { repair(JSON.parse(localStorage.getItem(STORE))); } catch { newEvening(4); }
  render();
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/score-sw.js", { scope: "/" }).catch(() => {});
}

window.companionScore = (doc) => scoreTable(cat, doc);  // for tests: the page's scoring of one table
main();
