/* The Keelhold encoding (sunbot/envs/keelhold.py KeelholdCodec) in C: the same numbers.
 *
 * Filler(ints, bays, low, high, parts)(observation) writes the whole encoding of a wire observation
 * (or our engine's state) into the codec's int32 buffer ``ints`` (hold, queue, hatches,
 * status, terms, in that order) and its int8 buffer ``bays``, clipped element-wise into
 * ``low``..``high`` when they are given (int32 buffers of the same length; None: no clip).
 * It holds the two buffers (exported) for as long as it lives: no lookup per call; it answers
 * the encoding's dict, each part copied (``parts``: the views of the buffers, by key).
 *
 * It handles only observations whose every read field is what our engine writes: dicts
 * and lists of the exact types, integers (or booleans) that fit 32 bits, ``arms`` and
 * ``openBays`` present. For anything else it writes nothing that counts and returns False:
 * the Python encoder then encodes the observation (and raises its errors). So the two can
 * never differ on what C accepts, and C never has to say what is wrong.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

#define HATCHES 7
#define MAX_SLOTS 8
#define MAX_QUEUE 4
#define N_NAMED 16
#define N_CONDITIONS 8
#define N_TERMS (N_NAMED + N_CONDITIONS + HATCHES)
#define HOLD_AT 0
#define QUEUE_AT (HOLD_AT + HATCHES * MAX_SLOTS * 3)
#define HATCHES_AT (QUEUE_AT + MAX_QUEUE * 3)
#define STATUS_AT (HATCHES_AT + HATCHES * 3)
#define TERMS_AT (STATUS_AT + 8)
#define N_INTS (TERMS_AT + 2 * N_TERMS)
#define N_ACTIONS (HATCHES + 2)

static const char *TERM_NAMES[N_NAMED] = {
    "tolerance", "capacity", "manifestSize", "cargoTypes", "weightMin", "weightMax", "quota",
    "wind", "queueSize", "jamEvery", "jamLength", "maxJams", "rushEvery", "rushWindow",
    "ballastEvery", "squallEvery",
};
static const char *CONDITION_NAMES[N_CONDITIONS] = {
    "squall", "longBoom", "shortCrew", "heavyLot", "tightWater", "rushSeason", "ballastRun",
    "stickyHatches",
};
static const char *PHASE_NAMES[3] = {"loading", "port", "over"};

static PyObject *TERM_KEYS[N_NAMED];
static PyObject *CONDITION_KEYS[N_CONDITIONS];
static PyObject *PHASE_KEYS[3];
static PyObject *K_TURN, *K_HOLD, *K_QUEUE, *K_CARGO, *K_DUE, *K_WEIGHT, *K_RUSH_WINDOW,
    *K_PARAMS, *K_VOYAGE, *K_JAMMED, *K_ARMS, *K_OPEN_BAYS, *K_CONDITIONS, *K_SAFE,
    *K_LISTING_BAYS, *K_PHASE, *K_START, *K_TRIM, *K_LISTING, *K_CHAIN, *K_LOTS, *K_COS,
    *K_NEXT, *K_TYPE, *K_BAY, *K_PLACE, *K_CAST_OFF, *K_END_RUN;

/* An exact int (or bool) that fits int32 into *out; 0 for anything else. */
static int as_i32(PyObject *v, int64_t *out) {
    if (v == NULL || !(PyLong_CheckExact(v) || PyBool_Check(v))) return 0;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow || x < INT32_MIN || x > INT32_MAX) return 0;
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    *out = x;
    return 1;
}

static int fits(int64_t x) { return x >= INT32_MIN && x <= INT32_MAX; }

/* An optional turn field as turns from `turn` into *out: field - turn (sign 1) or
   turn - field (sign -1), -1 when it is absent or None; 0 (decline) when it is no int32 or
   the difference does not fit int32. */
static int turns_apart(PyObject *x, int64_t turn, int sign, int64_t *out) {
    if (x == NULL || x == Py_None) {
        *out = -1;
        return 1;
    }
    int64_t t;
    if (!as_i32(x, &t)) return 0;
    *out = sign > 0 ? t - turn : turn - t;
    return fits(*out);
}


/* a == b for two exact str, b interned (our engine's strings are the same objects). */
static int str_eq(PyObject *a, PyObject *b) {
    return a == b || (PyUnicode_GET_LENGTH(a) == PyUnicode_GET_LENGTH(b) &&
                      PyUnicode_Compare(a, b) == 0);
}

/* d.get(key) for an exact dict (NULL when missing; never sets an error for str keys). */
static PyObject *get(PyObject *d, PyObject *key) { return PyDict_GetItemWithError(d, key); }

/* d.get(key, 0) (or ``d.get(key) or 0``: ``zero_if_falsy``) as an int32; 0 on anything
 * else. ``None`` reads 0 only with ``zero_if_falsy``. */
static int get_int(PyObject *d, PyObject *key, int zero_if_falsy, int64_t *out) {
    PyObject *v = get(d, key);
    if (v == NULL || (zero_if_falsy && v == Py_None)) {
        *out = 0;
        return 1;
    }
    return as_i32(v, out);
}

/* Seven 0/1 flags: hatch b is in ``bays`` (an exact list of ints; others ignored when out
 * of 0..6, as ``b in bays`` would). */
static int bay_flags(PyObject *bays, int flags[HATCHES]) {
    if (!PyList_CheckExact(bays)) return 0;
    memset(flags, 0, HATCHES * sizeof(int));
    Py_ssize_t n = PyList_GET_SIZE(bays);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyList_GET_ITEM(bays, i);
        if (!(PyLong_CheckExact(v) || PyBool_Check(v))) return 0;
        int overflow = 0;
        long long b = PyLong_AsLongLongAndOverflow(v, &overflow);
        if (b == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return 0;
        }
        if (!overflow && b >= 0 && b < HATCHES) flags[b] = 1;
    }
    return 1;
}

/* ``c in conditions`` for the eight names, ``conditions`` an exact list of str. */
static int condition_flags(PyObject *conditions, int flags[N_CONDITIONS]) {
    if (!PyList_CheckExact(conditions)) return 0;
    memset(flags, 0, N_CONDITIONS * sizeof(int));
    Py_ssize_t n = PyList_GET_SIZE(conditions);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = PyList_GET_ITEM(conditions, i);
        if (!PyUnicode_CheckExact(v)) return 0;
        for (int k = 0; k < N_CONDITIONS; k++) {
            if (!flags[k]) {
                if (str_eq(v, CONDITION_KEYS[k])) flags[k] = 1;
            }
        }
    }
    return 1;
}

/* One row of ``terms`` (keelhold._terms_row). */
static int terms_row(PyObject *p, int64_t *row) {
    if (!PyDict_CheckExact(p)) return 0;
    for (int k = 0; k < N_NAMED; k++) {
        PyObject *v = get(p, TERM_KEYS[k]);
        if (v == NULL || v == Py_None) {
            row[k] = 0;
        } else if (!as_i32(v, &row[k])) {
            return 0;
        }
    }
    int cflags[N_CONDITIONS] = {0};
    PyObject *conditions = get(p, K_CONDITIONS);
    if (conditions != NULL && conditions != Py_None) {
        if (!condition_flags(conditions, cflags)) return 0;
    }
    for (int k = 0; k < N_CONDITIONS; k++) row[N_NAMED + k] = cflags[k];
    int oflags[HATCHES] = {0};
    PyObject *open = get(p, K_OPEN_BAYS);
    if (open != NULL && open != Py_None) {
        if (!bay_flags(open, oflags)) return 0;
    }
    for (int b = 0; b < HATCHES; b++) row[N_NAMED + N_CONDITIONS + b] = oflags[b];
    return 1;
}

/* One crate's three values into out; ``queue``: ``[weight, kind, rushWindow or 0]``, else
 * ``[weight, kind, due - turn or -1]``. */
static int crate(PyObject *c, int64_t turn, int queue, int64_t *out) {
    if (!PyDict_CheckExact(c)) return 0;
    PyObject *cargo = get(c, K_CARGO);
    PyObject *weight = get(c, K_WEIGHT);
    if (cargo == NULL || weight == NULL) return 0;
    if (!as_i32(weight, &out[0])) return 0;
    if (cargo == Py_None) {
        out[1] = 1;
    } else {
        int64_t k;
        if (!as_i32(cargo, &k)) return 0;
        out[1] = 2 + k;
    }
    if (queue) {
        PyObject *rw = get(c, K_RUSH_WINDOW);
        if (rw == NULL || rw == Py_None) {
            out[2] = 0;
        } else if (!as_i32(rw, &out[2])) {
            return 0;
        }
    } else {
        if (!turns_apart(get(c, K_DUE), turn, 1, &out[2])) return 0;
    }
    return fits(out[1]) && fits(out[2]);
}

/* The whole encoding into v (N_INTS values) and bays (2 x 7); 0: leave it to Python. */
static int encode(PyObject *o, int64_t *v, int bays[2][HATCHES]) {
    if (!PyDict_CheckExact(o)) return 0;
    int64_t turn;
    if (!as_i32(get(o, K_TURN), &turn)) return 0;
    /* hold */
    PyObject *hold = get(o, K_HOLD);
    if (hold == NULL || !PyList_CheckExact(hold) || PyList_GET_SIZE(hold) != HATCHES) return 0;
    for (int b = 0; b < HATCHES; b++) {
        PyObject *hatch = PyList_GET_ITEM(hold, b);
        if (!PyList_CheckExact(hatch)) return 0;
        Py_ssize_t n = PyList_GET_SIZE(hatch);
        if (n > MAX_SLOTS) return 0;
        int64_t *at = v + HOLD_AT + b * MAX_SLOTS * 3;
        for (Py_ssize_t k = 0; k < n; k++) {
            if (!crate(PyList_GET_ITEM(hatch, k), turn, 0, at + 3 * k)) return 0;
        }
        for (Py_ssize_t k = n; k < MAX_SLOTS; k++) {
            at[3 * k] = 0;
            at[3 * k + 1] = 0;
            at[3 * k + 2] = -1;
        }
    }
    /* queue */
    PyObject *queue = get(o, K_QUEUE);
    if (queue == NULL || !PyList_CheckExact(queue)) return 0;
    Py_ssize_t nq = PyList_GET_SIZE(queue);
    if (nq > MAX_QUEUE) return 0;
    for (Py_ssize_t k = 0; k < nq; k++) {
        if (!crate(PyList_GET_ITEM(queue, k), turn, 1, v + QUEUE_AT + 3 * k)) return 0;
    }
    for (Py_ssize_t k = nq * 3; k < MAX_QUEUE * 3; k++) v[QUEUE_AT + k] = 0;
    /* hatches: arms and openBays as given (a server that leaves them out: Python) */
    PyObject *params = get(o, K_PARAMS);
    if (params == NULL || !PyDict_CheckExact(params)) return 0;
    int64_t voyage;
    if (!get_int(o, K_VOYAGE, 0, &voyage)) return 0;
    PyObject *jam = get(o, K_JAMMED);
    PyObject *arms = get(o, K_ARMS);
    PyObject *open = get(params, K_OPEN_BAYS);
    if (jam == NULL || arms == NULL || open == NULL) return 0;
    if (!PyList_CheckExact(jam) || PyList_GET_SIZE(jam) < HATCHES) return 0;
    if (!PyList_CheckExact(arms) || PyList_GET_SIZE(arms) != HATCHES) return 0;
    if (!PyList_CheckExact(open) || PyList_GET_SIZE(open) == 0) return 0;
    for (Py_ssize_t k = HATCHES; k < PyList_GET_SIZE(jam); k++) {
        int64_t unused;
        if (!as_i32(PyList_GET_ITEM(jam, k), &unused)) return 0;
    }
    int open_flags[HATCHES];
    if (!bay_flags(open, open_flags)) return 0;
    for (int b = 0; b < HATCHES; b++) {
        int64_t arm, until;
        if (!as_i32(PyList_GET_ITEM(arms, b), &arm)) return 0;
        if (!as_i32(PyList_GET_ITEM(jam, b), &until)) return 0;
        int64_t left = until - turn;
        if (left > 0 && !fits(left)) return 0; /* Python's packing refuses it: decline */
        v[HATCHES_AT + 3 * b] = arm;
        v[HATCHES_AT + 3 * b + 1] = left > 0 ? left : 0;
        v[HATCHES_AT + 3 * b + 2] = open_flags[b];
    }
    /* bays */
    PyObject *safe = get(o, K_SAFE);
    PyObject *listing_bays = get(o, K_LISTING_BAYS);
    if (safe == NULL || listing_bays == NULL) return 0;
    if (!bay_flags(safe, bays[0]) || !bay_flags(listing_bays, bays[1])) return 0;
    /* status */
    PyObject *phase = get(o, K_PHASE);
    if (phase == NULL || !PyUnicode_CheckExact(phase)) return 0;
    int64_t phase_code = -1;
    for (int k = 0; k < 3; k++) {
        if (str_eq(phase, PHASE_KEYS[k])) phase_code = k;
    }
    if (phase_code < 0) return 0;
    int64_t *s = v + STATUS_AT;
    s[0] = phase_code;
    s[1] = voyage;
    if (!turns_apart(get(o, K_START), turn, -1, &s[2])) return 0;
    if (!as_i32(get(o, K_TRIM), &s[3])) return 0;
    PyObject *listing = get(o, K_LISTING);
    if (listing == NULL) return 0;
    if (listing == Py_None) {
        s[4] = 0;
    } else {
        int64_t x;
        if (!as_i32(listing, &x)) return 0;
        s[4] = x != 0;
    }
    if (!get_int(o, K_CHAIN, 0, &s[5]) || !get_int(o, K_LOTS, 0, &s[6])) return 0;
    PyObject *cos = get(o, K_COS);
    if (cos == NULL || cos == Py_None) {
        s[7] = -1;
    } else if (!as_i32(cos, &s[7])) {
        return 0;
    }
    /* terms */
    PyObject *next = get(o, K_NEXT);
    if (next == NULL) return 0;
    if (!terms_row(params, v + TERMS_AT) || !terms_row(next, v + TERMS_AT + N_TERMS)) return 0;
    return !PyErr_Occurred();
}

/* A writable (or readable) C-contiguous buffer of exactly ``len`` bytes (0 and an error
 * otherwise). */
static int take_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t len, int writable) {
    int flags = writable ? PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS : PyBUF_C_CONTIGUOUS;
    if (PyObject_GetBuffer(obj, view, flags) < 0) return 0;
    if (view->len != len) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_ValueError, "a buffer of %zd bytes, not %zd", view->len, len);
        return 0;
    }
    return 1;
}

/* Filler(ints, bays, low, high, parts): holds the codec's buffers (and the bounds, or None
 * and None: no clip) for as long as it lives, and ``parts``, the (key, array) pairs of the
 * encoding (views of the buffers). Called with an observation it writes its whole encoding
 * into the buffers and answers {key: a copy of array}, or None (nothing that counts
 * written). */
#define N_PARTS 6

typedef struct {
    PyObject_HEAD
    Py_buffer ints, bays;
    int32_t low[N_INTS], high[N_INTS];
    int clip, held;
    PyObject *keys[N_PARTS];
    PyObject *copies[N_PARTS]; /* each part's bound ``copy`` */
    vectorcallfunc vectorcall;
} FillerObject;

static PyObject *Filler_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames);

static int Filler_init(FillerObject *self, PyObject *args, PyObject *kwds) {
    PyObject *ints, *bays, *low, *high, *parts;
    if (self->held) {
        PyErr_SetString(PyExc_TypeError, "a Filler is made once");
        return -1;
    }
    if (!PyArg_ParseTuple(args, "OOOOO:Filler", &ints, &bays, &low, &high, &parts)) return -1;
    if (!PyTuple_Check(parts) || PyTuple_GET_SIZE(parts) != N_PARTS) {
        PyErr_SetString(PyExc_ValueError, "parts: a tuple of 6 (key, array) pairs");
        return -1;
    }
    for (int k = 0; k < N_PARTS; k++) {
        PyObject *pair = PyTuple_GET_ITEM(parts, k);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_ValueError, "parts: a tuple of 6 (key, array) pairs");
            return -1;
        }
        PyObject *copy = PyObject_GetAttrString(PyTuple_GET_ITEM(pair, 1), "copy");
        if (copy == NULL) return -1;
        self->copies[k] = copy;
        self->keys[k] = Py_NewRef(PyTuple_GET_ITEM(pair, 0));
    }
    self->clip = low != Py_None;
    if (self->clip) {
        Py_buffer lo, hi;
        if (!take_buffer(low, &lo, N_INTS * 4, 0)) return -1;
        if (!take_buffer(high, &hi, N_INTS * 4, 0)) {
            PyBuffer_Release(&lo);
            return -1;
        }
        memcpy(self->low, lo.buf, N_INTS * 4);
        memcpy(self->high, hi.buf, N_INTS * 4);
        PyBuffer_Release(&lo);
        PyBuffer_Release(&hi);
    }
    if (!take_buffer(ints, &self->ints, N_INTS * 4, 1)) return -1;
    if (!take_buffer(bays, &self->bays, 2 * HATCHES, 1)) {
        PyBuffer_Release(&self->ints);
        return -1;
    }
    self->vectorcall = Filler_vectorcall;
    self->held = 1;
    return 0;
}

static void Filler_dealloc(FillerObject *self) {
    if (self->held) {
        PyBuffer_Release(&self->ints);
        PyBuffer_Release(&self->bays);
    }
    for (int k = 0; k < N_PARTS; k++) {
        Py_XDECREF(self->keys[k]);
        Py_XDECREF(self->copies[k]);
    }
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Filler_fill(FillerObject *self, PyObject *o) {
    if (!self->held) {
        PyErr_SetString(PyExc_TypeError, "the Filler holds no buffers");
        return NULL;
    }
    int64_t v[N_INTS];
    int bays[2][HATCHES];
    if (!encode(o, v, bays)) {
        if (PyErr_Occurred()) PyErr_Clear();
        Py_RETURN_NONE;
    }
    int32_t *dst = (int32_t *)self->ints.buf;
    if (self->clip) {
        const int32_t *lo = self->low, *hi = self->high;
        for (int i = 0; i < N_INTS; i++) {
            int64_t x = v[i];
            dst[i] = (int32_t)(x > hi[i] ? hi[i] : (x < lo[i] ? lo[i] : x));
        }
    } else {
        for (int i = 0; i < N_INTS; i++) dst[i] = (int32_t)v[i];
    }
    int8_t *b8 = (int8_t *)self->bays.buf;
    for (int r = 0; r < 2; r++) {
        for (int b = 0; b < HATCHES; b++) b8[r * HATCHES + b] = (int8_t)bays[r][b];
    }
    PyObject *out = PyDict_New();
    if (out == NULL) return NULL;
    for (int k = 0; k < N_PARTS; k++) {
        PyObject *copy = PyObject_CallNoArgs(self->copies[k]);
        if (copy == NULL || PyDict_SetItem(out, self->keys[k], copy) < 0) {
            Py_XDECREF(copy);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(copy);
    }
    return out;
}

static PyObject *Filler_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                   PyObject *kwnames) {
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames != NULL && PyTuple_GET_SIZE(kwnames))) {
        PyErr_SetString(PyExc_TypeError, "a Filler takes one observation");
        return NULL;
    }
    return Filler_fill((FillerObject *)callable, args[0]);
}

static PyTypeObject FillerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sunbot.envs._keelhold_encode.Filler",
    .tp_basicsize = sizeof(FillerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Filler(ints, bays, low, high, parts): call it with an observation to write its "
              "encoding into the buffers and get {key: a copy of its part}, or None: encode "
              "it in Python.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Filler_init,
    .tp_dealloc = (destructor)Filler_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(FillerObject, vectorcall),
};

/* mask(legal, out) -> bool: the action mask of ``legal`` (KeelholdCodec.index of each
 * action, 1 where one is) into the int8 buffer ``out`` of 9; False (``out`` untouched) when
 * an action is not a dict whose ``type`` is a str: the Python mask then. */
static PyObject *mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "mask(legal, out)");
        return NULL;
    }
    PyObject *legal = args[0];
    if (!PyList_CheckExact(legal)) Py_RETURN_FALSE;
    int8_t flags[N_ACTIONS] = {0};
    Py_ssize_t n = PyList_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PyList_GET_ITEM(legal, i);
        if (!PyDict_CheckExact(a)) Py_RETURN_FALSE;
        PyObject *kind = get(a, K_TYPE);
        if (kind == NULL || !PyUnicode_CheckExact(kind)) {
            if (PyErr_Occurred()) PyErr_Clear();
            Py_RETURN_FALSE;
        }
        if (str_eq(kind, K_PLACE)) {
            PyObject *bay = get(a, K_BAY);
            if (bay != NULL && PyLong_CheckExact(bay)) { /* type(bay) is int: not a bool */
                int overflow = 0;
                long long b = PyLong_AsLongLongAndOverflow(bay, &overflow);
                if (!overflow && b >= 0 && b < HATCHES) flags[b] = 1;
            }
        } else if (str_eq(kind, K_CAST_OFF)) {
            flags[HATCHES] = 1;
        } else if (str_eq(kind, K_END_RUN)) {
            flags[HATCHES + 1] = 1;
        }
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_FALSE;
    }
    Py_buffer out;
    if (!take_buffer(args[1], &out, N_ACTIONS, 1)) return NULL;
    memcpy(out.buf, flags, N_ACTIONS);
    PyBuffer_Release(&out);
    Py_RETURN_TRUE;
}

static PyMethodDef methods[] = {
    {"mask", (PyCFunction)(void (*)(void))mask, METH_FASTCALL,
     "mask(legal, out) -> bool: the action mask of legal into out (int8, 9), or False: "
     "work it out in Python."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_keelhold_encode",
    "The Keelhold encoding in C (sunbot.envs.keelhold uses it when it imports).", -1, methods,
};

static PyObject *intern(const char *s) { return PyUnicode_InternFromString(s); }

static PyObject *names(const char **list, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *s = PyUnicode_FromString(list[i]);
        if (s == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, s);
    }
    return t;
}

PyMODINIT_FUNC PyInit__keelhold_encode(void) {
    for (int k = 0; k < N_NAMED; k++) {
        if ((TERM_KEYS[k] = intern(TERM_NAMES[k])) == NULL) return NULL;
    }
    for (int k = 0; k < N_CONDITIONS; k++) {
        if ((CONDITION_KEYS[k] = intern(CONDITION_NAMES[k])) == NULL) return NULL;
    }
    for (int k = 0; k < 3; k++) {
        if ((PHASE_KEYS[k] = intern(PHASE_NAMES[k])) == NULL) return NULL;
    }
    struct {
        PyObject **slot;
        const char *name;
    } keys[] = {
        {&K_TURN, "turn"}, {&K_HOLD, "hold"}, {&K_QUEUE, "queue"}, {&K_CARGO, "cargo"},
        {&K_DUE, "due"}, {&K_WEIGHT, "weight"}, {&K_RUSH_WINDOW, "rushWindow"},
        {&K_PARAMS, "params"}, {&K_VOYAGE, "voyage"}, {&K_JAMMED, "jammedUntil"},
        {&K_ARMS, "arms"}, {&K_OPEN_BAYS, "openBays"}, {&K_CONDITIONS, "conditions"},
        {&K_SAFE, "safeBays"}, {&K_LISTING_BAYS, "listingBays"}, {&K_PHASE, "phase"},
        {&K_START, "voyageStartTurn"}, {&K_TRIM, "trim"}, {&K_LISTING, "listing"},
        {&K_CHAIN, "chain"}, {&K_LOTS, "lotsShipped"}, {&K_COS, "castOffSafe"},
        {&K_NEXT, "next"}, {&K_TYPE, "type"}, {&K_BAY, "bay"}, {&K_PLACE, "PLACE"},
        {&K_CAST_OFF, "CAST_OFF"}, {&K_END_RUN, "END_RUN"},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        if ((*keys[i].slot = intern(keys[i].name)) == NULL) return NULL;
    }
    if (PyType_Ready(&FillerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&FillerType);
    if (PyModule_AddObject(m, "Filler", (PyObject *)&FillerType) < 0) {
        Py_DECREF(&FillerType);
        Py_DECREF(m);
        return NULL;
    }
    /* the layout it writes, for the Python side to check against its own */
    if (PyModule_AddObject(m, "TERMS", names(TERM_NAMES, N_NAMED)) < 0 ||
        PyModule_AddObject(m, "CONDITIONS", names(CONDITION_NAMES, N_CONDITIONS)) < 0 ||
        PyModule_AddObject(m, "PHASES", names(PHASE_NAMES, 3)) < 0 ||
        PyModule_AddIntConstant(m, "N_INTS", N_INTS) < 0 ||
        PyModule_AddIntConstant(m, "HATCHES", HATCHES) < 0 ||
        PyModule_AddIntConstant(m, "MAX_SLOTS", MAX_SLOTS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_QUEUE", MAX_QUEUE) < 0 ||
        PyModule_AddIntConstant(m, "N_ACTIONS", N_ACTIONS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
