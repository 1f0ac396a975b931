// The treasure chamber on the "Score a real game" page: the chest majority (as companion.py).
import { majorityAwards } from "/static/score-core.js";

export default {
  roundPoints(t) {
    const counts = t.seats.map((v) => v.chests);
    const got = majorityAwards(counts, t.data.points[t.round - 1]);
    return got.map((p, i) => ({ points: p, reason: `${counts[i]} chest${counts[i] !== 1 ? "s" : ""}` }));
  },
};
