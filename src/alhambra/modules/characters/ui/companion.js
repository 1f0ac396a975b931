// Characters on the "Score a real game" page (as companion.py): the Wise Man's half building,
// the City Watch's point per 3 wall points, the Travelling Entertainer's 8 points at the end.
export default {
  adjustCounts(t, who, counts) {
    if (who >= t.players) return [];
    const kind = t.seats[who].wise_man;
    if (!kind || kind === "none") return [];
    counts[kind] = (counts[kind] || 0) + 0.5;
    return [`Wise Man: half a ${kind} more`];
  },
  roundPoints(t) {
    const out = [];
    let any = false;
    for (let who = 0; who < t.players; who++) {
      const v = t.seats[who];
      let points = 0;
      const why = [];
      if (v.city_watch === "yes") {
        const wall = (t.scored_walls || t.walls || [])[who] || 0;
        points += Math.floor(wall / t.data.per);
        why.push(`City Watch: ${wall} wall points`);
      }
      if (v.entertainer === "yes" && t.round === 3) {
        points += t.data.entertainer;
        why.push("Travelling Entertainer");
      }
      if (points) any = true;
      out.push({ points, reason: why.join("; ") });
    }
    return any ? out : null;
  },
};
