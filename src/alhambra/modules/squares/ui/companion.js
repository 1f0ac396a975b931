// Squares on the "Score a real game" page: the squares' extra buildings per colour (as companion.py).
export default {
  adjustCounts(t, who, counts) {
    if (who >= t.players) return [];
    const out = [];
    for (const [k, v] of Object.entries(t.seats[who])) {
      if (v) { counts[k] = (counts[k] || 0) + v; out.push(`squares: ${v} more ${k}`); }
    }
    return out;
  },
};
