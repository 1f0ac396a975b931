// The scoring companion's rules in the browser: the same scoring as alhambra.companion.score
// (majorities with the rulebook's tie rule, Granada's multiples, the longest wall) so that the
// page scores offline. Modules add their part through their own ui/companion.js (register()).
// tests/test_companion_browser.py checks it against the Python scoring in Chromium.

const MODULES = new Map();

/** A module's scoring part: { adjustCounts, kindPoints, wallPoints, roundPoints, afterRound } (each optional). */
export function register(id, impl) { MODULES.set(id, impl); }

/** Load the ui/companion.js of every scoring module that has one. */
export async function loadModules(catalogue) {
  for (const m of catalogue.modules) {
    if (m.script && !MODULES.has(m.id)) register(m.id, (await import(`/modules/${m.id}/ui/companion.js`)).default);
  }
}

/** Points per participant for one kind: tied participants add their places' points and split them, rounded down. */
export function majorityAwards(counts, points) {
  const awards = counts.map(() => 0);
  const order = [...new Set(counts.filter((c) => c > 0))].sort((a, b) => b - a);
  let place = 0;
  for (const c of order) {
    if (place >= points.length) break;
    const tied = counts.map((n, i) => (n === c ? i : -1)).filter((i) => i >= 0);
    const share = Math.floor(points.slice(place, place + tied.length).reduce((a, b) => a + b, 0) / tied.length);
    for (const i of tied) awards[i] = share;
    place += tied.length;
  }
  return awards;
}

/** Granada: places 1..round get round*T ... T (T: the kind's buildings of all); ties broken by the dearest building. */
export function multiplesAwards(counts, dearest, rnd) {
  const total = counts.reduce((a, b) => a + b, 0);
  const points = Array.from({ length: rnd }, (_, p) => (rnd - p) * total);
  const awards = counts.map(() => 0);
  const keys = [...new Set(counts.map((c, i) => (c > 0 ? `${c},${dearest[i]}` : null)).filter(Boolean))]
    .map((k) => k.split(",").map(Number)).sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  let place = 0;
  for (const [c, d] of keys) {
    if (place >= points.length) break;
    const tied = counts.map((n, i) => (n === c && dearest[i] === d ? i : -1)).filter((i) => i >= 0);
    const share = Math.floor(points.slice(place, place + tied.length).reduce((a, b) => a + b, 0) / tied.length);
    for (const i of tied) awards[i] = share;
    place += tied.length;
  }
  return awards;
}

function places(keys) {
  const out = keys.map(() => [0, []]);
  const distinct = [...new Set(keys.filter((k) => k[0] > 0).map((k) => k.join(",")))].map((k) => k.split(",").map(Number))
    .sort((a, b) => b[0] - a[0] || b[1] - a[1]);
  let place = 1;
  for (const key of distinct) {
    const tied = keys.map((k, i) => (k[0] === key[0] && k[1] === key[1] ? i : -1)).filter((i) => i >= 0);
    for (const i of tied) out[i] = [place, tied.filter((j) => j !== i)];
    place += tied.length;
  }
  return out;
}

function fieldValues(fields, raw) {
  const out = {};
  for (const f of fields) {
    const v = raw ? raw[f.key] : undefined;
    out[f.key] = v === undefined || v === null || v === "" ? (f.kind === "choice" ? f.choices[0] : f.kind === "numbers" ? [] : 0) : v;
  }
  return out;
}

/**
 * Score a table document (the input of `alhambra score TABLE.json`, players given by counts)
 * with the catalogue of /api/companion; the result has the shape of its --json output's seats.
 */
export function scoreTable(catalogue, doc) {
  const game = catalogue.games.find((g) => g.id === (doc.game || "alhambra"));
  const mods = [...(doc.modules || [])].sort();
  const players = doc.players;
  const n = players.length;
  const parts = doc.neutral ? [...players, doc.neutral] : [...players];
  const names = parts.map((p, i) => (i >= n ? p.name || "Dirk" : p.name || `player ${i + 1}`));
  const raw = parts.map((p) => Object.fromEntries(game.kinds.map((k) => [k, (p.buildings || {})[k] || 0])));
  const info = Object.fromEntries(catalogue.modules.map((m) => [m.id, m]));
  const tallies = {};
  for (const m of mods) {
    const mi = info[m];
    if (!mi) continue;
    tallies[m] = {
      game: game.id, round: doc.round, players: n, neutral: !!doc.neutral, data: mi.data,
      table: fieldValues(mi.table_fields, (doc.table || {})[m]),
      seats: parts.map((p, i) => fieldValues(mi.seat_fields.filter((f) => f.neutral || i < n), (p.modules || {})[m])),
      counts: raw,
      walls: parts.map((p, i) => (i >= n ? 0 : p.wall || 0)),
    };
  }
  const hooks = mods.filter((m) => MODULES.has(m) && tallies[m]).map((m) => [m, MODULES.get(m)]);
  const counts = raw.map((c) => ({ ...c }));
  const notes = parts.map(() => []);
  for (const [m, h] of hooks) if (h.adjustCounts) parts.forEach((_, i) => notes[i].push(...h.adjustCounts(tallies[m], i, counts[i])));
  const seats = parts.map((p, i) => ({
    name: names[i], neutral: i >= n, kinds: {}, wall: i >= n ? 0 : p.wall || 0, modules: {}, after: {}, notes: notes[i],
    before: i >= n ? 0 : p.score || 0, round_points: 0, total: 0,
  }));
  for (const [m, h] of hooks) if (h.wallPoints) seats.slice(0, n).forEach((s, i) => { s.wall = h.wallPoints(tallies[m], i, s.wall); });
  const scoredWalls = seats.map((s) => s.wall);  // what the round's points read (the City Watch), as score.py
  for (const m of Object.keys(tallies)) tallies[m].scored_walls = scoredWalls;
  for (const kind of game.kinds) {
    const c = counts.map((x) => x[kind] || 0);
    let table = null;
    for (const [m, h] of hooks) {
      table = h.kindPoints ? h.kindPoints(tallies[m], kind) : null;
      if (table) break;
    }
    let aw;
    let keys;
    if (game.scoring === "table") {
      aw = majorityAwards(c, table || game.points[kind][doc.round - 1]);
      keys = c.map((x) => [x, 0]);
    } else {
      const dearest = parts.map((p) => (p.dearest || {})[kind] || 0);
      aw = multiplesAwards(c, dearest, doc.round);
      keys = c.map((x, i) => [x, dearest[i]]);
    }
    places(keys).forEach(([place, tied], i) => {
      seats[i].kinds[kind] = { count: c[i], place, tied_with: tied.map((j) => names[j]), points: aw[i] };
    });
  }
  const sum = (o) => Object.values(o).reduce((a, v) => a + v.points, 0);
  const roundPoints = (s) => sum(s.kinds) + s.wall + sum(s.modules);
  for (const [m, h] of hooks) {
    const lines = h.roundPoints ? h.roundPoints(tallies[m]) : null;
    if (lines) lines.slice(0, parts.length).forEach((line, i) => { seats[i].modules[m] = line; });
  }
  for (const [m, h] of hooks) {
    const scores = seats.slice(0, n).map((s) => s.before + roundPoints(s) + sum(s.after));
    const lines = h.afterRound ? h.afterRound(tallies[m], scores) : null;
    if (lines) lines.slice(0, n).forEach((line, i) => { seats[i].after[m] = line; });
  }
  for (const s of seats) {
    s.round_points = roundPoints(s) + sum(s.after);
    s.total = s.before + s.round_points;
  }
  return { game: game.id, round: doc.round, modules: mods, seats };
}
