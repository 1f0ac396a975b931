// Watchtowers on the "Score a real game" page: the longest wall counted with the watchtowers'
// diagonals, +2 per watchtower in it (as companion.py).
export default {
  wallPoints(t, who, points) {
    const v = t.seats[who] || {};
    const length = Number(v.length) || 0;
    return (length || points) + (t.data.wall_bonus || 2) * (Number(v.towers) || 0);
  },
};
