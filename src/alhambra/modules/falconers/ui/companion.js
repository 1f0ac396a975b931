// Falconers on the "Score a real game" page: the points of each type's falcons (as companion.py).
export default {
  roundPoints(t) {
    return t.seats.slice(0, t.players).map((v) => {
      const parts = Object.entries(v).filter(([, c]) => c > 0);
      const why = parts.map(([type, c]) => `${c} ${type} (${t.data.points[c]})`).join(", ") || "no falcon";
      return { points: parts.reduce((a, [, c]) => a + t.data.points[c], 0), reason: why };
    });
  },
};
