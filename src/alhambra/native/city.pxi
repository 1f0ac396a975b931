# The geometry of one Alhambra on a flat grid: where a tile may be built (walls match, on
# foot, no holes), which tiles may be removed or exchanged, and the longest outer wall.
# Twin of city.py (CityAnalysis.spots / removable / exchanges, longest_wall).

cdef enum:
    NORTH = 1
    EAST = 2
    SOUTH = 4
    WEST = 8

cdef int RUNS[256]
cdef int RING[8]
RING[:] = [-G, -G + 1, 1, G + 1, G, G - 1, -1, -G - 1]

cdef int _runs_of(int mask) noexcept:
    cdef int i, runs = 0
    for i in range(8):
        if (mask >> i) & 1 and not (mask >> ((i + 7) % 8)) & 1:
            runs += 1
    if runs == 0 and mask & 1:
        return 1
    return runs

for _m in range(256):
    RUNS[_m] = _runs_of(_m)

# scratch space shared by the flood fills (single-threaded, as the engine is)
cdef unsigned int SEEN[GG]
cdef unsigned int STAMP = 0
cdef int STACK[GG]


class NativeLimit(RuntimeError):
    """An Alhambra grew beyond the native grid (never seen in play): use the Python engine."""


cdef inline int known_need(Player* p, Rules* R, int g, int* need) noexcept:
    """Sides of place ``g`` that have a tile next to them; ``need[0]``: those whose tile has a
    wall facing ``g``."""
    cdef int k = 0, nd = 0, t
    cdef signed char* grid = p.grid
    t = grid[g - G]
    if t >= 0:
        k |= NORTH
        if R.tile_walls[t] & SOUTH:
            nd |= NORTH
    t = grid[g + 1]
    if t >= 0:
        k |= EAST
        if R.tile_walls[t] & WEST:
            nd |= EAST
    t = grid[g + G]
    if t >= 0:
        k |= SOUTH
        if R.tile_walls[t] & NORTH:
            nd |= SOUTH
    t = grid[g - 1]
    if t >= 0:
        k |= WEST
        if R.tile_walls[t] & EAST:
            nd |= WEST
    need[0] = nd
    return k


cdef bint enclosed(Player* p, int extra, int start, int bx0, int bx1, int by0, int by1) noexcept:
    """The empty region holding ``start`` (``extra`` counts as built) cannot leave the box."""
    global STAMP
    cdef int sp = 0, q, r, px, py, i
    cdef int dirs[4]
    dirs[0] = -G
    dirs[1] = 1
    dirs[2] = G
    dirs[3] = -1
    STAMP += 1
    SEEN[start] = STAMP
    STACK[0] = start
    sp = 1
    while sp:
        sp -= 1
        q = STACK[sp]
        px = q % G
        py = q // G
        if px <= bx0 or px >= bx1 or py <= by0 or py >= by1:
            return False
        for i in range(4):
            r = q + dirs[i]
            if SEEN[r] != STAMP and p.grid[r] < 0 and r != extra:
                SEEN[r] = STAMP
                STACK[sp] = r
                sp += 1
    return True


cdef bint creates_hole(Player* p, int g) noexcept:
    """Would a tile on empty ``g`` enclose an empty area? (city.creates_hole)"""
    cdef int gx = g % G, gy = g // G
    cdef int bx0 = min(p.x0, gx) - 1, bx1 = max(p.x1, gx) + 1
    cdef int by0 = min(p.y0, gy) - 1, by1 = max(p.y1, gy) + 1
    cdef int q
    q = g - G
    if p.grid[q] < 0 and enclosed(p, g, q, bx0, bx1, by0, by1):
        return True
    q = g + 1
    if p.grid[q] < 0 and enclosed(p, g, q, bx0, bx1, by0, by1):
        return True
    q = g + G
    if p.grid[q] < 0 and enclosed(p, g, q, bx0, bx1, by0, by1):
        return True
    q = g - 1
    if p.grid[q] < 0 and enclosed(p, g, q, bx0, bx1, by0, by1):
        return True
    return False


cdef int ring_runs(Player* p, int g) noexcept:
    cdef int m = 0, i
    for i in range(8):
        if p.grid[g + RING[i]] >= 0:
            m |= 1 << i
    return RUNS[m]


cdef struct Frontier:
    int n
    int g[512]
    int known[512]
    int need[512]
    int hole[512]     # -1 not known yet, else whether a tile there closes a hole


cdef int frontier(Player* p, Rules* R, Frontier* f) noexcept:
    """The empty places touching the Alhambra by a side, ascending, with their wall facts
    (CityAnalysis._fr); the hole test is made lazily, once per place."""
    cdef int gx, gy, g, known, need = 0
    f.n = 0
    for gy in range(p.y0 - 1, p.y1 + 2):
        for gx in range(p.x0 - 1, p.x1 + 2):
            g = gy * G + gx
            if p.grid[g] >= 0:
                continue
            known = known_need(p, R, g, &need)
            if not known or known == need:
                continue   # nothing joined, or every joined side walled: no tile fits here
            f.g[f.n] = g
            f.known[f.n] = known
            f.need[f.n] = need
            f.hole[f.n] = -1
            f.n += 1
    return f.n


cdef int spots_in(Player* p, Frontier* f, int walls, int* out) except -1:
    """Places (ascending) of the frontier where a tile with ``walls`` may be built."""
    cdef int i, g, gx, gy, n = 0
    for i in range(f.n):
        if (walls & f.known[i]) != f.need[i]:
            continue
        if f.hole[i] < 0:
            g = f.g[i]
            f.hole[i] = 1 if ring_runs(p, g) > 1 and creates_hole(p, g) else 0
        if f.hole[i]:
            continue
        g = f.g[i]
        gx = g % G
        gy = g // G
        if gx < EDGE_LO or gx > EDGE_HI or gy < EDGE_LO or gy > EDGE_HI:
            raise NativeLimit("an Alhambra grew beyond the native core's grid")
        out[n] = g
        n += 1
    return n


cdef unsigned int DSTAMP[GG]
cdef int DISC[GG]
cdef int LOW[GG]
cdef unsigned int CUT[GG]
cdef int TIME = 0


cdef inline bint walk(Player* p, Rules* R, int q, int side, int d, int opp) noexcept:
    """Is the tile on ``q`` joined on foot to a tile on its ``side`` (``q + d``)?"""
    cdef int t = p.grid[q + d]
    return t >= 0 and not R.tile_walls[p.grid[q]] & side and not R.tile_walls[t] & opp


cdef void tarjan(Player* p, Rules* R, int u, int parent, unsigned int stamp) noexcept:
    """Articulation points of the on-foot graph (city._cut_tiles), marked in CUT with ``stamp``;
    DISC holds the discovery time of each tile reached (DSTAMP: with this ``stamp``)."""
    global TIME
    cdef int i, v, dv
    cdef int d[4]
    cdef int side[4]
    cdef int opp[4]
    d[0] = -G
    d[1] = 1
    d[2] = G
    d[3] = -1
    side[0] = NORTH
    side[1] = EAST
    side[2] = SOUTH
    side[3] = WEST
    opp[0] = SOUTH
    opp[1] = WEST
    opp[2] = NORTH
    opp[3] = EAST
    TIME += 1
    DSTAMP[u] = stamp
    DISC[u] = TIME
    LOW[u] = TIME
    for i in range(4):
        if not walk(p, R, u, side[i], d[i], opp[i]):
            continue
        v = u + d[i]
        if v == parent:
            continue
        if DSTAMP[v] == stamp:
            dv = DISC[v]
            if dv < LOW[u]:
                LOW[u] = dv
            continue
        tarjan(p, R, v, u, stamp)
        if LOW[v] < LOW[u]:
            LOW[u] = LOW[v]
        if u != FOUNTAIN_AT and LOW[v] >= DISC[u]:
            CUT[u] = stamp


cdef int removable(Player* p, Rules* R, int* out) noexcept:
    """Places (ascending) whose tile may be moved to the reserve board: not the fountain, next
    to an empty place, and not holding the on-foot paths together (CityAnalysis.removable)."""
    global STAMP, TIME
    cdef int gx, gy, g, n = 0
    cdef unsigned int stamp
    STAMP += 1
    stamp = STAMP
    TIME = 0
    tarjan(p, R, FOUNTAIN_AT, -1, stamp)
    for gy in range(p.y0, p.y1 + 1):
        for gx in range(p.x0, p.x1 + 1):
            g = gy * G + gx
            if p.grid[g] < 0 or g == FOUNTAIN_AT:
                continue
            if p.grid[g - G] >= 0 and p.grid[g + 1] >= 0 and p.grid[g + G] >= 0 and p.grid[g - 1] >= 0:
                continue
            if CUT[g] == stamp or DSTAMP[g] != stamp:
                continue
            out[n] = g
            n += 1
    return n


cdef struct Built:
    int n
    int g[MAXT]
    int known[MAXT]
    int need[MAXT]


cdef int built(Player* p, Rules* R, Built* b) noexcept:
    """The Alhambra's tiles but the fountain, ascending, with their neighbours' wall facts
    (CityAnalysis._packed_req)."""
    cdef int gx, gy, g, need = 0
    b.n = 0
    for gy in range(p.y0, p.y1 + 1):
        for gx in range(p.x0, p.x1 + 1):
            g = gy * G + gx
            if p.grid[g] < 0 or g == FOUNTAIN_AT:
                continue
            b.g[b.n] = g
            b.known[b.n] = known_need(p, R, g, &need)
            b.need[b.n] = need
            b.n += 1
    return b.n


cdef int exchanges_in(Built* b, int walls, int* out) noexcept:
    """Places (ascending) of the tiles a tile with ``walls`` may take the place of."""
    cdef int i, n = 0
    for i in range(b.n):
        if (walls & b.known[i]) == b.need[i]:
            out[n] = b.g[i]
            n += 1
    return n


cdef void city_put(Player* p, int g, int tile) noexcept:
    cdef int gx = g % G, gy = g // G
    if p.grid[g] < 0:
        p.ncity += 1
    p.grid[g] = <signed char>tile
    if gx < p.x0:
        p.x0 = gx
    if gx > p.x1:
        p.x1 = gx
    if gy < p.y0:
        p.y0 = gy
    if gy > p.y1:
        p.y1 = gy


cdef int city_find(Player* p, int tile) noexcept:
    cdef int gx, gy, g
    for gy in range(p.y0, p.y1 + 1):
        for gx in range(p.x0, p.x1 + 1):
            g = gy * G + gx
            if p.grid[g] == tile:
                return g
    return -1


# ------------------------------------------------------------------ the longest outer wall
cdef enum:
    LW = 65

cdef int VLOCAL[LW * LW]
cdef int VSTAMP[LW * LW]
cdef int VSTAMP_NOW = 0


cdef struct Walls:
    int ne
    int ea[256]
    int eb[256]
    int nv
    int deg[256]
    int adj[256][4]
    int used[256]
    int best
    int limit


cdef void trail(Walls* w, int v, int length) noexcept:
    cdef int i, e
    if length > w.best:
        w.best = length
    if w.best == w.limit:
        return
    for i in range(w.deg[v]):
        e = w.adj[v][i]
        if not w.used[e]:
            w.used[e] = 1
            trail(w, w.ea[e] ^ w.eb[e] ^ v, length + 1)
            w.used[e] = 0
            if w.best == w.limit:
                return


cdef int _vertex(Walls* w, int cx, int cy) noexcept:
    global VSTAMP_NOW
    cdef int key = cy * LW + cx
    if VSTAMP[key] != VSTAMP_NOW:
        VSTAMP[key] = VSTAMP_NOW
        VLOCAL[key] = w.nv
        w.deg[w.nv] = 0
        w.nv += 1
    return VLOCAL[key]


cdef void _segment(Walls* w, int ax, int ay, int bx, int by) noexcept:
    cdef int a = _vertex(w, ax, ay), b = _vertex(w, bx, by)
    cdef int e = w.ne
    w.ea[e] = a
    w.eb[e] = b
    w.adj[a][w.deg[a]] = e
    w.deg[a] += 1
    w.adj[b][w.deg[b]] = e
    w.deg[b] += 1
    w.ne += 1


cdef int longest_wall(Player* p, Rules* R) noexcept:
    """Length of the longest continuous outer wall (city.longest_wall)."""
    global VSTAMP_NOW
    cdef Walls w
    cdef int gx, gy, g, t, wl, i, v, sp, edges, branchy, best = 0, nodd
    cdef int comp[256]
    cdef int ncomp
    cdef int seen[256]
    VSTAMP_NOW += 1
    w.ne = 0
    w.nv = 0
    for gy in range(p.y0, p.y1 + 1):
        for gx in range(p.x0, p.x1 + 1):
            g = gy * G + gx
            t = p.grid[g]
            if t < 0:
                continue
            wl = R.tile_walls[t]
            if not wl:
                continue
            if wl & NORTH and p.grid[g - G] < 0:
                _segment(&w, gx, gy, gx + 1, gy)
            if wl & EAST and p.grid[g + 1] < 0:
                _segment(&w, gx + 1, gy, gx + 1, gy + 1)
            if wl & SOUTH and p.grid[g + G] < 0:
                _segment(&w, gx, gy + 1, gx + 1, gy + 1)
            if wl & WEST and p.grid[g - 1] < 0:
                _segment(&w, gx, gy, gx, gy + 1)
    if not w.ne:
        return 0
    for i in range(w.nv):
        seen[i] = 0
    for i in range(w.ne):
        w.used[i] = 0
    for v in range(w.nv):
        if seen[v]:
            continue
        seen[v] = 1
        comp[0] = v
        ncomp = 1
        sp = 0
        edges = 0
        branchy = 0
        while sp < ncomp:
            g = comp[sp]
            sp += 1
            edges += w.deg[g]
            if w.deg[g] > 2:
                branchy = 1
            for i in range(w.deg[g]):
                t = w.ea[w.adj[g][i]] ^ w.eb[w.adj[g][i]] ^ g
                if not seen[t]:
                    seen[t] = 1
                    comp[ncomp] = t
                    ncomp += 1
        edges >>= 1
        if edges <= best:
            continue
        if not branchy:
            best = edges
            continue
        w.best = 0
        w.limit = edges
        nodd = 0
        for i in range(ncomp):
            if w.deg[comp[i]] % 2:
                nodd += 1
                trail(&w, comp[i], 0)
                if w.best == w.limit:
                    break
        if not nodd:
            for i in range(ncomp):
                trail(&w, comp[i], 0)
                if w.best == w.limit:
                    break
        if w.best > best:
            best = w.best
    return best
