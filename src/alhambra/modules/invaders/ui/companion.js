// The invaders on the "Score a real game" page: the invasion's loss after the round, never below 0 (as companion.py).
export default {
  afterRound(t, scores) {
    const dirs = t.data.directions;
    const d = t.table.direction;
    const i = dirs.indexOf(d);
    const a = dirs[(i + 3) % 4];
    const b = dirs[(i + 1) % 4];
    return t.seats.slice(0, t.players).map((v, s) => {
      const loss = t.data.main[t.round - 1] * v[d] + t.data.beside[t.round - 1] * (v[a] + v[b]);
      const score = scores[s];
      const now = loss > 0 ? Math.max(score - loss, Math.min(score, 0)) : score;
      return { points: now - score, reason: `invasion from the ${d}: ${v[d]} open sides facing it, ${v[a] + v[b]} beside` };
    });
  },
};
