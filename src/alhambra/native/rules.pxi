# Legal actions and applying them (engine.legal_actions / apply_unchecked), the components as
# C tables, setup (engine.new_game), and the conversion to and from the Python GameState.

cdef class CoreRules:
    """The components of one configuration as C tables."""

    cdef Rules r
    cdef public object config
    cdef public object components
    cdef public list tile_code
    cdef public list card_code
    cdef public dict tile_ids
    cdef public dict money_code_ids

    def chance_card_index(self, code):
        """A card code as a decided outcome of the native core (see ``Game.decide``)."""
        got = self.money_code_ids.get(code)
        if got is not None:
            return got
        if code in ("S1", "S2", "S3"):
            return 36 + int(code[1]) - 1
        raise ValueError(f"no card {code!r} in the base game")

    def chance_card_code(self, int index):
        """The card code of a decided outcome of the native core."""
        if index >= 36:
            return f"S{index - 35}"
        return f"{'bgoy'[index // 9]}{index % 9 + 1}"

    def __init__(self, config, components):
        cdef int i, k, rnd, j
        self.config = config
        self.components = components
        comp = components
        memset(&self.r, 0, sizeof(Rules))
        self.r.n = config.players
        self.r.ntiles = len(comp.tiles)
        self.r.ncards = len(comp.cards)
        if self.r.ntiles > MAXT or self.r.ncards > MAXC:
            raise ValueError("too many components for the native core")
        self.tile_code = list(comp.tile_code)
        self.card_code = list(comp.card_code)
        self.tile_ids = dict(comp.tile_ids)
        kinds = list(comp.kinds)
        order = sorted(range(self.r.ntiles), key=lambda t: comp.tile_code[t])
        for i in range(self.r.ntiles):
            t = comp.tiles[i]
            self.r.tile_walls[i] = t.walls
            self.r.tile_price[i] = t.price
            self.r.tile_kind[i] = kinds.index(t.kind) if t.kind in kinds else -1
        for i, t in enumerate(order):
            self.r.tile_rank[t] = i
        self.money_code_ids = {}
        for i in range(self.r.ncards):
            c = comp.cards[i]
            if c.is_money:
                self.r.card_cur[i] = c.currency
                self.r.card_val[i] = c.value
                self.r.card_code[i] = c.currency * 9 + c.value - 1
                self.money_code_ids[c.code] = c.currency * 9 + c.value - 1
                self.r.nmoney += 1
            else:
                self.r.card_cur[i] = -1
                self.r.card_val[i] = c.value
                self.r.card_code[i] = -1
        rules = comp.ruleset
        for k in range(6):
            for rnd in range(3):
                row = rules.points[kinds[k]][rnd]
                self.r.npoints[k][rnd] = len(row)
                for j in range(len(row)):
                    self.r.points[k][rnd][j] = row[j]


cdef int redesign_actions(St* s, Rules* R, int seat, Buf* out) except -1:
    cdef Player* p = &s.players[seat]
    cdef int order[MAXT]
    cdef int pos[512]
    cdef Frontier f
    cdef Built b
    cdef int n = 0, i, j, x, k, t
    if p.nreserve == 0 and p.ncity == 1:
        return 0
    if p.nreserve:
        frontier(p, R, &f)
        for i in range(p.nreserve):
            order[i] = p.reserve[i]
        n = p.nreserve
        for i in range(1, n):
            x = order[i]
            j = i - 1
            while j >= 0 and R.tile_rank[order[j]] > R.tile_rank[x]:
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = x
        for i in range(n):
            t = order[i]
            if i and order[i - 1] == t:
                continue
            k = spots_in(p, &f, R.tile_walls[t], pos)
            for j in range(k):
                buf_push(out, A_BUILD | (t << 3) | (<long long>pos[j] << 10))
    k = removable(p, R, pos)
    for j in range(k):
        buf_push(out, A_REMOVE | (p.grid[pos[j]] << 3))
    if n:
        built(p, R, &b)
    for i in range(n):
        t = order[i]
        if i and order[i - 1] == t:
            continue
        k = exchanges_in(&b, R.tile_walls[t], pos)
        for j in range(k):
            buf_push(out, A_EXCHANGE | (t << 3) | (<long long>p.grid[pos[j]] << 10))
    return 0


cdef int place_actions(St* s, Rules* R, Pend* top, Buf* out) except -1:
    cdef Player* p = &s.players[top.seat]
    cdef int order[8]
    cdef int pos[512]
    cdef Frontier f
    cdef int n = top.ntiles, i, j, x, k, t
    frontier(p, R, &f)
    for i in range(n):
        order[i] = top.tiles[i]
    for i in range(1, n):
        x = order[i]
        j = i - 1
        while j >= 0 and R.tile_rank[order[j]] > R.tile_rank[x]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = x
    for i in range(n):
        t = order[i]
        if i and order[i - 1] == t:
            continue
        k = spots_in(p, &f, R.tile_walls[t], pos)
        for j in range(k):
            buf_push(out, A_PLACE | (t << 3) | (<long long>pos[j] << 10))
        buf_push(out, A_PLACE | (t << 3) | (<long long>T_RESERVE << 10))
        if top.neutral and s.has_neutral:
            buf_push(out, A_PLACE | (t << 3) | (<long long>T_NEUTRAL << 10))
    return 0


cdef int legal(St* s, Rules* R, int mode, Buf* out) except -1:
    """Every legal action id, in the Python engine's order. ``mode``: payments all / exact /
    minimal (engine.PAYMENTS)."""
    cdef Pend* top
    out.n = 0
    if s.outcome or not s.npending:
        return 0
    top = &s.pending[s.npending - 1]
    if top.kind == P_CHOOSE:
        take_actions(s, R, out)
        buy_actions(s, R, top.seat, mode, out)
        redesign_actions(s, R, top.seat, out)
        if out.n == 0:
            buf_push(out, A_END)
    else:
        place_actions(s, R, top, out)
    return 0


cdef void finish_action(St* s, Pend* top) noexcept:
    cdef int seat = top.seat, n = top.ntiles
    cdef int tiles[8]
    cdef int i
    for i in range(n):
        tiles[i] = top.tiles[i]
    s.npending -= 1
    if n:
        push_place(s, seat, tiles, n, s.has_neutral, 0)


cdef void list_remove(int* xs, int* n, int x) noexcept:
    cdef int i, j
    for i in range(n[0]):
        if xs[i] == x:
            for j in range(i + 1, n[0]):
                xs[j - 1] = xs[j]
            n[0] -= 1
            return


cdef int perform(St* s, Rules* R, long long a, object seed) except -1:
    """Apply a legal action id (no check) and run the flow (engine.apply_unchecked)."""
    cdef Pend* top = &s.pending[s.npending - 1]
    cdef int kind = a & 7, seat = top.seat, cnt, i, j, code, sq, t, paid, g, rt, ct
    cdef Player* p = &s.players[seat]
    if kind == A_TAKE:
        cnt = (a >> 3) & 7
        for i in range(cnt):
            code = (a >> (6 + 6 * i)) & 63
            for j in range(4):
                if s.display[j] >= 0 and R.card_code[s.display[j]] == code:
                    p.hand[p.nhand] = s.display[j]
                    p.nhand += 1
                    s.display[j] = -1
                    break
        if EVON:
            ev3(E_MONEY_TAKEN, seat, a)
        finish_action(s, top)
    elif kind == A_BUY:
        sq = (a >> 3) & 3
        t = s.market[sq]
        paid = pay(s, R, seat, sq, a)
        s.market[sq] = -1
        top.tiles[top.ntiles] = t
        top.ntiles += 1
        if EVON:
            ev3(E_BOUGHT, seat, sq + 1)
            ev3(t, paid == R.tile_price[t], a)
        if paid == R.tile_price[t]:
            top.actions += 1
        else:
            finish_action(s, top)
    elif kind == A_PLACE:
        t = (a >> 3) & 127
        g = (a >> 10) & 8191
        if g == T_RESERVE:
            p.reserve[p.nreserve] = t
            p.nreserve += 1
        elif g == T_NEUTRAL:
            s.neutral[s.nneutral] = t
            s.nneutral += 1
        else:
            city_put(p, g, t)
        if EVON:
            ev(E_PLACED)
            ev3(seat, t, a)
        list_remove(top.tiles, &top.ntiles, t)
        if top.ntiles == 0:
            s.npending -= 1
    elif kind == A_BUILD:
        t = (a >> 3) & 127
        g = (a >> 10) & 8191
        list_remove(p.reserve, &p.nreserve, t)
        city_put(p, g, t)
        if EVON:
            ev3(E_REDESIGNED, seat, 0)
            ev3(t, g % G - ORG, g // G - ORG)
            ev(-1)
        finish_action(s, top)
    elif kind == A_REMOVE:
        t = (a >> 3) & 127
        g = city_find(p, t)
        p.grid[g] = -1
        p.ncity -= 1
        p.reserve[p.nreserve] = t
        p.nreserve += 1
        if EVON:
            ev3(E_REDESIGNED, seat, 1)
            ev3(t, g % G - ORG, g // G - ORG)
            ev(-1)
        finish_action(s, top)
    elif kind == A_EXCHANGE:
        rt = (a >> 3) & 127
        ct = (a >> 10) & 127
        g = city_find(p, ct)
        list_remove(p.reserve, &p.nreserve, rt)
        p.reserve[p.nreserve] = ct
        p.nreserve += 1
        p.grid[g] = <signed char>rt
        if EVON:
            ev3(E_REDESIGNED, seat, 2)
            ev3(rt, g % G - ORG, g // G - ORG)
            ev(ct)
        finish_action(s, top)
    else:
        finish_action(s, top)
    if not s.npending:
        advance(s, R, seed)
    return 0


cdef void empty_state(St* s, int n) noexcept:
    cdef int i
    memset(s, 0, sizeof(St))
    s.n = n
    for i in range(4):
        s.display[i] = -1
        s.market[i] = -1
    for i in range(n):
        memset(s.players[i].grid, -1, GG)
        s.players[i].x0 = ORG
        s.players[i].x1 = ORG
        s.players[i].y0 = ORG
        s.players[i].y1 = ORG


cdef int setup(St* s, Rules* R, object seed) except -1:
    """engine.new_game for a game without modules, with the same chance."""
    cdef MT rng
    cdef int n = R.n, i, j, k, c, total, seat, size, extra, start, at, m
    cdef int money[MAXC]
    cdef int nmoney = R.nmoney
    cdef int dealt[6]
    cdef int value[6]
    cdef int piles[5][MAXC]
    cdef int npiles[5]
    cdef Player* p
    empty_state(s, n)
    mt_seed(&rng, seed)
    s.nbag = 0
    for i in range(n, R.ntiles):
        s.bag[s.nbag] = i
        s.nbag += 1
    for i in range(n):
        s.players[i].grid[FOUNTAIN_AT] = i
        s.players[i].ncity = 1
    s.has_neutral = n == 2
    mt_shuffle(&rng, s.bag, s.nbag)
    fill_market(s)
    m = 0
    for i in range(R.ncards):
        if R.card_cur[i] >= 0:
            money[m] = i
            m += 1
    mt_shuffle(&rng, money, m)
    for seat in range(n):
        p = &s.players[seat]
        total = 0
        dealt[seat] = 0
        while total < 20:
            m -= 1
            c = money[m]
            p.hand[p.nhand] = c
            p.nhand += 1
            dealt[seat] += 1
            total += R.card_val[c]
        value[seat] = total
    start = 0
    for seat in range(1, n):
        if dealt[seat] < dealt[start] or (dealt[seat] == dealt[start] and value[seat] < value[start]):
            start = seat
    for i in range(4):
        m -= 1
        s.display[i] = money[m]
    size = m // 5
    extra = m % 5
    for i in range(5):
        k = size + (1 if i < extra else 0)
        npiles[i] = k
        for j in range(k):
            m -= 1
            piles[i][j] = money[m]
    j = 0
    for i in range(R.ncards):
        if R.card_cur[i] < 0:
            k = 1 if j == 0 else 3
            at = mt_below(&rng, npiles[k] + 1)
            c = npiles[k]
            while c > at:
                piles[k][c] = piles[k][c - 1]
                c -= 1
            piles[k][at] = i
            npiles[k] += 1
            j += 1
    s.ndeck = 0
    i = 4
    while i >= 0:
        for j in range(npiles[i]):
            s.deck[s.ndeck] = piles[i][j]
            s.ndeck += 1
        i -= 1
    if s.has_neutral:
        for i in range(6):
            if s.nbag:
                s.nbag -= 1
                s.neutral[s.nneutral] = s.bag[s.nbag]
                s.nneutral += 1
    start_turn(s, start)
    return 0


cdef class Game:
    """One game on the native core (see :mod:`alhambra.native`)."""

    cdef St* s
    cdef CoreRules rules
    cdef public object seed
    cdef public object config
    cdef Buf buf

    def __cinit__(self):
        self.s = <St*>PyMem_Malloc(sizeof(St))
        if self.s == NULL:
            raise MemoryError()
        self.buf.a = NULL
        self.buf.n = 0
        self.buf.cap = 0

    def __dealloc__(self):
        PyMem_Free(self.s)
        PyMem_Free(self.buf.a)

    @staticmethod
    def new(CoreRules rules, seed, config=None):
        """A new game of ``config`` (default: the rules' own) dealt from ``seed`` exactly as
        :func:`alhambra.engine.new_game` deals it."""
        cdef Game g = Game.__new__(Game)
        g.rules = rules
        g.seed = seed
        g.config = rules.config if config is None else config
        setup(g.s, &rules.r, seed)
        g.s.turn_limit = g.config.turn_limit or 0
        return g

    def copy(self):
        """An independent copy."""
        cdef Game g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.config = self.config
        memcpy(g.s, self.s, sizeof(St))
        return g

    @property
    def core_rules(self):
        return self.rules

    @property
    def to_act(self):
        """The seat the game waits for, or None once it is over."""
        if self.s.outcome or not self.s.npending:
            return None
        return self.s.pending[self.s.npending - 1].seat

    @property
    def is_over(self):
        return self.s.outcome != 0

    @property
    def outcome(self):
        """How the game ended (``GameState.outcome``): None while it goes on, else
        ``"finished"`` or ``"truncated"``."""
        return None if not self.s.outcome else ("finished", "truncated")[self.s.outcome - 1]

    @property
    def scores(self):
        return [self.s.scores[i] for i in range(self.s.n)]

    @property
    def turn(self):
        return self.s.turn

    def legal_ids(self, int mode=0):
        """Every legal action id (``mode`` 0 all payments, 1 exact, 2 minimal)."""
        cdef int i
        cdef list out
        cdef object v
        legal(self.s, &self.rules.r, mode, &self.buf)
        out = PyList_New(self.buf.n)
        for i in range(self.buf.n):
            v = PyLong_FromLongLong(self.buf.a[i])
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
        return out

    def legal_ns(self, int reps=100, int mode=0):
        """Mean nanoseconds of one listing of the legal actions into the C buffer (no Python
        list), over ``reps`` listings of this position: the core's own cost."""
        import time
        cdef int i
        t0 = time.perf_counter_ns()
        for i in range(reps):
            legal(self.s, &self.rules.r, mode, &self.buf)
        return (time.perf_counter_ns() - t0) / reps

    def count_legal(self, int mode=0):
        legal(self.s, &self.rules.r, mode, &self.buf)
        return self.buf.n

    def apply_id(self, long long a):
        """Apply a legal action id in place (no check: take it from :meth:`legal_ids`)."""
        perform(self.s, &self.rules.r, a, self.seed)

    @property
    def explicit(self):
        """True for a game in explicit-chance mode (alhambra.chance)."""
        return bool(self.s.explicit)

    def decide(self, int kind, int outcome):
        """Queue a chance outcome (chance.decide): kind 1 a card (money code 0-35, or 36 +
        round - 1 for a scoring card), 2 a tile (its id)."""
        cdef St* s = self.s
        cdef int i
        if not s.explicit:
            raise ValueError("the game is not in explicit-chance mode")
        if kind == 1:
            if s.dqh:
                for i in range(s.dqh, s.ndq):
                    s.dq[i - s.dqh] = s.dq[i]
                s.ndq -= s.dqh
                s.dqh = 0
            if s.ndq >= MAXDQ:
                raise ValueError("too many decided draws")
            s.dq[s.ndq] = outcome
            s.ndq += 1
        elif kind == 2:
            if s.tqh:
                for i in range(s.tqh, s.ntq):
                    s.tq[i - s.tqh] = s.tq[i]
                s.ntq -= s.tqh
                s.tqh = 0
            if s.ntq >= MAXDQ:
                raise ValueError("too many decided draws")
            s.tq[s.ntq] = outcome
            s.ntq += 1
        else:
            raise ValueError(f"unknown chance kind {kind}")

    def apply_id_chance(self, long long a, bint events=True):
        """Explicit chance: apply a legal action id in place with the decided draws. Returns
        ``(need, log)``: ``need`` 0 when the step is done (``log``: its event log when
        ``events``), else 1 (a card) or 2 (a tile) when a draw has no outcome yet, 3 when a
        decided outcome is not possible; then the game is left in an undefined state (apply
        to a copy) and :meth:`need_game` holds the game at that draw."""
        global EVON, EVN, EVLOST, NEED
        cdef int i
        NEED = 0
        EVN = 0
        EVLOST = 0
        EVON = events
        try:
            perform(self.s, &self.rules.r, a, self.seed)
        finally:
            EVON = 0
        if NEED:
            return NEED, None
        if EVLOST:
            raise RuntimeError("native core: the event log of one step overflowed")
        return 0, [EVLOG[i] for i in range(EVN)] if events else None

    def need_game(self):
        """The game at the draw that stopped the last :meth:`apply_id_chance` (for the draw's
        outcomes: its deck, bag and piles)."""
        cdef Game g = Game.__new__(Game)
        g.rules = self.rules
        g.seed = self.seed
        g.config = self.config
        memcpy(g.s, NEEDST, sizeof(St))
        return g

    def apply_id_events(self, long long a):
        """:meth:`apply_id`, returning the step's event log (the records of ``events.pxi``, a
        list of ints; ``alhambra.native.game.events_of`` reads them)."""
        global EVON, EVN, EVLOST
        cdef int i
        EVN = 0
        EVLOST = 0
        EVON = 1
        try:
            perform(self.s, &self.rules.r, a, self.seed)
        finally:
            EVON = 0
        if EVLOST:
            raise RuntimeError("native core: the event log of one step overflowed")
        return [EVLOG[i] for i in range(EVN)]

    def playout(self, unsigned long long rng_seed, int max_actions=100000):
        """Play uniformly random legal actions until the game ends (or ``max_actions``);
        returns the number of actions played."""
        cdef unsigned long long st = rng_seed * 2654435761ULL + 88172645463325252ULL
        cdef int played = 0
        cdef St* s = self.s
        cdef Rules* R = &self.rules.r
        while not s.outcome and played < max_actions:
            legal(s, R, 0, &self.buf)
            perform(s, R, self.buf.a[xs_next(&st) % <unsigned long long>self.buf.n], self.seed)
            played += 1
        return played

    @property
    def nbag(self):
        """Tiles left in the bag."""
        return self.s.nbag

    def with_hidden(self, seed, deck, bag):
        """A copy whose seed, draw pile and bag are these (a sample of the hidden facts, as
        ``Sampler.sample`` draws them)."""
        cdef Game g = self.copy()
        cdef int i
        if len(deck) > MAXC or len(bag) > MAXT:
            raise ValueError("state too large for the native core")
        g.seed = seed
        for i, c in enumerate(deck):
            g.s.deck[i] = c
        g.s.ndeck = len(deck)
        for i, t in enumerate(bag):
            g.s.bag[i] = t
        g.s.nbag = len(bag)
        return g

    # ------------------------------------------------------------------ the bots' evaluation
    def seat_values(self, Evaluator ev):
        """Every seat's estimated final points (bots.greedy.seat_values)."""
        cdef double values[6]
        cdef int i
        seat_values(self.s, &self.rules.r, &ev.w, values)
        return [values[i] for i in range(self.s.n)]

    def evaluate(self, int seat, Evaluator ev):
        """How good the game is for ``seat`` (bots.greedy.evaluate)."""
        cdef double values[6]
        return evaluate(self.s, &self.rules.r, &ev.w, seat, values)

    def child_values(self, ids, int seat, Evaluator ev):
        """For each action id (legal now): the value for ``seat`` of the game after it
        (bots.greedy.evaluate), and every seat's values there (None once the game is over)."""
        cdef St* t = <St*>PyMem_Malloc(sizeof(St))
        cdef double values[6]
        cdef double v
        cdef int i
        cdef list vs = [], seen = []
        if t == NULL:
            raise MemoryError()
        try:
            for a in ids:
                memcpy(t, self.s, sizeof(St))
                perform(t, &self.rules.r, a, self.seed)
                v = evaluate(t, &self.rules.r, &ev.w, seat, values)
                vs.append(v)
                seen.append(None if t.outcome else [values[i] for i in range(t.n)])
        finally:
            PyMem_Free(t)
        return vs, seen

    # ------------------------------------------------------------------ Python state
    def to_state(self):
        """The game as a Python :class:`~alhambra.state.GameState` (equal field by field to
        the Python engine's state of the same game)."""
        from ..state import GameState, PlayerState, ChooseAction, PlaceTiles
        cdef St* s = self.s
        cdef int i, j, g, x, y
        cdef Player* p
        cdef Pend* pd
        rules = self.rules
        code = rules.tile_code
        players = []
        for i in range(s.n):
            p = &s.players[i]
            city = {}
            for y in range(p.y0, p.y1 + 1):
                for x in range(p.x0, p.x1 + 1):
                    g = y * G + x
                    if p.grid[g] >= 0:
                        city[(y - ORG + 512) * 1024 + (x - ORG + 512)] = p.grid[g]
            players.append(PlayerState([p.hand[j] for j in range(p.nhand)], city, [p.reserve[j] for j in range(p.nreserve)]))
        pending = []
        for i in range(s.npending):
            pd = &s.pending[i]
            tiles = tuple(code[pd.tiles[j]] for j in range(pd.ntiles))
            if pd.kind == P_CHOOSE:
                pending.append(ChooseAction(pd.seat, pd.actions, tiles))
            else:
                pending.append(PlaceTiles(pd.seat, tiles, bool(pd.neutral), "final" if pd.final else "bought"))
        return GameState(
            config=self.config,
            components=rules.components,
            seed=self.seed,
            deck=[s.deck[i] for i in range(s.ndeck)],
            display=[s.display[i] for i in range(4)],
            discard=[s.discard[i] for i in range(s.ndiscard)],
            market=[s.market[i] for i in range(4)],
            bag=[s.bag[i] for i in range(s.nbag)],
            players=players,
            scores=[s.scores[i] for i in range(s.n)],
            neutral=[s.neutral[i] for i in range(s.nneutral)] if s.has_neutral else None,
            neutral_score=s.neutral_score,
            removed=[s.removed[i] for i in range(s.nremoved)],
            current=s.current,
            turn=s.turn,
            stage=("turn", "between_turns", "final_distribution", "over")[s.stage],
            pending=pending,
            scoring_queue=[s.squeue[i] for i in range(s.nsqueue)],
            rounds_scored=s.rounds_scored,
            reshuffles=s.reshuffles,
            outcome=(None, "finished", "truncated")[s.outcome],
            market_exhausted=bool(s.market_exhausted),
            score_history=[tuple(s.hist[i][j] for j in range(s.n)) for i in range(s.nhist)],
            flow=s.flow,
            decided=None if not s.explicit else (
                tuple(rules.chance_card_code(s.dq[i]) for i in range(s.dqh, s.ndq)),
                tuple(code[s.tq[i]] for i in range(s.tqh, s.ntq)),
            ),
            piles=None if not s.explicit else tuple(
                (s.pleft[i], tuple((f"S{j + 1}", s.pspec[i][j]) for j in range(2) if s.pspec[i][j] > 0)) for i in range(s.npiles)
            ),
        )

    @staticmethod
    def from_state(CoreRules rules, state):
        """The native twin of a Python state of a game without modules (``ValueError`` when
        the state holds something the native core does not model)."""
        cdef Game g = Game.__new__(Game)
        cdef St* s = g.s
        cdef int i, j, x, y, gi
        cdef Player* p
        cdef Pend* pd
        if state.mods or state.turned or state.market_face or state.draws or state.module_decided:
            raise ValueError("the native core models games without modules only")
        if (state.decided is None) != (state.piles is None) or len(state.piles or ()) > 5:
            raise ValueError("the native core does not model this explicit-chance state")
        g.rules = rules
        g.seed = state.seed
        g.config = state.config
        n = state.config.players
        empty_state(s, n)
        s.turn_limit = state.config.turn_limit or 0

        if len(state.deck) > MAXC or len(state.discard) > MAXC or len(state.bag) > MAXT:
            raise ValueError("state too large for the native core")
        for i, c in enumerate(state.deck):
            s.deck[i] = c
        s.ndeck = len(state.deck)
        for i, c in enumerate(state.discard):
            s.discard[i] = c
        s.ndiscard = len(state.discard)
        for i in range(4):
            s.display[i] = state.display[i]
            s.market[i] = state.market[i]
        for i, c in enumerate(state.bag):
            s.bag[i] = c
        s.nbag = len(state.bag)
        for i, ps in enumerate(state.players):
            p = &s.players[i]
            for j, c in enumerate(ps.hand):
                p.hand[j] = c
            p.nhand = len(ps.hand)
            for j, c in enumerate(ps.reserve):
                p.reserve[j] = c
            p.nreserve = len(ps.reserve)
            for q, t in ps.city.items():
                x = q % 1024 - 512 + ORG
                y = q // 1024 - 512 + ORG
                if not (EDGE_LO <= x <= EDGE_HI and EDGE_LO <= y <= EDGE_HI):
                    raise NativeLimit("an Alhambra too wide for the native grid")
                city_put(p, y * G + x, t)
            s.scores[i] = state.scores[i]
        s.has_neutral = state.neutral is not None
        if state.neutral is not None:
            for i, t in enumerate(state.neutral):
                s.neutral[i] = t
            s.nneutral = len(state.neutral)
        s.neutral_score = state.neutral_score
        for i, c in enumerate(state.removed):
            s.removed[i] = c
        s.nremoved = len(state.removed)
        s.current = state.current
        s.turn = state.turn
        s.stage = ("turn", "between_turns", "final_distribution", "over").index(state.stage)
        ids = rules.tile_ids
        from ..state import ChooseAction, PlaceTiles
        if len(state.pending) > MAXPEND:
            raise ValueError("too many pending decisions for the native core")
        for i, top in enumerate(state.pending):
            pd = &s.pending[i]
            if type(top) is ChooseAction:
                pd.kind = P_CHOOSE
                pd.actions = top.actions
                tiles = top.bought
                pd.neutral = 0
                pd.final = 0
            elif type(top) is PlaceTiles:
                pd.kind = P_PLACE
                pd.actions = 0
                tiles = top.tiles
                pd.neutral = 1 if top.neutral else 0
                if top.reason not in ("bought", "final"):
                    raise ValueError(f"the native core does not model tiles placed for {top.reason!r}")
                pd.final = 1 if top.reason == "final" else 0
            else:
                raise ValueError(f"the native core does not model {type(top).__name__}")
            pd.seat = top.seat
            pd.ntiles = len(tiles)
            for j, code in enumerate(tiles):
                pd.tiles[j] = ids[code]
        s.npending = len(state.pending)
        for i, r in enumerate(state.scoring_queue):
            s.squeue[i] = r
        s.nsqueue = len(state.scoring_queue)
        s.rounds_scored = state.rounds_scored
        s.reshuffles = state.reshuffles
        s.outcome = (None, "finished", "truncated").index(state.outcome)
        s.market_exhausted = 1 if state.market_exhausted else 0
        for i, row in enumerate(state.score_history):
            for j in range(n):
                s.hist[i][j] = row[j]
        s.nhist = len(state.score_history)
        s.flow = state.flow
        if state.decided is not None:
            s.explicit = 1
            cards, tiles = state.decided
            if len(cards) > MAXDQ or len(tiles) > MAXDQ:
                raise ValueError("too many decided draws for the native core")
            for i, c in enumerate(cards):
                s.dq[i] = rules.chance_card_index(c)
            s.ndq = len(cards)
            for i, c in enumerate(tiles):
                s.tq[i] = ids[c]
            s.ntq = len(tiles)
            s.npiles = len(state.piles)
            for i, (left, classes) in enumerate(state.piles):
                s.pleft[i] = left
                for cls, k in classes:
                    if cls not in ("S1", "S2"):
                        raise ValueError(f"the native core does not model the card class {cls!r}")
                    s.pspec[i][int(cls[1]) - 1] = k
        return g
