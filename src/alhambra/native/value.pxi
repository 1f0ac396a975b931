# The learned value network on the native game (after rules.pxi: it reads a Game). Twin of
# bots/value_net.py: ValueFeatures writes the floats FeatureMap.of_state gives (the sections
# value_net.SECTIONS of research/observation.py's information-state tensor, built there from the
# view and the public hands) straight from the C state, with the same float32 operations in the
# same order (a count is a float32 sum of equal steps, as numpy's ``out[i] += step`` sums them);
# ValueCore runs the ReLU perceptron on them (ValueNet.forward). No view, no GameState, no numpy.

cdef extern from "math.h":
    double v_exp "exp"(double x) nogil
    double v_log "log"(double x) nogil


cdef enum:
    VF_SECTIONS = 13
    VMAXL = 8        # layers of a network


cdef class ValueFeatures:
    """The network's input layout for one configuration (made by
    ``alhambra.bots.native_value.native_features``): where each section starts in the feature
    vector, and each card's and tile's index among the codes of the research codec."""

    cdef public int n
    cdef public int size
    cdef int ncards       # H: money card codes
    cdef int ntiles       # T: building tile codes
    cdef int nk           # building kinds
    cdef int sq           # entries per market square: present, kinds, price, walls (4)
    cdef int seat_size    # entries per seat in ``seats``
    cdef double money_total
    cdef int wall_bits[4]
    cdef int card_index[MAXC]   # card id -> code index (-1: a scoring card)
    cdef int tile_index[MAXT]   # tile id -> code index (-1: a fountain)
    cdef int o_seat, o_to_act, o_decision, o_progress, o_market, o_display, o_discard, o_hand
    cdef int o_seats, o_reserve, o_waiting, o_neutral, o_hands

    def __init__(self, CoreRules rules, dict offsets, int size, card_index, tile_index, int ncards, int ntiles,
                 int nk, double money_total, wall_bits):
        cdef int i
        names = ("seat", "to_act", "decision", "progress", "market", "display", "discard", "hand",
                 "seats", "reserve", "waiting", "neutral", "hands")
        if set(offsets) != set(names):
            raise ValueError(f"the feature sections must be exactly {names}")
        if len(card_index) != rules.r.ncards or len(tile_index) != rules.r.ntiles or len(wall_bits) != 4:
            raise ValueError("card and tile indexes must cover the configuration's cards and tiles")
        self.n = rules.r.n
        self.size = size
        self.ncards = ncards
        self.ntiles = ntiles
        self.nk = nk
        if nk != 6:
            raise ValueError("the native core plays the six building kinds of Alhambra")
        self.sq = 6 + nk
        self.seat_size = 5 + 2 * nk
        self.money_total = money_total
        for i in range(4):
            self.wall_bits[i] = wall_bits[i]
        for i in range(MAXC):
            self.card_index[i] = card_index[i] if i < len(card_index) else -1
        for i in range(MAXT):
            self.tile_index[i] = tile_index[i] if i < len(tile_index) else -1
        self.o_seat = offsets["seat"]
        self.o_to_act = offsets["to_act"]
        self.o_decision = offsets["decision"]
        self.o_progress = offsets["progress"]
        self.o_market = offsets["market"]
        self.o_display = offsets["display"]
        self.o_discard = offsets["discard"]
        self.o_hand = offsets["hand"]
        self.o_seats = offsets["seats"]
        self.o_reserve = offsets["reserve"]
        self.o_waiting = offsets["waiting"]
        self.o_neutral = offsets["neutral"]
        self.o_hands = offsets["hands"]
        if self.o_hands + self.n * ncards != size:
            raise ValueError("the sections do not add up to the feature size")

    cdef void write(self, St* s, Rules* R, int seat, float* out) noexcept:
        """The features of what ``seat`` sees in ``s`` (ObservationEncoder.encode of its view
        with the public hands, the sections of value_net.SECTIONS)."""
        cdef int n = s.n, i, j, r, b, t, k, ci, to_act, g, gx, gy, lim
        cdef int counts[MAXC]
        cdef float c12 = <float>(1.0 / 12.0)
        cdef float c3 = <float>(1.0 / 3.0)
        cdef float c4 = <float>(1.0 / 4.0)
        cdef float q = <float>0.25
        cdef int nk = self.nk, tcount = self.ntiles, h = self.ncards
        cdef Player* p
        cdef Pend* top = NULL
        memset(out, 0, self.size * sizeof(float))
        out[self.o_seat + seat] = 1.0
        if s.npending:
            top = &s.pending[s.npending - 1]
        # to_act (GameState.to_act)
        if not s.outcome and s.npending:
            to_act = top.seat
            out[self.o_to_act + (to_act - seat + n) % n] = 1.0
            out[self.o_to_act + n] = 1.0 if to_act == seat else 0.0
        # decision
        if top == NULL:
            out[self.o_decision + 3] = 1.0
        elif top.kind == P_CHOOSE:
            out[self.o_decision] = 1.0
        else:
            out[self.o_decision + 1] = 1.0
        # progress
        b = self.o_progress
        k = top.actions if top != NULL and top.kind == P_CHOOSE else 0
        out[b] = <float>((k if k < 4 else 4) / 4.0)
        lim = s.turn_limit
        out[b + 1] = <float>(<double>s.turn / <double>(lim if lim else 400))
        out[b + 2] = <float>(s.rounds_scored / 3.0)
        out[b + 3] = <float>(s.nremoved / 2.0)
        out[b + 4] = <float>(s.ndeck / self.money_total)
        out[b + 5] = <float>(<double>s.nbag / <double>(tcount if tcount > 1 else 1))
        out[b + 6] = 1.0 if s.outcome == 1 else 0.0
        out[b + 7] = 1.0 if s.outcome == 2 else 0.0
        out[b + 8 + s.stage] = 1.0
        out[b + 12] = 1.0 if lim else 0.0
        # market: per square its tile's facts, then the tiles one-hot
        for i in range(4):
            t = s.market[i]
            if t < 0:
                continue
            b = self.o_market + self.sq * i
            out[b] = 1.0
            if R.tile_kind[t] >= 0:
                out[b + 1 + R.tile_kind[t]] = 1.0
            out[b + 1 + nk] = <float>(R.tile_price[t] / 13.0)
            for j in range(4):
                if R.tile_walls[t] & self.wall_bits[j]:
                    out[b + 2 + nk + j] = 1.0
            out[self.o_market + 4 * self.sq + i * tcount + self.tile_index[t]] = 1.0
        # display, discard, own hand: float32 sums of equal steps
        for i in range(4):
            if s.display[i] >= 0:
                ci = self.card_index[s.display[i]]
                if ci >= 0:
                    out[self.o_display + ci] = out[self.o_display + ci] + c4
        for i in range(s.ndiscard):
            ci = self.card_index[s.discard[i]]
            if ci >= 0:
                out[self.o_discard + ci] = out[self.o_discard + ci] + c3
        p = &s.players[seat]
        for i in range(p.nhand):
            ci = self.card_index[p.hand[i]]
            if ci >= 0:
                out[self.o_hand + ci] = out[self.o_hand + ci] + c3
        for i in range(p.nreserve):
            out[self.o_reserve + self.tile_index[p.reserve[i]]] = 1.0
        # seats, relative to the viewer
        for i in range(n):
            p = &s.players[i]
            r = (i - seat + n) % n
            b = self.o_seats + self.seat_size * r
            out[b] = <float>(s.scores[i] / 300.0)
            out[b + 1] = <float>(p.nhand / 40.0)
            out[b + 2] = <float>(longest_wall(p, R) / 40.0)
            for gy in range(p.y0, p.y1 + 1):
                for gx in range(p.x0, p.x1 + 1):
                    t = p.grid[gy * G + gx]
                    if t >= 0 and R.tile_kind[t] >= 0:
                        out[b + 3 + R.tile_kind[t]] = out[b + 3 + R.tile_kind[t]] + c12
            for j in range(p.nreserve):
                t = p.reserve[j]
                if R.tile_kind[t] >= 0:
                    out[b + 3 + nk + R.tile_kind[t]] = out[b + 3 + nk + R.tile_kind[t]] + c12
            out[b + 3 + 2 * nk] = <float>(<double>(p.ncity - 1) / <double>(tcount if tcount > 1 else 1))
            out[b + 4 + 2 * nk] = <float>(<double>p.nreserve / <double>(tcount if tcount > 1 else 1))
        # tiles waiting to be placed (PlaceTiles.tiles or ChooseAction.bought)
        if top != NULL:
            for j in range(top.ntiles):
                ci = self.tile_index[top.tiles[j]]
                if ci >= 0:
                    out[self.o_waiting + ci] = out[self.o_waiting + ci] + q
        # the neutral player (2 players)
        if s.has_neutral:
            b = self.o_neutral
            out[b] = 1.0
            for j in range(s.nneutral):
                t = s.neutral[j]
                if R.tile_kind[t] >= 0:
                    out[b + 1 + R.tile_kind[t]] = out[b + 1 + R.tile_kind[t]] + c12
            out[b + 1 + nk] = <float>(s.neutral_score / 300.0)
        # every seat's hand by code: one step of count / 3 per code
        for i in range(n):
            p = &s.players[i]
            for j in range(h):
                counts[j] = 0
            for j in range(p.nhand):
                ci = self.card_index[p.hand[j]]
                if ci >= 0:
                    counts[ci] += 1
            b = self.o_hands + ((i - seat + n) % n) * h
            for j in range(h):
                if counts[j]:
                    out[b + j] = <float>(counts[j] / 3.0)
        for i in range(self.size):
            if out[i] > 1.0:
                out[i] = 1.0

    def features(self, Game game, int seat, float[::1] out):
        """Write the features of what ``seat`` sees in ``game`` into ``out`` (float32, ``size``)."""
        if game.s.n != self.n:
            raise ValueError(f"a game of {game.s.n} players, features of {self.n}")
        if not 0 <= seat < self.n:
            raise ValueError(f"seat must be 0-{self.n - 1}")
        if out.shape[0] != self.size:
            raise ValueError(f"out must hold {self.size} floats")
        self.write(game.s, &game.rules.r, seat, &out[0])


cdef extern from *:
    """
    /* h += v * row over n floats, four at a time with GCC's and Clang's vector types (at -O2
       GCC leaves a plain loop scalar); each float gets the same one multiply and one add
       either way (no fused multiply-add: -ffp-contract=off), so the result is the same. */
    #include <string.h>
    #if defined(__GNUC__)
    typedef float alhambra_v4 __attribute__((vector_size(16)));
    static inline void alhambra_axpy(float *h, float v, const float *row, int n) {
        alhambra_v4 vv = {v, v, v, v}, a, b;
        int k = 0;
        for (; k + 4 <= n; k += 4) {
            memcpy(&a, h + k, sizeof a);
            memcpy(&b, row + k, sizeof b);
            a += vv * b;
            memcpy(h + k, &a, sizeof a);
        }
        for (; k < n; k++) h[k] += v * row[k];
    }
    #else
    static inline void alhambra_axpy(float *h, float v, const float *row, int n) {
        for (int k = 0; k < n; k++) h[k] += v * row[k];
    }
    #endif
    """
    void axpy "alhambra_axpy"(float* h, float v, const float* row, int n) noexcept nogil


cdef class ValueCore:
    """A ReLU perceptron over float32 weights (ValueNet.forward: ReLU between the layers, a
    softmax over the seats, in the order relative to the viewer) on the native features."""

    cdef ValueFeatures fmap
    cdef int nlayers
    cdef int dims[VMAXL + 1]
    cdef float* w[VMAXL]
    cdef float* bias[VMAXL]
    cdef float* x
    cdef float* h0
    cdef float* h1
    cdef int widest

    def __cinit__(self):
        cdef int i
        self.nlayers = 0
        for i in range(VMAXL):
            self.w[i] = NULL
            self.bias[i] = NULL
        self.x = NULL
        self.h0 = NULL
        self.h1 = NULL

    def __dealloc__(self):
        cdef int i
        for i in range(VMAXL):
            PyMem_Free(self.w[i])
            PyMem_Free(self.bias[i])
        PyMem_Free(self.x)
        PyMem_Free(self.h0)
        PyMem_Free(self.h1)

    def __init__(self, ValueFeatures fmap, layers):
        """``layers``: the (weights, bias) pairs of ValueNet.layers[players], float32, weights
        of shape (inputs, outputs)."""
        cdef int i, j, k, rows, cols
        cdef const float[:, ::1] wv
        cdef const float[::1] bv
        if not 1 <= len(layers) <= VMAXL:
            raise ValueError(f"1 to {VMAXL} layers expected, got {len(layers)}")
        self.fmap = fmap
        self.dims[0] = fmap.size
        self.widest = fmap.size
        for i, (wa, ba) in enumerate(layers):
            wv = wa
            bv = ba
            rows = wv.shape[0]
            cols = wv.shape[1]
            if rows != self.dims[i] or bv.shape[0] != cols:
                raise ValueError(f"layer {i}: weights {rows}x{cols} and bias {bv.shape[0]} do not follow {self.dims[i]} inputs")
            self.w[i] = <float*>PyMem_Malloc(rows * cols * sizeof(float))
            self.bias[i] = <float*>PyMem_Malloc(cols * sizeof(float))
            if self.w[i] == NULL or self.bias[i] == NULL:
                raise MemoryError()
            self.nlayers = i + 1
            for j in range(rows):
                for k in range(cols):
                    self.w[i][j * cols + k] = wv[j, k]
            for k in range(cols):
                self.bias[i][k] = bv[k]
            self.dims[i + 1] = cols
            if cols > self.widest:
                self.widest = cols
        if self.dims[self.nlayers] != fmap.n:
            raise ValueError(f"the last layer has {self.dims[self.nlayers]} outputs for {fmap.n} seats")
        self.x = <float*>PyMem_Malloc(fmap.size * sizeof(float))
        self.h0 = <float*>PyMem_Malloc(self.widest * sizeof(float))
        self.h1 = <float*>PyMem_Malloc(self.widest * sizeof(float))
        if self.x == NULL or self.h0 == NULL or self.h1 == NULL:
            raise MemoryError()

    cdef void run(self, const float* x, double* probs, const float* base=NULL) noexcept:
        """The forward pass of ``x`` (the features): every seat's chance, relative order. In
        float32 like numpy's; the first layer adds only the rows of the features that are not
        zero (most are), each layer adds weight rows scaled by its inputs (``axpy``). ``base``:
        logits added to the last layer's (a residual network's hand-made logits)."""
        cdef int i, j, k, rows, cols
        cdef float* h = self.h0
        cdef float* nxt = self.h1
        cdef float* tmp
        cdef float v
        cdef double top, total
        cdef const float* wt
        for i in range(self.nlayers):
            rows = self.dims[i]
            cols = self.dims[i + 1]
            wt = self.w[i]
            for k in range(cols):
                nxt[k] = self.bias[i][k]
            for j in range(rows):
                v = x[j] if i == 0 else h[j]
                if v > 0.0:  # the features are >= 0; a hidden unit's ReLU
                    axpy(nxt, v, wt + j * cols, cols)
            tmp = h
            h = nxt
            nxt = tmp
        cols = self.dims[self.nlayers]
        if base != NULL:
            for k in range(cols):
                h[k] = h[k] + base[k]
        top = h[0]
        for k in range(1, cols):
            if h[k] > top:
                top = h[k]
        total = 0.0
        for k in range(cols):
            probs[k] = v_exp(h[k] - top)
            total += probs[k]
        for k in range(cols):
            probs[k] = probs[k] / total

    def forward(self, const float[::1] x):
        """Every seat's chance to win (relative order) for one feature vector."""
        cdef double probs[6]
        cdef int k
        if x.shape[0] != self.fmap.size:
            raise ValueError(f"x must hold {self.fmap.size} floats")
        self.run(&x[0], probs)
        return [probs[k] for k in range(self.fmap.n)]

    def win_probs(self, Game game, int seat):
        """Every seat's chance to win (absolute seat order) as ``seat`` sees ``game``
        (ValueNet.win_probs of its Python twin, without building the twin or a view)."""
        cdef double probs[6]
        cdef int n = self.fmap.n, k
        if game.s.n != n:
            raise ValueError(f"a game of {game.s.n} players, a network of {n}")
        if not 0 <= seat < n:
            raise ValueError(f"seat must be 0-{n - 1}")
        self.fmap.write(game.s, &game.rules.r, seat, self.x)
        self.run(self.x, probs)
        return [probs[(k - seat + n) % n] for k in range(n)]

    def leaf_ns(self, Game game, int seat, int reps=1000):
        """Mean nanoseconds of one leaf evaluation (features and forward pass, no Python list)
        over ``reps`` runs on this game: the native leaf's own cost."""
        import time
        cdef double probs[6]
        cdef int i
        t0 = time.perf_counter_ns()
        for i in range(reps):
            self.fmap.write(game.s, &game.rules.r, seat, self.x)
            self.run(self.x, probs)
        return (time.perf_counter_ns() - t0) / reps


cdef class LearnedRewarder:
    """The leaf rewards of ``mcts:learned`` on the native core: ``hand``'s rewards (the
    Rewarder's soft win, or the final result once the game is over, left as it is) mixed with the
    network's win chances as ``seat`` sees the game, ``share`` of the latter (tree.mix: the same
    arithmetic), in one call without Python lists in between. A ``residual`` network corrects
    the hand-made rewards: its chances are the softmax of its logits plus their logarithms
    (ValueNet.chances, value_net.hand_logits)."""

    cdef object hand
    cdef ValueCore net
    cdef int seat
    cdef double share
    cdef bint residual

    def __init__(self, hand, ValueCore net, int seat, double share, bint residual=False):
        if not 0 <= seat < net.fmap.n:
            raise ValueError(f"seat must be 0-{net.fmap.n - 1}")
        self.hand = hand
        self.net = net
        self.seat = seat
        self.share = share
        self.residual = residual

    def __call__(self, Game game, values):
        cdef list out = self.hand(game, values)
        cdef double probs[6]
        cdef float base[6]
        cdef int n = self.net.fmap.n, k
        cdef double share = self.share
        if game.s.outcome:
            return out
        if game.s.n != n:
            raise ValueError(f"a game of {game.s.n} players, a network of {n}")
        self.net.fmap.write(game.s, &game.rules.r, self.seat, self.net.x)
        if self.residual:
            for k in range(n):
                base[k] = <float>v_log(max(<double>out[(self.seat + k) % n], 1e-9))
            self.net.run(self.net.x, probs, base)
        else:
            self.net.run(self.net.x, probs)
        return [(1.0 - share) * <double>out[k] + share * probs[(k - self.seat + n) % n] for k in range(n)]
