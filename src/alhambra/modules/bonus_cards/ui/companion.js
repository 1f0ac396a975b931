// Bonus cards on the "Score a real game" page: each played card counts one building (as companion.py).
export default {
  adjustCounts(t, who, counts) {
    if (who >= t.players) return [];
    const out = [];
    for (const [k, v] of Object.entries(t.seats[who])) {
      if (v) { counts[k] = (counts[k] || 0) + v; out.push(`bonus cards: ${v} more ${k}`); }
    }
    return out;
  },
};
