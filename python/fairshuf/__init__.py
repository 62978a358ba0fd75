# SPDX-License-Identifier: MIT
"""fairshuf: exactly uniform, reachable, reproducible shuffles and samples.

A numpy-style front end to the C library libfairshuf (compiled into the
extension fairshuf._fairshuf). docs/PYTHON.md in the source tree has the
whole story; in short::

    import numpy as np, fairshuf
    rng = fairshuf.Generator()              # ChaCha8 keyed from the OS
    x = np.arange(10**6)
    rng.shuffle(x)                          # in place, every order equally likely
    rng.choice(10**9, size=5)               # 5 distinct values, O(k)
    p = rng.range_permutation(10**12)       # range(10**12), lazily, in random order
    next(p), p.next_n(1000), p.drawn        # values one at a time or in batches

Seeds: ``Generator(seed="42", simulation=True)`` makes the generator of
``fairshuf --seed=42`` (the command's seeded runs are simulation grade);
an int seed means its decimal string. Without ``simulation=True`` a seeded
generator refuses calls whose outcomes its seed cannot all reach
(``ReachabilityError``): a seed of s bytes credits 8*s bits.
"""
import operator as _operator
import re as _re
import sys as _sys
from collections import namedtuple as _namedtuple

from . import _fairshuf
from ._fairshuf import ReachabilityError, hw_entropy_available

try:  # numpy is optional: arrays come back as numpy arrays when present
    import numpy as _np
except ImportError:  # pragma: no cover - exercised only without numpy
    _np = None

__all__ = [
    "Generator",
    "RangePermutation",
    "ReachabilityError",
    "FairRound",
    "fair_round",
    "fair_verify",
    "fair_commit",
    "fair_order",
    "fair_seed_min",
    "fair_server_seed",
    "card_names",
    "hw_entropy_available",
    "REACH_FULL",
    "REACH_KEY_LARGE",
    "REACH_KEY",
    "REACH_DEFAULT",
    "STREAM_V1",
    "STREAM_V3",
    "STREAM_V2",
    "STREAM_LATEST",
]

__version__ = _fairshuf.LIB_VERSION

REACH_FULL = _fairshuf.REACH_FULL
REACH_KEY_LARGE = _fairshuf.REACH_KEY_LARGE
REACH_KEY = _fairshuf.REACH_KEY
REACH_DEFAULT = _fairshuf.REACH_DEFAULT
STREAM_V1 = _fairshuf.STREAM_V1
STREAM_V3 = _fairshuf.STREAM_V3
STREAM_V2 = _fairshuf.STREAM_V2
STREAM_LATEST = _fairshuf.STREAM_LATEST

_GENERATORS = {
    "chacha20": 0,
    "chacha12": 1,
    "chacha8": 2,
    "xoshiro256++": 3,
    "xoshiro256pp": 3,
    "xoshiro": 3,
}

_LAYOUTS = {"round_robin": 0, "round-robin": 0, "blocks": 1}

_U64 = (1 << 64) - 1


def _seed_bytes(seed):
    """The bytes a seed stands for: str as UTF-8, a non-negative int (or
    numpy integer) as its decimal string (so 42 is the command's
    --seed=42), and bytes or any buffer of single bytes by the fair
    functions' rule (_bytes_arg: read in logical order; a buffer of wider
    items, whose bytes are the machine's byte order, is a TypeError)."""
    if seed is None:
        return None
    if isinstance(seed, str):
        return seed.encode("utf-8")
    if isinstance(seed, bool) or (_np is not None and isinstance(seed, _np.bool_)):
        raise TypeError("seed must be None, bytes, str or int, not %s" % type(seed).__name__)
    # Before the buffers: a numpy integer exports one (its machine bytes).
    if isinstance(seed, int) or (_np is not None and isinstance(seed, _np.integer)):
        if seed < 0:
            raise ValueError("an int seed must be non-negative")
        return _decimal(int(seed)).encode("ascii")
    return _bytes_arg(seed, "seed", "None, bytes, str or int")


def _decimal(n):
    """The decimal digits of the int n >= 0, however many: str() refuses
    more than sys.get_int_max_str_digits() (4300 by default, Python 3.11
    on), so longer ones are made from halves that it takes."""
    try:
        return str(n)
    except ValueError:
        pass
    k = n.bit_length() * 3 // 20  # about half the digits (log10(2) > 3/10)
    hi, lo = divmod(n, 10 ** k)
    return _decimal(hi) + _decimal(lo).rjust(k, "0")


def _words_out(ba, shape, dtype):
    """A bytearray of 64-bit words as a numpy array of dtype (int64 or
    uint64) and shape (over the bytearray: no copy), or, without numpy, a
    1-d array.array (the caller has checked the shape: _flat_shape)."""
    if _np is not None:
        a = _np.frombuffer(ba, dtype=dtype)
        return a.reshape(shape) if shape is not None else a
    return _array_out(ba, "q" if dtype == "int64" else "Q")


def _array_out(ba, typecode):
    """Without numpy: the bytes of ba as an array.array of typecode (one
    copy, the array's own)."""
    import array

    out = array.array(typecode)
    out.frombytes(ba)
    return out


def _flat_shape(shape):
    """Without numpy the arrays made are array.array, which is 1-d: a
    shape of one dimension, (k,), or ValueError saying numpy is needed
    (the shape was ignored: size=(2, 3) gave 6 values in a row)."""
    if shape is not None and len(shape) != 1:
        raise ValueError("size %r has %d dimensions: without numpy the result is a 1-d "
                         "array.array (or list); shaped arrays need numpy"
                         % (shape, len(shape)))


def _typecode(width, signed):
    """The array.array typecode of integers of width bytes."""
    import array

    for c in "bhiql":
        if array.array(c).itemsize == width:
            return c if signed else c.upper()
    raise TypeError("no array.array type holds %d-byte integers" % width)


# integers' dtypes without numpy: name -> (bytes, signed); bool is (1, None)
_PLAIN_DTYPES = {}
for _w in (1, 2, 4, 8):
    for _signed, _pre in ((True, "int"), (False, "uint")):
        for _name in ("%s%d" % (_pre, 8 * _w), "%s%d" % (_pre[0], _w)):
            _PLAIN_DTYPES[_name] = (_w, _signed)
            _PLAIN_DTYPES["=" + _name] = (_w, _signed)
            if _sys.byteorder == "little":
                _PLAIN_DTYPES["<" + _name] = (_w, _signed)
            else:
                _PLAIN_DTYPES[">" + _name] = (_w, _signed)
for _name in ("bool", "?", "b1", "|b1"):
    _PLAIN_DTYPES[_name] = (1, None)
_PLAIN_DTYPES["|i1"] = (1, True)
_PLAIN_DTYPES["|u1"] = (1, False)
del _w, _signed, _pre, _name


def _int_dtype(dtype):
    """integers' dtype: (numpy dtype or None, width in bytes, signed: True,
    False or None for bool, lowest, highest value). Without numpy: the
    names int8 .. uint64 (and i1 .. u8, native byte order), bool, or the
    types int (int64, as numpy's default) and bool; anything else is a
    TypeError, an integer dtype that numpy alone can make says so."""
    if _np is not None:
        dt = _np.dtype(dtype)
        if dt.kind not in "iub":
            raise TypeError("dtype must be an integer dtype or bool, not %s" % dt)
        if dt.kind == "b":
            return dt, 1, None, 0, 1
        info = _np.iinfo(dt)
        return dt, dt.itemsize, dt.kind == "i", int(info.min), int(info.max)
    if dtype is bool:
        spec = (1, None)
    elif dtype is int:
        spec = (8, True)
    elif isinstance(dtype, str) and dtype in _PLAIN_DTYPES:
        spec = _PLAIN_DTYPES[dtype]
    else:
        raise TypeError("dtype %r: without numpy, integers takes the integer dtypes int8 .. "
                        "int64, uint8 .. uint64 (by name, or i1 .. u8), bool, or the "
                        "types int and bool" % (dtype,))
    width, signed = spec
    if signed is None:
        return None, 1, None, 0, 1
    if signed:
        return None, width, True, -(1 << (8 * width - 1)), (1 << (8 * width - 1)) - 1
    return None, width, False, 0, (1 << (8 * width)) - 1


def _is_bool(v):
    """A bool, or numpy's bool scalar (which numpy still lets act as an
    index): never an int argument here."""
    return isinstance(v, bool) or (_np is not None and isinstance(v, _np.bool_))


def _size_count(size):
    """(count, shape) for a numpy-style size: an int, or a tuple, list or
    1-d integer array of ints (numpy takes them all)."""
    if isinstance(size, list) or (_np is not None and isinstance(size, _np.ndarray)
                                  and size.ndim == 1):
        size = tuple(size)
    if _is_bool(size) or (isinstance(size, tuple) and any(_is_bool(s) for s in size)):
        raise TypeError("size must be an int or a tuple or list of ints, not bool")
    try:
        k = _operator.index(size)
        shape = (k,)
    except TypeError:
        if not isinstance(size, tuple):
            raise TypeError("size must be None, an int or a tuple or list of ints") from None
        shape = tuple(_operator.index(s) for s in size)
    count = 1
    for s in shape:
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
        count *= s
    return count, shape


def _plain_population(a, axis):
    """choice's population without numpy: the items of a sequence (a list,
    tuple, range, array.array, bytearray, ...), along axis 0. numpy makes a
    str, bytes, set, dict or iterator a 0-d array, which choice refuses;
    so is each here (list() took a str's characters, a dict's keys), and
    another axis needs numpy (it was ignored)."""
    import collections.abc

    if (isinstance(a, (str, bytes)) or
            not isinstance(a, (collections.abc.Sequence, memoryview))):
        raise ValueError("a must be a sequence or an integer, not %s" % type(a).__name__)
    if isinstance(a, memoryview) and a.ndim != 1:
        raise ValueError("without numpy, choice draws from a 1-d memoryview; this one "
                         "has %d dimensions" % a.ndim)
    ax = _int_arg(axis, "axis")
    if ax != 0:
        raise ValueError("without numpy, choice draws the items of a sequence (axis 0); "
                         "axis %d needs numpy" % ax)
    return list(a)


def _int_arg(v, what):
    if _is_bool(v):  # True is no deck count, version or nonce
        raise TypeError("%s must be an int, not bool" % what)
    try:
        return _operator.index(v)
    except TypeError:
        raise TypeError("%s must be an int, not %s" % (what, type(v).__name__)) from None


def _closed_range(low, high, endpoint, empty):
    """(low, hi, hi - low): the closed range of integers' and
    range_permutation's bounds (high None: [0, low)); ValueError(empty)
    for an empty one, or past 2**64 values."""
    low = _int_arg(low, "low")
    if high is None:
        low, high = 0, low
    else:
        high = _int_arg(high, "high")
    hi = high if endpoint else high - 1
    if hi < low:
        raise ValueError(empty if not endpoint else "high < low")
    if hi - low > _U64:
        raise ValueError("the range holds more than 2**64 values")
    return low, hi, hi - low


class Generator(_fairshuf._Generator):
    """Generator(seed=None, *, generator=None, simulation=False, reach=None, stream_version=None)

    A source of exactly uniform shuffles, samples and integers.

    seed: None (default) keys the generator from the OS (256 bits);
        bytes or any buffer of single bytes (bytearray, memoryview, a uint8
        array: read in logical order, as the fair functions read a seed;
        a buffer of wider items is a TypeError), str (its UTF-8 bytes) or
        a non-negative int (its decimal string) makes a reproducible
        stream, the C library's fsh_rng_seed:
        Generator(seed="42") has the words of ``fairshuf --seed=42``. A seed
        of s bytes is credited 8*s bits (at most 256).
    generator: "chacha20", "chacha12", "chacha8" or "xoshiro256++"
        (simulation grade by construction). None (default) is the C
        library's default: ChaCha8 when keyed from the OS (fsh_rng_new),
        ChaCha20 when seeded (fsh_rng_seed, whose stream never changes).
    simulation: opt into simulation grade (fsh_rng_set_simulation): allow
        calls with more outcomes than the seed can reach. Without it a
        seeded generator raises ReachabilityError for them (a 32-byte seed
        shuffles at most 57 items; seed=42, 2 bytes, at most 8).
    reach: the OS-keyed generator's reach policy (fsh_rng_set_reach; flags
        REACH_FULL, REACH_KEY_LARGE, REACH_KEY). None (default) is
        REACH_FULL | REACH_KEY, as the command: calls beyond 256 bits mix in
        hardware entropy (RDSEED) up to the library's cap and otherwise run
        bounded by the key, so they never fail for entropy. REACH_FULL alone
        is strict (ReachabilityError where full reach cannot be delivered).
    stream_version: which algorithm shuffles large arrays, hence the order
        a seed gives them (fsh_rng_set_stream_version): STREAM_V1
        (Fisher-Yates up to 24 MiB, the scatter shuffle above), STREAM_V2
        (the scatter shuffle above 12 MiB for items of up to 8 bytes, with
        smaller buckets: faster from 12 to 24 MiB) or STREAM_V3 (as
        STREAM_V2, with the forward Fisher-Yates for items of up to 8 bytes
        above 6 MiB and in the scatter's leaves: faster from 6 to 12 MiB).
        None (default): the newest when keyed from the OS, STREAM_V1 when
        seeded, so seeds keep their orders.
        They differ only for shuffles and permutations of more than 6 MiB;
        .stream_version says which one the generator follows.

    A Generator may be shared between threads: calls on one generator are
    serialized by its lock, and the GIL is released while the library works.
    """

    def __init__(self, seed=None, *, generator=None, simulation=False, reach=None, stream_version=None):
        if generator is not None and (not isinstance(generator, str) or generator.lower() not in _GENERATORS):
            raise ValueError(
                "generator must be one of %s" % ", ".join(sorted(set(_GENERATORS) - {"xoshiro", "xoshiro256pp"}))
            )
        sb = _seed_bytes(seed)
        if reach is None:
            r = (REACH_FULL | REACH_KEY) if sb is None else -1
        else:
            r = _int_arg(reach, "reach")
            if r < 0 or r > 7:
                raise ValueError("reach must be a combination of REACH_FULL, REACH_KEY_LARGE, REACH_KEY")
        if stream_version is None:
            sv = 0
        else:
            sv = _int_arg(stream_version, "stream_version")
            if sv not in (STREAM_V1, STREAM_V2, STREAM_V3):
                raise ValueError("stream_version must be STREAM_V1, STREAM_V2 or STREAM_V3")
        g = -1 if generator is None else _GENERATORS[generator.lower()]
        super().__init__(sb, g, bool(simulation), r, sv)

    @property
    def stream_version(self):
        """The stream version this generator's shuffles follow (1, 2 or 3)."""
        return self._stream_version()

    def __reduce_ex__(self, protocol):
        """Refused: a Generator is never pickled or copied (copy, deepcopy,
        multiprocessing's pickling). The library exports no generator
        state, and a copy that went on from it would repeat this
        generator's stream; make a Generator in each process instead
        (seeded, for reproducible streams, or from the OS)."""
        raise TypeError("fairshuf.Generator objects cannot be pickled or copied: a copy "
                        "would repeat the stream; make a new Generator (from a seed or "
                        "the OS) where it is needed")

    # ----------------------------------------------------------------- tests
    @classmethod
    def _from_words(cls, words):
        """Test hook: a generator whose words come from the list words,
        cycled (fsh_rng_from_words; credited with full entropy)."""
        g = cls(seed=bytes(32))
        g._set_words(list(words))
        return g

    @classmethod
    def _from_randint(cls, values):
        """Test hook: a generator over a uniform [1, k] source that returns
        values in order (fsh_rng_from_randint); g._asked() lists every k
        asked for since the last call. Once values run out the source
        returns 0 and the call raises ValueError (FSH_ECALLBACK)."""
        g = cls(seed=bytes(32))
        g._set_randint(list(values))
        return g

    # ---------------------------------------------------------------- orders
    def shuffle(self, x, axis=0, threads=None):
        """shuffle(x, axis=0, threads=None)

        Shuffle x in place along axis: every order of its rows is equally
        likely. x is a list, or any writable buffer: a numpy array of any
        dtype (object, structured and datetime arrays included) and any
        strides (C, Fortran, slices, negative strides), a bytearray, an
        array.array or a memoryview. The order is the C library's
        fsh_shuffle of a contiguous copy of the rows (rows are moved in
        place when they already lie one after the other). threads: None
        (fsh_shuffle) or a thread count for fsh_shuffle_threads (0: every
        core); the result does not depend on it. A masked array's data and
        mask move together. Raises TypeError for objects that are neither,
        ValueError for read-only buffers, 0-d arrays and bad axes,
        ReachabilityError (a ValueError) when the generator cannot reach
        every order."""
        if _np is not None and isinstance(x, _np.ma.MaskedArray):
            # its buffer is the data alone: shuffled, it moved the values
            # under a mask that stayed (masked values shown, shown hidden)
            return self._shuffle_by_keys(x, axis, threads)
        try:
            return _fairshuf._Generator.shuffle(self, x, axis, threads)
        except ValueError as e:
            # numpy does not export datetime64/timedelta64 buffers, nor
            # records with such fields: move the same bytes as opaque
            # records (a refusal, read-only array or bad axis fails again)
            if (_np is not None and isinstance(x, _np.ndarray)
                    and not isinstance(e, ReachabilityError)
                    and x.dtype.kind in "mMV" and not x.dtype.hasobject):
                return _fairshuf._Generator.shuffle(self, x.view("V%d" % x.dtype.itemsize),
                                                    axis, threads)
            # records with datetime and object fields: no buffer, and numpy
            # makes no view of an object dtype; see _shuffle_by_keys
            if (_np is not None and isinstance(x, _np.ndarray)
                    and not isinstance(e, ReachabilityError)
                    and x.dtype.kind == "V" and x.dtype.hasobject):
                return self._shuffle_by_keys(x, axis, threads)
            raise

    def _shuffle_by_keys(self, x, axis, threads):
        """Shuffle the array x, which exports no buffer (or whose buffer is
        not all of it: a masked array's mask), in the order fsh_shuffle
        gives a contiguous copy of its rows: rows of the same size (n rows
        of rowbytes bytes, the first holding the row's index) are shuffled
        by the library, which picks its kernel by n and rowbytes alone, and
        x's rows (a masked array's data and mask) are then moved by numpy
        in the order their indices came out (references counted by numpy).
        Rows of fewer bytes than the index needs (n > 256**rowbytes) are
        widened to the index's bytes: the order is then that of rows of
        that size (docs/PYTHON.md says when it differs)."""
        if x.ndim == 0:
            raise ValueError("cannot shuffle a 0-d array")
        ax = _int_arg(axis, "axis")
        if not -x.ndim <= ax < x.ndim:
            raise ValueError("axis %d is out of bounds for an array of dimension %d"
                             % (ax, x.ndim))
        if not x.flags.writeable:
            raise ValueError("shuffle needs a writable buffer; this one is read-only")
        ax %= x.ndim
        n = x.shape[ax]
        rowbytes = x.size // n * x.itemsize if n else 0
        if n < 2 or rowbytes == 0:
            return None
        # each row's index, little-endian, in its first w bytes: the
        # fewest that hold n - 1, so rows of the data's own size hold it
        # whenever n <= 256**rowbytes and the order is then the one x
        # without a mask gets; wider rows only when the index needs them
        w = max(1, ((n - 1).bit_length() + 7) // 8)
        idx = _np.arange(n, dtype="<u8").view(_np.uint8).reshape(n, 8)
        keys = _np.zeros((n, max(rowbytes, w)), dtype=_np.uint8)
        keys[:, :w] = idx[:, :w]

        def move():
            idx[:, :w] = keys[:, :w]
            order = idx.view("<u8").ravel()
            parts = [x]
            if isinstance(x, _np.ma.MaskedArray):
                x.unshare_mask()  # as numpy's own assignment: other arrays keep theirs
                mask = _np.ma.getmask(x)
                parts = [x.data] + ([mask] if mask is not _np.ma.nomask else [])
            for part in parts:
                rows = _np.moveaxis(part, ax, 0)
                rows[...] = rows[order]

        # the keys' shuffle and the rows' move under the generator's lock,
        # as one call: numpy may release the GIL while it moves the rows,
        # and another shuffle of x through this generator must not run
        # between them
        self._shuffle_keys(keys, n, threads, move)
        return None

    def permutation(self, x, axis=0):
        """permutation(x, axis=0)

        x an int n: the values 0..n-1 in uniformly random order, as a numpy
        int64 array (array.array('q') without numpy); the same values as
        the C library's fsh_permutation(rng, out, 0, n-1). x an array or
        sequence: a shuffled copy (along axis for arrays; a list for a
        list); x itself is not changed."""
        if _is_bool(x):
            raise TypeError("permutation needs an int or an array")
        if isinstance(x, int) or (_np is not None and isinstance(x, _np.integer)):
            n = int(x)
            if n < 0:
                raise ValueError("n must be non-negative")
            return _words_out(self._permutation_bytes(n), None, "int64")
        if isinstance(x, list):
            y = list(x)
            self.shuffle(y, axis=axis)
            return y
        if _np is not None:
            y = _np.array(x, copy=True)
            if y.ndim == 0:
                raise ValueError("x must be an int or at least 1-d")
            self.shuffle(y, axis=axis)
            return y
        if isinstance(x, memoryview):
            # a copy with x's format and shape: bytearray(x) alone was its
            # bytes, shuffled one by one (a 'q' view's values cut apart,
            # a 2-d view's rows undone)
            try:
                y = memoryview(bytearray(x.tobytes())).cast("B").cast(x.format, x.shape)
            except (TypeError, ValueError):
                raise ValueError("without numpy, permutation copies a memoryview of a "
                                 "native single-character format (this one is %r); "
                                 "other formats need numpy" % x.format) from None
            self.shuffle(y, axis=axis)
            return y
        if isinstance(x, (bytes, bytearray)) or hasattr(x, "tobytes"):
            import copy

            y = bytearray(x) if isinstance(x, bytes) else copy.copy(x)
            self.shuffle(y, axis=axis)
            return y
        if isinstance(x, (tuple, range)):  # numpy makes them arrays; here a list
            y = list(x)
            self.shuffle(y, axis=axis)
            return y
        raise TypeError("permutation needs an int or an array")

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """choice(a, size=None, replace=True, p=None, axis=0, shuffle=True)

        Draw from a (an int n: the values 0..n-1; else the items of an
        array or sequence along axis). replace=False: size distinct items,
        every ordered selection equally likely, in O(size) time and memory
        whatever n is (the C library's fsh_sample_range); size > n raises
        ValueError. replace=True: independent exact draws (fsh_uniform).
        size None returns one item. p (weights) is not supported; shuffle
        is accepted for numpy compatibility (the order is always uniform)."""
        if p is not None:
            raise NotImplementedError("fairshuf's choice draws uniformly: p is not supported")
        if _np is not None and isinstance(a, _np.ndarray) and a.ndim == 0 and a.dtype.kind in "iub":
            a = a[()]  # a 0-d integer array is its int, as in numpy
        if _is_bool(a):
            raise TypeError("a must be an int or an array")
        pop = None
        if isinstance(a, int) or (_np is not None and isinstance(a, _np.integer)):
            n = int(a)
            if n < 0:
                raise ValueError("a must be non-negative")
            if n - 1 > _U64:
                raise ValueError("a must be at most 2**64")
        else:
            if _np is not None:
                pop = _np.asarray(a)
                if pop.ndim == 0:
                    raise ValueError("a must be 1-dimensional or an integer")
                ax = _int_arg(axis, "axis")
                if not -pop.ndim <= ax < pop.ndim:
                    raise ValueError("axis %d is out of bounds" % ax)
                n = pop.shape[ax]
            else:
                pop = _plain_population(a, axis)
                n = len(pop)
        if size is None:
            count, shape = 1, None
        else:
            count, shape = _size_count(size)
            if _np is None:
                _flat_shape(shape)
        if n == 0 and count > 0:
            raise ValueError("a cannot be empty unless no samples are taken")
        if not replace:
            if count > n:
                raise ValueError("cannot take a larger sample than the population when replace=False")
            ba = self._sample_bytes(count, 0, n - 1) if count else bytearray()
        else:
            ba = self._integers_bytes(count, 0, n - 1) if count else bytearray()
        idx = _words_out(ba, None, "int64" if n <= 1 << 63 else "uint64")
        if pop is None:
            if size is None:
                return int(idx[0])
            return idx.reshape(shape) if _np is not None else idx
        if _np is not None:
            out = _np.take(pop, idx, axis=_operator.index(axis))
            if size is None:
                return out[0] if out.ndim == 1 else _np.take(pop, int(idx[0]), axis=axis)
            if len(shape) != 1:
                ax = _operator.index(axis) % pop.ndim
                out = out.reshape(pop.shape[:ax] + shape + pop.shape[ax + 1:])
            return out
        res = [pop[i] for i in idx]
        return res[0] if size is None else res

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        """integers(low, high=None, size=None, dtype="int64", endpoint=False)

        Exactly uniform integers in [low, high) (numpy's convention; [low,
        high] with endpoint=True; high None means [0, low)), by Lemire's
        method without modulo bias (fsh_uniform_range). Any range of up to
        2**64 values works. size None returns a Python int (a bool for
        dtype=bool); else a numpy array of dtype (any integer dtype the
        range fits, or bool for a range within [0, 1], as numpy) and shape
        size, or an array.array without numpy. high <= low raises
        ValueError."""
        low, hi, span = _closed_range(low, high, endpoint, "high <= low")
        dt, width, signed, lo_min, hi_max = _int_dtype(dtype)
        is_bool = signed is None
        if low < lo_min or hi > hi_max:
            raise ValueError("the range [%d, %d] does not fit in %s"
                             % (low, hi, dt if dt is not None else dtype))
        if size is None:
            ba = self._integers_bytes(1, low & _U64, span)
            v = int.from_bytes(bytes(ba), "little")
            v = v - (1 << 64) if v > hi else v
            return bool(v) if is_bool else v
        count, shape = _size_count(size)
        if _np is None:
            _flat_shape(shape)
            if is_bool:
                raise TypeError("dtype=bool with a size needs numpy (array.array holds no "
                                "bools); without numpy, use dtype='uint8'")
        # the values are written at the dtype's width, in native order:
        # the array itself, with no 8-byte array to convert
        ba = self._integers_bytes(count, low & _U64, span, width)
        if _np is None:
            return _array_out(ba, _typecode(width, signed))
        a = _np.frombuffer(ba, dtype=dt.newbyteorder("=")).reshape(shape)
        return a if a.dtype == dt else a.astype(dt)

    def random_raw(self, size=None):
        """random_raw(size=None)

        Raw 64-bit words of the stream (fsh_rng_u64): one Python int for
        size None, else a numpy uint64 array of shape size (without numpy
        a 1-d array.array('Q'), for a size of one dimension)."""
        if size is None:
            return int.from_bytes(self.bytes(8), "little")
        count, shape = _size_count(size)
        if _np is None:
            _flat_shape(shape)
        if count > _sys.maxsize // 8:  # not bytes()'s "length is too large"
            raise ValueError("size is too large")
        return _words_out(self._raw_bytes(count), shape, "uint64")

    def range_permutation(self, low, high=None, *, endpoint=False, hint=0):
        """range_permutation(low, high=None, *, endpoint=False, hint=0)

        A uniformly random permutation of range(low, high) drawn lazily: a
        RangePermutation, an iterator whose values come one at a time
        (next(p), a for loop) or in batches (p.next_n(k), a numpy array),
        each in expected O(1) time, in memory proportional to the values
        drawn whatever the size of the range (the C library's
        fsh_rangeperm). Bounds as integers: [low, high), [low, high] with
        endpoint=True, high None means [0, low); any range of 1 to 2**64
        values within int64 or uint64 (an empty range raises ValueError,
        as the library refuses lo > hi). Every ordered prefix is equally
        likely; with the same seed the values are those of C's
        fsh_rangeperm_new(lo, hi) and fsh_rangeperm_next/next_n. hint:
        how many values you mean to draw (0: unknown); their storage is
        allocated at once (MemoryError now rather than part-way) and the
        draws up to it allocate nothing. It never changes the values."""
        low, hi, span = _closed_range(low, high, endpoint,
                                      "high <= low: the range is empty")
        if low < -(1 << 63) or (low < 0 and hi > (1 << 63) - 1):
            raise ValueError("the range [%d, %d] fits neither int64 nor uint64" % (low, hi))
        h = _int_arg(hint, "hint")
        if h < 0:
            raise ValueError("hint must be non-negative")
        h = min(h, span + 1, _U64)  # past the range's size it counts as the size
        return _fairshuf._RangePermutation.__new__(RangePermutation, self, low & _U64, span, h,
                                                   hi <= (1 << 63) - 1)

    # ----------------------------------------------------------------- cards
    def deal(self, players=None, cards=None, *, decks=1, jokers=0, burn=0,
             layout="round_robin", names=True, notation="unicode", faces=None):
        """deal(players=None, cards=None, *, decks=1, jokers=0, burn=0,
        layout="round_robin", names=True, notation="unicode", faces=None)

        Deal from a freshly shuffled shoe of decks standard decks with
        jokers (0, 1 or 2) jokers each, or of the custom faces (a list of
        names) times decks copies; every distinct order of the shoe is
        equally likely (fsh_deck). burn cards are burned first. players None:
        the whole rest of the shoe (or cards cards) as one list; else a list
        of players hands of cards cards each (cards None: the rest shared
        out evenly), dealt round-robin or in blocks (layout). names: card
        names ("A♠", "10♥"; notation="poker": "As", "Th") instead of face
        codes (0..51: suit * 13 + rank - 2; 52, 53 the jokers)."""
        lay = _LAYOUTS.get(layout) if isinstance(layout, str) else None
        if lay is None:
            raise ValueError("layout must be 'round_robin' or 'blocks'")
        for v, what in ((decks, "decks"), (jokers, "jokers"), (burn, "burn")):
            _int_arg(v, what)
            if v < 0:
                raise ValueError("%s must be non-negative" % what)
        faces = _faces_arg(faces)
        m, d = _set_shape(decks, jokers, faces)
        np_ = 1 if players is None else _int_arg(players, "players")
        if np_ < 1:
            raise ValueError("players must be at least 1")
        nc = -1 if cards is None else _int_arg(cards, "cards")
        if cards is not None and nc < 0:
            raise ValueError("cards must be non-negative")
        _deal_counts(m * d, int(burn), players is not None and np_, nc)
        # What the deal holds at once, checked before anything is allocated
        # as fairshuf deal checks it: the deck (8 bytes a card of the
        # shoe), the cards dealt (4) and each list returned (8 a card: the
        # face codes, the names, the hands).
        total = (nc if nc >= 0 else (m * d - int(burn)) // np_) * np_
        _check_memory(8 * m * d + total * (4 + 8 * (1 + bool(names) + (players is not None))))
        # the names first: a bad notation fails before anything is drawn
        table = card_names(jokers=int(jokers), notation=notation, faces=faces) if names else None
        flat = self._deal(int(decks), int(jokers) if faces is None else 0, faces, int(burn),
                          np_, nc, lay)
        if names:
            flat = [table[c] for c in flat]
        if players is None:
            return flat
        k = len(flat) // np_
        return [flat[i * k:(i + 1) * k] for i in range(np_)]


_PROC = "/proc"  # where _memory_room reads (the tests point it at a fake one)
_CG_FILES = {"cgroup2": ("memory.max", "memory.current", "inactive_file"),
             "cgroup": ("memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file")}


def _slurp(path, cap):
    try:
        with open(path, "rb") as f:
            return f.read(cap - 1).decode("latin-1")
    except OSError:
        return None


def _file_number(text):
    """The decimal number that is text, up to a newline; None otherwise
    ("max", garbage, no file)."""
    m = _re.match(r"([0-9]+)(?:\n|$)", text or "")
    return min(int(m.group(1)), (1 << 64) - 1) if m else None


def _cgroup_level(d, files):
    """A cgroup directory's room: its limit less what it holds less its
    inactive page cache; its limit if it reports no usage; None: no limit."""
    lim = _file_number(_slurp(d + "/" + files[0], 64))
    if lim is None:
        return None
    used = _file_number(_slurp(d + "/" + files[1], 64))
    if used is None:
        return lim
    cache = 0
    for line in (_slurp(d + "/memory.stat", 1 << 16) or "").split("\n"):
        if line.startswith(files[2] + " "):
            cache = _file_number(line[len(files[2]) + 1:]) or 0
            break
    return max(lim - (used - min(cache, used)), 0)


def _cgroup_room():
    """The least room over this process's cgroups with a memory limit and
    their ancestors (v2 memory.max, v1 memory.limit_in_bytes; their mounts
    from mountinfo), as fairshuf deal reads it; None: no limit."""
    cgs, mi = _slurp(_PROC + "/self/cgroup", 1 << 16), _slurp(_PROC + "/self/mountinfo", 1 << 20)
    if cgs is None or mi is None:
        return None
    paths = {}
    for line in cgs.split("\n"):
        part = line.split(":", 2)
        if len(part) == 3 and part[:2] == ["0", ""]:
            paths["cgroup2"] = part[2]
        if len(part) == 3 and "memory" in part[1].split(","):
            paths["cgroup"] = part[2]
    least = None
    for line in mi.split("\n"):
        f = line.split(" ", 5)
        tail = f[5].split(" - ", 1) if len(f) == 6 else []
        rest = tail[1].split(" ") if len(tail) == 2 else []
        kind = rest[0] if rest else None
        if kind not in paths or (kind == "cgroup" and
                                 (len(rest) < 3 or "memory" not in rest[2].split(","))):
            continue
        root, cg = f[3], paths[kind]
        if root != "/":
            if not (cg == root or cg.startswith(root + "/")):
                continue  # our cgroup is not under this mount
            cg = cg[len(root):]
        rel = cg.rstrip("/")
        while True:
            v = _cgroup_level(f[4] + rel, _CG_FILES[kind])
            if v is not None and (least is None or v < least):
                least = v
            if not rel:
                break
            rel = rel[:rel.rindex("/")].rstrip("/") if "/" in rel else ""
    return least


def _memory_room():
    """What the system can give (MemAvailable + SwapFree) and the room under
    the cgroups' limits, the less of the two; None if neither is known."""
    text = _slurp(_PROC + "/meminfo", 8192) or ""
    avail = swap = None
    for line in text.split("\n"):
        m = _re.match(r"(MemAvailable|SwapFree):\s*([0-9]+)", line)
        if m and m.group(1) == "MemAvailable":
            avail = int(m.group(2))
        elif m:
            swap = int(m.group(2))
    can = None if avail is None else (avail + (swap or 0)) * 1024
    room = _cgroup_room()
    return room if can is None else can if room is None else min(can, room)


_CHECK_MEMORY_FROM = 1 << 20  # bytes: smaller deals skip reading /proc (about 0.2 ms)


def _check_memory(need):
    """MemoryError ("memory exhausted", as fairshuf deal says) when need
    bytes are more than _memory_room: the kernel's overcommit would grant
    them and kill the process when it touched the last pages. A deal of
    at most 1 MiB (some 29,000 cards) is not checked: reading /proc would
    cost more than the deal, which a program may call for every hand."""
    if need <= _CHECK_MEMORY_FROM:
        return
    room = _memory_room()
    if room is not None and need > room:
        raise MemoryError("memory exhausted: the deal needs %d bytes, the system can give %d "
                          "(MemAvailable + SwapFree, the cgroup's room)" % (need, room))


def _plural(k, what):
    return "%d %s%s" % (k, what, "" if k == 1 else "s")


def _deal_counts(n, burn, players, cards):
    """ValueError naming the count the shoe of n cards cannot give, and
    its limit, as fairshuf deal refuses it (players False: one list of
    cards cards, or the rest; cards -1: the rest, or shared out)."""
    if burn > n:
        raise ValueError("burn must be in 0..%d (the shoe's cards), not %d" % (n, burn))
    if not players:
        if cards > n - burn:
            raise ValueError("cards must be in 0..%d (the cards left after %d burned), not %d"
                             % (n - burn, burn, cards))
        return
    if players > n:
        raise ValueError("players must be in 1..%d (the shoe's cards), not %d" % (n, players))
    if cards > n:
        raise ValueError("cards must be in 0..%d (the shoe's cards), not %d" % (n, cards))
    if cards >= 0 and players * cards + burn > n:
        raise ValueError("%s of %s%s need %d cards; the shoe holds %d"
                         % (_plural(players, "hand"), _plural(cards, "card"),
                            " and the burn" if burn else "", players * cards + burn, n))


class RangePermutation(_fairshuf._RangePermutation):
    """A uniformly random permutation of a range, drawn lazily: made by
    Generator.range_permutation (the C library's fsh_rangeperm).

    An iterator: next(p) is the next value (a Python int); StopIteration
    once every value has been drawn. p.next_n(k) is the next k values as a
    numpy array (array.array without numpy) of p.dtype: int64 when every
    value of the range fits in it, else uint64 (as Generator.choice).
    drawn, remaining and size count values; start and stop are the
    range's bounds (stop exclusive). Draws use the Generator it was made
    from and take its lock: one permutation, or several of one generator,
    may be used from several threads (one call at a time), and the GIL is
    released while the library works. close() (or a with block) frees the
    storage at once; otherwise it goes when the object does."""

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        raise TypeError("RangePermutation objects are made by Generator.range_permutation")

    def next_n(self, k):
        """next_n(k)

        The next k values as a numpy array of self.dtype (array.array
        without numpy), exactly as k calls of next() would give them and
        from the same draws, several times faster (fsh_rangeperm_next_n).
        k = 0 gives an empty array and draws nothing. k past the values
        left raises ValueError and draws nothing (the library refuses it:
        ask for p.remaining to take the rest); so does a refused batch
        (ReachabilityError: the generator cannot reach every ordered
        prefix up to the batch's end)."""
        ba = self._next_n_bytes(k)
        return _words_out(ba, None, "int64" if self._signed else "uint64")

    @property
    def start(self):
        """The range's first value (as range.start)."""
        lo = self._lo
        return lo - (1 << 64) if self._signed and lo > (1 << 63) - 1 else lo

    @property
    def size(self):
        """The number of values in the range (up to 2**64)."""
        return self._span + 1

    @property
    def stop(self):
        """One past the range's last value (as range.stop)."""
        return self.start + self.size

    @property
    def remaining(self):
        """The number of values not drawn yet."""
        return self.size - self.drawn

    @property
    def dtype(self):
        """The dtype of next_n's arrays: numpy.int64, or numpy.uint64 for
        ranges past 2**63 - 1 (the strings without numpy)."""
        name = "int64" if self._signed else "uint64"
        return _np.dtype(name) if _np is not None else name

    def __length_hint__(self):
        return min(self.remaining, _sys.maxsize)

    def __reduce_ex__(self, protocol):
        """Refused, as for Generator: a copy would repeat the values."""
        raise TypeError("fairshuf.RangePermutation objects cannot be pickled or copied: "
                        "a copy would repeat the values")

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return "<RangePermutation of range(%d, %d): %d drawn%s>" % (
            self.start, self.stop, self.drawn, ", closed" if self.closed else "")


# -------------------------------------------------------------- fair rounds

FairRound = _namedtuple("FairRound", ["commitment", "order", "nonce", "client_seed"])
FairRound.__doc__ = """A provably fair round: the commitment to the server
seed (lowercase hex SHA-256), the deal order (first card dealt first), the
nonce and the client seed (bytes)."""


_BYTE_FORMATS = frozenset(("B", "b", "c"))


def _bytes_arg(v, what, kinds="bytes or str"):
    """The bytes of a seed, one rule for every fair function: bytes as they
    are; bytearray, memoryview or any other buffer of single bytes
    (array('B'), a uint8 or int8 numpy array) of any shape, strides or
    order, read in its logical (C) order, as .tobytes() reads it. A buffer
    of wider items (an int32 array) is a TypeError: its bytes are the
    machine's byte order, not the seed's. (A str is the caller's: hex for a
    server seed, UTF-8 for a client seed.) Generator's seed takes the same
    rule for bytes and buffers."""
    if isinstance(v, bytes):
        return v
    try:
        mv = memoryview(v)
    except TypeError:
        raise TypeError("%s must be %s, not %s" % (what, kinds, type(v).__name__)) from None
    with mv:
        if mv.itemsize != 1 or mv.format.lstrip("@=<>!") not in _BYTE_FORMATS:
            raise TypeError("%s must be bytes or a buffer of single bytes (uint8), not a buffer "
                            "of %r items (its bytes would depend on the machine's byte order)"
                            % (what, mv.format))
        return mv.tobytes()


def _client_seed_arg(v):
    """A client seed: its bytes (a str: its UTF-8), which must be text,
    well-formed UTF-8 (a NUL is a character), as fairshuf deal and every
    verifier take it, and at most 256 bytes; ValueError otherwise (the
    library says only "invalid argument")."""
    if isinstance(v, str):
        try:
            b = v.encode("utf-8")
        except UnicodeEncodeError:
            b = None
    else:
        b = _bytes_arg(v, "client_seed")
        try:
            b.decode("utf-8")
        except UnicodeDecodeError:
            b = None
    if b is None:
        raise ValueError("client_seed must be UTF-8 text (every verifier takes text: "
                         "fairshuf verify, verify_deal.py, the page, the deal JSON), not %r"
                         % (v[:80] if isinstance(v, str) else bytes(v)[:80],))
    if len(b) > _FAIR_CLIENT_MAX:  # the library says only "invalid argument"
        raise ValueError("client_seed must be at most %d bytes, not %d"
                         % (_FAIR_CLIENT_MAX, len(b)))
    return b


def _server_seed_arg(v):
    """A server seed: bytes as they are, or a str of hex digits (what
    ``fairshuf deal --reveal`` prints and its seed files hold), decoded.
    Other text is a ValueError: taken as its UTF-8 bytes, the revealed hex
    seed of an honest round hashed to another commitment and fair_verify
    said False."""
    if isinstance(v, str):
        if len(v) % 2 or not _HEX_DIGITS.issuperset(v):
            raise ValueError("server_seed as a str must be hex digits, an even number of "
                             "them and nothing else (as fairshuf deal --reveal prints it), "
                             "not %r; pass bytes for a raw seed" % (v[:80],))
        return bytes.fromhex(v)
    return _bytes_arg(v, "server_seed")


def fair_commit(server_seed):
    """fair_commit(server_seed)

    The commitment to a server seed: the lowercase hex SHA-256 of its bytes
    (fsh_fair_commit). server_seed as fair_order takes it: bytes (or a
    buffer of single bytes), or a str of hex digits."""
    return _fairshuf.fair_commit(_server_seed_arg(server_seed))


def _faces_arg(faces):
    """Custom faces as a list of names, read once (an iterator is read one
    time only), or None. A str (or bytes) is refused: it is one name, or
    its characters, and "AKQ" was taken as three faces; one-character
    faces are list("AKQ"). So is a set: its order is not the same from one
    run to the next."""
    if faces is None:
        return None
    if isinstance(faces, (str, bytes, bytearray)):
        raise TypeError("faces must be a sequence of names, not %s (for one-character "
                        "faces write list(%r))" % (type(faces).__name__, faces))
    if isinstance(faces, (set, frozenset)):
        # face i is the i-th name: a set of str is iterated in an order
        # that changes between runs (hash randomization), so a seed would
        # not give the same names twice
        raise TypeError("faces must be an ordered sequence of names, not a %s (its order "
                        "changes between runs, and face codes follow it)" % type(faces).__name__)
    return list(faces)


def _set_shape(decks, jokers, faces):
    """(faces, copies) of a shoe, with ValueError naming what is wrong
    where the library would say only "invalid argument". faces is None or
    _faces_arg's list, whose names are checked as the library's card set
    checks them (distinct, 1 to 31 bytes, ...), for the rounds too, whose
    order depends on the count alone."""
    d = _int_arg(decks, "decks")
    if not d <= 0xFFFFFFFF:
        raise ValueError("decks must be at most 2**32 - 1")
    if d < 1:
        raise ValueError("decks must be at least 1")
    if faces is not None:
        m = len(faces)
        if m == 0:
            raise ValueError("faces must name at least one card")
        _fairshuf.card_names(faces=faces)
    else:
        j = _int_arg(jokers, "jokers")
        if j not in (0, 1, 2):
            raise ValueError("jokers must be 0, 1 or 2")
        m = 52 + j
    if m * d > 0xFFFFFFFF:
        raise ValueError("the shoe would hold %d cards: at most 2**32 - 1" % (m * d))
    return m, d


def card_names(jokers=0, notation="unicode", faces=None):
    """card_names(jokers=0, notation="unicode", faces=None)

    The names of the faces 0..m-1 of a card set: the standard deck with
    jokers (0, 1 or 2) jokers ("A♠", or "As" with notation="poker"; "RJ",
    "BJ"), or the custom faces (a list of names; jokers is not used)."""
    j = _int_arg(jokers, "jokers")
    if j < 0 or (faces is None and j > 2):
        raise ValueError("jokers must be 0, 1 or 2")
    # with faces, jokers is not used (any count, as deal takes it)
    return _fairshuf.card_names(jokers=j if faces is None else 0, notation=notation,
                                faces=_faces_arg(faces))


def fair_seed_min(decks=1, jokers=0, faces=None):
    """fair_seed_min(decks=1, jokers=0, faces=None)

    The shortest server seed in bytes the round accepts for the shoe:
    max(32, the bytes of log2 of its distinct orders), fsh_fair_seed_min."""
    m, c = _set_shape(decks, jokers, _faces_arg(faces))
    if m < 0 or c < 0:
        raise ValueError("decks and jokers must be non-negative")
    return _fairshuf.fair_seed_min(m, c)


def fair_server_seed(decks=1, jokers=0, faces=None):
    """fair_server_seed(decks=1, jokers=0, faces=None)

    A fresh secret server seed of fair_seed_min bytes from the OS random
    source (fsh_entropy). docs/FAIRNESS.md recommends a hardware source
    for production; any uniformly random bytes of that length will do.
    A seed the system cannot hold (a set of billions of cards of many
    faces needs gigabytes) is MemoryError ("memory exhausted") before it
    is allocated."""
    least = fair_seed_min(decks, jokers, faces)
    _check_memory(least)
    return _fairshuf.entropy(least)


def fair_order(server_seed, client_seed=b"", nonce=0, *, decks=1, jokers=0, faces=None,
               names=False, notation="unicode"):
    """fair_order(server_seed, client_seed=b"", nonce=0, *, decks=1, jokers=0,
    faces=None, names=False, notation="unicode")

    The deal order of a provably fair round (fairshuf-deal-v1,
    fsh_fair_order): a pure function of the server seed (bytes, or a str
    of hex digits), the client seed (text: a str, or bytes that are UTF-8;
    at most 256 bytes; other bytes are a ValueError, as every verifier
    refuses them), the nonce and the shoe.
    A server seed shorter than fair_seed_min raises ValueError."""
    faces = _faces_arg(faces)
    m, c = _set_shape(decks, jokers, faces)
    nonce = _int_arg(nonce, "nonce")
    if not 0 <= nonce <= _U64:
        raise ValueError("nonce must be in 0..2**64-1")
    if m < 0 or c < 0:
        raise ValueError("decks and jokers must be non-negative")
    sb, cb = _server_seed_arg(server_seed), _client_seed_arg(client_seed)
    least = _fairshuf.fair_seed_min(m, c)
    if len(sb) < least:
        raise ValueError("server seed too short for this game: %d bytes, at least %d "
                         "(fair_seed_min)" % (len(sb), least))
    _check_memory(_fair_need(m, c, names))
    order = _fairshuf.fair_order(m, c, sb, cb, nonce)
    if names:
        table = card_names(jokers=_int_arg(jokers, "jokers"), notation=notation, faces=faces)
        order = [table[x] for x in order]
    return order


def _fair_need(m, c, names=False, given=0):
    """The bytes a round of the set (m faces, c copies) holds at once: the
    library's n cells (4 bytes a card) and the order's list (8), then the
    names' list beside it (8 more with names), each face code above 256
    an int of its own (32: smaller ones are shared), and the given cards'
    two lists in fair_verify (16 a card given). A set of one face and
    2**32 - 1 copies takes a 32-byte seed and 51 GB: checked as deal
    checks its shoe, before anything is allocated (it was allocated, and
    the process killed, or a MemoryError after minutes)."""
    n = m * c
    return (16 if names else 12) * n + 32 * c * max(m - 257, 0) + 16 * given


def fair_round(server_seed, client_seed=b"", nonce=0, *, decks=1, jokers=0, faces=None,
               names=False, notation="unicode"):
    """fair_round(server_seed, client_seed=b"", nonce=0, **shoe)

    The round as a FairRound(commitment, order, nonce, client_seed): what
    the operator publishes after play (with the server seed once retired)."""
    order = fair_order(server_seed, client_seed, nonce, decks=decks, jokers=jokers,
                       faces=faces, names=names, notation=notation)
    return FairRound(fair_commit(_server_seed_arg(server_seed)), order, nonce,
                     _client_seed_arg(client_seed))


_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
_FAIR_CLIENT_MAX = 256  # FSH_FAIR_CLIENT_MAX: the longest client seed in bytes


def _parse_commitment(commitment):
    """A commitment as ``fairshuf verify`` reads it: exactly 64 hex digits
    of either case and nothing else (no blank, ASCII or Unicode, around or
    between them), in lower case; ValueError otherwise."""
    if not isinstance(commitment, str):
        raise TypeError("commitment must be a hex str")
    if len(commitment) != 64 or not _HEX_DIGITS.issuperset(commitment):
        raise ValueError("malformed commitment: %r (64 hex digits)" % (commitment,))
    return commitment.lower()


def _laid_out(n, burn, players, cards, layout, hand=None, rest=False):
    """(position, size): the deal position of the t-th card given as
    fairshuf verify takes its CARDs (a function of t), and how many cards
    there are to give: burn cards, then players hands of cards cards, hand
    1 first, then the rest in deal order (n); hand H's cards alone (cards);
    the rest alone (what follows the burn cards and hands). ValueError
    where the command says bad input (a count past the shoe, players
    without cards, a hand past the last, hand and rest both)."""
    if hand is not None and rest:
        raise ValueError("cannot combine hand and rest")
    b = 0 if burn is None else _int_arg(burn, "burn")
    if not 0 <= b <= n:
        raise ValueError("burn must be in 0..%d (the shoe's cards), not %d" % (n, b))
    if layout not in _LAYOUTS:
        raise ValueError("layout must be 'round_robin' or 'blocks', not %r" % (layout,))
    if players is None:
        if cards is not None:
            raise ValueError("cards (per hand) needs players")
        if hand is not None:
            raise ValueError("hand needs players and cards")
        if rest:
            if burn is None:
                raise ValueError("rest needs burn or players (what comes before the rest)")
            return (lambda t: b + t), n - b
        return (lambda t: t), n
    p = _int_arg(players, "players")
    if not 1 <= p <= n:
        raise ValueError("players must be in 1..%d, not %d" % (n, p))
    if cards is None:
        raise ValueError("players needs cards (cards per hand)")
    k = _int_arg(cards, "cards")
    if not 0 <= k <= n or k > (n - b) // p:
        raise ValueError("more cards than the shoe holds: %d burned and %d hands of %d, the "
                         "shoe holds %d" % (b, p, k, n))
    blocks = _LAYOUTS[layout] == 1
    if hand is not None:
        h = _int_arg(hand, "hand")
        if not 1 <= h <= p:
            raise ValueError("hand must be in 1..%d (the players), not %d" % (p, h))
        return (lambda t: b + ((h - 1) * k + t if blocks else t * p + h - 1)), k
    if rest:
        return (lambda t: b + p * k + t), n - b - p * k

    def position(t):
        if t < b or t >= b + p * k:
            return t
        h, c = divmod(t - b, k)
        return b + (h * k + c if blocks else c * p + h)
    return position, n


def fair_verify(server_seed, commitment, order, client_seed=b"", nonce=0, *, decks=1,
                jokers=0, faces=None, notation="unicode", burn=None, players=None, cards=None,
                layout="round_robin", hand=None, rest=False, partial=False):
    """fair_verify(server_seed, commitment, order, client_seed=b"", nonce=0, *, decks=1,
    jokers=0, faces=None, notation="unicode", burn=None, players=None, cards=None,
    layout="round_robin", hand=None, rest=False, partial=False)

    True if the revealed server seed hashes to commitment (64 hex digits,
    either case, nothing else: what ``fairshuf verify`` accepts) and the
    round (client seed, nonce, shoe) deals exactly order (face codes, or
    names: of the standard set in either notation, "A♠" or "As", as
    ``fairshuf verify`` takes its CARDs; of custom faces, the faces). False
    when the deal does not verify (the commitment, a card or the number of
    cards is not the round's); ValueError, never False, where ``fairshuf
    verify`` says the input is bad and exits 1, with its message where it
    has one, so that a forged deal and a wrong call are told apart.

    order is the whole deal order, first card dealt first, unless told
    otherwise, as ``fairshuf verify`` takes its CARDs:

    * burn=B, players=P, cards=K, layout: order is the B burn cards, then
      P hands of K cards (hand 1 first, each in the order it was dealt;
      layout "round_robin", card c of hand p dealt at B + c*P + p, or
      "blocks", at B + p*K + c), then the rest in deal order, as
      ``fairshuf deal`` prints them and rng.deal lays them out. burn alone:
      B burn cards, then the rest.
    * hand=H (1 to P, with players and cards): order is hand H's K cards
      alone, in the order that hand received them (``fairshuf verify
      --hand``): a player checks his own hand without the others.
    * rest=True (with burn or players): order is the rest alone, the cards
      dealt after the burn cards and the hands, in deal order (``fairshuf
      verify --rest``; the board).
    * partial=True: order may hold fewer cards than the shoe, and its
      first len(order) cards are checked (the burn card and hand 1; the
      first k cards dealt; the first cards of the hand or of the rest;
      none: the commitment alone). Without it, an order that does not
      hold the whole shoe (the whole hand, the whole rest) is False, and
      so is an order longer than that.

    ValueError (bad input, as ``fairshuf verify`` refuses it): a malformed
    commitment or hex server seed; a server seed shorter than
    fair_seed_min (whatever the commitment); a client seed over 256 bytes,
    a nonce, decks or jokers out of range; burn past the shoe, players
    without cards (or cards without players), hands that do not fit in
    the shoe, an unknown layout, hand outside 1..P or without players,
    rest without burn or players, and hand with rest; more cards than
    the shoe holds ("53 cards given, more than the shoe holds (52)"),
    than hand H holds ("3 cards given, more than hand 2 holds (2)") or
    than the rest holds, partial or not; a name that is no card
    ("unknown card: 'Xs'") and a card the shoe does not hold ("card 'RJ'
    is not in this shoe (0 jokers per deck)", a face code past the set's
    too)."""
    sb = _server_seed_arg(server_seed)
    commitment = _parse_commitment(commitment)
    order = list(order)
    if any(_is_bool(x) for x in order):  # True == 1 would match face 1
        raise TypeError("order must hold face codes (int) or names (str), not bool")
    for x in order:  # nor 1.0 (a float array, say): a face code is an int
        if not isinstance(x, str):
            try:
                _operator.index(x)
            except TypeError:
                raise TypeError("order must hold face codes (int) or names (str), not %s"
                                % type(x).__name__) from None
    faces = _faces_arg(faces)
    m, c = _set_shape(decks, jokers, faces)
    n = m * c
    position, size = _laid_out(n, burn, players, cards, layout, hand, rest)
    card_names(jokers=0 if faces else jokers, notation=notation, faces=faces)  # a bad notation raises
    # In fairshuf verify's order: the seed (fair_order raises when it is
    # too short), the number of cards, each card; then the verdict.
    _check_memory(_fair_need(m, c, given=len(order)))
    mine = fair_order(sb, client_seed, nonce, decks=decks, jokers=jokers, faces=faces)
    given_n = "1 card" if len(order) == 1 else "%d cards" % len(order)
    if len(order) > n:
        raise ValueError("%s given, more than the shoe holds (%d)" % (given_n, n))
    if hand is not None and len(order) > size:
        raise ValueError("%s given, more than hand %d holds (%d)" % (given_n, hand, size))
    if rest and len(order) > size:
        raise ValueError("%s given, more than the rest holds (%d)" % (given_n, size))
    # Each name looked up in a table: faces.index was O(m) a card, hours
    # for a round of 100,000 named faces.
    table = None if faces is None else {name: k for k, name in enumerate(faces)}
    given = [_face_of(x, m, table) for x in order]
    if fair_commit(sb) != commitment:
        return False
    if len(order) < size and not partial:
        return False
    return all(mine[position(t)] == x for t, x in enumerate(given))


_C_ESCAPES = {7: "a", 8: "b", 12: "f", 10: "n", 13: "r", 9: "t", 11: "v"}


def _quote(name):
    """A name in a message as ``fairshuf verify`` quotes it in the C
    locale: 'like this', the backslash and the quote escaped, controls as
    C escapes and other bytes than printable ASCII in octal."""
    out = []
    for b in name.encode("utf-8", "surrogatepass"):
        if b in _C_ESCAPES:
            out.append("\\" + _C_ESCAPES[b])
        elif b in (0x5C, 0x27):
            out.append("\\" + chr(b))
        else:
            out.append(chr(b) if 0x20 <= b < 0x7F else "\\%03o" % b)
    return "'" + "".join(out) + "'"


_STANDARD_FACES = {}  # a name of the standard set (either notation) -> its face


def _face_of(card, m, faces):
    """The face code of an order entry of a set of m faces: a code in
    0..m-1, or a name (faces: None for the standard set, else a dict of
    the custom names to their faces); ValueError with fairshuf verify's
    message for a name that is no card and a card the shoe does not
    hold."""
    if isinstance(card, str):
        if faces is not None:
            face = faces.get(card)
            if face is None:
                raise ValueError("unknown card: %s" % _quote(card))
            return face
        if not _STANDARD_FACES:
            for notation in ("unicode", "poker"):
                for face, name in enumerate(_fairshuf.card_names(jokers=2, notation=notation)):
                    _STANDARD_FACES[name] = face
        face = _STANDARD_FACES.get(card)
        if face is None:
            raise ValueError("unknown card: %s" % _quote(card))
        if face >= m:
            raise ValueError("card %s is not in this shoe (%d joker%s per deck)"
                             % (_quote(card), m - 52, "" if m == 53 else "s"))
        return face
    face = _operator.index(card)
    if not 0 <= face < m:
        raise ValueError("card %d is not in this shoe (%s)"
                         % (face, "%d joker%s per deck" % (m - 52, "" if m == 53 else "s")
                            if faces is None else "faces 0 to %d" % (m - 1)))
    return face
