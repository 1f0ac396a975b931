// Building sites on the "Score a real game" page: a building under a site tile does not count (as companion.py).
export default {
  adjustCounts(t, who, counts) {
    const out = [];
    for (const [k, v] of Object.entries(t.seats[who])) {
      const cut = Math.min(v, counts[k] || 0);
      if (v) { counts[k] = (counts[k] || 0) - cut; out.push(`building sites: ${cut} ${k} not counted`); }
    }
    return out;
  },
};
