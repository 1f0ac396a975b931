# The Mersenne Twister exactly as CPython's ``random.Random`` runs it (seeding from an int,
# ``getrandbits`` for k <= 32, ``_randbelow``, ``shuffle`` and ``randrange(n)``), so a seed
# deals the same bag and deck in both engines. Twin of the ``rng`` steps of engine.new_game.

cdef enum:
    MT_N = 624
    MT_M = 397

cdef struct MT:
    unsigned int mt[624]
    int mti


cdef void mt_init_genrand(MT* r, unsigned int s) noexcept:
    cdef int i
    r.mt[0] = s
    for i in range(1, MT_N):
        r.mt[i] = <unsigned int>(1812433253U * (r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) + <unsigned int>i)
    r.mti = MT_N


cdef void mt_init_by_array(MT* r, unsigned int* key, int key_length) noexcept:
    cdef int i = 1, j = 0, k
    mt_init_genrand(r, 19650218U)
    k = MT_N if MT_N > key_length else key_length
    while k > 0:
        r.mt[i] = <unsigned int>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * 1664525U)) + key[j] + <unsigned int>j)
        i += 1
        j += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        if j >= key_length:
            j = 0
        k -= 1
    k = MT_N - 1
    while k > 0:
        r.mt[i] = <unsigned int>((r.mt[i] ^ ((r.mt[i - 1] ^ (r.mt[i - 1] >> 30)) * 1566083941U)) - <unsigned int>i)
        i += 1
        if i >= MT_N:
            r.mt[0] = r.mt[MT_N - 1]
            i = 1
        k -= 1
    r.mt[0] = 0x80000000U
    r.mti = MT_N


cdef unsigned int mt_next(MT* r) noexcept:
    cdef unsigned int y
    cdef int kk
    cdef unsigned int* mt = r.mt
    if r.mti >= MT_N:
        for kk in range(MT_N - MT_M):
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU)
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0U)
        for kk in range(MT_N - MT_M, MT_N - 1):
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU)
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0U)
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU)
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ (0x9908b0dfU if y & 1 else 0U)
        r.mti = 0
    y = mt[r.mti]
    r.mti += 1
    y ^= (y >> 11)
    y ^= (y << 7) & 0x9d2c5680U
    y ^= (y << 15) & 0xefc60000U
    y ^= (y >> 18)
    return y


cdef int mt_below(MT* r, int n) noexcept:
    """``Random._randbelow(n)`` (n < 2**31)."""
    cdef int k = 0, m = n
    cdef unsigned int v
    if n <= 0:
        return 0
    while m:
        k += 1
        m >>= 1
    v = mt_next(r) >> (32 - k)
    while v >= <unsigned int>n:
        v = mt_next(r) >> (32 - k)
    return <int>v


cdef void mt_shuffle(MT* r, int* x, int n) noexcept:
    """``Random.shuffle`` of ``x[0:n]``."""
    cdef int i, j, t
    i = n - 1
    while i >= 1:
        j = mt_below(r, i + 1)
        t = x[i]
        x[i] = x[j]
        x[j] = t
        i -= 1


cdef void mt_seed(MT* r, object seed):
    """``random.Random(seed)`` for an int seed (its absolute value, 32-bit words, low first)."""
    cdef object n = abs(int(seed))
    cdef list words = []
    while n:
        words.append(int(n & 0xFFFFFFFF))
        n >>= 32
    if not words:
        words.append(0)
    cdef int k = len(words)
    cdef unsigned int* key = <unsigned int*>PyMem_Malloc(k * sizeof(unsigned int))
    cdef int i
    for i in range(k):
        key[i] = <unsigned int>words[i]
    mt_init_by_array(r, key, k)
    PyMem_Free(key)


cdef unsigned long long xs_next(unsigned long long* s) noexcept:
    """A small fast generator (xorshift64*) for random playouts, not for the game's own chance."""
    cdef unsigned long long x = s[0]
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    s[0] = x
    return x * 2685821657736338717ULL
