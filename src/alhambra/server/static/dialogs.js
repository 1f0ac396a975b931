// Dialogs: a scoring round's breakdown, the end screen (ranking, hand-out, chart, rematch), every Alhambra at a glance.
// Part of the browser table (app.js is the entry); see docs/server.md, "The browser table".

import * as ART from "./art.js";
import { CURRENCY_NAMES, KIND_NAMES, h, svgEl } from "./art.js";
import { CELL, turnedTiles } from "./board.js";
import { SEAT_COLORS, api, gameKinds, wallName } from "./core.js";
import { askPlugins, tileArt, tileName, tileNode } from "./plugins.js";
import { T, me, notify, render, seatName } from "./state.js";

/** The modules' columns of a scoring breakdown: each plug-in's `scoring` entries, and a plain
 * column (titled with the module's name) for the points of a module that has no entries. */
export function scoringColumns(e) {
  const cols = [];
  const answered = new Set();
  for (const [id, got] of askPlugins("scoring", e)) {
    for (const c of Array.isArray(got) ? got : [got]) {
      if (c && Array.isArray(c.values)) { cols.push({ module: id, label: String(c.label ?? ""), title: c.title, values: c.values }); answered.add(id); }
    }
  }
  for (const [id, values] of Object.entries(e.extra || {})) {
    if (!answered.has(id)) cols.push({ module: id, label: (T.moduleInfo[id] || {}).title || id, values });
  }
  return cols;
}

/** Points with their sign: "+5", "-3" (modules may take points away). */
export const signed = (p) => (p < 0 ? `${p}` : `+${p}`);

/** The players' scores after scoring round `e` and what modules did right after it (an
 * invasion): the view's score history, else the round's own totals. */
export function scoresAfter(e) {
  const history = T.msg && T.msg.view && T.msg.view.score_history;
  const after = Array.isArray(history) ? history[e.round - 1] : null;
  return Array.isArray(after) && after.length === e.scores.length ? after : e.scores;
}

/** What a player gained in scoring round `e`, modules' adjustments right after it included. */
export const roundGain = (e, s) => e.points[s] + scoresAfter(e)[s] - e.scores[s];

/** True when a scoring round scored the neutral player too (its counts have one more entry). */
export const roundHasDirk = (e) => Object.values(e.counts).some((c) => c.length > e.points.length);

export const ordinal = (n) => `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;

/** A scoring round as a narrow table: one row per building kind (count, place, points), the
 * wall (Granada: moat), the modules' points, the round and the total; one column per player
 * (and Dirk). In Granada a kind's row names T, the buildings of the kind in all cities, and a
 * cell its award (3T, 2T, T by place). It reads without a sideways scroll in the side panel,
 * the end screen and on a phone. */
export function roundTable(e) {
  const n = e.points.length;
  // the game's kinds in its order, then any other kind the round scored
  const base = gameKinds();
  const kinds = [...base.filter((k) => Object.hasOwn(e.counts, k)), ...Object.keys(e.counts).filter((k) => !base.includes(k))];
  const seats = [...Array(n).keys()];
  if (roundHasDirk(e)) seats.push(n);
  const isDirk = (s) => s === n;
  const multiples = Boolean(T.catalogue) && T.catalogue.scoring === "multiples_of_total";
  const wall = wallName();
  const extra = scoringColumns(e);
  const head = h("tr", {}, h("th", { scope: "col", class: "rt-corner", text: "" }),
    ...seats.map((s) => h("th", { scope: "col", class: "rt-seat", title: isDirk(s) ? "Dirk (neutral)" : seatName(s) },
      h("span", { class: "swatch", style: `background:${isDirk(s) ? "#999" : SEAT_COLORS[s]}` }), h("span", { class: "rt-name", text: isDirk(s) ? "Dirk" : seatName(s) }))));
  const rows = kinds.map((k) => {
    const counts = e.counts[k];
    const total = seats.reduce((t, s) => t + (counts[s] || 0), 0);
    const name = KIND_NAMES[k] || k.charAt(0).toUpperCase() + k.slice(1);
    const kindHead = h("th", { scope: "row", class: "rt-kind" }, h("span", { class: "kind-chip", style: `background:${ART.KIND_COLORS[k] || "#b0a48a"}` }), name,
      multiples ? h("span", { class: "rt-total-t", title: `T = ${total}: the buildings of this kind in all cities`, text: ` T=${total}` }) : null);
    return h("tr", { dataset: { kind: k } }, kindHead,
      ...seats.map((s) => {
        const c = counts[s] || 0;
        const pts = (e.kinds[k] || [])[s] || 0;
        let place;
        let tied;
        let title;
        if (multiples) {
          // no shared places: the award says the place (round r: r*T for the 1st ... T for the r-th)
          const times = total ? pts / total : 0;
          place = pts > 0 ? e.round + 1 - times : 0;
          tied = false;
          const award = pts > 0 ? `${times === 1 ? "" : times}T = ${pts} points` : "no award";
          title = c === 0 ? "none built" : `${c} built${place ? `, ${ordinal(place)} place` : ""}: ${award}`;
        } else {
          place = c > 0 ? 1 + seats.filter((o) => (counts[o] || 0) > c).length : 0;
          tied = c > 0 && seats.filter((o) => o !== s && (counts[o] || 0) === c).length > 0;
          title = c === 0 ? "none built" : `${c} built, ${ordinal(place)} place${tied ? " (tied)" : ""}: ${pts} points`;
        }
        return h("td", { class: pts ? "scored" : "", title, "aria-label": `${isDirk(s) ? "Dirk" : seatName(s)}, ${name}: ${title}` },
          h("span", { class: "rt-count", text: String(c) }),
          c > 0 && place > 0 ? h("span", { class: "rt-place", text: `${ordinal(place)}${tied ? "=" : ""}` }) : null,
          pts ? h("span", { class: "rt-points", text: `+${pts}` }) : null,
          multiples && pts ? h("span", { class: "rt-award", text: `${pts / total === 1 ? "" : pts / total}T` }) : null);
      }));
  });
  rows.push(h("tr", { class: "rt-wall" }, h("th", { scope: "row", text: `Longest ${wall}` }),
    ...seats.map((s) => h("td", { text: isDirk(s) ? "" : `+${e.walls[s]}`, title: isDirk(s) ? "" : `a ${wall} of ${e.walls[s]} sides: ${e.walls[s]} points` }))));
  for (const c of extra) {
    rows.push(h("tr", { class: "rt-module" }, h("th", { scope: "row", title: c.title, dataset: { module: c.module }, text: c.label }),
      ...seats.map((s) => h("td", { dataset: { module: c.module }, text: c.values[s] === undefined || c.values[s] === null ? "" : String(c.values[s]) }))));
  }
  rows.push(h("tr", { class: "rt-round" }, h("th", { scope: "row", text: "This round" }),
    ...seats.map((s) => h("td", { text: signed(isDirk(s) ? e.neutral_points : roundGain(e, s)) }))));
  const after = scoresAfter(e);
  rows.push(h("tr", { class: "rt-total" }, h("th", { scope: "row", text: "Total" }),
    ...seats.map((s) => h("td", {}, h("strong", { text: String(isDirk(s) ? e.neutral_score : after[s]) })))));
  const caption = multiples
    ? `Scoring round ${e.round}: buildings built per kind; T is the kind's buildings in all cities, and the places get ${[...Array(e.round).keys()].map((i) => `${e.round - i === 1 ? "" : e.round - i}T`).join(", ")} (ties go to the dearer building); then the longest ${wall}`
    : `Scoring round ${e.round}: buildings built, place and points per kind (a shaded cell scored), then the longest ${wall}`;
  return h("table", { class: `round-table ${multiples ? "multiples" : ""}`, dataset: { round: e.round } },
    h("caption", { text: caption }),
    h("thead", {}, head), h("tbody", {}, ...rows));
}

export function renderRounds() {
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (!rounds.length) return null;
  return h("div", { class: "panel rounds" }, h("h2", { text: "Scoring rounds" }),
    ...rounds.map((e) => h("details", { dataset: { round: e.round } }, h("summary", { dataset: { key: `round-${e.round}` }, text: `Round ${e.round}: ${e.points.map((p, s) => `${seatName(s)} ${signed(roundGain(e, s))}`).join(", ")}${roundHasDirk(e) ? `, Dirk ${signed(e.neutral_points)}` : ""}` }), roundTable(e))));
}

/** The final hand-out: each market tile given away at the end (to whom, and why) and each tile
 * that stayed (nobody held its currency, or a tie), from the events and the revealed money. */
export function handOut(v) {
  const awarded = T.events.filter((e) => e.type === "MarketTileAwarded");
  const money = v.final_money || null;
  const items = awarded.map((e) => {
    const sq = v.market[e.square - 1];
    const cur = sq ? sq.currency : null;
    const amount = money && cur ? ` (${money[e.seat][cur]} ${CURRENCY_NAMES[cur]})` : "";
    return h("li", { class: "awarded" }, tileArt(e.tile, 30),
      ` ${tileName(e.tile)} from the ${cur ? CURRENCY_NAMES[cur] : ""} square went to ${seatName(e.seat)}: the most ${cur ? CURRENCY_NAMES[cur] : "money"}${amount}.`);
  });
  for (const sq of v.market) {
    if (!sq.tile) continue;
    const cur = sq.currency;
    let why = "";
    if (money) {
      const amounts = money.map((m) => m[cur] || 0);
      const best = Math.max(...amounts);
      const top = amounts.map((a, s) => [a, s]).filter(([a]) => a === best).map(([, s]) => seatName(s));
      why = best === 0 ? `nobody held any ${CURRENCY_NAMES[cur]}` : `a tie: ${top.join(" and ")} each held ${best} ${CURRENCY_NAMES[cur]}`;
    }
    items.push(h("li", { class: "stayed" }, tileArt(sq.tile, 30), ` ${tileName(sq.tile)} stayed on the ${CURRENCY_NAMES[cur]} square${why ? `: ${why}` : ""}.`));
  }
  if (!items.length) return h("p", { class: "muted hand-out", text: "The market was empty at the end: no tiles were handed out." });
  return h("ul", { class: "hand-out" }, ...items);
}

export function progressChart(history, n) {
  const W = 420, H = 220, L = 40, B = 30;
  const series = [...Array(n).keys()].map((s) => ({ color: SEAT_COLORS[s], pts: [0, ...history.map((r) => r[s])], seat: s }));
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  if (rounds.length && roundHasDirk(rounds[0])) {
    series.push({ color: "#999", pts: [0, ...rounds.map((e) => e.neutral_score)], seat: -1, dash: "6 4" });
  }
  const max = Math.max(10, ...series.flatMap((x) => x.pts));
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
  for (const { color, pts, seat, dash } of series) {
    const d = pts.map((v, i) => `${i ? "L" : "M"}${xs(i)} ${ys(v)}`).join(" ");
    svg.appendChild(svgEl("path", { d, fill: "none", stroke: color, "stroke-width": 3, "stroke-dasharray": dash, "data-seat": seat }));
    pts.forEach((v, i) => svg.appendChild(svgEl("circle", { cx: xs(i), cy: ys(v), r: 4, fill: color })));
  }
  return svg;
}

/** The end screen: the winner, the ranking (Dirk too), the last round's breakdown (the round
 * the end screen would otherwise hide), the final hand-out, every round on demand, the chart. */
export function summaryBody(v) {
  const n = v.players;
  const ended = T.events.find((e) => e.type === "GameEnded");
  const winners = ended ? ended.winners : [];
  const rounds = T.events.filter((e) => e.type === "RoundScored");
  const shown = T.modal.round !== undefined ? T.modal.round : rounds.length - 1;
  // Dirk is ranked by his points among the players (he cannot win: the winners are the players')
  const score = (s) => (s < 0 ? v.neutral.score : v.seats[s].score);
  const ranking = [...Array(n).keys(), ...(v.neutral ? [-1] : [])].sort((a, b) => score(b) - score(a) || (a < 0) - (b < 0));
  const tabs = rounds.length ? h("div", { class: "round-tabs", role: "group", "aria-label": "Show a scoring round" },
    ...rounds.map((e, i) => h("button", {
      type: "button", class: `small ${i === shown ? "primary" : "secondary"}`, "aria-pressed": i === shown ? "true" : "false",
      dataset: { key: `summary-round-${e.round}` }, text: `Round ${e.round}`,
      onclick: () => { T.modal = { ...T.modal, round: i }; render(); },
    }))) : null;
  return h("div", { class: "summary" },
    h("p", { class: "winner", text: winners.length > 1 ? `Shared win: ${winners.map(seatName).join(" and ")}` : `${seatName(winners[0])} wins!` }),
    h("ol", { class: "ranking" }, ...ranking.map((s) => (s < 0
      ? h("li", { class: "muted neutral", dataset: { seat: -1 } }, h("span", { class: "swatch", style: "background:#999" }), `Dirk (neutral) — ${v.neutral.score} points`)
      : h("li", { dataset: { seat: s } }, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), `${seatName(s)} — ${v.seats[s].score} points`)))),
    h("div", { class: "summary-cols" },
      h("section", { class: "summary-round", "aria-label": "Scoring round breakdown" },
        h("h3", { text: shown === rounds.length - 1 ? `The last scoring round (round ${rounds.length ? rounds[shown].round : 3})` : `Scoring round ${rounds[shown].round}` }),
        tabs,
        rounds.length ? roundTable(rounds[shown]) : h("p", { class: "muted", text: "No scoring round was played." })),
      h("section", { class: "summary-side" },
        h("h3", { text: "Market tiles handed out at the end" }), handOut(v),
        h("h3", { text: "Score progression" }),
        progressChart(v.score_history, n),
        h("div", { class: "legend" }, ...[...Array(n).keys()].map((s) => h("span", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s]}` }), seatName(s))),
          v.neutral ? h("span", {}, h("span", { class: "swatch", style: "background:#999" }), "Dirk") : null))));
}

/** The end's ways on: "Play again" (a player: the same seats and bots, a fresh deal; "Join the
 * rematch" once another player asked), "Watch the rematch" (a spectator), "Back to the lobby". */
export function rematchButtons(inDialog) {
  const next = T.msg.table.rematch;
  const out = [];
  const sfx = inDialog ? "" : "-panel";
  if (me() !== null) {
    out.push(h("button", {
      id: `btn-rematch${sfx}`, class: inDialog ? "primary" : "secondary", dataset: { rematch: next || "" },
      text: next ? "Join the rematch" : "Play again",
      title: "A new game at a new table: the same players in the same seats, the same bots and modules",
      onclick: playAgain,
    }));
  } else if (next) {
    out.push(h("a", { id: `btn-watch-rematch${sfx}`, class: "button secondary", href: `/table/${next}`, text: "Watch the rematch" }));
  }
  out.push(h("a", { id: `btn-lobby${sfx}`, class: "button secondary", href: "/", text: "Back to the lobby" }));
  return out;
}

/** Ask for the rematch (created by the first player who asks) and go to my seat there. */
export async function playAgain() {
  try {
    const res = await api("POST", `/api/tables/${T.id}/rematch`, undefined, T.token);
    location.assign(`/table/${res.table.id}#seat=${res.token}`);
  } catch (e) {
    notify(e.message, true);
  }
}

/** Every player's Alhambra (and Dirk's tiles) side by side, each fitted whole and large. */
export function boardsOverview(v) {
  const turned = turnedTiles(v);
  const boards = v.seats.map((s) => {
    const xs = s.alhambra.map((c) => c.x), ys = s.alhambra.map((c) => c.y);
    const minX = Math.min(...xs), minY = Math.min(...ys);
    const w = (Math.max(...xs) - minX + 1) * CELL, hh = (Math.max(...ys) - minY + 1) * CELL;
    const svg = svgEl("svg", { class: "overview-svg", viewBox: `${minX * CELL - 10} ${minY * CELL - 10} ${w + 20} ${hh + 20}`, role: "img", "aria-label": `Alhambra of ${seatName(s.seat)}: ${s.alhambra.length} tiles` });
    for (const c of s.alhambra) svg.appendChild(tileNode(c.tile, c.x * CELL, c.y * CELL, CELL, { turned: turned.has(c.tile) }));
    return h("section", { class: "overview-board", dataset: { seat: s.seat } },
      h("h3", {}, h("span", { class: "swatch", style: `background:${SEAT_COLORS[s.seat]}` }), h("span", { class: "city-name", text: seatName(s.seat) }),
        h("span", { class: "city-meta", text: `${s.score} points · ${wallName()} ${s.longest_wall} · reserve ${s.reserve.length}` })),
      svg);
  });
  if (v.neutral) boards.push(h("section", { class: "overview-board neutral" }, h("h3", { text: `Dirk (neutral) · ${v.neutral.score} points` }),
    h("div", { class: "reserve-tiles" }, ...v.neutral.tiles.map((t) => tileArt(t, 34)))));
  return h("div", { class: "overview", style: `--boards:${Math.min(3, v.seats.length)}` }, ...boards);
}

export function renderModal() {
  const close = () => { T.modal = null; render(); };
  let body;
  let title;
  if (T.modal.kind === "round") {
    title = `Scoring round ${T.modal.round.round}`;
    body = roundTable(T.modal.round);
  } else if (T.modal.kind === "boards") {
    title = "Every Alhambra";
    body = boardsOverview(T.msg.view);
  } else {
    title = "Game over";
    body = summaryBody(T.msg.view);
  }
  const summary = T.modal.kind === "summary";
  const boards = T.modal.kind === "boards";
  const id = summary ? "summary-modal" : boards ? "boards-modal" : "round-modal";
  return h("div", { class: "modal-back", onclick: (ev) => { if (ev.target === ev.currentTarget) close(); } },
    h("div", { class: `modal ${summary || boards ? "modal-wide" : ""}`, role: "dialog", "aria-modal": "true", "aria-labelledby": "modal-title", id },
      h("h2", { id: "modal-title", text: title }), body,
      h("div", { class: "button-row modal-buttons" },
        summary ? rematchButtons(true) : null,
        h("button", { id: "btn-close-modal", class: summary ? "secondary" : "primary", text: summary ? "Close and look at the table" : boards ? "Close" : "Continue", onclick: close, "data-autofocus": true }),
        summary ? h("button", { id: "btn-summary-replay", class: "secondary", text: "Watch the replay", onclick: () => location.assign(`/replay/${T.id}`) }) : null,
        summary ? h("a", { class: "button secondary", href: `/api/tables/${T.id}/record`, download: `alhambra-${T.id}.json`, text: "Download the game record" }) : null)));
}
