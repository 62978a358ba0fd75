/* SPDX-License-Identifier: MIT */
/*
 * fairshuf._fairshuf: the CPython extension under the fairshuf package
 * (python/fairshuf/__init__.py holds the numpy-style layer). It wraps
 * libfairshuf, compiled into this module (python/setup.py), through the
 * C API and the buffer protocol: no numpy at build time.
 *
 * Threading: every _Generator holds a lock, so two Python threads never use
 * one fsh_rng at once; the GIL is released while the library works on
 * memory no other Python code can free (buffers stay exported), except for
 * object arrays and lists (their references must not change under us) and
 * for the private callback sources.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fairshuf.h"
#include "rng/rng.h" /* _generator_id: the test hook reads rng->gen */

static PyObject *ReachabilityError;

/* Raise the exception for status st, with the library's message. err is
   the errno saved right after the call (for FSH_ESYSRAND). */
static PyObject *raise_status(int st, int err)
{
    const char *msg = fsh_strerror(st);
    switch (st) {
    case FSH_ENOMEM:
        PyErr_SetString(PyExc_MemoryError, msg);
        break;
    case FSH_EENTROPY:
    case FSH_ENOHWRAND:
        PyErr_SetString(ReachabilityError, msg);
        break;
    case FSH_ESYSRAND: {
        PyObject *e = Py_BuildValue("(is)", err, msg);
        if (e != NULL) {
            PyErr_SetObject(PyExc_OSError, e);
            Py_DECREF(e);
        }
        break;
    }
    default:
        PyErr_SetString(PyExc_ValueError, msg);
        break;
    }
    return NULL;
}

/* A bool is no integer argument: PyArg's integer formats and
   PyNumber_Index take True as 1. numpy's bool scalar (numpy.bool_, named
   numpy.bool from numpy 2) is one too: numpy still lets it act as an index
   (deprecated). */
static int is_bool(PyObject *o)
{
    if (PyBool_Check(o))
        return 1;
    const char *t = Py_TYPE(o)->tp_name;
    return strcmp(t, "numpy.bool_") == 0 || strcmp(t, "numpy.bool") == 0;
}

/* TypeError "WHAT must be an int, not bool" for a bool: -1; else 0. */
static int reject_bool(PyObject *o, const char *what)
{
    if (!is_bool(o))
        return 0;
    PyErr_Format(PyExc_TypeError, "%s must be an int, not bool", what);
    return -1;
}

/* PyArg "O&" converters with range checks (the "K" and "I" formats wrap
   silently): an int in 0..2^64-1, or in 0..UINT_MAX. OverflowError (or
   TypeError) otherwise. */
static int conv_u64(PyObject *o, void *out)
{
    if (is_bool(o)) {
        PyErr_SetString(PyExc_TypeError, "expected an int, not bool");
        return 0;
    }
    PyObject *i = PyNumber_Index(o);
    if (i == NULL)
        return 0;
    unsigned long long v = PyLong_AsUnsignedLongLong(i);
    Py_DECREF(i);
    if (v == (unsigned long long)-1 && PyErr_Occurred())
        return 0;
    *(unsigned long long *)out = v;
    return 1;
}

static int conv_uint(PyObject *o, void *out)
{
    unsigned long long v;
    if (!conv_u64(o, &v))
        return 0;
    if (v > UINT_MAX) {
        PyErr_SetString(PyExc_OverflowError, "value too large");
        return 0;
    }
    *(unsigned *)out = (unsigned)v;
    return 1;
}

/* An "O&" converter for a named Py_ssize_t argument (the "n", "i" and "l"
   formats take a bool): out points to an ssize_in whose what names it in
   the TypeError for a bool. The caller checks the range; an int past
   Py_ssize_t is outside every range, a ValueError as the caller's own
   check says (an axis out of bounds, a count too large), not the
   OverflowError of the conversion. */
typedef struct {
    const char *what;
    Py_ssize_t v;
} ssize_in;

static int conv_ssize(PyObject *o, void *out)
{
    ssize_in *a = out;
    if (reject_bool(o, a->what) < 0)
        return 0;
    Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            if (strcmp(a->what, "axis") == 0)
                PyErr_Format(PyExc_ValueError, "axis %R is out of bounds", o);
            else
                PyErr_Format(PyExc_ValueError, "%s %R is out of range",
                             a->what, o);
        }
        return 0;
    }
    a->v = v;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* The generator                                                            */

enum { SRC_LIB = 0, SRC_WORDS = 1, SRC_RANDINT = 2 };

typedef struct {
    PyObject_HEAD
    fsh_rng *rng;
    PyThread_type_lock lock;
    unsigned long lock_gen; /* fork_gen when lock was made */
    /* The thread holding lock (held set): gen_lock refuses a second call
       from it. Read and written with the GIL held. */
    int held;
    unsigned long owner;
    int src;
    int os_keyed; /* keyed from the OS (no seed): its reach policy applies */
    /* private test sources (_set_words, _set_randint) */
    uint64_t *vals;
    size_t nvals, pos;
    uint64_t *asked;
    size_t nasked, capasked;
} GenObject;

/* Bumped in every forked child (pthread_atfork): a lock made before the
   fork may be held there by a thread that does not exist in the child. */
static volatile unsigned long fork_gen;

static void after_fork_child(void) { fork_gen++; }

/* Take the generator's lock: 0, or -1 with the exception set when a
   signal handler raised one (Ctrl-C) while this thread waited for a call
   another thread is making, as threading.Lock.acquire is interrupted, or
   when this thread holds it already: Python code run inside one of the
   generator's calls (a numpy hook while a masked array's rows move, a
   __del__, a signal handler) used the generator again, and waiting would
   wait for itself for ever (RuntimeError). */
static int gen_lock(GenObject *g)
{
    unsigned long me = PyThread_get_thread_ident();
    if (g->held && g->owner == me) {
        PyErr_SetString(PyExc_RuntimeError,
                        "Generator used from inside one of its own calls "
                        "(code run while it shuffles, such as a numpy hook "
                        "or a signal handler); use it after that call "
                        "returns");
        return -1;
    }
    if (g->lock_gen != fork_gen) {
        /* A forked child: the old lock is abandoned (another thread of
           the parent may have held it), never waited for. */
        PyThread_type_lock l = PyThread_allocate_lock();
        if (l != NULL) {
            g->lock = l;
            g->lock_gen = fork_gen;
        }
    }
    if (PyThread_acquire_lock(g->lock, NOWAIT_LOCK)) {
        g->held = 1;
        g->owner = me;
        return 0;
    }
    for (;;) {
        PyLockStatus r;
        Py_BEGIN_ALLOW_THREADS
        r = PyThread_acquire_lock_timed(g->lock, -1, 1);
        Py_END_ALLOW_THREADS
        if (r == PY_LOCK_ACQUIRED) {
            g->held = 1;
            g->owner = me;
            return 0;
        }
        if (Py_MakePendingCalls() < 0) /* runs the signal handlers */
            return -1;
    }
}

/* run_op's status when gen_lock was interrupted: positive, never a
   library status; the exception is set. */
enum { OP_INTERRUPTED = 2 };

static void gen_unlock(GenObject *g)
{
    g->held = 0;
    PyThread_release_lock(g->lock);
}

/* The rng, or NULL with RuntimeError set (an unkeyed _Generator). */
static fsh_rng *gen_rng(GenObject *g)
{
    if (g->rng == NULL)
        PyErr_SetString(PyExc_RuntimeError,
                        "Generator is not initialized (call __init__)");
    return g->rng;
}

static void free_sources(GenObject *g)
{
    PyMem_RawFree(g->vals);
    PyMem_RawFree(g->asked);
    g->vals = g->asked = NULL;
    g->nvals = g->pos = g->nasked = g->capasked = 0;
}

static PyObject *gen_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    (void)args;
    (void)kw;
    GenObject *g = (GenObject *)type->tp_alloc(type, 0);
    if (g == NULL)
        return NULL;
    g->lock = PyThread_allocate_lock();
    g->lock_gen = fork_gen;
    if (g->lock == NULL) {
        Py_DECREF(g);
        return PyErr_NoMemory();
    }
    return (PyObject *)g;
}

static void gen_dealloc(GenObject *g)
{
    fsh_rng_free(g->rng);
    free_sources(g);
    if (g->lock != NULL)
        PyThread_free_lock(g->lock);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

/* _Generator(seed_bytes_or_None, gen, simulation, reach, stream_version):
   the Python layer has turned the seed into bytes and the generator name
   into its number (gen < 0: the library's default, ChaCha8 keyed from the
   OS or ChaCha20 from a seed); reach < 0 keeps the library's default
   policy; stream_version 0 lets the keying choose (fsh_rng_set_stream_
   version). */
static int gen_init(GenObject *g, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"seed",  "gen",           "simulation",
                             "reach", "stream_version", NULL};
    PyObject *seed = Py_None;
    ssize_in ogen = {"gen", -1}, oreach = {"reach", -1},
             osv = {"stream_version", 0};
    int sim = 0, st, err = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO&pO&O&", kwlist, &seed,
                                     conv_ssize, &ogen, &sim, conv_ssize,
                                     &oreach, conv_ssize, &osv))
        return -1;
    if (ogen.v < -1 || ogen.v > 3) {
        PyErr_SetString(PyExc_ValueError, "unknown generator");
        return -1;
    }
    if (oreach.v > 7) {
        PyErr_SetString(PyExc_ValueError, "unknown reach flags");
        return -1;
    }
    if (osv.v < 0 || osv.v > (Py_ssize_t)FSH_STREAM_LATEST) {
        PyErr_SetString(PyExc_ValueError, "unknown stream version");
        return -1;
    }
    int gen = (int)ogen.v;
    long reach = oreach.v < 0 ? -1 : (long)oreach.v;
    unsigned sv = (unsigned)osv.v;
    fsh_rng *rng = NULL;
    if (seed == Py_None) {
        errno = 0;
        st = fsh_rng_new(&rng);
        err = errno;
        if (st == FSH_OK && gen >= 0) {
            st = fsh_rng_rekey_gen(rng, (fsh_gen)gen);
            err = errno;
        }
    } else {
        Py_buffer view;
        if (PyObject_GetBuffer(seed, &view, PyBUF_SIMPLE) < 0)
            return -1;
        st = fsh_rng_new_seeded(&rng, view.buf, (size_t)view.len);
        if (st == FSH_OK && gen >= 0 && gen != FSH_GEN_CHACHA20)
            st = fsh_rng_seed_gen(rng, (fsh_gen)gen, view.buf,
                                  (size_t)view.len);
        PyBuffer_Release(&view);
    }
    if (st == FSH_OK && sim)
        st = fsh_rng_set_simulation(rng, 1);
    if (st == FSH_OK && reach >= 0)
        st = fsh_rng_set_reach(rng, (unsigned)reach);
    if (st == FSH_OK)
        st = fsh_rng_set_stream_version(rng, sv);
    if (st != FSH_OK) {
        fsh_rng_free(rng);
        raise_status(st, err);
        return -1;
    }
    if (gen_lock(g) < 0) {
        fsh_rng_free(rng);
        return -1;
    }
    fsh_rng_free(g->rng);
    free_sources(g);
    g->rng = rng;
    g->src = SRC_LIB;
    g->os_keyed = seed == Py_None;
    gen_unlock(g);
    return 0;
}

/* What a failed call on a generator reports: the errno saved right after
   the library call (for FSH_ESYSRAND) and, for FSH_EENTROPY, the
   generator's figures, read under its lock by the thread whose call
   failed (another thread may be drawing from the rng without the GIL as
   soon as the lock is released). */
typedef struct {
    int err;
    int src, os_keyed;
    unsigned entropy_bits, reach;
    size_t max_fair_n;
    uint64_t hw_cap;
} op_report;

/* Fill r for status st; the caller holds g's lock. */
static void report_locked(GenObject *g, int st, int err, op_report *r)
{
    r->err = err;
    r->src = g->src;
    r->os_keyed = g->os_keyed;
    if (st != FSH_EENTROPY || g->rng == NULL || g->src != SRC_LIB)
        return;
    r->entropy_bits = fsh_rng_entropy_bits(g->rng);
    r->reach = fsh_rng_get_reach(g->rng);
    r->max_fair_n = fsh_rng_max_fair_n(g->rng);
    r->hw_cap = fsh_rng_get_hw_cap(g->rng);
}

/* raise_status for a failed call on a generator, from its report (no
   access to the generator itself). FSH_EENTROPY has two causes, and
   fsh_strerror names both ("seed too short, or beyond the hardware
   entropy cap"); the report says which one it is: a seeded generator's
   seed credits too few bits, an OS-keyed one (which has no seed) met its
   reach policy's limit. */
static PyObject *raise_gen_status(int st, const op_report *r)
{
    if (st == OP_INTERRUPTED)
        return NULL;
    if (st != FSH_EENTROPY || r->src != SRC_LIB)
        return raise_status(st, r->err);
    /* the largest shuffle the generator reaches in full, when it says */
    char most[64] = "";
    size_t mx = r->max_fair_n;
    if (mx > 0 && mx != SIZE_MAX)
        snprintf(most, sizeof most, ": shuffles of up to %zu items", mx);
    if (!r->os_keyed)
        PyErr_Format(ReachabilityError,
                     "cannot reach every outcome: seed too short for this "
                     "call (%u bits credited, 8 a byte%s; simulation=True "
                     "opts out)",
                     r->entropy_bits, most);
    else if (r->reach & FSH_REACH_FULL)
        PyErr_Format(ReachabilityError,
                     "cannot reach every outcome: beyond the hardware "
                     "entropy cap (%llu bits a call%s), and the reach "
                     "policy does not accept the 256-bit key's bound beyond "
                     "it (REACH_KEY or REACH_KEY_LARGE does)",
                     (unsigned long long)r->hw_cap, mx > 57 ? most : "");
    else
        PyErr_SetString(ReachabilityError,
                        "cannot reach every outcome: beyond the 256-bit key, "
                        "and the reach policy neither mixes in hardware "
                        "entropy (REACH_FULL) nor accepts the key's bound "
                        "for this call (REACH_KEY)");
    return NULL;
}

static uint64_t words_cb(void *ctx)
{
    GenObject *g = ctx;
    uint64_t w = g->vals[g->pos];
    g->pos = (g->pos + 1) % g->nvals;
    return w;
}

static uint64_t randint_cb(void *ctx, uint64_t k)
{
    GenObject *g = ctx;
    if (g->nasked == g->capasked) {
        size_t cap = g->capasked ? 2 * g->capasked : 64;
        uint64_t *p = PyMem_RawRealloc(g->asked, cap * sizeof *p);
        if (p == NULL)
            return 0; /* out of range: the call fails with FSH_ECALLBACK */
        g->asked = p;
        g->capasked = cap;
    }
    g->asked[g->nasked++] = k;
    if (g->pos >= g->nvals)
        return 0;
    return g->vals[g->pos++];
}

/* Read a sequence of ints into a fresh array. */
static uint64_t *read_u64_list(PyObject *seq, size_t *n)
{
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (fast == NULL)
        return NULL;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(fast);
    uint64_t *v = PyMem_RawMalloc(((size_t)len + 1) * sizeof *v);
    if (v == NULL) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
        if (!PyLong_Check(o) || PyBool_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "expected a sequence of ints");
            goto fail;
        }
        v[i] = PyLong_AsUnsignedLongLong(o);
        if (v[i] == (uint64_t)-1 && PyErr_Occurred())
            goto fail;
    }
    Py_DECREF(fast);
    *n = (size_t)len;
    return v;
fail:
    Py_DECREF(fast);
    PyMem_RawFree(v);
    return NULL;
}

/* Private test hooks: a word source cycling through words, or a [1, k]
   source returning values in order (0, out of range, once used up) and
   recording every k asked. */
static PyObject *gen_set_source(GenObject *g, PyObject *seq, int randint)
{
    size_t n = 0;
    fsh_rng *rng = gen_rng(g);
    if (rng == NULL)
        return NULL;
    uint64_t *v = read_u64_list(seq, &n);
    if (v == NULL)
        return NULL;
    if (!randint && n == 0) {
        PyMem_RawFree(v);
        PyErr_SetString(PyExc_ValueError, "need at least one word");
        return NULL;
    }
    if (gen_lock(g) < 0) {
        PyMem_RawFree(v);
        return NULL;
    }
    free_sources(g);
    g->vals = v;
    g->nvals = n;
    int st = randint ? fsh_rng_from_randint(rng, randint_cb, g)
                     : fsh_rng_from_words(rng, words_cb, g);
    g->src = randint ? SRC_RANDINT : SRC_WORDS;
    gen_unlock(g);
    if (st != FSH_OK)
        return raise_status(st, 0);
    Py_RETURN_NONE;
}

static PyObject *gen_set_words(GenObject *g, PyObject *seq)
{
    return gen_set_source(g, seq, 0);
}

static PyObject *gen_set_randint(GenObject *g, PyObject *seq)
{
    return gen_set_source(g, seq, 1);
}

static PyObject *gen_asked(GenObject *g, PyObject *noargs)
{
    (void)noargs;
    if (gen_lock(g) < 0)
        return NULL;
    PyObject *l = PyList_New((Py_ssize_t)g->nasked);
    for (size_t i = 0; l != NULL && i < g->nasked; i++) {
        PyObject *o = PyLong_FromUnsignedLongLong(g->asked[i]);
        if (o == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, o);
    }
    g->nasked = 0;
    gen_unlock(g);
    return l;
}

/* Test hook: the fsh_gen of the generator's source (-1 for a callback
   source), so the tests can check which generator a default picks. */
static PyObject *gen_generator_id(GenObject *g, PyObject *noargs)
{
    (void)noargs;
    if (gen_rng(g) == NULL)
        return NULL;
    if (gen_lock(g) < 0)
        return NULL;
    long id = g->src == SRC_LIB ? (long)g->rng->gen : -1;
    gen_unlock(g);
    return PyLong_FromLong(id);
}

/* The stream version the generator's shuffles follow (0 for a test
   source). */
static PyObject *gen_stream_version(GenObject *g, PyObject *noargs)
{
    (void)noargs;
    if (gen_rng(g) == NULL)
        return NULL;
    if (gen_lock(g) < 0)
        return NULL;
    unsigned v = g->src == SRC_LIB ? fsh_rng_stream_version(g->rng) : 0;
    gen_unlock(g);
    return PyLong_FromUnsignedLong(v);
}

/* Run a library call with the generator locked and, when allowed, the GIL
   released. Each call site builds its own struct and function. */
typedef int (*op_fn)(fsh_rng *rng, void *arg);

static int run_op_locked(GenObject *g, op_fn fn, void *arg, int keep_gil,
                         op_report *r);

static int run_op(GenObject *g, op_fn fn, void *arg, int keep_gil,
                  op_report *r)
{
    if (gen_lock(g) < 0)
        return OP_INTERRUPTED;
    int st = run_op_locked(g, fn, arg, keep_gil, r);
    gen_unlock(g);
    return st;
}

/* run_op's body, for a caller that holds g's lock. */
static int run_op_locked(GenObject *g, op_fn fn, void *arg, int keep_gil,
                         op_report *r)
{
    int st, err;
    if (g->src != SRC_LIB)
        keep_gil = 1;
    if (keep_gil) {
        errno = 0;
        st = fn(g->rng, arg);
        err = errno;
    } else {
        Py_BEGIN_ALLOW_THREADS
        errno = 0;
        st = fn(g->rng, arg);
        err = errno;
        Py_END_ALLOW_THREADS
    }
    if (st != FSH_OK)
        report_locked(g, st, err, r);
    return st;
}

/* ---- shuffle ---- */

typedef struct {
    unsigned char *base; /* rows contiguous at base (fast path) or NULL */
    size_t n, rowbytes;
    long threads; /* < 0: fsh_shuffle */
    /* gather path */
    const Py_buffer *view;
    int axis;
    unsigned char *tmp;
} shuffle_arg;

static int do_shuffle_rows(fsh_rng *rng, unsigned char *a, size_t n,
                           size_t rowbytes, long threads)
{
    if (threads < 0)
        return fsh_shuffle(rng, a, n, rowbytes);
    return fsh_shuffle_threads(rng, a, n, rowbytes, (unsigned)threads);
}

/* n rows of K bytes between view's rows (stride astride) and tmp. */
#define STRIDED_COPY(K)                                                     \
    do {                                                                    \
        unsigned char *p_ = (unsigned char *)v->buf;                        \
        for (size_t i_ = 0; i_ < n; i_++, p_ += astride, out += (K)) {      \
            if (to_tmp)                                                     \
                memcpy(out, p_, (K));                                       \
            else                                                            \
                memcpy(p_, out, (K));                                       \
        }                                                                   \
    } while (0)

/* Copy between the strided rows of view (row index along axis) and the
   contiguous tmp (row i at tmp + i * rowbytes, elements in C order):
   to_tmp 1 gathers, 0 scatters. An odometer over the other dimensions,
   with the innermost run copied in one memcpy when it is contiguous. */
static void copy_rows(const Py_buffer *v, int axis, unsigned char *tmp,
                      int to_tmp)
{
    int nd = v->ndim;
    Py_ssize_t dims[64], strides[64];
    int m = 0;
    for (int d = 0; d < nd; d++)
        if (d != axis) {
            dims[m] = v->shape[d];
            strides[m] = v->strides[d];
            m++;
        }
    size_t item = (size_t)v->itemsize;
    /* innermost run: the last dimension if contiguous, else one item */
    size_t run = item;
    Py_ssize_t runlen = 1;
    int loopdims = m;
    if (m > 0 && strides[m - 1] == (Py_ssize_t)item) {
        runlen = dims[m - 1];
        run = item * (size_t)runlen;
        loopdims = m - 1;
    }
    Py_ssize_t idx[64];
    size_t n = (size_t)v->shape[axis];
    Py_ssize_t astride = v->strides[axis];
    unsigned char *out = tmp;
    if (loopdims == 0) {
        /* each row one run (a 1-d slice, say): a loop per common row
           size, whose fixed-size copies compile to a load and a store */
        switch (run) {
        case 1: STRIDED_COPY(1); return;
        case 2: STRIDED_COPY(2); return;
        case 4: STRIDED_COPY(4); return;
        case 8: STRIDED_COPY(8); return;
        case 16: STRIDED_COPY(16); return;
        default: STRIDED_COPY(run); return;
        }
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char *row = (unsigned char *)v->buf + (Py_ssize_t)i * astride;
        for (int d = 0; d < loopdims; d++)
            idx[d] = 0;
        for (;;) {
            unsigned char *p = row;
            for (int d = 0; d < loopdims; d++)
                p += idx[d] * strides[d];
            if (to_tmp)
                memcpy(out, p, run);
            else
                memcpy(p, out, run);
            out += run;
            int d = loopdims - 1;
            while (d >= 0) {
                if (++idx[d] < dims[d])
                    break;
                idx[d] = 0;
                d--;
            }
            if (d < 0)
                break;
        }
    }
}

static int op_shuffle(fsh_rng *rng, void *p)
{
    shuffle_arg *a = p;
    if (a->base != NULL)
        return do_shuffle_rows(rng, a->base, a->n, a->rowbytes, a->threads);
    /* A shuffle the rng would refuse (it cannot reach every order) is
       refused before a copy of the rows is made, not after. */
    uint64_t hw;
    int st = fsh_rng_reach_plan(rng, &hw, a->n - 1, a->n - 1);
    if (st != FSH_OK)
        return st;
    a->tmp = PyMem_RawMalloc(a->n * a->rowbytes);
    if (a->tmp == NULL) {
        errno = ENOMEM;
        return FSH_ENOMEM;
    }
    copy_rows(a->view, a->axis, a->tmp, 1);
    st = do_shuffle_rows(rng, a->tmp, a->n, a->rowbytes, a->threads);
    /* every status leaves tmp a permutation of the rows (or unchanged) */
    copy_rows(a->view, a->axis, a->tmp, 0);
    return st;
}

/* 1 if the rows along axis each fill rowbytes contiguous bytes and follow
   each other at stride rowbytes: the library can shuffle the buffer in
   place with the same result as on a C-ordered copy of the rows (the
   order of bytes inside a row does not change which permutation the
   library draws). */
static int rows_dense(const Py_buffer *v, int axis, size_t rowbytes)
{
    if (v->strides[axis] != (Py_ssize_t)rowbytes)
        return 0;
    /* the other dimensions must tile the row exactly: sorted by stride,
       each stride is itemsize times the product of the smaller ones */
    Py_ssize_t sh[64], st[64];
    int m = 0;
    for (int d = 0; d < v->ndim; d++)
        if (d != axis && v->shape[d] != 1) {
            sh[m] = v->shape[d];
            st[m] = v->strides[d];
            m++;
        }
    for (int i = 1; i < m; i++) /* insertion sort by stride */
        for (int j = i; j > 0 && st[j - 1] > st[j]; j--) {
            Py_ssize_t t = st[j];
            st[j] = st[j - 1];
            st[j - 1] = t;
            t = sh[j];
            sh[j] = sh[j - 1];
            sh[j - 1] = t;
        }
    Py_ssize_t expect = v->itemsize;
    for (int i = 0; i < m; i++) {
        if (st[i] != expect)
            return 0;
        expect *= sh[i];
    }
    return 1;
}

static int parse_threads(PyObject *o, long *threads)
{
    if (o == NULL || o == Py_None) {
        *threads = -1;
        return 0;
    }
    if (reject_bool(o, "threads") < 0)
        return -1;
    int over = 0;
    long t = PyLong_AsLongAndOverflow(o, &over);
    if (t == -1 && PyErr_Occurred())
        return -1;
    if (over != 0 || t < 0 || t > 1024) {
        PyErr_SetString(PyExc_ValueError,
                        "threads must be None or 0..1024 (0: every core)");
        return -1;
    }
    *threads = t;
    return 0;
}

static PyObject *shuffle_list(GenObject *g, PyObject *x, Py_ssize_t axis,
                              long threads)
{
    if (axis != 0 && axis != -1) {
        PyErr_SetString(PyExc_ValueError, "axis out of range for a list");
        return NULL;
    }
    int st;
    if (gen_lock(g) < 0)
        return NULL;
    errno = 0;
    /* The GIL is held from here: no other thread can change the list
       meanwhile. Its size is read only now: gen_lock may have let other
       threads run (and shrink it) while it waited. */
    Py_ssize_t n = PyList_GET_SIZE(x);
    st = do_shuffle_rows(g->rng, (unsigned char *)((PyListObject *)x)->ob_item,
                         (size_t)n, sizeof(PyObject *), threads);
    op_report r;
    if (st != FSH_OK)
        report_locked(g, st, errno, &r);
    gen_unlock(g);
    if (st != FSH_OK)
        return raise_gen_status(st, &r);
    Py_RETURN_NONE;
}

static PyObject *gen_shuffle(GenObject *g, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"x", "axis", "threads", NULL};
    PyObject *x, *othreads = Py_None;
    ssize_in oaxis = {"axis", 0};
    long threads;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O&O", kwlist, &x,
                                     conv_ssize, &oaxis, &othreads))
        return NULL;
    Py_ssize_t axis = oaxis.v;
    if (parse_threads(othreads, &threads) < 0 || gen_rng(g) == NULL)
        return NULL;
    if (PyList_Check(x))
        return shuffle_list(g, x, axis, threads);
    if (!PyObject_CheckBuffer(x)) {
        PyErr_Format(PyExc_TypeError,
                     "shuffle needs a list or a writable buffer (numpy "
                     "array, bytearray, array.array, memoryview), not %.100s",
                     Py_TYPE(x)->tp_name);
        return NULL;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(x, &view, PyBUF_RECORDS) < 0) {
        /* a read-only buffer: say so as a ValueError */
        if (PyErr_ExceptionMatches(PyExc_BufferError) ||
            PyErr_ExceptionMatches(PyExc_ValueError) ||
            PyErr_ExceptionMatches(PyExc_TypeError)) {
            Py_buffer ro;
            PyObject *t, *v, *tb;
            PyErr_Fetch(&t, &v, &tb);
            if (PyObject_GetBuffer(x, &ro, PyBUF_RECORDS_RO) == 0) {
                PyBuffer_Release(&ro);
                Py_XDECREF(t);
                Py_XDECREF(v);
                Py_XDECREF(tb);
                PyErr_SetString(PyExc_ValueError,
                                "shuffle needs a writable buffer; this one is "
                                "read-only");
                return NULL;
            }
            PyErr_Clear();
            PyErr_Restore(t, v, tb);
        }
        return NULL;
    }
    PyObject *result = NULL;
    int nd = view.ndim;
    if (nd == 0) {
        PyErr_SetString(PyExc_ValueError, "cannot shuffle a 0-d array");
        goto done;
    }
    if (nd > 64) {
        PyErr_SetString(PyExc_ValueError, "too many dimensions");
        goto done;
    }
    /* No strides (ctypes arrays export none): C order, as the buffer
       protocol says; restored before the release. */
    Py_ssize_t cstrides[64];
    if (view.strides == NULL) {
        Py_ssize_t s = view.itemsize;
        for (int d = nd - 1; d >= 0; d--) {
            cstrides[d] = s;
            s *= view.shape[d];
        }
        view.strides = cstrides;
    }
    if (axis < -nd || axis >= nd) {
        PyErr_Format(PyExc_ValueError,
                     "axis %zd is out of bounds for an array of dimension %d",
                     axis, nd);
        goto done;
    }
    if (axis < 0)
        axis += nd;
    size_t n = (size_t)view.shape[axis];
    size_t rowbytes = (size_t)view.itemsize;
    int empty = 0;
    for (int d = 0; d < nd; d++)
        if (d != axis) {
            if (view.shape[d] == 0)
                empty = 1;
            else if (rowbytes > SIZE_MAX / (size_t)view.shape[d]) {
                PyErr_SetString(PyExc_ValueError, "array too large");
                goto done;
            }
            else
                rowbytes *= (size_t)view.shape[d];
        }
    if (n < 2 || empty || rowbytes == 0) {
        result = Py_None;
        Py_INCREF(result);
        goto done;
    }
    /* Object arrays hold references: keep the GIL, so no Python code can
       store into the array while its pointers are being moved. */
    int keep_gil = view.format != NULL && strchr(view.format, 'O') != NULL;
    shuffle_arg a = {NULL, n, rowbytes, threads, &view, (int)axis, NULL};
    if (rows_dense(&view, (int)axis, rowbytes)) {
        a.base = view.buf;
    } else {
        /* op_shuffle allocates the copy of the rows (a.tmp) */
        if (n > SIZE_MAX / rowbytes) {
            PyErr_SetString(PyExc_ValueError, "array too large");
            goto done;
        }
    }
    op_report r;
    int st = run_op(g, op_shuffle, &a, keep_gil, &r);
    PyMem_RawFree(a.tmp);
    if (st != FSH_OK) {
        raise_gen_status(st, &r);
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    if (view.strides == cstrides)
        view.strides = NULL;
    PyBuffer_Release(&view);
    return result;
}

/* _shuffle_keys(keys, n, threads, mover): shuffle the n rows of the
   contiguous writable buffer keys (fsh_shuffle, or fsh_shuffle_threads)
   and call mover(), all under the generator's lock: the Python layer's
   shuffles by keys (masked arrays, records with object fields) move the
   array's rows with numpy in mover, which may release the GIL, and a
   second shuffle of the same array through this generator must not run
   between the keys and the move (two such shuffles lost values and parted
   a masked array's data from its mask). mover's result is returned; a
   refused shuffle does not call it. */
static PyObject *gen_shuffle_keys(GenObject *g, PyObject *args)
{
    PyObject *keys, *othreads, *mover;
    Py_ssize_t n;
    long threads;
    if (!PyArg_ParseTuple(args, "OnOO", &keys, &n, &othreads, &mover) ||
        parse_threads(othreads, &threads) < 0 || gen_rng(g) == NULL)
        return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(keys, &view, PyBUF_SIMPLE | PyBUF_WRITABLE) < 0)
        return NULL;
    PyObject *result = NULL;
    if (n < 2 || view.len % n != 0 || view.len == 0) {
        PyErr_SetString(PyExc_ValueError, "keys must hold n >= 2 rows");
        PyBuffer_Release(&view);
        return NULL;
    }
    shuffle_arg a = {view.buf, (size_t)n, (size_t)(view.len / n), threads,
                     NULL, 0, NULL};
    op_report r;
    if (gen_lock(g) < 0) {
        PyBuffer_Release(&view);
        return NULL;
    }
    int st = run_op_locked(g, op_shuffle, &a, 0, &r);
    if (st == FSH_OK)
        result = PyObject_CallObject(mover, NULL);
    gen_unlock(g);
    PyBuffer_Release(&view);
    if (st != FSH_OK)
        return raise_gen_status(st, &r);
    return result;
}

/* ---- array producers: a bytearray of count 64-bit words ---- */

typedef struct {
    uint64_t *out;
    size_t count;
    uint64_t a, b; /* per op */
    size_t width;  /* op_integers: bytes a value */
} words_arg;

static int op_permutation(fsh_rng *rng, void *p)
{
    words_arg *w = p;
    if (w->count == 0) { /* draws nothing; an unkeyed rng still refuses */
        unsigned char none;
        return fsh_rng_bytes(rng, &none, 0);
    }
    return fsh_permutation(rng, w->out, w->a, w->a + (w->count - 1));
}

/* choice(replace=False): fsh_sample_range itself (the forward Fisher-Yates
   over [lo, hi], docs/STREAMS.md), which runs its steps ahead over a
   position map or a uint32 array (issue 16 follow-up); out is written only
   on success or a callback's failure, and the caller drops it on any
   error. */
static int op_sample(fsh_rng *rng, void *p)
{
    words_arg *w = p;
    return fsh_sample_range(rng, w->out, w->count, w->a, w->b);
}

/* integers: count values a + u (u uniform in [0, b], mod 2^64), each
   stored as its low width bytes in native order (a numpy or array.array
   integer of that width: the caller has checked that the values fit, so
   the low bytes are the value, two's complement for a negative one). */
static int op_integers(fsh_rng *rng, void *p)
{
    words_arg *w = p;
    unsigned char *o = (unsigned char *)w->out;
    for (size_t i = 0; i < w->count; i++) {
        uint64_t u;
        int st = fsh_uniform_range(rng, &u, 0, w->b);
        if (st != FSH_OK)
            return st;
        u += w->a;
        switch (w->width) {
        case 1: {
            uint8_t v = (uint8_t)u;
            memcpy(o + i, &v, 1);
            break;
        }
        case 2: {
            uint16_t v = (uint16_t)u;
            memcpy(o + 2 * i, &v, 2);
            break;
        }
        case 4: {
            uint32_t v = (uint32_t)u;
            memcpy(o + 4 * i, &v, 4);
            break;
        }
        default:
            memcpy(o + 8 * i, &u, 8);
            break;
        }
    }
    return FSH_OK;
}

static int op_raw(fsh_rng *rng, void *p)
{
    words_arg *w = p;
    return fsh_rng_bytes(rng, w->out, (size_t)w->a);
}

static PyObject *make_words(GenObject *g, op_fn fn, words_arg *w,
                            size_t nbytes)
{
    if (gen_rng(g) == NULL)
        return NULL;
    if (nbytes > (size_t)PY_SSIZE_T_MAX)
        return PyErr_NoMemory();
    /* Made empty and then grown: CPython 3.11's
       PyByteArray_FromStringAndSize drops its half-made object with
       ob_exports unset when the allocation fails, and its deallocation then
       prints "SystemError: deallocated bytearray object has exported
       buffers" beside our MemoryError. PyByteArray_Resize fails cleanly. */
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, 0);
    if (ba == NULL)
        return NULL;
    if (nbytes > 0 && PyByteArray_Resize(ba, (Py_ssize_t)nbytes) < 0) {
        Py_DECREF(ba);
        return NULL;
    }
    w->out = (uint64_t *)(void *)PyByteArray_AS_STRING(ba);
    op_report r;
    int st = run_op(g, fn, w, 0, &r);
    if (st != FSH_OK) {
        Py_DECREF(ba);
        return raise_gen_status(st, &r);
    }
    return ba;
}

static int count_arg(PyObject *o, size_t *n, const char *what)
{
    if (reject_bool(o, what) < 0)
        return -1;
    Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_ValueError, "%s is too large", what);
        }
        return -1;
    }
    if (v < 0) {
        PyErr_Format(PyExc_ValueError, "%s must be non-negative", what);
        return -1;
    }
    if ((size_t)v > (size_t)PY_SSIZE_T_MAX / 8) {
        PyErr_Format(PyExc_ValueError, "%s is too large", what);
        return -1;
    }
    *n = (size_t)v;
    return 0;
}

/* _permutation_bytes(n, lo=0): n words lo..lo+n-1 in uniform order. */
static PyObject *gen_permutation_bytes(GenObject *g, PyObject *args)
{
    PyObject *on;
    unsigned long long lo = 0;
    size_t n;
    if (!PyArg_ParseTuple(args, "O|O&", &on, conv_u64, &lo) ||
        count_arg(on, &n, "n") < 0)
        return NULL;
    words_arg w = {NULL, n, lo, 0, 8};
    return make_words(g, op_permutation, &w, n * 8);
}

/* _sample_bytes(k, lo, hi): k distinct values of [lo, hi] in uniform
   order (fsh_sample_range). */
static PyObject *gen_sample_bytes(GenObject *g, PyObject *args)
{
    PyObject *ok;
    unsigned long long lo, hi;
    size_t k;
    if (!PyArg_ParseTuple(args, "OO&O&", &ok, conv_u64, &lo, conv_u64, &hi) ||
        count_arg(ok, &k, "size") < 0)
        return NULL;
    words_arg w = {NULL, k, lo, hi, 8};
    return make_words(g, op_sample, &w, k * 8);
}

/* _integers_bytes(count, offset, span_minus_1, width=8): count values
   offset + u, u uniform in [0, span_minus_1], wrapping mod 2^64, each as
   its low width (1, 2, 4 or 8) bytes in native order: the array of the
   caller's dtype itself, with no 8-byte copy to convert. */
static PyObject *gen_integers_bytes(GenObject *g, PyObject *args)
{
    PyObject *oc;
    unsigned long long off, span;
    ssize_in owidth = {"width", 8};
    size_t count;
    if (!PyArg_ParseTuple(args, "OO&O&|O&", &oc, conv_u64, &off, conv_u64,
                          &span, conv_ssize, &owidth) ||
        count_arg(oc, &count, "size") < 0)
        return NULL;
    Py_ssize_t width = owidth.v;
    if (width != 1 && width != 2 && width != 4 && width != 8) {
        PyErr_SetString(PyExc_ValueError, "width must be 1, 2, 4 or 8");
        return NULL;
    }
    words_arg w = {NULL, count, off, span, (size_t)width};
    return make_words(g, op_integers, &w, count * (size_t)width);
}

/* _raw_bytes(count): count 64-bit words of the stream as a bytearray
   (fsh_rng_bytes of 8 * count bytes, the words little-endian), for
   random_raw: bytes() gives an immutable object that numpy could only
   wrap read-only, so it was copied. */
static PyObject *gen_raw_bytes(GenObject *g, PyObject *arg)
{
    size_t count;
    if (count_arg(arg, &count, "size") < 0)
        return NULL;
    words_arg w = {NULL, 0, (uint64_t)count * 8, 0, 8};
    return make_words(g, op_raw, &w, count * 8);
}

static PyObject *gen_bytes(GenObject *g, PyObject *arg)
{
    size_t n;
    if (count_arg(arg, &n, "length") < 0 || gen_rng(g) == NULL)
        return NULL;
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (b == NULL)
        return NULL;
    words_arg w = {(uint64_t *)(void *)PyBytes_AS_STRING(b), 0, n, 0, 8};
    op_report r;
    int st = run_op(g, op_raw, &w, 0, &r);
    if (st != FSH_OK) {
        Py_DECREF(b);
        return raise_gen_status(st, &r);
    }
    return b;
}

/* ---- cards ---- */

static fsh_cardset *make_set(PyObject *faces, unsigned decks, unsigned jokers)
{
    fsh_cardset *set = NULL;
    int st;
    if (faces == NULL || faces == Py_None) {
        st = fsh_cardset_standard(&set, decks, jokers);
    } else {
        PyObject *fast = PySequence_Fast(faces, "faces must be a sequence of str");
        if (fast == NULL)
            return NULL;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(fast);
        const char **names = PyMem_Malloc(((size_t)m + 1) * sizeof *names);
        if (names == NULL) {
            Py_DECREF(fast);
            PyErr_NoMemory();
            return NULL;
        }
        for (Py_ssize_t i = 0; i < m; i++) {
            PyObject *o = PySequence_Fast_GET_ITEM(fast, i);
            Py_ssize_t len = 0;
            names[i] = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, &len)
                                          : NULL;
            /* A NUL ends the C string: "a\0b" was the face "a". It is a
               control character, which the library refuses in a name. */
            if (names[i] != NULL && strlen(names[i]) != (size_t)len) {
                names[i] = NULL;
                PyErr_SetString(PyExc_ValueError,
                                "faces must be distinct names of 1 to 31 "
                                "bytes of UTF-8 without white space (ASCII "
                                "or Unicode), '\"', '\\' or control "
                                "characters");
            }
            if (names[i] == NULL) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_TypeError,
                                    "faces must be a sequence of str");
                PyMem_Free(names);
                Py_DECREF(fast);
                return NULL;
            }
        }
        st = fsh_cardset_custom(&set, (const char *const *)names, (size_t)m,
                                decks);
        PyMem_Free(names);
        Py_DECREF(fast);
        /* the library's FSH_EINVAL, said of what it refused: the Python
           layer has checked decks and the shoe's size */
        if (st == FSH_EINVAL && m == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "faces must name at least one card");
            return NULL;
        }
        if (st == FSH_EINVAL && decks >= 1 &&
            (size_t)m <= (size_t)UINT32_MAX / decks) {
            PyErr_SetString(PyExc_ValueError,
                            "faces must be distinct names of 1 to 31 bytes of "
                            "UTF-8 without white space (ASCII or Unicode), "
                            "'\"', '\\' or control characters");
            return NULL;
        }
    }
    if (st != FSH_OK) {
        raise_status(st, 0);
        return NULL;
    }
    return set;
}

static int parse_notation(PyObject *o, int *notation)
{
    if (o == NULL || o == Py_None) {
        *notation = FSH_CARD_UNICODE;
        return 0;
    }
    Py_ssize_t len = 0;
    const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8AndSize(o, &len) : NULL;
    if (s != NULL && strlen(s) != (size_t)len) /* "poker\0x" is no notation */
        s = NULL;
    if (s != NULL && strcmp(s, "unicode") == 0)
        *notation = FSH_CARD_UNICODE;
    else if (s != NULL && (strcmp(s, "poker") == 0 || strcmp(s, "text") == 0))
        *notation = FSH_CARD_POKER;
    else {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "notation must be 'unicode' or 'poker'");
        return -1;
    }
    return 0;
}

/* card_names(jokers=0, notation="unicode", faces=None): the names of the
   faces 0..m-1 of a card set. */
static PyObject *mod_card_names(PyObject *self, PyObject *args, PyObject *kw)
{
    (void)self;
    static char *kwlist[] = {"jokers", "notation", "faces", NULL};
    unsigned jokers = 0;
    PyObject *onot = NULL, *faces = Py_None;
    int notation;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O&OO", kwlist, conv_uint,
                                     &jokers, &onot,
                                     &faces) ||
        parse_notation(onot, &notation) < 0)
        return NULL;
    fsh_cardset *set = make_set(faces, 1, jokers);
    if (set == NULL)
        return NULL;
    size_t m = fsh_cardset_faces(set);
    PyObject *l = PyList_New((Py_ssize_t)m);
    for (size_t i = 0; l != NULL && i < m; i++) {
        char buf[40];
        int st = fsh_cardset_name(set, buf, sizeof buf, (uint32_t)i, notation);
        PyObject *s = st == FSH_OK ? PyUnicode_FromString(buf)
                                   : raise_status(st, 0);
        if (s == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, s);
    }
    fsh_cardset_free(set);
    return l;
}

typedef struct {
    fsh_deck *deck;
    size_t burn, players, cards;
    int layout;
    uint32_t *out;
} deal_arg;

static int op_deal(fsh_rng *rng, void *p)
{
    deal_arg *d = p;
    int st = FSH_OK;
    if (d->burn > 0)
        st = fsh_deck_burn(rng, d->deck, d->burn);
    if (st == FSH_OK && d->players > 0)
        st = fsh_deck_deal_hands(rng, d->deck, d->out, d->players, d->cards,
                                 d->layout);
    return st;
}

/* _deal(decks, jokers, faces, burn, players, cards, layout): the face
   codes of players hands of cards cards after burning burn (cards None:
   the rest shared out evenly), as a flat list, hand after hand. */
static PyObject *gen_deal(GenObject *g, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"decks", "jokers", "faces", "burn", "players",
                             "cards", "layout", NULL};
    unsigned decks = 1, jokers = 0;
    ssize_in oburn = {"burn", 0}, oplayers = {"players", 1},
             ocards = {"cards", -1}, olayout = {"layout", FSH_DEAL_ROUND_ROBIN};
    PyObject *faces = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O&O&OO&O&O&O&", kwlist,
                                     conv_uint, &decks, conv_uint, &jokers,
                                     &faces, conv_ssize, &oburn, conv_ssize,
                                     &oplayers, conv_ssize, &ocards,
                                     conv_ssize, &olayout))
        return NULL;
    if (gen_rng(g) == NULL)
        return NULL;
    Py_ssize_t burn = oburn.v, players = oplayers.v, cards = ocards.v;
    if (burn < 0 || players < 1) {
        PyErr_SetString(PyExc_ValueError,
                        "burn must be >= 0 and players >= 1");
        return NULL;
    }
    if (olayout.v != FSH_DEAL_ROUND_ROBIN && olayout.v != FSH_DEAL_BLOCKS) {
        PyErr_SetString(PyExc_ValueError, "unknown layout");
        return NULL;
    }
    int layout = (int)olayout.v;
    fsh_cardset *set = make_set(faces, decks, jokers);
    if (set == NULL)
        return NULL;
    size_t n = fsh_cardset_size(set);
    fsh_deck *deck = NULL;
    int st = fsh_deck_new_set(&deck, set);
    fsh_cardset_free(set);
    if (st != FSH_OK)
        return raise_status(st, 0);
    if (cards < 0) {
        if ((size_t)burn > n) {
            fsh_deck_free(deck);
            return raise_status(FSH_EEMPTY, 0);
        }
        cards = (Py_ssize_t)((n - (size_t)burn) / (size_t)players);
    }
    if ((size_t)cards > n || (size_t)players > n ||
        (size_t)cards * (size_t)players > n) {
        fsh_deck_free(deck);
        PyErr_SetString(PyExc_ValueError,
                        "more cards asked for than the shoe holds");
        return NULL;
    }
    size_t total = (size_t)cards * (size_t)players;
    deal_arg d = {deck, (size_t)burn, (size_t)players, (size_t)cards, layout,
                  PyMem_RawMalloc((total + 1) * sizeof(uint32_t))};
    if (d.out == NULL) {
        fsh_deck_free(deck);
        return PyErr_NoMemory();
    }
    op_report r;
    st = run_op(g, op_deal, &d, 0, &r);
    fsh_deck_free(deck);
    PyObject *l = NULL;
    if (st != FSH_OK)
        raise_gen_status(st, &r);
    else {
        l = PyList_New((Py_ssize_t)total);
        for (size_t i = 0; l != NULL && i < total; i++) {
            PyObject *o = PyLong_FromUnsignedLong(d.out[i]);
            if (o == NULL) {
                Py_CLEAR(l);
                break;
            }
            PyList_SET_ITEM(l, (Py_ssize_t)i, o);
        }
    }
    PyMem_RawFree(d.out);
    return l;
}

/* _info(): the rng's figures, read under the generator's lock: another
   thread may be drawing from it meanwhile with the GIL released, and
   bits_used is computed from two fields that a draw changes one after the
   other. */
static PyObject *gen_info(GenObject *g, PyObject *noargs)
{
    (void)noargs;
    if (gen_rng(g) == NULL)
        return NULL;
    if (gen_lock(g) < 0)
        return NULL;
    size_t mx = fsh_rng_max_fair_n(g->rng);
    unsigned bits = fsh_rng_entropy_bits(g->rng);
    unsigned reach = fsh_rng_get_reach(g->rng);
    unsigned long long used = (unsigned long long)fsh_rng_bits_used(g->rng);
    gen_unlock(g);
    PyObject *omx;
    if (mx == SIZE_MAX) {
        omx = Py_None;
        Py_INCREF(omx);
    } else if ((omx = PyLong_FromSize_t(mx)) == NULL)
        return NULL;
    return Py_BuildValue("{s:I,s:N,s:I,s:K}", "entropy_bits", bits,
                         "max_fair_n", omx, "reach", reach, "bits_used",
                         used);
}

static PyMethodDef gen_methods[] = {
    {"shuffle", (PyCFunction)(void (*)(void))gen_shuffle,
     METH_VARARGS | METH_KEYWORDS,
     "shuffle(x, axis=0, threads=None)\n--\n\n"
     "Shuffle x in place along axis: a list, or any writable buffer (numpy "
     "array of any dtype and strides, bytearray, array.array, memoryview). "
     "Every order of the rows is equally likely; the order equals the C "
     "library's fsh_shuffle of a contiguous copy of the rows. threads: None "
     "(fsh_shuffle) or a thread count for fsh_shuffle_threads (0: every "
     "core); the result does not depend on it."},
    {"_shuffle_keys", (PyCFunction)gen_shuffle_keys, METH_VARARGS,
     "_shuffle_keys(keys, n, threads, mover)\n--\n\nShuffle the n rows of "
     "the contiguous buffer keys and call mover(), both under the "
     "generator's lock."},
    {"_permutation_bytes", (PyCFunction)gen_permutation_bytes, METH_VARARGS,
     "_permutation_bytes(n, lo=0)\n--\n\nbytearray of the n 64-bit words "
     "lo..lo+n-1 in uniform order (fsh_permutation)."},
    {"_sample_bytes", (PyCFunction)gen_sample_bytes, METH_VARARGS,
     "_sample_bytes(k, lo, hi)\n--\n\nbytearray of k distinct 64-bit words "
     "of [lo, hi] in uniform order (fsh_sample_range)."},
    {"_integers_bytes", (PyCFunction)gen_integers_bytes, METH_VARARGS,
     "_integers_bytes(count, offset, span_minus_1, width=8)\n--\n\nbytearray "
     "of count values offset + u mod 2**64, u uniform in [0, span_minus_1], "
     "each its low width bytes in native order."},
    {"_raw_bytes", (PyCFunction)gen_raw_bytes, METH_O,
     "_raw_bytes(count)\n--\n\nbytearray of count 64-bit words of the "
     "stream, little-endian (fsh_rng_bytes)."},
    {"bytes", (PyCFunction)gen_bytes, METH_O,
     "bytes(length)\n--\n\nlength uniform random bytes (the word stream, "
     "little-endian; fsh_rng_bytes)."},
    {"_deal", (PyCFunction)(void (*)(void))gen_deal,
     METH_VARARGS | METH_KEYWORDS,
     "_deal(decks, jokers, faces, burn, players, cards, layout)\n--\n\n"
     "Flat list of dealt face codes (fsh_deck_deal_hands)."},
    {"_stream_version", (PyCFunction)gen_stream_version, METH_NOARGS,
     "_stream_version()\n--\n\nThe stream version the generator's shuffles "
     "follow (fsh_rng_stream_version; 0 for a test source)."},
    {"_generator_id", (PyCFunction)gen_generator_id, METH_NOARGS,
     "_generator_id()\n--\n\nTest hook: the fsh_gen number of the source "
     "(-1 for a test source)."},
    {"_set_words", (PyCFunction)gen_set_words, METH_O,
     "_set_words(words)\n--\n\nTest hook: words from this list, cycled "
     "(fsh_rng_from_words)."},
    {"_set_randint", (PyCFunction)gen_set_randint, METH_O,
     "_set_randint(values)\n--\n\nTest hook: the [1, k] source returns these "
     "values in order, then 0 (fsh_rng_from_randint)."},
    {"_asked", (PyCFunction)gen_asked, METH_NOARGS,
     "_asked()\n--\n\nTest hook: the k of every randint call since the last "
     "_asked() call."},
    {"_info", (PyCFunction)gen_info, METH_NOARGS,
     "_info()\n--\n\nDict of entropy_bits, max_fair_n (None: unbounded), "
     "reach flags and bits_used."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject GenType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "fairshuf._fairshuf._Generator",
    .tp_basicsize = sizeof(GenObject),
    .tp_dealloc = (destructor)gen_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "_Generator(seed=None, gen=0, simulation=False, reach=-1)\n--\n\n"
              "The C core of fairshuf.Generator (use that).",
    .tp_methods = gen_methods,
    .tp_init = (initproc)gen_init,
    .tp_new = gen_new,
};

/* ------------------------------------------------------------------------ */
/* Range permutations                                                       */
/*
 * _RangePermutation: an fsh_rangeperm bound to the _Generator that draws
 * it. It holds a reference to the generator and uses the generator's lock
 * for every access to its own state too: the permutation and the rng are
 * changed together by each step, so one lock keeps them consistent, two
 * permutations of one generator (which share its rng anyway) run one at a
 * time, and the fork handling of gen_lock covers the permutation as well.
 * close() frees the storage under that lock, so it waits for a call another
 * thread is making; the GIL is released during the library's calls as for
 * the generator's (run_op). The values are the library's for [lo, hi];
 * a range that wraps past 2^64 - 1 (negative lows, which the Python layer
 * maps to lo mod 2^64) is drawn as [0, hi - lo] with lo added to each
 * value, which is what the library does itself (lo + the position's value,
 * mod 2^64), so it gives the same values from the same draws.
 */

typedef struct {
    PyObject_HEAD
    GenObject *gen;      /* the generator; NULL only after tp_clear */
    fsh_rangeperm *perm; /* NULL once closed */
    uint64_t lo;         /* the first value, mod 2^64 */
    uint64_t span;       /* the values are lo + [0, span], mod 2^64 */
    uint64_t add;        /* added to the library's values (wrapping range) */
    uint64_t drawn_at_close;
    char is_signed;      /* values are read as int64 */
} PermObject;

/* Library permutations not yet freed: a test hook (_rangeperm_live) that
   shows close(), del and the garbage collector release the storage.
   Changed only with the GIL held. */
static Py_ssize_t perms_live;

/* Free the storage (the caller holds the generator's lock, or is the last
   reference); keeps the count of values drawn for .drawn. */
static void perm_release(PermObject *p)
{
    if (p->perm == NULL)
        return;
    p->drawn_at_close = fsh_rangeperm_drawn(p->perm);
    fsh_rangeperm_free(p->perm);
    p->perm = NULL;
    perms_live--;
}

/* Status of an operation on a closed (or cleared) permutation: positive,
   never a library status. */
enum { PERM_CLOSED = 1 };

static PyObject *perm_closed_error(void)
{
    PyErr_SetString(PyExc_ValueError,
                    "operation on a closed RangePermutation");
    return NULL;
}

/* _RangePermutation(generator, lo, span, hint, signed): the values
   lo .. lo + span (mod 2^64) in uniform order, drawn from generator.
   hint: the draws the caller means to make (0: unknown), capped at the
   range's size by the library and at SIZE_MAX here. */
static PyObject *perm_new(PyTypeObject *type, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"generator", "lo", "span", "hint", "signed",
                             NULL};
    PyObject *og;
    unsigned long long lo, span, hint = 0;
    int sgn = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!O&O&|O&p", kwlist, &GenType,
                                     &og, conv_u64, &lo, conv_u64, &span,
                                     conv_u64, &hint, &sgn))
        return NULL;
    GenObject *g = (GenObject *)og;
    if (gen_rng(g) == NULL)
        return NULL;
    size_t h = hint > SIZE_MAX ? SIZE_MAX : (size_t)hint;
    /* The library's own [lo, lo + span] unless that wraps past 2^64 - 1. */
    uint64_t add = 0, first = lo;
    if (lo > UINT64_MAX - span) {
        add = lo;
        first = 0;
    }
    PermObject *p = (PermObject *)type->tp_alloc(type, 0);
    if (p == NULL)
        return NULL;
    Py_INCREF(g);
    p->gen = g;
    p->lo = lo;
    p->span = span;
    p->add = add;
    p->is_signed = (char)(sgn != 0);
    fsh_rangeperm *perm = NULL;
    int st, err;
    /* a large hint's storage is allocated (and, for an array, filled) here */
    Py_BEGIN_ALLOW_THREADS
    errno = 0;
    st = fsh_rangeperm_new(&perm, first, first + span, h);
    err = errno;
    Py_END_ALLOW_THREADS
    if (st != FSH_OK) {
        Py_DECREF(p);
        return raise_status(st, err);
    }
    p->perm = perm;
    perms_live++;
    return (PyObject *)p;
}

static int perm_traverse(PermObject *p, visitproc visit, void *arg)
{
    Py_VISIT(p->gen);
    return 0;
}

/* The collector breaks a cycle through the generator (a permutation kept
   in an attribute of its own Generator): the storage goes with it. */
static int perm_clear(PermObject *p)
{
    perm_release(p);
    Py_CLEAR(p->gen);
    return 0;
}

static void perm_dealloc(PermObject *p)
{
    PyObject_GC_UnTrack(p);
    perm_release(p);
    Py_CLEAR(p->gen);
    Py_TYPE(p)->tp_free((PyObject *)p);
}

typedef struct {
    PermObject *self;
    uint64_t *out;
    size_t k;
    uint64_t drawn; /* after the call */
} perm_arg;

/* k values (k = 1: fsh_rangeperm_next), run under the generator's lock. */
static int op_perm(fsh_rng *rng, void *arg)
{
    perm_arg *a = arg;
    fsh_rangeperm *perm = a->self->perm;
    if (perm == NULL)
        return PERM_CLOSED;
    int st = a->k == 1 ? fsh_rangeperm_next(rng, perm, a->out)
                       : fsh_rangeperm_next_n(rng, perm, a->out, a->k);
    a->drawn = fsh_rangeperm_drawn(perm);
    uint64_t add = a->self->add;
    if (st == FSH_OK && add != 0)
        for (size_t i = 0; i < a->k; i++)
            a->out[i] += add;
    return st;
}

/* The generator, or NULL with ValueError set (cleared by the collector). */
static GenObject *perm_gen(PermObject *p)
{
    if (p->gen == NULL)
        perm_closed_error();
    return p->gen;
}

static PyObject *perm_iternext(PermObject *p)
{
    GenObject *g = perm_gen(p);
    if (g == NULL)
        return NULL;
    uint64_t v;
    perm_arg a = {p, &v, 1, 0};
    op_report r;
    int st = run_op(g, op_perm, &a, 0, &r);
    if (st == PERM_CLOSED)
        return perm_closed_error();
    if (st == FSH_EEMPTY)
        return NULL; /* StopIteration, every time after the last value */
    if (st != FSH_OK)
        return raise_gen_status(st, &r);
    if (p->is_signed)
        return PyLong_FromLongLong((long long)v);
    return PyLong_FromUnsignedLongLong(v);
}

/* _next_n_bytes(k): a bytearray of the next k values as 64-bit words
   (fsh_rangeperm_next_n). k past the values left, or none left, is a
   ValueError with nothing drawn; k = 0 draws nothing. */
static PyObject *perm_next_n_bytes(PermObject *p, PyObject *ok)
{
    size_t k;
    if (count_arg(ok, &k, "k") < 0)
        return NULL;
    GenObject *g = perm_gen(p);
    if (g == NULL)
        return NULL;
    /* empty, then grown: see make_words */
    PyObject *ba = PyByteArray_FromStringAndSize(NULL, 0);
    if (ba == NULL)
        return NULL;
    if (k > 0 && PyByteArray_Resize(ba, (Py_ssize_t)(k * 8)) < 0) {
        Py_DECREF(ba);
        return NULL;
    }
    perm_arg a = {p, (uint64_t *)(void *)PyByteArray_AS_STRING(ba), k, 0};
    op_report r;
    int st = run_op(g, op_perm, &a, 0, &r);
    if (st == FSH_OK)
        return ba;
    Py_DECREF(ba);
    if (st == PERM_CLOSED)
        return perm_closed_error();
    if (st == FSH_EEMPTY || (st == FSH_EINVAL && k > 0)) {
        /* the library's checks, with the numbers: nothing was drawn */
        uint64_t left = p->span - a.drawn + 1; /* 0 when all 2^64 drawn */
        if (st == FSH_EEMPTY)
            PyErr_Format(PyExc_ValueError,
                         "next_n(%zu): every value has been drawn", k);
        else
            PyErr_Format(PyExc_ValueError,
                         "next_n(%zu): only %llu values are left", k,
                         (unsigned long long)left);
        return NULL;
    }
    return raise_gen_status(st, &r);
}

static PyObject *perm_close(PermObject *p, PyObject *noargs)
{
    (void)noargs;
    GenObject *g = p->gen;
    if (g == NULL || p->perm == NULL)
        Py_RETURN_NONE;
    if (gen_lock(g) < 0) /* waits for a call another thread is making */
        return NULL;
    perm_release(p);
    gen_unlock(g);
    Py_RETURN_NONE;
}

static PyObject *perm_get_drawn(PermObject *p, void *closure)
{
    (void)closure;
    uint64_t d;
    GenObject *g = p->gen;
    if (g == NULL || p->perm == NULL) {
        d = p->drawn_at_close;
    } else {
        if (gen_lock(g) < 0)
            return NULL;
        d = p->perm != NULL ? fsh_rangeperm_drawn(p->perm) : p->drawn_at_close;
        gen_unlock(g);
    }
    return PyLong_FromUnsignedLongLong(d);
}

static PyObject *perm_get_closed(PermObject *p, void *closure)
{
    (void)closure;
    return PyBool_FromLong(p->perm == NULL);
}

static PyObject *perm_get_u64(PermObject *p, void *closure)
{
    return PyLong_FromUnsignedLongLong(closure == NULL ? p->lo : p->span);
}

static PyObject *perm_get_signed(PermObject *p, void *closure)
{
    (void)closure;
    return PyBool_FromLong(p->is_signed);
}

static PyGetSetDef perm_getset[] = {
    {"drawn", (getter)perm_get_drawn, NULL,
     "Number of values drawn so far (fsh_rangeperm_drawn).", NULL},
    {"closed", (getter)perm_get_closed, NULL,
     "True once close() has freed the storage.", NULL},
    {"_lo", (getter)perm_get_u64, NULL, "The first value, mod 2**64.", NULL},
    {"_span", (getter)perm_get_u64, NULL, "hi - lo.", (void *)1},
    {"_signed", (getter)perm_get_signed, NULL, "Values read as int64.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef perm_methods[] = {
    {"_next_n_bytes", (PyCFunction)perm_next_n_bytes, METH_O,
     "_next_n_bytes(k)\n--\n\nbytearray of the next k values as 64-bit "
     "words (fsh_rangeperm_next_n)."},
    {"close", (PyCFunction)perm_close, METH_NOARGS,
     "close()\n--\n\nFree the storage now (fsh_rangeperm_free); waits for a "
     "call another thread is making. Later draws raise ValueError; drawn "
     "keeps its count. Calling it again does nothing."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject PermType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name =
        "fairshuf._fairshuf._RangePermutation",
    .tp_basicsize = sizeof(PermObject),
    .tp_dealloc = (destructor)perm_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "_RangePermutation(generator, lo, span, hint=0, signed=False)"
              "\n--\n\nThe C core of fairshuf.RangePermutation (use "
              "Generator.range_permutation).",
    .tp_traverse = (traverseproc)perm_traverse,
    .tp_clear = (inquiry)perm_clear,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)perm_iternext,
    .tp_methods = perm_methods,
    .tp_getset = perm_getset,
    .tp_new = perm_new,
};

static PyObject *mod_rangeperm_live(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    return PyLong_FromSsize_t(perms_live);
}

/* ------------------------------------------------------------------------ */
/* Provably fair rounds                                                     */

static PyObject *mod_fair_commit(PyObject *self, PyObject *arg)
{
    (void)self;
    Py_buffer v;
    char hex[FSH_FAIR_COMMIT_LEN];
    if (PyObject_GetBuffer(arg, &v, PyBUF_SIMPLE) < 0)
        return NULL;
    int st = fsh_fair_commit(hex, v.buf, (size_t)v.len);
    PyBuffer_Release(&v);
    if (st != FSH_OK)
        return raise_status(st, 0);
    return PyUnicode_FromString(hex);
}

static PyObject *mod_fair_seed_min(PyObject *self, PyObject *args)
{
    (void)self;
    ssize_in ofaces = {"faces", 0};
    unsigned copies;
    size_t bytes;
    if (!PyArg_ParseTuple(args, "O&O&", conv_ssize, &ofaces, conv_uint,
                          &copies))
        return NULL;
    Py_ssize_t faces = ofaces.v;
    if (faces < 0)
        return raise_status(FSH_EINVAL, 0);
    int st = fsh_fair_seed_min(&bytes, (size_t)faces, copies);
    if (st != FSH_OK)
        return raise_status(st, 0);
    return PyLong_FromSize_t(bytes);
}

/* fair_order(faces, copies, server_seed, client_seed, nonce) -> list */
static PyObject *mod_fair_order(PyObject *self, PyObject *args)
{
    (void)self;
    ssize_in ofaces = {"faces", 0};
    unsigned copies;
    Py_buffer s, c;
    unsigned long long nonce;
    if (!PyArg_ParseTuple(args, "O&O&y*y*O&", conv_ssize, &ofaces, conv_uint,
                          &copies, &s, &c, conv_u64, &nonce))
        return NULL;
    Py_ssize_t faces = ofaces.v;
    PyObject *l = NULL;
    uint32_t *out = NULL;
    if (faces <= 0 || copies == 0 ||
        (size_t)faces > (size_t)PY_SSIZE_T_MAX / 4 / copies) {
        raise_status(FSH_EINVAL, 0);
        goto done;
    }
    size_t n = (size_t)faces * copies, need;
    /* The set's checks (at most FSH_FAIR_CARDS_MAX cards) before its n
       cells are allocated; the package's fair_order has checked the
       memory the round holds. */
    int st = fsh_fair_seed_min(&need, (size_t)faces, copies);
    if (st != FSH_OK) {
        raise_status(st, 0);
        goto done;
    }
    out = PyMem_RawMalloc(n * sizeof *out);
    if (out == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    st = fsh_fair_order(out, (size_t)faces, copies, s.buf, (size_t)s.len,
                        c.buf, (size_t)c.len, nonce);
    Py_END_ALLOW_THREADS
    if (st != FSH_OK) {
        raise_status(st, 0);
        goto done;
    }
    l = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; l != NULL && i < n; i++) {
        PyObject *o = PyLong_FromUnsignedLong(out[i]);
        if (o == NULL) {
            Py_CLEAR(l);
            break;
        }
        PyList_SET_ITEM(l, (Py_ssize_t)i, o);
    }
done:
    PyMem_RawFree(out);
    PyBuffer_Release(&s);
    PyBuffer_Release(&c);
    return l;
}

static PyObject *mod_entropy(PyObject *self, PyObject *arg)
{
    (void)self;
    size_t n;
    if (count_arg(arg, &n, "length") < 0)
        return NULL;
    PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (b == NULL)
        return NULL;
    errno = 0;
    int st = fsh_entropy(PyBytes_AS_STRING(b), n);
    if (st != FSH_OK) {
        int err = errno;
        Py_DECREF(b);
        return raise_status(st, err);
    }
    return b;
}

static PyObject *mod_strerror(PyObject *self, PyObject *arg)
{
    (void)self;
    if (reject_bool(arg, "status") < 0)
        return NULL;
    long st = PyLong_AsLong(arg);
    if (st == -1 && PyErr_Occurred())
        return NULL;
    /* beyond int no status (the cast would wrap onto one): the library's
       text for any number it does not know */
    return PyUnicode_FromString(st < INT_MIN || st > INT_MAX
                                    ? "unknown error"
                                    : fsh_strerror((int)st));
}

static PyObject *mod_hw(PyObject *self, PyObject *noargs)
{
    (void)self;
    (void)noargs;
    return PyBool_FromLong(fsh_hw_entropy_available());
}

static PyMethodDef mod_methods[] = {
    {"fair_commit", mod_fair_commit, METH_O,
     "fair_commit(server_seed)\n--\n\nThe commitment to a server seed: "
     "lowercase hex SHA-256 (fsh_fair_commit)."},
    {"fair_seed_min", mod_fair_seed_min, METH_VARARGS,
     "fair_seed_min(faces, copies)\n--\n\nShortest server seed (bytes) "
     "fair_order accepts for the set (fsh_fair_seed_min)."},
    {"fair_order", mod_fair_order, METH_VARARGS,
     "fair_order(faces, copies, server_seed, client_seed, nonce)\n--\n\n"
     "The deal order (face codes) of a provably fair round, "
     "fairshuf-deal-v1 (fsh_fair_order)."},
    {"card_names", (PyCFunction)(void (*)(void))mod_card_names,
     METH_VARARGS | METH_KEYWORDS,
     "card_names(jokers=0, notation='unicode', faces=None)\n--\n\n"
     "Names of the faces 0..m-1 of a card set."},
    {"entropy", mod_entropy, METH_O,
     "entropy(length)\n--\n\nlength bytes from the OS random source "
     "(fsh_entropy)."},
    {"strerror", mod_strerror, METH_O,
     "strerror(status)\n--\n\nThe library's message for a status code."},
    {"_rangeperm_live", mod_rangeperm_live, METH_NOARGS,
     "_rangeperm_live()\n--\n\nTest hook: the number of range permutations "
     "whose storage is not yet freed."},
    {"hw_entropy_available", mod_hw, METH_NOARGS,
     "hw_entropy_available()\n--\n\nTrue if the CPU has a hardware entropy "
     "source the library mixes in (RDSEED)."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moddef = {
    PyModuleDef_HEAD_INIT, "_fairshuf",
    "C core of the fairshuf package (libfairshuf compiled in).", -1,
    mod_methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fairshuf(void);

PyMODINIT_FUNC PyInit__fairshuf(void)
{
    if (PyType_Ready(&GenType) < 0 || PyType_Ready(&PermType) < 0)
        return NULL;
    if (pthread_atfork(NULL, NULL, after_fork_child) != 0)
        return PyErr_NoMemory();
    PyObject *m = PyModule_Create(&moddef);
    if (m == NULL)
        return NULL;
    ReachabilityError = PyErr_NewExceptionWithDoc(
        "fairshuf.ReachabilityError",
        "The generator cannot reach every outcome of this call "
        "(FSH_EENTROPY: seed too short, or beyond the hardware entropy cap; "
        "FSH_ENOHWRAND: no hardware entropy to mix in). A subclass of "
        "ValueError.",
        PyExc_ValueError, NULL);
    if (ReachabilityError == NULL)
        goto fail;
    Py_INCREF(&GenType);
    if (PyModule_AddObject(m, "_Generator", (PyObject *)&GenType) < 0) {
        Py_DECREF(&GenType);
        goto fail;
    }
    Py_INCREF(&PermType);
    if (PyModule_AddObject(m, "_RangePermutation", (PyObject *)&PermType) < 0) {
        Py_DECREF(&PermType);
        goto fail;
    }
    Py_INCREF(ReachabilityError);
    if (PyModule_AddObject(m, "ReachabilityError", ReachabilityError) < 0) {
        Py_DECREF(ReachabilityError);
        goto fail;
    }
    if (PyModule_AddStringConstant(m, "LIB_VERSION", fsh_version_string()) < 0 ||
        PyModule_AddIntConstant(m, "REACH_FULL", FSH_REACH_FULL) < 0 ||
        PyModule_AddIntConstant(m, "REACH_KEY_LARGE", FSH_REACH_KEY_LARGE) < 0 ||
        PyModule_AddIntConstant(m, "REACH_KEY", FSH_REACH_KEY) < 0 ||
        PyModule_AddIntConstant(m, "REACH_DEFAULT", FSH_REACH_DEFAULT) < 0 ||
        PyModule_AddIntConstant(m, "STREAM_V1", FSH_STREAM_V1) < 0 ||
        PyModule_AddIntConstant(m, "STREAM_V2", FSH_STREAM_V2) < 0 ||
        PyModule_AddIntConstant(m, "STREAM_V3", FSH_STREAM_V3) < 0 ||
        PyModule_AddIntConstant(m, "STREAM_LATEST", FSH_STREAM_LATEST) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
