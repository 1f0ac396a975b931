// The Art of the Moors on the "Score a real game" page: the numbers at the gem, added (as companion.py).
export default {
  roundPoints(t) {
    const label = (p) => (p === "12" ? "12/13" : p);
    return t.seats.slice(0, t.players).map((v) => {
      const parts = Object.entries(v).filter(([, n]) => n > 0);
      const why = parts.map(([p, n]) => `counter ${label(p)}: ${n}`).join(", ") || "no culture points";
      return { points: parts.reduce((a, [, n]) => a + n, 0), reason: why };
    });
  },
};
