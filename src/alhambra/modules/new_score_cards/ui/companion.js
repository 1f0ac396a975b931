// The new score cards on the "Score a real game" page: the round's card replaces the table (as companion.py).
export default {
  kindPoints(t, kind) {
    const cards = t.table.cards || [];
    if (cards.length !== 3) return null;
    const row = (t.data.points[String(cards[t.round - 1])] || [])[t.round - 1] || {};
    return row[kind] || null;
  },
};
