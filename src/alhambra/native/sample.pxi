# The search's pieces on the native game (after rules.pxi: they take a Game). The bots' sampler of
# hidden facts, twin of bots/tracker.py (Sampler._hidden, Sampler._deck, _shuffle_top): the same
# calls of the generator in the same order, so a sample is the one the Python sampler draws from
# the same generator state, only without a Python loop per card and tile. And the search's
# rewards (Rewarder), twin of bots/mcts.py (reward_of).

cdef inline void shuffle_top(int* seq, int n, int k, object rand) except *:
    """The first ``k`` steps of a Fisher-Yates shuffle from the end (tracker._shuffle_top)."""
    cdef int i, j, t, lo = n - k
    cdef double r
    if lo < 0:
        lo = 0
    for i in range(n - 1, lo - 1, -1):
        r = rand()
        j = <int>(r * (i + 1))
        t = seq[i]
        seq[i] = seq[j]
        seq[j] = t


def sample_game(Game base, rng, tiles, money, special, places, bint reshuffled, int top_cards, int top_tiles):
    """A copy of ``base`` with the seed, draw pile and bag of one sample
    (``Sampler.hidden(rng)``; ``tiles``, ``money``, ``special``, ``places``: the sampler's
    unknown tiles, unknown money cards, unknown special cards and each special card's possible
    depths, see ``Sampler.hidden_plan``)."""
    cdef Game g
    cdef int i, j, nm, ns, left, depth, at, nt
    cdef int m[MAXC]
    cdef int dep[MAXC]
    cdef double tie[MAXC]
    cdef int card[MAXC]
    cdef double r
    cdef int d0, c0
    cdef double t0
    cdef list ok
    rand = rng.random
    nt = len(tiles)
    nm = len(money)
    ns = len(special)
    if nt > MAXT or nm + ns > MAXC:
        raise ValueError("state too large for the native core")
    seed = rng.randrange(1 << 62)
    g = base.copy()
    g.seed = seed
    for i in range(nt):
        g.s.bag[i] = tiles[i]
    g.s.nbag = nt
    shuffle_top(g.s.bag, nt, top_tiles, rand)
    for i in range(nm):
        m[i] = money[i]
    if ns == 0 or reshuffled:
        for i in range(ns):
            m[nm + i] = special[i]
        nm += ns
        shuffle_top(m, nm, top_cards, rand)
        for i in range(nm):
            g.s.deck[i] = m[i]
        g.s.ndeck = nm
        return g
    shuffle_top(m, nm, top_cards, rand)
    # below, the money is read from the top of the pile (m[nm - 1]) down
    left = nm
    for i in range(ns):
        ok = places[i]
        if ok:
            r = rand()
            depth = ok[<int>(r * len(ok))]
        else:
            r = rand()
            depth = <int>(r * (left + 1))
        dep[i] = depth
        tie[i] = rand()
        card[i] = special[i]
    # sort by (depth, tie, card), as Python sorts the tuples
    for i in range(1, ns):
        d0 = dep[i]
        t0 = tie[i]
        c0 = card[i]
        j = i - 1
        while j >= 0 and (dep[j] > d0 or (dep[j] == d0 and (tie[j] > t0 or (tie[j] == t0 and card[j] > c0)))):
            dep[j + 1] = dep[j]
            tie[j + 1] = tie[j]
            card[j + 1] = card[j]
            j -= 1
        dep[j + 1] = d0
        tie[j + 1] = t0
        card[j + 1] = c0
    # top_first: money from the top down with the special cards at their depths; the pile is
    # its reverse (the engine draws from the end)
    at = nm + ns
    j = 0   # money cards placed so far (from the top)
    for i in range(ns):
        depth = dep[i]
        while j < depth and j < nm:
            at -= 1
            g.s.deck[at] = m[nm - 1 - j]
            j += 1
        at -= 1
        g.s.deck[at] = card[i]
    while j < nm:
        at -= 1
        g.s.deck[at] = m[nm - 1 - j]
        j += 1
    g.s.ndeck = nm + ns
    return g


cdef extern from "math.h":
    double c_exp "exp"(double x) nogil


cdef class Rewarder:
    """The search's rewards of a native game (twin of ``bots.mcts.reward_of``: the same
    floating-point operations in the same order): called with the game and its seat values
    (None: the evaluator's ``seat_values``)."""

    cdef Evaluator ev
    cdef bint win
    cdef double t_end
    cdef double t_early
    cdef double bag_start

    def __init__(self, Evaluator ev, bint win, double temperature, double temperature_early, int bag_start):
        self.ev = ev
        self.win = win
        self.t_end = temperature
        self.t_early = temperature_early
        self.bag_start = bag_start

    def __call__(self, Game g, values):
        cdef St* s = g.s
        cdef int n = s.n, i, o, k
        cdef double v[6]
        cdef double top, total, x, p, bag, temperature
        cdef list out = []
        if s.outcome:
            for i in range(n):
                v[i] = s.scores[i]
            if self.win:
                top = v[0]
                for i in range(1, n):
                    if v[i] > top:
                        top = v[i]
                k = 0
                for i in range(n):
                    if v[i] == top:
                        k += 1
                for i in range(n):
                    out.append(1.0 / k if v[i] == top else 0.0)
                return out
            for i in range(n):
                total = 0.0
                for o in range(n):
                    if o != i:
                        total += 1.0 if v[i] > v[o] else 0.5 if v[i] == v[o] else 0.0
                out.append(total / (n - 1))
            return out
        if values is None:
            seat_values(s, &g.rules.r, &self.ev.w, v)
        else:
            for i in range(n):
                v[i] = values[i]
        bag = s.nbag / self.bag_start
        if not (bag < 1.0):
            bag = 1.0
        temperature = self.t_end + (self.t_early - self.t_end) * bag
        for i in range(n):
            total = 1.0 if self.win else 0.0
            for o in range(n):
                if o != i:
                    x = (v[i] - v[o]) / temperature
                    if not (x < 30.0):
                        x = 30.0
                    if not (x > -30.0):
                        x = -30.0
                    p = 1.0 / (1.0 + c_exp(-x))
                    if self.win:
                        total *= p
                    else:
                        total += p
            out.append(total if self.win else total / (n - 1))
        return out
