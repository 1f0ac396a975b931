# The native game state: fixed-size C arrays, so a copy is one memcpy. Twin of state.py.

cdef enum:
    MAXT = 64        # tile ids: the fountains (one per seat), then the 54 building tiles
    MAXC = 112       # card ids: the money cards, then the two scoring cards
    G = 64           # the Alhambra grid is G x G; the fountain sits at (ORG, ORG)
    ORG = 32
    GG = 4096
    FOUNTAIN_AT = 2080   # ORG * G + ORG
    EDGE_LO = 3      # tiles stay within EDGE_LO..EDGE_HI on both axes (else NativeLimit)
    EDGE_HI = 60
    MAXPEND = 8
    MAXDQ = 128      # decided chance outcomes queued (explicit chance)
    NCODES = 36      # money codes: currency * 9 + value - 1

cdef enum:
    ST_TURN = 0
    ST_BETWEEN = 1
    ST_FINAL = 2
    ST_OVER = 3

cdef enum:
    P_CHOOSE = 0
    P_PLACE = 1

cdef enum:
    A_TAKE = 0
    A_BUY = 1
    A_PLACE = 2
    A_BUILD = 3
    A_REMOVE = 4
    A_EXCHANGE = 5
    A_END = 6

cdef enum:
    T_RESERVE = 4096
    T_NEUTRAL = 4097


cdef struct Pend:
    int kind          # P_CHOOSE (ChooseAction) or P_PLACE (PlaceTiles)
    int seat
    int actions       # ChooseAction.actions
    int ntiles
    int tiles[8]      # ChooseAction.bought or PlaceTiles.tiles (tile ids, in order)
    int neutral       # PlaceTiles.neutral
    int final         # PlaceTiles.reason: 0 "bought", 1 "final"


cdef struct Player:
    int hand[MAXC]
    int nhand
    int reserve[MAXT]
    int nreserve
    int ncity
    int x0
    int x1
    int y0
    int y1            # bounding box of the Alhambra (grid coordinates; grows only)
    signed char grid[GG]   # tile id per place, -1 empty


cdef struct St:
    int n
    int deck[MAXC]
    int ndeck
    int display[4]
    int discard[MAXC]
    int ndiscard
    int market[4]
    int bag[MAXT]
    int nbag
    Player players[6]
    int scores[6]
    int has_neutral
    int neutral[MAXT]
    int nneutral
    int neutral_score
    int removed[4]
    int nremoved
    int current
    int turn
    int stage
    Pend pending[MAXPEND]
    int npending
    int squeue[4]
    int nsqueue
    int rounds_scored
    int reshuffles
    int outcome       # 0 none, 1 finished, 2 truncated
    int market_exhausted
    int hist[8][6]
    int nhist
    int flow
    int turn_limit    # 0: none
    # explicit chance (alhambra.chance): the deck and the bag have no order; each draw takes
    # the next decided outcome (card: money code 0-35 or 36 + round - 1 for a scoring card;
    # tile: its id) and the piles model says which cards the next one can be
    int explicit
    int dq[MAXDQ]
    int ndq
    int dqh
    int tq[MAXDQ]
    int ntq
    int tqh
    int npiles
    int pleft[5]
    int pspec[5][2]   # scoring cards S1, S2 left in each pile


cdef struct Rules:
    int n
    int ntiles
    int ncards
    int nmoney
    int tile_walls[MAXT]
    int tile_price[MAXT]
    int tile_kind[MAXT]      # 0-5, -1 for a fountain
    int tile_rank[MAXT]      # rank of the tile's code in sorted order
    int card_cur[MAXC]       # -1 for a scoring card
    int card_val[MAXC]       # a scoring card: its round
    int card_code[MAXC]      # money code 0-35, -1 scoring
    int points[6][3][6]
    int npoints[6][3]
