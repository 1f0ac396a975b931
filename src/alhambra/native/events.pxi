# The events of a step, recorded only when asked (Game.apply_id_events): a flat log of ints, one
# record per event (its E_* code, then its fields), read back into the engine's Event values by
# alhambra.native.game (events_of). Twin of the ``events.append(...)`` calls of the engine
# (perform.py, flow.py, supply.py, scoring.py), emitted at the same places in the same order.

cdef enum:
    E_TURN_STARTED = 1     # seat, turn
    E_MONEY_TAKEN = 2      # seat, action id
    E_BOUGHT = 3           # seat, square (1-4), tile, exact, action id
    E_PLACED = 4           # seat, tile, action id
    E_REDESIGNED = 5       # seat, how (0 build, 1 remove, 2 exchange), tile, x, y, other (-1)
    E_TURN_ENDED = 6       # seat
    E_DISPLAY = 7          # k, k slots (1-4), k cards
    E_MARKET = 8           # k, k squares (1-4), k tiles
    E_RESHUFFLED = 9       # cards
    E_SCORING_CARD = 10    # round
    E_NEUTRAL = 11         # k, k tiles
    E_ROUND = 12           # round, rows, 6 x rows awards, 6 x rows counts, n walls, n points,
                           # n scores, neutral points, neutral score
    E_AWARDED = 13         # seat, square (1-4), tile
    E_ENDED = 14           # outcome (1 finished, 2 truncated), n scores

cdef enum:
    EV_CAP = 16384

cdef long long EVLOG[EV_CAP]
cdef int EVN = 0
cdef bint EVON = 0
cdef bint EVLOST = 0


cdef inline void ev(long long v) noexcept:
    global EVN, EVLOST
    if EVN < EV_CAP:
        EVLOG[EVN] = v
        EVN += 1
    else:
        EVLOST = 1


cdef inline void ev2(long long a, long long b) noexcept:
    ev(a)
    ev(b)


cdef inline void ev3(long long a, long long b, long long c) noexcept:
    ev(a)
    ev(b)
    ev(c)
