/* The Sunloaf planner's beam search (sunbot/strategies/sunloaf_beam.py FastBeam) in C.
 *
 * The same search, node for node: the layer loop, the expansion of a position (REST and
 * MOVE children, the incremental turn resolution of Sunloaf §7, bowls and the chain, dogs),
 * the floor min-heap that drops children early, the transposition table keyed by
 * (chain, tiles, settled capped at 6) keeping the higher score (an update keeps the entry's
 * slot), heapq.nlargest(width, ...) per layer (node tuples compared whole: priority, score,
 * cosy, then the key, which is unique in a layer), the node count and the pause/resume
 * contract of FastBeam.run. A key is packed into one 64-bit integer whose order is the
 * tuple's order: chain (4 bits), then each cat's tile (6 bits), then each settled (3 bits).
 *
 * Day: one day's tables, flattened once (sunloaf_beam.FastTables.native builds it).
 * Search: one search from one position at one width; run() goes on until it finishes or
 * its node limit / deadline passes.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 6
#define TOP 6
#define REST_CODE (-1)

static PyObject *perf_counter = NULL;

static int RAW[7][7];
static uint64_t NBR[49];

/* ------------------------------------------------------------------------------------- */
/* Day */

typedef struct {
    PyObject_HEAD
    int n, turns;
    int64_t mult, quota;
    int weights[MAXC];
    int64_t *value[MAXC];     /* (turns+1)*343 per cat */
    int64_t *reach_top[MAXC]; /* (turns+1)*49 per cat */
    uint8_t *warm;            /* turns*49 */
    uint64_t *dogs;           /* turns */
    int *serve_off;           /* turns+1 */
    int *serve_mat;
    uint8_t npath[MAXC][49];
    uint8_t pathy[MAXC][49][16];
    uint64_t pathm[MAXC][49][16];
} DayObject;

static void Day_dealloc(DayObject *self) {
    for (int i = 0; i < MAXC; i++) {
        PyMem_Free(self->value[i]);
        PyMem_Free(self->reach_top[i]);
    }
    PyMem_Free(self->warm);
    PyMem_Free(self->dogs);
    PyMem_Free(self->serve_off);
    PyMem_Free(self->serve_mat);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Fill out[0..count) from a sequence of ints; -1 and an exception on error. */
static int read_i64(PyObject *seq, int64_t *out, Py_ssize_t count, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (fast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd items, got %zd", what, count,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(fast);
    for (Py_ssize_t k = 0; k < count; k++) {
        long long v = PyLong_AsLongLong(items[k]);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[k] = v;
    }
    Py_DECREF(fast);
    return 0;
}

static PyObject *item_of(PyObject *seq, Py_ssize_t k) { return PySequence_GetItem(seq, k); }

static int Day_init(DayObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"n",    "turns", "mult",    "quota",  "weights", "ranges",
                             "values", "reach_top", "warm", "dogs",  "serves",  "paths",
                             NULL};
    int n, turns;
    long long mult, quota;
    PyObject *weights, *ranges, *values, *tops, *warm, *dogs, *serves, *paths;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iiLLOOOOOOOO", kwlist, &n, &turns, &mult,
                                     &quota, &weights, &ranges, &values, &tops, &warm, &dogs,
                                     &serves, &paths))
        return -1;
    if (n < 1 || n > MAXC || turns < 0 || turns > 10000) {
        PyErr_SetString(PyExc_ValueError, "Day: need 1 <= n <= 6 cats and 0 <= turns");
        return -1;
    }
    self->n = n;
    self->turns = turns;
    self->mult = mult;
    self->quota = quota;
    int64_t tmp[MAXC];
    if (read_i64(weights, tmp, n, "weights") < 0) return -1;
    for (int i = 0; i < n; i++) self->weights[i] = (int)tmp[i];
    int64_t rng[MAXC];
    if (read_i64(ranges, rng, n, "ranges") < 0) return -1;
    for (int i = 0; i < n; i++) {
        if (rng[i] < 0 || rng[i] > 4) {
            PyErr_SetString(PyExc_ValueError, "Day: a range is outside 0..4");
            return -1;
        }
    }
    Py_ssize_t nv = (Py_ssize_t)(turns + 1) * 343, nt = (Py_ssize_t)(turns + 1) * 49;
    for (int i = 0; i < n; i++) {
        self->value[i] = PyMem_Malloc(sizeof(int64_t) * nv);
        self->reach_top[i] = PyMem_Malloc(sizeof(int64_t) * nt);
        if (!self->value[i] || !self->reach_top[i]) {
            PyErr_NoMemory();
            return -1;
        }
        PyObject *v = item_of(values, i);
        if (v == NULL) return -1;
        int rc = read_i64(v, self->value[i], nv, "values[i]");
        Py_DECREF(v);
        if (rc < 0) return -1;
        v = item_of(tops, i);
        if (v == NULL) return -1;
        rc = read_i64(v, self->reach_top[i], nt, "reach_top[i]");
        Py_DECREF(v);
        if (rc < 0) return -1;
    }
    /* warm: bytes of turns*49 caps */
    Py_buffer buf;
    if (PyObject_GetBuffer(warm, &buf, PyBUF_SIMPLE) < 0) return -1;
    if (buf.len != (Py_ssize_t)turns * 49) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "Day: warm must hold turns*49 bytes");
        return -1;
    }
    self->warm = PyMem_Malloc(turns * 49 + 1);
    if (!self->warm) {
        PyBuffer_Release(&buf);
        PyErr_NoMemory();
        return -1;
    }
    memcpy(self->warm, buf.buf, turns * 49);
    PyBuffer_Release(&buf);
    self->dogs = PyMem_Malloc(sizeof(uint64_t) * (turns + 1));
    self->serve_off = PyMem_Malloc(sizeof(int) * (turns + 1));
    if (!self->dogs || !self->serve_off) {
        PyErr_NoMemory();
        return -1;
    }
    for (int t = 0; t < turns; t++) {
        PyObject *d = item_of(dogs, t);
        if (d == NULL) return -1;
        unsigned long long m = PyLong_AsUnsignedLongLong(d);
        Py_DECREF(d);
        if (m == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        self->dogs[t] = m;
    }
    /* serves: one sequence of mats per turn */
    int total = 0;
    PyObject *sfast = PySequence_Fast(serves, "serves");
    if (sfast == NULL) return -1;
    if (PySequence_Fast_GET_SIZE(sfast) != turns) {
        Py_DECREF(sfast);
        PyErr_SetString(PyExc_ValueError, "Day: serves must have one entry per turn");
        return -1;
    }
    for (int t = 0; t < turns; t++) {
        Py_ssize_t k = PySequence_Size(PySequence_Fast_GET_ITEM(sfast, t));
        if (k < 0) {
            Py_DECREF(sfast);
            return -1;
        }
        total += (int)k;
    }
    self->serve_mat = PyMem_Malloc(sizeof(int) * (total + 1));
    if (!self->serve_mat) {
        Py_DECREF(sfast);
        PyErr_NoMemory();
        return -1;
    }
    int at = 0;
    for (int t = 0; t < turns; t++) {
        self->serve_off[t] = at;
        PyObject *mats = PySequence_Fast_GET_ITEM(sfast, t);
        Py_ssize_t k = PySequence_Size(mats);
        int64_t ms[64];
        if (k > 64) {
            Py_DECREF(sfast);
            PyErr_SetString(PyExc_ValueError, "Day: too many serves in a turn");
            return -1;
        }
        if (read_i64(mats, ms, k, "serves[t]") < 0) {
            Py_DECREF(sfast);
            return -1;
        }
        for (Py_ssize_t j = 0; j < k; j++) self->serve_mat[at++] = (int)ms[j];
    }
    self->serve_off[turns] = at;
    Py_DECREF(sfast);
    /* paths[x][range] = ((y, mask), ...) */
    for (int i = 0; i < n; i++) {
        for (int x = 0; x < 49; x++) {
            PyObject *px = item_of(paths, x);
            if (px == NULL) return -1;
            PyObject *pr = item_of(px, rng[i]);
            Py_DECREF(px);
            if (pr == NULL) return -1;
            PyObject *pf = PySequence_Fast(pr, "paths[x][r]");
            Py_DECREF(pr);
            if (pf == NULL) return -1;
            Py_ssize_t k = PySequence_Fast_GET_SIZE(pf);
            if (k > 16) {
                Py_DECREF(pf);
                PyErr_SetString(PyExc_ValueError, "Day: more than 16 moves from a tile");
                return -1;
            }
            self->npath[i][x] = (uint8_t)k;
            for (Py_ssize_t j = 0; j < k; j++) {
                PyObject *pair = PySequence_Fast_GET_ITEM(pf, j);
                PyObject *y = item_of(pair, 0), *m = item_of(pair, 1);
                if (y == NULL || m == NULL) {
                    Py_XDECREF(y);
                    Py_XDECREF(m);
                    Py_DECREF(pf);
                    return -1;
                }
                long yy = PyLong_AsLong(y);
                unsigned long long mm = PyLong_AsUnsignedLongLong(m);
                Py_DECREF(y);
                Py_DECREF(m);
                if (PyErr_Occurred()) {
                    Py_DECREF(pf);
                    return -1;
                }
                self->pathy[i][x][j] = (uint8_t)yy;
                self->pathm[i][x][j] = mm;
            }
            Py_DECREF(pf);
        }
    }
    return 0;
}

static PyTypeObject DayType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sunbot.strategies._sunloaf_beam.Day",
    .tp_basicsize = sizeof(DayObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("One Sunloaf day's search tables, flattened (see the module)."),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Day_init,
    .tp_dealloc = (destructor)Day_dealloc,
};

/* ------------------------------------------------------------------------------------- */
/* Search */

typedef struct {
    int64_t pr, sc, co;
    uint64_t key;
    int32_t parent, action;
} Node;

typedef struct {
    uint64_t key;
    uint32_t gen;
    int32_t idx;
} Slot;

typedef struct {
    PyObject_HEAD
    DayObject *day;
    int width, t, next, done;
    Py_ssize_t used;
    /* layers[d]: the nodes of layer d (layer 0 the start) */
    Node **layers;
    int *sizes;
    int nlayers, cap_layers;
    /* the layer being built */
    Node *best;
    int nbest, cap_best;
    Slot *table;
    uint32_t mask, gen;
    int64_t *floor;
    PyObject *result;
} SearchObject;

static int cmp_desc(const void *pa, const void *pb) {
    const Node *a = pa, *b = pb;
    if (a->pr != b->pr) return a->pr < b->pr ? 1 : -1;
    if (a->sc != b->sc) return a->sc < b->sc ? 1 : -1;
    if (a->co != b->co) return a->co < b->co ? 1 : -1;
    if (a->key != b->key) return a->key < b->key ? 1 : -1;
    if (a->parent != b->parent) return a->parent < b->parent ? 1 : -1;
    if (a->action != b->action) return a->action < b->action ? 1 : -1;
    return 0;
}

/* a < b in the node tuples' order */
static inline int node_less(const Node *a, const Node *b) { return cmp_desc(a, b) > 0; }

static void Search_dealloc(SearchObject *self) {
    for (int d = 0; d < self->nlayers; d++) PyMem_Free(self->layers[d]);
    PyMem_Free(self->layers);
    PyMem_Free(self->sizes);
    PyMem_Free(self->best);
    PyMem_Free(self->table);
    PyMem_Free(self->floor);
    Py_XDECREF(self->day);
    Py_XDECREF(self->result);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static inline uint64_t hash64(uint64_t k) {
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return k;
}

static int table_grow(SearchObject *s) {
    uint32_t cap = (s->mask + 1) * 2;
    Slot *nt = PyMem_Calloc(cap, sizeof(Slot));
    if (!nt) return -1;
    uint32_t nm = cap - 1;
    for (int e = 0; e < s->nbest; e++) {
        uint64_t k = s->best[e].key;
        uint32_t h = (uint32_t)hash64(k) & nm;
        while (nt[h].gen == 1) h = (h + 1) & nm;
        nt[h].key = k;
        nt[h].gen = 1;
        nt[h].idx = e;
    }
    PyMem_Free(s->table);
    s->table = nt;
    s->mask = nm;
    s->gen = 1;
    return 0;
}

static inline void sift_floor(int64_t *h, int w, int64_t v) {
    /* heapreplace: the root leaves, v enters; only the minimum is ever read */
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= w) break;
        if (c + 1 < w && h[c + 1] < h[c]) c++;
        if (h[c] >= v) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = v;
}

/* Keep (pr, sc, co, key, parent, action) unless the key holds a score at least as high;
 * returns -1 on memory error, else 0. */
static inline int keep(SearchObject *s, int64_t pr, int64_t sc, int64_t co, uint64_t key,
                       int32_t parent, int32_t action) {
    uint32_t h = (uint32_t)hash64(key) & s->mask;
    uint32_t gen = s->gen;
    Slot *tab = s->table;
    while (tab[h].gen == gen) {
        if (tab[h].key == key) {
            Node *prev = &s->best[tab[h].idx];
            if (prev->sc < sc) {
                prev->pr = pr;
                prev->sc = sc;
                prev->co = co;
                prev->parent = parent;
                prev->action = action;
                sift_floor(s->floor, s->width, pr);
            }
            return 0;
        }
        h = (h + 1) & s->mask;
    }
    if (s->nbest == s->cap_best) {
        int cap = s->cap_best * 2;
        Node *nb = PyMem_Realloc(s->best, sizeof(Node) * cap);
        if (!nb) return -1;
        s->best = nb;
        s->cap_best = cap;
    }
    int e = s->nbest++;
    Node *nd = &s->best[e];
    nd->pr = pr;
    nd->sc = sc;
    nd->co = co;
    nd->key = key;
    nd->parent = parent;
    nd->action = action;
    tab[h].key = key;
    tab[h].gen = gen;
    tab[h].idx = e;
    sift_floor(s->floor, s->width, pr);
    if ((uint32_t)s->nbest * 2 > s->mask) return table_grow(s);
    return 0;
}

#define KEEP(pr, sc, co, key, act)                                        \
    do {                                                                  \
        if (keep(s, (pr), (sc), (co), (key), parent, (act)) < 0) return -1; \
        f0 = s->floor[0];                                                 \
    } while (0)

/* Resolve turn t for every MOVE and REST of node; the nodes generated (-1: no memory). */
/* The day's serves this turn with cats on the tiles of ``occ`` (§7 bowls): the chain
   after them (each served mat with a cat raises it, at most 8, and pays 30 x chain raw;
   an empty one resets it), the raw paid into *raw and its award into *award. */
static inline int serve_bowls(uint64_t occ, int chain, const int *serves, int ns,
                              int64_t mult, int64_t *raw, int64_t *award) {
    int64_t r = 0, a = 0;
    for (int k = 0; k < ns; k++) {
        if (occ >> serves[k] & 1) {
            chain = chain < 8 ? chain + 1 : 8;
            r += 30 * chain;
            a += (30 * chain * mult + 50) / 100;
        } else {
            chain = 0;
        }
    }
    *raw = r;
    *award = a;
    return chain;
}

static Py_ssize_t expand(SearchObject *s, int t, const Node *node, int32_t parent) {
    const DayObject *d = s->day;
    const int n = d->n;
    const int64_t mult = d->mult;
    const uint8_t *caps = d->warm + (Py_ssize_t)t * 49;
    const uint64_t dogs = d->dogs[t];
    const int *serves = d->serve_mat + d->serve_off[t];
    const int ns = d->serve_off[t + 1] - d->serve_off[t];
    const Py_ssize_t nxt = (Py_ssize_t)(t + 1) * 343;
    const int64_t score = node->sc, cosy = node->co;
    const uint64_t key = node->key;
    const int tsh0 = 3 * n; /* shift of the last tile field */
    const int chsh = 9 * n;
    int chain = (int)(key >> chsh);
    int tiles[MAXC], sr[MAXC];
    int64_t raws[MAXC], awards[MAXC], est[MAXC];
    int tiers[MAXC], piles[MAXC];
    uint64_t light = 0, heavy = 0, occ = 0;
    for (int i = 0; i < n; i++) {
        int x = (int)(key >> (tsh0 + 6 * (n - 1 - i))) & 63;
        int old = (int)(key >> (3 * (n - 1 - i))) & 7;
        tiles[i] = x;
        uint64_t bit = 1ULL << x;
        occ |= bit;
        if (dogs & bit) {
            sr[i] = 0;
            continue;
        }
        sr[i] = old < TOP ? old + 1 : TOP;
        light |= bit;
        if (d->weights[i] == 2) heavy |= bit;
    }
    int64_t rest_raw = 0, rest_award = 0, rest_est = 0;
    for (int i = 0; i < n; i++) {
        int st = sr[i], x = tiles[i];
        int64_t e = d->value[i][nxt + x * 7 + st];
        est[i] = e;
        rest_est += e;
        raws[i] = awards[i] = 0;
        tiers[i] = piles[i] = 0;
        if (!st) continue;
        int cap = caps[x];
        if (!cap) continue;
        uint64_t nb = NBR[x];
        int p = __builtin_popcountll(nb & light) + __builtin_popcountll(nb & heavy);
        int tier = st < cap ? st : cap;
        int64_t raw = RAW[tier][p < 6 ? p : 6];
        tiers[i] = tier;
        piles[i] = p;
        raws[i] = raw;
        int64_t a = (raw * mult + 50) / 100;
        awards[i] = a;
        rest_raw += raw;
        rest_award += a;
    }
    int64_t b_raw, b_award;
    int ch = serve_bowls(occ, chain, serves, ns, mult, &b_raw, &b_award);
    /* the key without its chain, settled from this turn's REST */
    uint64_t kt = 0;
    for (int i = 0; i < n; i++) kt = kt << 6 | (uint64_t)tiles[i];
    for (int i = 0; i < n; i++) kt = kt << 3 | (uint64_t)sr[i];
    int64_t f0 = s->floor[0];
    {
        int64_t co = cosy + rest_raw + b_raw;
        int64_t pr = co + rest_est;
        if (pr > f0) {
            uint64_t k = (uint64_t)ch << chsh | kt;
            KEEP(pr, score + rest_award + b_award, co, k, REST_CODE);
        }
    }
    Py_ssize_t made = 1;
    const int tt = t + 1;
    const int64_t base = cosy + rest_raw + rest_est + 240 * (int64_t)ns;
    for (int i = 0; i < n; i++) {
        int x = tiles[i];
        int np = d->npath[i][x];
        made += np;
        if (base - raws[i] - est[i] + d->reach_top[i][(Py_ssize_t)tt * 49 + x] <= f0) continue;
        int64_t lose_raw = raws[i], lose_award = awards[i];
        if (sr[i]) {
            int w = d->weights[i];
            uint64_t nb = NBR[x];
            for (int j = 0; j < n; j++) {
                if (raws[j] && (nb >> tiles[j] & 1)) {
                    int p = piles[j] - w;
                    int64_t raw = RAW[tiers[j]][p < 6 ? p : 6];
                    lose_raw += raws[j] - raw;
                    lose_award += awards[j] - (raw * mult + 50) / 100;
                }
            }
        }
        int64_t m_score = score + rest_award - lose_award;
        int64_t m_cosy = cosy + rest_raw - lose_raw;
        int64_t m_prio = m_cosy + rest_est - est[i];
        const int64_t *row = d->value[i] + (Py_ssize_t)tt * 343;
        int code0 = i * 49;
        int tsh = tsh0 + 6 * (n - 1 - i), ssh = 3 * (n - 1 - i);
        uint64_t km = kt & ~((uint64_t)63 << tsh) & ~((uint64_t)7 << ssh);
        const uint8_t *ys = d->pathy[i][x];
        const uint64_t *ms = d->pathm[i][x];
        if (!ns) {
            uint64_t kc = (uint64_t)chain << chsh | km;
            for (int j = 0; j < np; j++) {
                if (ms[j] & occ) continue;
                int y = ys[j];
                int64_t pr = m_prio + row[y * 7];
                if (pr <= f0) continue;
                KEEP(pr, m_score, m_cosy, kc | (uint64_t)y << tsh, code0 + y);
            }
            continue;
        }
        uint64_t others = occ & ~(1ULL << x);
        for (int j = 0; j < np; j++) {
            if (ms[j] & occ) continue;
            int y = ys[j];
            uint64_t cats = others | 1ULL << y;
            int64_t br, ba;
            int c2 = serve_bowls(cats, chain, serves, ns, mult, &br, &ba);
            int64_t pr = m_prio + br + row[y * 7];
            if (pr <= f0) continue;
            uint64_t k = (uint64_t)c2 << chsh | km | (uint64_t)y << tsh;
            KEEP(pr, m_score + ba, m_cosy + br, k, code0 + y);
        }
    }
    return made;
}

/* heapq.nlargest(width, best): the width largest nodes, largest first */
/* Sift ``v`` down from slot ``j`` of the min-heap ``h`` of ``k`` nodes (by node_less). */
static inline void sift_down(Node *h, int k, int j, Node v) {
    for (;;) {
        int c = 2 * j + 1;
        if (c >= k) break;
        if (c + 1 < k && node_less(&h[c + 1], &h[c])) c++;
        if (!node_less(&h[c], &v)) break;
        h[j] = h[c];
        j = c;
    }
    h[j] = v;
}

static Node *nlargest(SearchObject *s, int *count) {
    int m = s->nbest, w = s->width;
    int k = m < w ? m : w;
    Node *out = PyMem_Malloc(sizeof(Node) * (k > 0 ? k : 1));
    if (!out) return NULL;
    if (m <= w) {
        memcpy(out, s->best, sizeof(Node) * m);
    } else {
        /* a min-heap of the k largest so far */
        memcpy(out, s->best, sizeof(Node) * k);
        for (int i = k / 2 - 1; i >= 0; i--) {
            sift_down(out, k, i, out[i]);
        }
        for (int e = k; e < m; e++) {
            const Node *cand = &s->best[e];
            if (cand->pr < out[0].pr) continue; /* quick reject */
            if (!node_less(&out[0], cand)) continue;
            sift_down(out, k, 0, *cand);
        }
    }
    qsort(out, k, sizeof(Node), cmp_desc);
    *count = k;
    return out;
}

static int push_layer(SearchObject *s, Node *layer, int size) {
    if (s->nlayers == s->cap_layers) {
        int cap = s->cap_layers ? s->cap_layers * 2 : 16;
        Node **nl = PyMem_Realloc(s->layers, sizeof(Node *) * cap);
        if (!nl) return -1;
        s->layers = nl;
        int *ns = PyMem_Realloc(s->sizes, sizeof(int) * cap);
        if (!ns) return -1;
        s->sizes = ns;
        s->cap_layers = cap;
    }
    s->layers[s->nlayers] = layer;
    s->sizes[s->nlayers] = size;
    s->nlayers++;
    return 0;
}

static int Search_init(SearchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"day", "start", "width", NULL};
    PyObject *day, *start;
    int width;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!Oi", kwlist, &DayType, &day, &start,
                                     &width))
        return -1;
    if (width < 1) {
        PyErr_SetString(PyExc_ValueError, "Search: width must be >= 1");
        return -1;
    }
    DayObject *d = (DayObject *)day;
    int n = d->n;
    int64_t st[6 + 2 * MAXC];
    if (read_i64(start, st, 6 + 2 * n, "start") < 0) return -1;
    uint64_t key = (uint64_t)st[4]; /* CHAIN */
    for (int i = 0; i < n; i++) {
        if (st[6 + i] < 0 || st[6 + i] > 48) {
            PyErr_SetString(PyExc_ValueError, "Search: a tile is outside 0..48");
            return -1;
        }
        key = key << 6 | (uint64_t)st[6 + i];
    }
    for (int i = 0; i < n; i++) {
        int64_t v = st[6 + n + i];
        key = key << 3 | (uint64_t)(v < TOP ? (v < 0 ? 0 : v) : TOP);
    }
    if (st[4] < 0 || st[4] > 15 || st[0] < 0) {
        PyErr_SetString(PyExc_ValueError, "Search: bad chain or turn");
        return -1;
    }
    Py_INCREF(day);
    Py_XSETREF(self->day, d);
    self->width = width;
    self->t = (int)st[0];
    self->next = -1;
    self->done = 0;
    self->used = 0;
    Node *first = PyMem_Malloc(sizeof(Node));
    if (!first) {
        PyErr_NoMemory();
        return -1;
    }
    first->pr = 0;
    first->sc = st[3];
    first->co = st[5];
    first->key = key;
    first->parent = -1;
    first->action = 0;
    /* the current layer is layers[nlayers-1] once begun; keep it pending in best */
    self->cap_best = 1024;
    self->best = PyMem_Malloc(sizeof(Node) * self->cap_best);
    self->table = PyMem_Calloc(2048, sizeof(Slot));
    self->mask = 2047;
    self->gen = 0;
    self->floor = PyMem_Malloc(sizeof(int64_t) * width);
    if (!self->best || !self->table || !self->floor) {
        PyMem_Free(first);
        PyErr_NoMemory();
        return -1;
    }
    /* layer 0 waits in "pending": stored as the last layer with next = -1 */
    if (push_layer(self, first, 1) < 0) {
        PyMem_Free(first);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* run(used, limit, deadline) -> (actions or None, used, hit_deadline)
 * used: Budget.used so far; limit: Budget.nodes (None: no limit); deadline: a
 * time.perf_counter instant (None: none). */
static PyObject *Search_run(SearchObject *s, PyObject *args) {
    long long used0;
    PyObject *limit_o, *deadline_o;
    if (!PyArg_ParseTuple(args, "LOO", &used0, &limit_o, &deadline_o)) return NULL;
    if (s->result != NULL) return Py_BuildValue("(OLO)", s->result, used0, Py_False);
    int has_limit = limit_o != Py_None, has_deadline = deadline_o != Py_None;
    long long limit = 0;
    double deadline = 0;
    if (has_limit) {
        limit = PyLong_AsLongLong(limit_o);
        if (limit == -1 && PyErr_Occurred()) return NULL;
    }
    if (has_deadline) {
        deadline = PyFloat_AsDouble(deadline_o);
        if (deadline == -1.0 && PyErr_Occurred()) return NULL;
    }
    long long used = used0;
    const int turns = s->day->turns;
    /* the layer being expanded is layers[nlayers-1] (pushed when the previous ended) */
    while (s->t < turns) {
        int t = s->t;
        if (s->next < 0) {
            s->nbest = 0;
            s->gen++;
            if (s->gen == 0) { /* wrapped: clear */
                memset(s->table, 0, sizeof(Slot) * ((size_t)s->mask + 1));
                s->gen = 1;
            }
            for (int i = 0; i < s->width; i++) s->floor[i] = -1;
            s->next = 0;
        }
        Node *layer = s->layers[s->nlayers - 1];
        int size = s->sizes[s->nlayers - 1];
        for (int parent = s->next; parent < size; parent++) {
            Py_ssize_t made = expand(s, t, &layer[parent], parent);
            if (made < 0) return PyErr_NoMemory();
            used += made;
            int stop = has_limit && used > limit;
            int late = !stop && has_deadline && !(parent & 15);
            int hit = 0;
            if (late) {
                PyObject *now = PyObject_CallNoArgs(perf_counter);
                if (now == NULL) return NULL;
                double v = PyFloat_AsDouble(now);
                Py_DECREF(now);
                if (v > deadline) stop = hit = 1;
            }
            if (stop) {
                s->next = parent + 1;
                s->used += used - used0;
                return Py_BuildValue("(OLO)", Py_None, used, hit ? Py_True : Py_False);
            }
        }
        int count;
        Node *next = nlargest(s, &count);
        if (!next) return PyErr_NoMemory();
        if (push_layer(s, next, count) < 0) {
            PyMem_Free(next);
            return PyErr_NoMemory();
        }
        s->t = t + 1;
        s->next = -1;
    }
    s->used += used - used0;
    int64_t quota = s->day->quota;
    Node *last = s->layers[s->nlayers - 1];
    int size = s->sizes[s->nlayers - 1];
    if (size == 0) {
        PyErr_SetString(PyExc_ValueError, "max() arg is an empty sequence");
        return NULL;
    }
    int chsh = 9 * s->day->n;
    int bi = 0;
    for (int e = 1; e < size; e++) {
        const Node *a = &last[e], *b = &last[bi];
        int qa = a->co >= quota, qb = b->co >= quota;
        if (qa != qb) {
            if (qa > qb) bi = e;
            continue;
        }
        if (a->sc != b->sc) {
            if (a->sc > b->sc) bi = e;
            continue;
        }
        if ((a->key >> chsh) > (b->key >> chsh)) bi = e;
    }
    int depth = s->nlayers - 1; /* layers 0..depth-1 are parents; the last is the end */
    PyObject *actions = PyList_New(depth);
    if (!actions) return NULL;
    const Node *node = &last[bi];
    for (int dd = depth - 1; dd >= 0; dd--) {
        PyObject *a = PyLong_FromLong(node->action);
        if (!a) {
            Py_DECREF(actions);
            return NULL;
        }
        PyList_SET_ITEM(actions, dd, a);
        node = &s->layers[dd][node->parent];
    }
    s->result = actions;
    /* free what the result no longer needs */
    for (int dd = 0; dd < s->nlayers; dd++) PyMem_Free(s->layers[dd]);
    s->nlayers = 0;
    PyMem_Free(s->best);
    s->best = NULL;
    s->cap_best = s->nbest = 0;
    return Py_BuildValue("(OLO)", s->result, used, Py_False);
}

static PyObject *Search_get_used(SearchObject *s, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(s->used);
}

static PyMethodDef Search_methods[] = {
    {"run", (PyCFunction)Search_run, METH_VARARGS,
     PyDoc_STR("run(used, limit, deadline) -> (actions | None, used, hit_deadline)")},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Search_getset[] = {
    {"used", (getter)Search_get_used, NULL, PyDoc_STR("nodes generated so far"), NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sunbot.strategies._sunloaf_beam.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("One beam search of FastBeam's, in C (see the module)."),
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
};


/* ------------------------------------------------------------------------------------- */
/* The lone-cat values of sunloaf_values.DayTables, and FastTables.reach_top */

static PyObject *list_of(const int64_t *v, Py_ssize_t count) {
    PyObject *out = PyList_New(count);
    if (!out) return NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *o = PyLong_FromLongLong(v[k]);
        if (!o) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, k, o);
    }
    return out;
}

/* day_values(turns, warm, dogs, serves, paths) -> (value, reach_top) */
static PyObject *day_values(PyObject *mod, PyObject *args) {
    (void)mod;
    int turns;
    PyObject *warm, *dogs, *serves, *paths;
    if (!PyArg_ParseTuple(args, "iOOOO", &turns, &warm, &dogs, &serves, &paths)) return NULL;
    if (turns < 0 || turns > 10000) {
        PyErr_SetString(PyExc_ValueError, "day_values: bad turns");
        return NULL;
    }
    Py_buffer buf;
    if (PyObject_GetBuffer(warm, &buf, PyBUF_SIMPLE) < 0) return NULL;
    if (buf.len != (Py_ssize_t)turns * 49) {
        PyBuffer_Release(&buf);
        PyErr_SetString(PyExc_ValueError, "day_values: warm must hold turns*49 bytes");
        return NULL;
    }
    uint8_t npath[49], pathy[49][16];
    PyObject *result = NULL;
    Py_ssize_t nv = (Py_ssize_t)(turns + 1) * 343, nt = (Py_ssize_t)(turns + 1) * 49;
    int64_t *value = PyMem_Calloc(nv, sizeof(int64_t));
    int64_t *top = PyMem_Calloc(nt, sizeof(int64_t));
    uint64_t *dm = PyMem_Calloc(turns + 1, sizeof(uint64_t));
    uint64_t *fed = PyMem_Calloc(turns + 1, sizeof(uint64_t));
    if (!value || !top || !dm || !fed) {
        PyErr_NoMemory();
        goto done;
    }
    for (int t = 0; t < turns; t++) {
        PyObject *d = PySequence_GetItem(dogs, t);
        if (!d) goto done;
        dm[t] = PyLong_AsUnsignedLongLong(d);
        Py_DECREF(d);
        if (PyErr_Occurred()) goto done;
        PyObject *mats = PySequence_GetItem(serves, t);
        if (!mats) goto done;
        PyObject *mf = PySequence_Fast(mats, "serves[t]");
        Py_DECREF(mats);
        if (!mf) goto done;
        fed[t] = 0;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(mf); j++) {
            long m = PyLong_AsLong(PySequence_Fast_GET_ITEM(mf, j));
            if (m < 0 || m > 48) {
                Py_DECREF(mf);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "day_values: a mat is off the board");
                goto done;
            }
            fed[t] |= 1ULL << m;
        }
        Py_DECREF(mf);
    }
    for (int x = 0; x < 49; x++) {
        PyObject *px = PySequence_GetItem(paths, x);
        if (!px) goto done;
        PyObject *pf = PySequence_Fast(px, "paths[x]");
        Py_DECREF(px);
        if (!pf) goto done;
        Py_ssize_t k = PySequence_Fast_GET_SIZE(pf);
        if (k > 16) {
            Py_DECREF(pf);
            PyErr_SetString(PyExc_ValueError, "day_values: more than 16 moves from a tile");
            goto done;
        }
        npath[x] = (uint8_t)k;
        for (Py_ssize_t j = 0; j < k; j++) {
            PyObject *y = PySequence_GetItem(PySequence_Fast_GET_ITEM(pf, j), 0);
            if (!y) {
                Py_DECREF(pf);
                goto done;
            }
            long yy = PyLong_AsLong(y);
            Py_DECREF(y);
            if (yy < 0 || yy > 48) {
                Py_DECREF(pf);
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "day_values: a move is off the board");
                goto done;
            }
            pathy[x][j] = (uint8_t)yy;
        }
        Py_DECREF(pf);
    }
    const uint8_t *w = buf.buf;
    for (int t = turns - 1; t >= 0; t--) {
        const uint8_t *caps = w + (Py_ssize_t)t * 49;
        uint64_t dg = dm[t], mats = fed[t];
        int64_t *nxt = value + (Py_ssize_t)(t + 1) * 343, *here = value + (Py_ssize_t)t * 343;
        for (int x = 0; x < 49; x++) {
            int64_t best_move = 0;
            for (int j = 0; j < npath[x]; j++) {
                int y = pathy[x][j];
                int64_t v = nxt[y * 7] + ((mats >> y & 1) ? 30 : 0);
                if (v > best_move) best_move = v;
            }
            int cap = caps[x];
            int reset = (int)(dg >> x & 1);
            int64_t f = (mats >> x & 1) ? 30 : 0;
            for (int st = 0; st < 7; st++) {
                int s2 = reset ? 0 : (st < TOP ? st + 1 : TOP);
                int64_t stay = nxt[x * 7 + s2] + f;
                if (cap && s2) stay += RAW[s2 < cap ? s2 : cap][0];
                here[x * 7 + st] = stay > best_move ? stay : best_move;
            }
        }
    }
    for (int t = 0; t <= turns; t++) {
        const int64_t *row = value + (Py_ssize_t)t * 343;
        for (int x = 0; x < 49; x++) {
            int64_t m = 0;
            for (int j = 0; j < npath[x]; j++) {
                int64_t v = row[pathy[x][j] * 7];
                if (j == 0 || v > m) m = v;
            }
            top[(Py_ssize_t)t * 49 + x] = m;
        }
    }
    PyObject *lv = list_of(value, nv);
    if (!lv) goto done;
    PyObject *lt = list_of(top, nt);
    if (!lt) {
        Py_DECREF(lv);
        goto done;
    }
    result = Py_BuildValue("(NN)", lv, lt);
done:
    PyBuffer_Release(&buf);
    PyMem_Free(value);
    PyMem_Free(top);
    PyMem_Free(dm);
    PyMem_Free(fed);
    return result;
}

static PyMethodDef module_methods[] = {
    {"day_values", day_values, METH_VARARGS,
     PyDoc_STR("day_values(turns, warm, dogs, serves, paths) -> (value, reach_top)")},
    {NULL, NULL, 0, NULL},
};

/* ------------------------------------------------------------------------------------- */

static PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "sunbot.strategies._sunloaf_beam",
    .m_doc = PyDoc_STR("The Sunloaf planner's FastBeam search in C: the same nodes, faster."),
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__sunloaf_beam(void) {
    static const int PURR[7] = {0, 1, 2, 3, 5, 7, 10};
    for (int tier = 0; tier < 7; tier++)
        for (int p = 0; p < 7; p++) RAW[tier][p] = (10 * PURR[tier] * (4 + p)) / 4;
    for (int x = 0; x < 49; x++) {
        int r = x / 7, c = x % 7;
        uint64_t m = 0;
        if (r > 0) m |= 1ULL << (x - 7);
        if (c > 0) m |= 1ULL << (x - 1);
        if (c < 6) m |= 1ULL << (x + 1);
        if (r < 6) m |= 1ULL << (x + 7);
        NBR[x] = m;
    }
    if (PyType_Ready(&DayType) < 0 || PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *time = PyImport_ImportModule("time");
    if (time == NULL) return NULL;
    perf_counter = PyObject_GetAttrString(time, "perf_counter");
    Py_DECREF(time);
    if (perf_counter == NULL) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&DayType);
    if (PyModule_AddObject(m, "Day", (PyObject *)&DayType) < 0) {
        Py_DECREF(&DayType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
