# The greedy evaluation of the bots on the native state. Twin of bots/greedy.py (seat_values,
# relative, evaluate, _awards, _majority, _exact): the same floating-point operations in the
# same order, so that the values are equal to the last bit and a search on the native core
# chooses the moves the Python search chooses (tests/test_native_bots.py).

cdef struct EvalW:
    double rw[3]
    double share
    double money
    double money_late
    double buy_power
    double exact_power
    double room
    double room_cap
    double tempo
    double lead_blend
    double fit[16][16]
    int total_tiles


cdef class Evaluator:
    """The weights of :class:`alhambra.bots.greedy.Weights` and the component facts the
    evaluation needs (``fit``: the share of building tiles that fit a place, by its neighbour
    facts; ``total_tiles``: the building tiles), as C values."""

    cdef EvalW w

    def __init__(self, weights, fit, int total_tiles):
        cdef int i, j
        if len(weights.round_weights) != 3:
            raise ValueError("three round weights expected")
        for i in range(3):
            self.w.rw[i] = weights.round_weights[i]
        self.w.share = weights.reserve_share
        self.w.money = weights.money
        self.w.money_late = weights.money_late
        self.w.buy_power = weights.buy_power
        self.w.exact_power = weights.exact_power
        self.w.room = weights.room
        self.w.room_cap = weights.room_cap
        self.w.tempo = weights.tempo
        self.w.lead_blend = weights.lead_blend
        for i in range(16):
            for j in range(16):
                self.w.fit[i][j] = fit[i][j]
        self.w.total_tiles = total_tiles


cdef void awards(double* counts, int n, double* points, int npoints, double* out) noexcept:
    """Majority awards with the tie rule for one kind and round (greedy._awards)."""
    cdef double distinct[8]
    cdef int nd = 0, i, j, k, place = 0, hi
    cdef double c, x, total
    for i in range(n):
        out[i] = 0.0
    for i in range(n):
        c = counts[i]
        if c > 0:
            for j in range(nd):
                if distinct[j] == c:
                    break
            else:
                distinct[nd] = c
                nd += 1
    # descending
    for i in range(1, nd):
        x = distinct[i]
        j = i - 1
        while j >= 0 and distinct[j] < x:
            distinct[j + 1] = distinct[j]
            j -= 1
        distinct[j + 1] = x
    for j in range(nd):
        if place >= npoints:
            break
        c = distinct[j]
        k = 0
        for i in range(n):
            if counts[i] == c:
                k += 1
        total = 0.0
        hi = place + k
        if hi > npoints:
            hi = npoints
        for i in range(place, hi):
            total += points[i]
        total = total / k
        for i in range(n):
            if counts[i] == c:
                out[i] = total
        place += k


cdef bint exact_pay(int* vals, int nv, int price) noexcept:
    """Can some of these card values add up to exactly ``price``? (greedy._exact)"""
    cdef unsigned long long reach = 1, mask
    cdef int i
    if price >= 63:
        return False
    mask = (1ULL << (price + 1)) - 1
    for i in range(nv):
        reach |= (reach << vals[i]) & mask
    return (reach >> price) & 1


cdef int seat_values(St* s, Rules* R, EvalW* W, double* values) except -1:
    """Estimated final points of every seat into ``values`` (greedy.seat_values)."""
    cdef int n = s.n, neutral = s.has_neutral, rows, nk = 6
    cdef double built[7][6]
    cdef double spare[7][6]
    cdef int wall[6]
    cdef double room[6]
    cdef double col[7]
    cdef double col_all[7]
    cdef double trial[7]
    cdef double a[7]
    cdef double b[7]
    cdef double aw[7]
    cdef double pts[6]
    cdef double add[7]
    cdef double gain[6][6]
    cdef double totals[7]
    cdef int seat, k, i, r, g, gx, gy, t, first, left, npts, nrounds, cur, pr
    cdef double w, share, one_less, wsum, bag_left, money_rate, v, best, rest, x, exact_share
    cdef Player* p
    cdef Pend* pd
    cdef Frontier f
    cdef int purse[4]
    cdef int by_cur[4][MAXC]
    cdef int ncur[4]
    cdef int money
    rows = n + (1 if neutral else 0)
    share = W.share
    for seat in range(rows):
        for k in range(nk):
            built[seat][k] = 0.0
            spare[seat][k] = 0.0
    for seat in range(n):
        p = &s.players[seat]
        for gy in range(p.y0, p.y1 + 1):
            for gx in range(p.x0, p.x1 + 1):
                t = p.grid[gy * G + gx]
                if t >= 0 and R.tile_kind[t] >= 0:
                    built[seat][R.tile_kind[t]] += 1
        wall[seat] = longest_wall(p, R)
        frontier(p, R, &f)
        room[seat] = 0.0
        for i in range(f.n):
            room[seat] += W.fit[f.known[i]][f.need[i]]
        for i in range(p.nreserve):
            k = R.tile_kind[p.reserve[i]]
            if k >= 0:
                spare[seat][k] += share
    if neutral:
        for i in range(s.nneutral):
            k = R.tile_kind[s.neutral[i]]
            if k >= 0:
                built[n][k] += 1
    for i in range(s.npending):
        pd = &s.pending[i]
        for r in range(pd.ntiles):
            k = R.tile_kind[pd.tiles[r]]
            if k >= 0:
                built[pd.seat][k] += 1
    for seat in range(n):
        values[seat] = s.scores[seat]
    left = 3 - s.rounds_scored if not s.outcome else 0
    if left <= 0:
        return 0
    first = 3 - left + 1
    nrounds = left
    one_less = 1 - share
    for seat in range(rows):
        totals[seat] = 0.0
    for k in range(nk):
        for seat in range(rows):
            col[seat] = built[seat][k]
            col_all[seat] = built[seat][k] + spare[seat][k]
            trial[seat] = col_all[seat]
            add[seat] = 0.0
        for seat in range(n):
            gain[k][seat] = 0.0
        for i in range(nrounds):
            r = first + i
            w = W.rw[i]
            npts = R.npoints[k][r - 1]
            for g in range(npts):
                pts[g] = R.points[k][r - 1][g]
            awards(col, rows, pts, npts, a)
            awards(col_all, rows, pts, npts, b)
            for seat in range(rows):
                add[seat] += w * (a[seat] * one_less + b[seat] * share)
            if i == 0 or r == 3:
                for seat in range(n):
                    trial[seat] += 1
                    awards(trial, rows, pts, npts, aw)
                    gain[k][seat] += w * (aw[seat] - b[seat])
                    trial[seat] -= 1
        for seat in range(rows):
            totals[seat] += add[seat]
    for seat in range(n):
        values[seat] += totals[seat]
    wsum = 0.0
    for i in range(nrounds):
        wsum += W.rw[i]
    bag_left = <double>s.nbag / <double>(W.total_tiles if W.total_tiles > 1 else 1)
    money_rate = W.money_late + (W.money - W.money_late) * bag_left
    exact_share = W.buy_power + W.exact_power
    for seat in range(n):
        p = &s.players[seat]
        v = values[seat] + wsum * wall[seat]
        v += W.room * (W.room_cap if not (room[seat] < W.room_cap) else room[seat]) * bag_left
        money = 0
        for cur in range(4):
            purse[cur] = 0
            ncur[cur] = 0
        for i in range(p.nhand):
            t = p.hand[i]
            cur = R.card_cur[t]
            if cur >= 0:
                purse[cur] += R.card_val[t]
                by_cur[cur][ncur[cur]] = R.card_val[t]
                ncur[cur] += 1
                money += R.card_val[t]
        v += money_rate * money
        best = 0.0
        rest = 0.0
        for g in range(4):
            t = s.market[g]
            if t < 0:
                continue
            cur = g
            pr = R.tile_price[t]
            if purse[cur] < pr:
                continue
            k = R.tile_kind[t]
            x = ((gain[k][seat] if k >= 0 else 0.0) + 1.0) * (exact_share if exact_pay(by_cur[cur], ncur[cur], pr) else W.buy_power)
            if x > best:
                rest += best
                best = x
            else:
                rest += x
        values[seat] = v + (best + 0.3 * rest)
    if s.npending:
        pd = &s.pending[s.npending - 1]
        if pd.kind == P_CHOOSE and pd.actions > 0:
            values[pd.seat] += W.tempo
    return 0


cdef double relative(double* values, int n, int seat, double lead_blend) noexcept:
    """A seat's value relative to the others (greedy.relative)."""
    cdef double mx = 0.0, total = 0.0
    cdef int i, seen = 0
    for i in range(n):
        if i == seat:
            continue
        if not seen or values[i] > mx:
            mx = values[i]
        seen += 1
        total += values[i]
    if not seen:
        return values[seat]
    return values[seat] - lead_blend * mx - (1 - lead_blend) * total / seen


cdef double evaluate(St* s, Rules* R, EvalW* W, int seat, double* values) except? -1e300:
    """How good the state is for ``seat`` (greedy.evaluate); ``values``: the seat values
    (the scores once the game is over)."""
    cdef int i
    if s.outcome:
        for i in range(s.n):
            values[i] = s.scores[i]
    else:
        seat_values(s, R, W, values)
    return relative(values, s.n, seat, W.lead_blend)
