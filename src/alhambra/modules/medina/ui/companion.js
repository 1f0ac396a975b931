// Medina on the "Score a real game" page: the penalties of the fewest medinas (as companion.py).
export default {
  roundPoints(t) {
    const places = t.data.penalties[t.round - 1];
    const without = t.data.without[t.round - 1];
    const keys = t.seats.map((v) => [v.medinas, v.medinas > 0 ? v.dearest : 0]);
    const distinct = [...new Set(keys.map((k) => k.join(",")))].map((k) => k.split(",").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const out = keys.map(() => 0);
    let place = 0;
    for (const key of distinct) {
      const tied = keys.map((k, i) => (k[0] === key[0] && k[1] === key[1] ? i : -1)).filter((i) => i >= 0);
      const lost = places.slice(place, place + tied.length).reduce((a, b) => a + b, 0);
      const share = Math.ceil(lost / tied.length);
      for (const i of tied) out[i] = -share - (key[0] === 0 ? without : 0);
      place += tied.length;
    }
    return t.seats.map((v, i) => ({ points: out[i], reason: `${v.medinas} medina${v.medinas !== 1 ? "s" : ""}${v.medinas ? `, dearest ${v.dearest}` : ""}` }));
  },
};
