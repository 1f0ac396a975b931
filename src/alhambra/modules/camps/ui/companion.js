// Camps on the "Score a real game" page: 1 point per building in the arrows' lines (as companion.py).
export default {
  roundPoints(t) {
    return t.seats.slice(0, t.players).map((v) => {
      const n = Number(v.lines) || 0;
      return { points: n, reason: n ? `${n} building${n === 1 ? "" : "s"} in the camps' lines` : "no camp line" };
    });
  },
};
