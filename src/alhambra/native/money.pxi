# Money: the take actions of the display, every payment of a price (engine._list_takes,
# engine._subsets / _buy_list), and paying (engine._spend). Action ids are int64 values:
# bits 0-2 the kind (A_*), the rest its arguments (see actions.py of this package).

cdef struct Buf:
    long long* a
    int n
    int cap


cdef int buf_push(Buf* b, long long v) except -1:
    cdef long long* grown
    if b.n >= b.cap:
        grown = <long long*>PyMem_Realloc(b.a, (b.cap * 2 + 64) * sizeof(long long))
        if grown == NULL:
            raise MemoryError()
        b.a = grown
        b.cap = b.cap * 2 + 64
    b.a[b.n] = v
    b.n += 1
    return 0


cdef inline int canon_less(int a, int b) noexcept:
    """Canonical card order of two money codes: by currency, then higher value first."""
    cdef int ca = a // 9, cb = b // 9
    if ca != cb:
        return ca < cb
    return (a % 9) > (b % 9)


cdef int take_actions(St* s, Rules* R, Buf* out) except -1:
    cdef int i, j, k, c, code, m = 0, mask, total, cnt, x
    cdef int seen_single[4]
    cdef int nseen = 0
    cdef int small[4]
    cdef int chosen[4]
    cdef long long done[16]
    cdef int ndone = 0
    cdef long long a
    cdef bint dup
    for i in range(4):
        c = s.display[i]
        if c < 0:
            continue
        code = R.card_code[c]
        dup = False
        for j in range(nseen):
            if seen_single[j] == code:
                dup = True
        if not dup:
            seen_single[nseen] = code
            nseen += 1
            buf_push(out, A_TAKE | (1 << 3) | (<long long>code << 6))
        if R.card_val[c] < 5:
            small[m] = code
            m += 1
    if m < 2:
        return 0
    # sort the small codes (string order of the codes: currency, then value)
    for i in range(1, m):
        x = small[i]
        j = i - 1
        while j >= 0 and small[j] > x:
            small[j + 1] = small[j]
            j -= 1
        small[j + 1] = x
    for mask in range(1, 1 << m):
        if mask & (mask - 1) == 0:
            continue
        total = 0
        cnt = 0
        for i in range(m):
            if (mask >> i) & 1:
                total += small[i] % 9 + 1
                chosen[cnt] = small[i]
                cnt += 1
        if total > 5:
            continue
        for i in range(1, cnt):
            x = chosen[i]
            j = i - 1
            while j >= 0 and canon_less(x, chosen[j]):
                chosen[j + 1] = chosen[j]
                j -= 1
            chosen[j + 1] = x
        a = A_TAKE | (<long long>cnt << 3)
        for i in range(cnt):
            a |= <long long>chosen[i] << (6 + 6 * i)
        dup = False
        for j in range(ndone):
            if done[j] == a:
                dup = True
        if not dup:
            done[ndone] = a
            ndone += 1
            buf_push(out, a)
    return 0


cdef struct PayGen:
    int nitems
    int val[9]        # item values, falling
    int cnt[9]        # copies held of each
    int left[10]      # value of the items from i on
    int k[9]          # chosen copies of each
    int price
    int mode          # 0 all, 1 exact, 2 minimal
    long long base


cdef int pay_rec(PayGen* g, int i, int total, int low, Buf* out) except -1:
    cdef int kk, j
    cdef long long a
    if i == g.nitems:
        if total == 0:
            return 0
        if total < g.price:
            return 0
        if g.mode == 1 and total != g.price:
            return 0
        if g.mode == 2 and total - low >= g.price:
            return 0
        a = g.base
        for j in range(g.nitems):
            a |= <long long>g.k[j] << (5 + 2 * (g.val[j] - 1))
        buf_push(out, a)
        return 0
    if total + g.left[i] < g.price:
        return 0
    kk = g.cnt[i]
    while kk >= 0:
        g.k[i] = kk
        pay_rec(g, i + 1, total + g.val[i] * kk, g.val[i] if kk else low, out)
        kk -= 1
    g.k[i] = 0
    return 0


cdef int buy_actions(St* s, Rules* R, int seat, int mode, Buf* out) except -1:
    cdef Player* p = &s.players[seat]
    cdef int sq, t, i, c, v
    cdef int have[9]
    cdef PayGen g
    for sq in range(4):
        t = s.market[sq]
        if t < 0:
            continue
        for v in range(9):
            have[v] = 0
        for i in range(p.nhand):
            c = p.hand[i]
            if R.card_cur[c] == sq:
                have[R.card_val[c] - 1] += 1
        g.nitems = 0
        v = 9
        while v >= 1:
            if have[v - 1]:
                g.val[g.nitems] = v
                g.cnt[g.nitems] = have[v - 1]
                g.k[g.nitems] = 0
                g.nitems += 1
            v -= 1
        if not g.nitems:
            continue
        g.left[g.nitems] = 0
        i = g.nitems - 1
        while i >= 0:
            g.left[i] = g.left[i + 1] + g.val[i] * g.cnt[i]
            i -= 1
        g.price = R.tile_price[t]
        g.mode = mode
        g.base = A_BUY | (sq << 3)
        pay_rec(&g, 0, 0, 0, out)
    return 0


cdef int pay(St* s, Rules* R, int seat, int cur, long long a) noexcept:
    """Spend the payment of buy action ``a`` from the hand (in canonical order, each the first
    card of its code) onto the discard pile; returns the value paid."""
    cdef Player* p = &s.players[seat]
    cdef int v, k, i, j, c, total = 0, n = 0
    cdef int idx[MAXC]
    cdef int used[MAXC]
    for i in range(p.nhand):
        used[i] = 0
    v = 9
    while v >= 1:
        k = (a >> (5 + 2 * (v - 1))) & 3
        while k:
            for i in range(p.nhand):
                c = p.hand[i]
                if not used[i] and R.card_cur[c] == cur and R.card_val[c] == v:
                    used[i] = 1
                    idx[n] = i
                    n += 1
                    break
            total += v
            k -= 1
        v -= 1
    for i in range(n):
        s.discard[s.ndiscard] = p.hand[idx[i]]
        s.ndiscard += 1
    j = 0
    for i in range(p.nhand):
        if not used[i]:
            p.hand[j] = p.hand[i]
            j += 1
    p.nhand = j
    return total
