// Bazaars on the "Score a real game" page: matching buildings x their kinds, final scoring only (as companion.py).
export default {
  roundPoints(t) {
    if (t.round !== t.data.round) return null;
    return t.seats.slice(0, t.players).map((v) => {
      const pairs = v.neighbours.map((m, i) => [m, v.kinds[i] || 0]);
      return { points: pairs.reduce((a, [m, k]) => a + m * k, 0), reason: pairs.map(([m, k]) => `${m}×${k}`).join(", ") || "no bazaar" };
    });
  },
};
