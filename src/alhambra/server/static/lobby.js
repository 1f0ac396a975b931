// The lobby: create a table (game, seats, bots, modules and their variants), the invitation links, the open, running and finished tables.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".
// ------------------------------------------------------------------------------ lobby

import { h } from "./art.js";
import { api, header, setPhase } from "./core.js";

export async function lobby() {
  setPhase("lobby");
  const root = document.getElementById("app");
  root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { text: "Loading…" })));
  let modules = [];
  let bots = [];
  let games = [];
  try {
    [modules, bots, games] = await Promise.all([api("GET", "/api/modules"), api("GET", "/api/bots"), api("GET", "/api/games")]);
  } catch (e) {
    root.replaceChildren(header(), h("main", { class: "lobby" }, h("p", { class: "error", text: e.message })));
    return;
  }
  const seatsBox = h("div", { class: "seat-rows" });
  const count = h("select", { id: "seat-count", "aria-label": "Number of players" },
    ...[2, 3, 4, 5, 6].map((n) => h("option", { value: n, text: `${n} players` })));
  const makeRow = (i) => {
    const kind = h("select", { class: "seat-kind", "aria-label": `Seat ${i + 1}: person or bot` },
      h("option", { value: "person", text: "Person (invitation link)" }), h("option", { value: "bot", text: "Bot" }),
      h("option", { value: "open", text: "Anyone (open seat, public tables)" }));
    const level = h("select", { class: "seat-bot", "aria-label": `Seat ${i + 1}: bot level` },
      ...bots.map((b) => h("option", { value: b.id, text: b.label, title: b.description })));
    level.value = "greedy";
    // the level's name fits the row; what it means is the tooltip
    const describe = () => { const b = bots.find((x) => x.id === level.value); level.title = b ? `${b.label} — ${b.description}` : ""; };
    level.onchange = describe;
    describe();
    const name = h("input", { class: "seat-name", type: "text", maxlength: 40, placeholder: i === 0 ? "Your name (optional)" : "Name (optional)", "aria-label": `Seat ${i + 1}: name` });
    if (i > 0) kind.value = "bot";
    const sync = () => { level.hidden = kind.value !== "bot"; };
    kind.onchange = sync;
    sync();
    return h("div", { class: "seat-row" }, h("span", { class: "seat-no", text: `Seat ${i + 1}` }), kind, level, name);
  };
  const rows = [];
  const syncRows = () => {
    const n = Number(count.value);
    while (rows.length < n) rows.push(makeRow(rows.length));
    seatsBox.replaceChildren(...rows.slice(0, n));
  };
  count.onchange = syncRows;
  syncRows();
  const modBoxes = modules.map(moduleChoice);
  // the game of the family: modules that do not support it are switched off, and its
  // assumptions (the unknown facts of its components) are shown
  const gameSelect = h("select", { id: "game-choice", "aria-label": "Game" },
    ...games.map((g) => h("option", { value: g.id, text: g.title })));
  const gameInfo = h("div", { class: "game-info", id: "game-info", "aria-live": "polite" });
  const syncGame = () => {
    const g = games.find((x) => x.id === gameSelect.value) || null;
    for (const box of modBoxes) {
      const ok = !g || (box.dataset.games || "alhambra").split(",").includes(g.id);
      const input = box.querySelector(".module-pick input");
      if (!ok) input.checked = false;
      input.disabled = !ok;
      // the variants of a module the game cannot have are off too
      for (const opt of box.querySelectorAll("[data-option]")) opt.disabled = !ok;
      box.classList.toggle("unavailable", !ok);
      const note = box.querySelector(".module-unavailable");
      if (note) note.textContent = ok ? "" : `Not available in ${g.title}`;
    }
    gameInfo.replaceChildren(...gameDescription(g));
  };
  gameSelect.onchange = syncGame;
  const tableName = h("input", { id: "table-name", type: "text", maxlength: 40, placeholder: "Table name (optional)", "aria-label": "Table name" });
  const pub = h("input", { id: "table-public", type: "checkbox" });
  const hints = h("input", { id: "table-hints", type: "checkbox" });
  const out = h("div", { class: "created", "aria-live": "polite" });
  const create = async (ev) => {
    ev.preventDefault();
    const n = Number(count.value);
    const seats = rows.slice(0, n).map((r) => {
      const kind = r.querySelector(".seat-kind").value;
      const name = r.querySelector(".seat-name").value.trim();
      const s = kind === "open" ? { kind: "person", open: true } : { kind };
      if (kind === "bot") s.bot = r.querySelector(".seat-bot").value;
      if (name) s.name = name;
      return s;
    });
    const chosen = modBoxes.filter((l) => l.querySelector(".module-pick input").checked);
    const body = { seats, modules: chosen.map((l) => l.dataset.module), public: pub.checked, hints: hints.checked };
    if (gameSelect.value && gameSelect.value !== "alhambra") body.game = gameSelect.value;
    const options = {};
    for (const l of chosen) {
      for (const input of l.querySelectorAll("[data-option]")) {
        const spec = JSON.parse(input.dataset.spec);
        const value = typeof spec.default === "boolean" ? input.checked : typeof spec.default === "number" ? Number(input.value) : input.value;
        if (value !== spec.default) (options[l.dataset.module] ||= {})[spec.key] = value;
      }
    }
    if (Object.keys(options).length) body.options = options;
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
    games.length > 1 ? h("label", { class: "row" }, "Game ", gameSelect) : null,
    games.length > 1 ? gameInfo : null,
    h("label", { class: "row" }, "Players ", count),
    seatsBox,
    h("fieldset", { class: "modules" }, h("legend", { text: "Big Box modules" }), ...modBoxes),
    h("label", { class: "row" }, tableName),
    h("label", { class: "row" }, pub, " List this table so anyone can take a free seat"),
    h("label", { class: "row" }, hints, " Allow hints: players may ask what the strongest bot would play (private tables only)"),
    h("button", { type: "submit", id: "btn-create", class: "primary", text: "Create table" }));
  const openList = h("div", { class: "open-list" });
  const refresh = async () => {
    try {
      const [open, playing, finished] = await Promise.all(["open", "playing", "finished"].map((w) => api("GET", `/api/tables?which=${w}`)));
      const item = (t, joinable) => h("li", {},
        h("span", { class: "t-name", text: t.name || `Table ${t.id.slice(0, 6)}` }),
        t.game && t.game !== "alhambra" ? h("span", { class: "badge t-game", text: (games.find((g) => g.id === t.game) || { title: t.game }).title }) : null,
        h("span", { class: "t-seats", text: t.seats.map((s) => s.name || (s.kind === "bot" ? "bot" : "free seat")).join(", ") }),
        joinable ? h("button", { class: "small take-seat", text: "Take a seat", onclick: (ev) => claim(t.id, ev.currentTarget) }) : null,
        t.status === "finished" ? h("a", { href: `/replay/${t.id}`, class: "small-link replay-link", text: "Watch the replay" })
          : h("a", { href: `/table/${t.id}`, class: "small-link", text: "Watch" }));
      openList.replaceChildren(
        h("h3", { text: "Open tables" }),
        open.length ? h("ul", {}, ...open.map((t) => item(t, true))) : h("p", { class: "muted", text: "No open tables right now." }),
        h("h3", { text: "Games in progress" }),
        playing.length ? h("ul", {}, ...playing.map((t) => item(t, false))) : h("p", { class: "muted", text: "None." }),
        h("h3", { text: "Finished games" }),
        finished.length ? h("ul", { id: "finished-tables" }, ...finished.slice(0, 10).map((t) => item(t, false))) : h("p", { class: "muted", text: "None yet." }),
        h("p", {}, h("a", { href: "/replay", id: "replay-file-link", text: "Replay a game from a record file" })),
        h("p", {}, h("a", { href: "/score", id: "score-night-link", text: "Score a real game (played with the box)" })));
    } catch (e) {
      openList.replaceChildren(h("p", { class: "error", text: e.message }));
    }
  };
  // "Take a seat" opens a small form in place (a name, Join, Cancel); errors are told beside it
  const claim = (id, button) => {
    const name = h("input", { type: "text", class: "claim-name", maxlength: 40, placeholder: "Your name (optional)", "aria-label": "Your name" });
    const problem = h("span", { class: "error claim-error", role: "alert" });
    const form = h("form", {
      class: "claim-form", "aria-label": "Take a seat",
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          const nm = name.value.trim();
          const res = await api("POST", `/api/tables/${id}/join`, nm ? { name: nm } : {});
          location.assign(`/table/${id}#seat=${res.token}`);
        } catch (e) {
          problem.textContent = e.message;
        }
      },
    }, name, h("button", { type: "submit", class: "small primary", text: "Join" }),
    h("button", { type: "button", class: "small secondary", text: "Cancel", onclick: () => { form.replaceWith(button); button.focus(); } }), problem);
    button.replaceWith(form);
    name.focus();
  };
  root.replaceChildren(header(), h("main", { class: "lobby" },
    h("section", { class: "intro" }, h("h1", { text: "Alhambra" }),
      h("p", { text: "Build the most splendid Alhambra. Create a table, send each player their secret link, and put bots in any seat." })),
    form, out, h("section", { class: "panel" }, openList)));
  syncGame();
  refresh();
}

/** One module of the lobby's picker: title, what it does in one line, a mark when it rests on
 * assumed component facts, and (collapsed) its rules in short and its assumptions. */
export function moduleChoice(m) {
  const rules = m.assumptions || [];
  const facts = m.component_assumptions || [];
  const assumed = facts.length > 0;
  return h("div", { class: "module", dataset: { module: m.id, games: (m.games || ["alhambra"]).join(",") } },
    h("label", { class: "module-pick" }, h("input", { type: "checkbox", value: m.id, "aria-describedby": `mod-desc-${m.id}` }),
      h("span", {}, h("strong", { text: m.title }),
        assumed ? h("span", { class: "assumed-mark", title: "Some facts of this module's components are not known and were assumed (see below).", text: "rests on assumptions" }) : null,
        h("span", { class: "module-unavailable", text: "" }))),
    h("p", { class: "module-summary", id: `mod-desc-${m.id}`, text: m.summary || m.description }),
    ...(m.options || []).map((o) => moduleOption(m, o)),
    h("details", { class: "module-assumptions" },
      h("summary", { text: rules.length || facts.length ? `More: the rules in short, assumptions (${rules.length + facts.length})` : "More: the rules in short" }),
      h("p", { class: "module-desc", text: m.description }),
      rules.length ? h("p", { class: "muted", text: "Where the rulebook is silent, this edition reads it so:" }) : null,
      rules.length ? h("ul", {}, ...rules.map((a) => h("li", { text: a }))) : null,
      facts.length ? h("p", { class: "muted", text: "Component facts that are not known and were assumed:" }) : null,
      facts.length ? h("ul", { class: "component-assumptions" }, ...facts.map((a) => h("li", { text: a }))) : null));
}

/** What the lobby says of the chosen game: a line on what differs, and the documented
 * assumptions (unknown component facts) and readings it rests on. */
export function gameDescription(g) {
  if (!g || g.id === "alhambra" || !(g.assumptions || []).length) return [];
  const kinds = (g.kind_names || []).join(", ").toLowerCase();
  const rest = g.assumptions.length + (g.readings || []).length;
  return [
    h("p", { class: "game-summary" }, h("strong", { text: g.title }), `: ${(g.kind_names || []).length} building kinds (${kinds}), double-sided tiles, ${g.wall_name || "wall"}s instead of walls`,
      g.marker ? ", the black marker that picks the face of new market tiles" : "",
      g.turn_over_cost ? `, tiles turned over for ${g.turn_over_cost}` : "", "."),
    h("p", {}, h("span", { class: "assumed-mark", title: "Some facts of this game's components are not known and were assumed (see below).", text: "rests on assumptions" })),
    h("details", { class: "game-assumptions" },
      h("summary", { text: `Assumptions and readings (${rest})` }),
      h("p", { class: "muted", text: "Component facts that are not known and were assumed (an owner of the box can correct them in the game's data):" }),
      h("ul", { class: "component-assumptions" }, ...g.assumptions.map((a) => h("li", { text: a }))),
      (g.readings || []).length ? h("p", { class: "muted", text: "Where the rules are silent, this edition reads them so:" }) : null,
      (g.readings || []).length ? h("ul", {}, ...g.readings.map((a) => h("li", { text: a }))) : null),
  ];
}

/** One option of a module (a variant): a checkbox, a number or a choice, with its description. */
export function moduleOption(m, o) {
  const id = `opt-${m.id}-${o.key}`;
  const attrs = { id, dataset: { option: o.key, spec: JSON.stringify(o) } };
  let input;
  if (typeof o.default === "boolean") input = h("input", { ...attrs, type: "checkbox", checked: o.default });
  else if (o.choices && o.choices.length) input = h("select", attrs, ...o.choices.map((c) => h("option", { value: c, text: c, selected: c === o.default })));
  else input = h("input", { ...attrs, type: typeof o.default === "number" ? "number" : "text", value: String(o.default) });
  return h("label", { class: "module-option", for: id }, input, h("span", { text: ` ${o.description}` }));
}

export function showCreated(out, res) {
  const items = res.seats.map((s) => {
    if (s.kind !== "person") return h("li", {}, h("strong", { text: `Seat ${s.seat + 1}` }), ` — ${s.name} (bot)`);
    if (!s.invite_url) return h("li", {}, h("strong", { text: `Seat ${s.seat + 1}` }), " — open: the first stranger who joins from the list of open tables takes it");
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
    h("p", {}, "Spectators: ", h("a", { href: res.spectator_url, text: res.spectator_url })),
    res.creator_token && res.table.status === "waiting" ? deleteCreated(out, res) : null));
}

// the creator may delete the table until every player has joined (DELETE with the creator token)
export function deleteCreated(out, res) {
  const note = h("span", { class: "muted", role: "status" });
  const del = async () => {
    try {
      await api("DELETE", `/api/tables/${res.table.id}`, undefined, res.creator_token);
      out.replaceChildren(h("section", { class: "panel" }, h("p", { role: "status", text: "The table was deleted; its links no longer work." })));
    } catch (e) {
      note.textContent = e.message;
    }
  };
  return h("p", {}, h("button", { type: "button", class: "small", id: "btn-delete-table", text: "Delete this table", onclick: del }), " ", note);
}
