// Street traders on the "Score a real game" page: citizens in sets of different colours (as companion.py).
export default {
  roundPoints(t) {
    return t.seats.slice(0, t.players).map((v) => {
      const counts = t.data.kinds.map((k) => v[k] || 0);
      let total = 0;
      for (let level = 1; level <= Math.max(0, ...counts); level++) total += t.data.set_points[counts.filter((c) => c >= level).length];
      const n = counts.reduce((a, b) => a + b, 0);
      return { points: total, reason: `${n} citizen${n !== 1 ? "s" : ""} in sets of different colours` };
    });
  },
};
