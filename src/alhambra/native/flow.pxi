# The turn flow: drawing cards, refilling, the end of a turn, scoring rounds, the neutral
# player's tiles, the end-of-game hand-out and the end. Twin of engine._advance and its steps
# (draw_card, refill_display, _fill_market, _run_scoring_queue, _score_round, _start_final).

cdef St* NEEDST = <St*>PyMem_Malloc(sizeof(St))
cdef int NEED = 0
"""Explicit chance: 0, or why the step stopped (1 a card draw, 2 a tile draw needs an outcome;
3 a decided outcome is not possible). NEEDST: the state at that draw (for its outcomes)."""


cdef void need(St* s, int kind) noexcept:
    global NEED
    if not NEED:
        NEED = kind
        memcpy(NEEDST, s, sizeof(St))


cdef inline int card_class_of(Rules* R, int c) noexcept:
    return R.card_code[c] if R.card_cur[c] >= 0 else 36 + R.card_val[c] - 1


cdef int decided_card(St* s, Rules* R) noexcept:
    """supply._decided_card: take the decided next card out of the unordered deck (-1 and NEED
    set when there is none, or it cannot be the next card)."""
    cdef int code, i, idx = -1, top = -1, c, k
    if NEED:
        return -1
    if s.dqh >= s.ndq:
        need(s, 1)
        return -1
    code = s.dq[s.dqh]
    for i in range(s.ndeck):
        if card_class_of(R, s.deck[i]) == code:
            idx = i
            break
    for i in range(s.npiles):
        if s.pleft[i] > 0:
            top = i
            break
    if idx < 0 or top < 0:
        need(s, 3)
        return -1
    c = s.deck[idx]
    if code < 36:
        if s.pleft[top] - s.pspec[top][0] - s.pspec[top][1] <= 0:
            need(s, 3)
            return -1
    else:
        k = code - 36
        if k > 1 or s.pspec[top][k] <= 0:
            need(s, 3)
            return -1
        s.pspec[top][k] -= 1
    s.pleft[top] -= 1
    for i in range(idx + 1, s.ndeck):
        s.deck[i - 1] = s.deck[i]
    s.ndeck -= 1
    s.dqh += 1
    return c


cdef int draw_tile(St* s) noexcept:
    """supply._draw_tile: the next tile of the bag (the bag must not be empty); explicit
    chance: the decided one (-1 and NEED set when there is none or it is not in the bag)."""
    cdef int t, i, idx = -1
    if not s.explicit:
        s.nbag -= 1
        return s.bag[s.nbag]
    if NEED:
        return -1
    if s.tqh >= s.ntq:
        need(s, 2)
        return -1
    t = s.tq[s.tqh]
    for i in range(s.nbag):
        if s.bag[i] == t:
            idx = i
            break
    if idx < 0:
        need(s, 3)
        return -1
    for i in range(idx + 1, s.nbag):
        s.bag[i - 1] = s.bag[i]
    s.nbag -= 1
    s.tqh += 1
    return t


cdef void sort_ints(int* x, int n) noexcept:
    cdef int i, j, v
    for i in range(1, n):
        v = x[i]
        j = i - 1
        while j >= 0 and x[j] > v:
            x[j + 1] = x[j]
            j -= 1
        x[j + 1] = v


cdef int draw_card(St* s, Rules* R, object seed) except -2:
    """The next money card (scoring cards are set aside and queued), -1 when none is left
    (explicit chance: also when the draw needs an outcome, NEED says so)."""
    cdef int c, i, k
    cdef list cards
    while True:
        if s.ndeck == 0:
            if s.ndiscard == 0:
                return -1
            s.reshuffles += 1
            if s.explicit:  # no order: the discards, sorted, are one pile of money
                for i in range(s.ndiscard):
                    s.deck[i] = s.discard[i]
                sort_ints(s.deck, s.ndiscard)
                s.npiles = 1
                s.pleft[0] = s.ndiscard
                s.pspec[0][0] = 0
                s.pspec[0][1] = 0
                for i in range(s.ndiscard):
                    if R.card_cur[s.deck[i]] < 0:
                        s.pspec[0][R.card_val[s.deck[i]] - 1] += 1
            else:
                cards = [s.discard[i] for i in range(s.ndiscard)]
                _random.Random(f"{seed}/reshuffle/{s.reshuffles}").shuffle(cards)
                for i in range(s.ndiscard):
                    s.deck[i] = cards[i]
            s.ndeck = s.ndiscard
            s.ndiscard = 0
            if EVON:
                ev2(E_RESHUFFLED, s.ndeck)
        if s.explicit:
            c = decided_card(s, R)
            if c < 0:
                return -1
        else:
            s.ndeck -= 1
            c = s.deck[s.ndeck]
        if R.card_cur[c] < 0:
            s.removed[s.nremoved] = c
            s.nremoved += 1
            s.squeue[s.nsqueue] = R.card_val[c]
            s.nsqueue += 1
            if EVON:
                ev2(E_SCORING_CARD, R.card_val[c])
            continue
        return c


cdef int refill_display(St* s, Rules* R, object seed) except -1:
    cdef int i, c, k = 0
    cdef int slots[4]
    for i in range(4):
        if s.display[i] < 0:
            c = draw_card(s, R, seed)
            if c < 0:
                break
            s.display[i] = c
            slots[k] = i
            k += 1
    if EVON and k:
        ev2(E_DISPLAY, k)
        for i in range(k):
            ev(slots[i] + 1)
        for i in range(k):
            ev(s.display[slots[i]])
    return 0


cdef bint fill_market(St* s) noexcept:
    cdef int i, k = 0, t
    cdef int squares[4]
    cdef bint complete = True
    for i in range(4):
        if s.market[i] < 0:
            if not s.nbag:
                s.market_exhausted = 1
                complete = False
                break
            t = draw_tile(s)
            if t < 0:  # explicit chance: the draw needs an outcome (the step is thrown away)
                complete = False
                break
            s.market[i] = t
            squares[k] = i
            k += 1
    if EVON and k:
        ev2(E_MARKET, k)
        for i in range(k):
            ev(squares[i] + 1)
        for i in range(k):
            ev(s.market[squares[i]])
    return complete


cdef void majority(int* counts, int n, int* points, int npoints, int* awards) noexcept:
    """scoring.majority_awards: tied places share their points, rounded down."""
    cdef int i, j, c, best, place = 0, tied, total, prev = 1 << 30
    for i in range(n):
        awards[i] = 0
    while True:
        best = 0
        for i in range(n):
            if counts[i] > best and counts[i] < prev:
                best = counts[i]
        if best <= 0 or place >= npoints:
            return
        tied = 0
        for i in range(n):
            if counts[i] == best:
                tied += 1
        total = 0
        for j in range(place, min(place + tied, npoints)):
            total += points[j]
        for i in range(n):
            if counts[i] == best:
                awards[i] = total // tied
        place += tied
        prev = best


cdef void score_round(St* s, Rules* R, int rnd) noexcept:
    cdef int n = s.n, m = s.n + (1 if s.has_neutral else 0)
    cdef int counts[6][7]
    cdef int pts[7]
    cdef int aw[7]
    cdef int awards[6][7]
    cdef int walls[6]
    cdef int seat, k, i, g, t
    cdef Player* p
    for k in range(6):
        for i in range(m):
            counts[k][i] = 0
    for i in range(m):
        pts[i] = 0
    for seat in range(n):
        p = &s.players[seat]
        for g in range(p.y0 * G + p.x0, p.y1 * G + p.x1 + 1):
            t = p.grid[g]
            if t >= 0 and R.tile_kind[t] >= 0:
                counts[R.tile_kind[t]][seat] += 1
    if s.has_neutral:
        for i in range(s.nneutral):
            counts[R.tile_kind[s.neutral[i]]][n] += 1
    for k in range(6):
        majority(counts[k], m, R.points[k][rnd - 1], R.npoints[k][rnd - 1], aw)
        for i in range(m):
            pts[i] += aw[i]
            awards[k][i] = aw[i]
    for seat in range(n):
        walls[seat] = longest_wall(&s.players[seat], R)
        pts[seat] += walls[seat]
        s.scores[seat] += pts[seat]
    if s.has_neutral:
        s.neutral_score += pts[n]
    s.rounds_scored += 1
    for seat in range(n):
        s.hist[s.nhist][seat] = s.scores[seat]
    s.nhist += 1
    if EVON:
        ev3(E_ROUND, rnd, m)
        for k in range(6):
            for i in range(m):
                ev(awards[k][i])
        for k in range(6):
            for i in range(m):
                ev(counts[k][i])
        for seat in range(n):
            ev(walls[seat])
        for seat in range(n):
            ev(pts[seat])
        for seat in range(n):
            ev(s.scores[seat])
        ev2(pts[n] if s.has_neutral else 0, s.neutral_score)


cdef void run_scoring_queue(St* s, Rules* R, int limit) noexcept:
    cdef int done = 0, rnd, i, k, t
    while s.nsqueue and (limit < 0 or done < limit):
        done += 1
        rnd = s.squeue[0]
        for i in range(1, s.nsqueue):
            s.squeue[i - 1] = s.squeue[i]
        s.nsqueue -= 1
        score_round(s, R, rnd)
        if s.has_neutral:
            k = 6 if rnd == 1 else s.nbag // 3
            if k > s.nbag:
                k = s.nbag
            for i in range(k):
                t = draw_tile(s)
                if t < 0:  # explicit chance: the draw needs an outcome
                    k = i
                    break
                s.neutral[s.nneutral] = t
                s.nneutral += 1
            if EVON:
                ev2(E_NEUTRAL, k)
                for i in range(k):
                    ev(s.neutral[s.nneutral - k + i])


cdef void push_choose(St* s, int seat) noexcept:
    cdef Pend* p = &s.pending[s.npending]
    s.npending += 1
    p.kind = P_CHOOSE
    p.seat = seat
    p.actions = 0
    p.ntiles = 0
    p.neutral = 0
    p.final = 0


cdef void push_place(St* s, int seat, int* tiles, int ntiles, int neutral, int final) noexcept:
    cdef Pend* p = &s.pending[s.npending]
    cdef int i
    s.npending += 1
    p.kind = P_PLACE
    p.seat = seat
    p.actions = 0
    p.ntiles = ntiles
    for i in range(ntiles):
        p.tiles[i] = tiles[i]
    p.neutral = neutral
    p.final = final


cdef void start_turn(St* s, int seat) noexcept:
    s.current = seat
    s.turn += 1
    s.stage = ST_TURN
    s.flow = 0
    push_choose(s, seat)
    if EVON:
        ev3(E_TURN_STARTED, seat, s.turn)


cdef void end_game(St* s, int outcome) noexcept:
    cdef int i
    s.outcome = outcome
    s.stage = ST_OVER
    s.npending = 0
    if EVON:
        ev2(E_ENDED, outcome)
        for i in range(s.n):
            ev(s.scores[i])


cdef void start_final(St* s, Rules* R) noexcept:
    """The market could not be refilled: each remaining tile goes to the one player with the
    most money of its square's currency."""
    cdef int n = s.n, sq, t, seat, i, best, nbest, who, c
    cdef int amount[6]
    cdef int got[6][4]
    cdef int ngot[6]
    s.stage = ST_FINAL
    s.flow = 0
    for seat in range(n):
        ngot[seat] = 0
    for sq in range(4):
        t = s.market[sq]
        if t < 0:
            continue
        best = 0
        nbest = 0
        who = -1
        for seat in range(n):
            amount[seat] = 0
            for i in range(s.players[seat].nhand):
                c = s.players[seat].hand[i]
                if R.card_cur[c] == sq:
                    amount[seat] += R.card_val[c]
            if amount[seat] > best:
                best = amount[seat]
                nbest = 1
                who = seat
            elif amount[seat] == best:
                nbest += 1
        if best > 0 and nbest == 1:
            s.market[sq] = -1
            got[who][ngot[who]] = t
            ngot[who] += 1
            if EVON:
                ev3(E_AWARDED, who, sq + 1)
                ev(t)
    i = n - 1
    while i >= 0:
        seat = (s.current + 1 + i) % n
        if ngot[seat]:
            push_place(s, seat, got[seat], ngot[seat], 0, 1)
        i -= 1


cdef int advance(St* s, Rules* R, object seed) except -1:
    """Run the automatic steps until a seat must decide or the game is over."""
    cdef int seat
    if s.npending:
        return 0
    if s.stage == ST_TURN and s.outcome == 0:
        if EVON:
            ev2(E_TURN_ENDED, s.current)
        for seat in range(4):
            if s.display[seat] < 0:
                refill_display(s, R, seed)
                break
        for seat in range(4):
            if s.market[seat] < 0:
                fill_market(s)
                break
        if s.nsqueue:
            run_scoring_queue(s, R, -1)
        if not s.market_exhausted and (s.turn_limit == 0 or s.turn < s.turn_limit):
            seat = (s.current + 1) % s.n
            s.current = seat
            s.turn += 1
            s.flow = 0
            push_choose(s, seat)
            if EVON:
                ev3(E_TURN_STARTED, seat, s.turn)
            return 0
        s.stage = ST_BETWEEN
        s.flow = 1
    while s.outcome == 0:
        if s.npending:
            return 0
        if s.stage == ST_BETWEEN:
            if s.flow == 0:
                s.flow = 1
            elif s.nsqueue:
                run_scoring_queue(s, R, 1)
                s.flow = 1
            elif s.market_exhausted:
                start_final(s, R)
            elif s.turn_limit and s.turn >= s.turn_limit:
                end_game(s, 2)
            else:
                start_turn(s, (s.current + 1) % s.n)
        elif s.stage == ST_FINAL:
            score_round(s, R, 3)
            end_game(s, 1)
        else:
            raise AssertionError("native core: a turn ended outside the turn flow")
    return 0
