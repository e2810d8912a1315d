"""Finding repeats fast: which rows repeat a key or a string seen earlier in the same group.

The ledger's duplicates (D -> D*) are rows whose fingerprint already occurred in the same
(decomposer, answer); at ten million rows this is the costliest step, so it is done with
array operations: integer codes and a bincount where the key range is small, else a 64-bit
hash of every string, a stable sort and a string-to-string check of every repeat found.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def repeats(keys: np.ndarray, *, dense_limit: int = 64_000_000) -> np.ndarray:
    """True for every key that already occurred earlier (first occurrences are False).

    Small key ranges are counted first (a bincount), so the usual case without repeats costs a
    few milliseconds; otherwise, or when there are repeats, a hash table finds them.
    """
    if len(keys) and 0 <= keys.min() and keys.max() < dense_limit:
        if not (np.bincount(keys) > 1).any():
            return np.zeros(len(keys), dtype=bool)
    import pandas as pd

    repeated: np.ndarray = pd.Series(keys).duplicated().to_numpy()
    return repeated


_K1 = np.uint64(0x9E3779B97F4A7C15)


_K2 = np.uint64(0xBF58476D1CE4E5B9)


_K3 = np.uint64(0x94D049BB133111EB)


_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=np.uint64)


def _mix(x: np.ndarray) -> np.ndarray:
    """A 64-bit finaliser (the splitmix64 constants), in place on an array."""
    x ^= x >> np.uint64(30)
    x *= _K2
    x ^= x >> np.uint64(27)
    x *= _K3
    x ^= x >> np.uint64(31)
    return x


def string_hash(arr: pa.Array) -> np.ndarray:
    """A 64-bit hash of every string of a (non-null) string array, eight bytes per step.

    Equal strings always hash equal; callers confirm every match on the strings themselves, so
    a collision can cost time but never change a result.
    """
    n = len(arr)
    offsets = np.frombuffer(
        arr.buffers()[1], dtype=np.int32, count=n + 1, offset=arr.offset * 4
    ).astype(np.int64)
    buf = arr.buffers()[2]
    data = np.frombuffer(buf, dtype=np.uint8) if buf is not None else np.zeros(0, np.uint8)
    padded = np.zeros((len(data) + 7) // 8 * 8 + 16, dtype=np.uint8)
    padded[: len(data)] = data
    words = padded.view(np.uint64)
    start, lens = offsets[:-1], np.diff(offsets)
    h = _mix(lens.astype(np.uint64) * _K1 + _K2)
    n_words = (lens + 7) // 8
    active = np.flatnonzero(n_words > 0)
    j = 0
    while len(active):  # word j of every string that has one (an unaligned 8-byte load)
        every = len(active) == n
        pos = (start if every else start[active]) + 8 * j
        q, shift = pos >> 3, ((pos & 7) * 8).astype(np.uint64)
        w = words[q] >> shift
        w |= np.where(shift > 0, words[q + 1] << ((np.uint64(64) - shift) & np.uint64(63)), 0)
        w &= _LOW_BYTES[np.minimum((lens if every else lens[active]) - 8 * j, 8)]
        if every:
            h = _mix((h ^ w) * _K1)
        else:
            h[active] = _mix((h[active] ^ w) * _K1)
        j += 1
        active = active[n_words[active] > j]
    return h


def claim_keys(fingerprints: pa.ChunkedArray) -> pa.ChunkedArray:
    """Fingerprints as repeats are found (:func:`~claimlab.core.text.same_claim_key`).

    A column already so (lower-case ASCII, single spaces: what tools usually write) is
    returned as it is; otherwise each distinct value is read once.
    """
    from claimlab.core.text import same_claim_key

    if not len(fingerprints):
        return fingerprints
    if pa.types.is_dictionary(fingerprints.type):
        fingerprints = decoded(fingerprints)
    plain = (
        pc.all(pc.string_is_ascii(fingerprints)).as_py()
        and pc.all(pc.equal(fingerprints, pc.utf8_lower(fingerprints))).as_py()
    )
    if plain and not pc.any(pc.match_substring_regex(fingerprints, r"^\s|\s$|\s\s|[^\S ]")).as_py():
        return fingerprints
    codes, dictionary = dictionary_codes(fingerprints)
    keys = pa.array([same_claim_key(v) for v in dictionary.to_pylist()], pa.string())
    return pa.chunked_array([keys.take(pa.array(codes))])


def repeats_within(group: np.ndarray, values: pa.ChunkedArray) -> np.ndarray:
    """True for every row whose value already occurred earlier in the same group (exact).

    Each string is hashed; rows are sorted (stably, so file order survives among equals) by
    their group, then by the hash, and a row equal to its predecessor is a repeat of the first
    row of its run. When the rows of every group are contiguous, as ledgers are usually written,
    the sort key uses the run number and the data is nearly sorted already. Every repeat found
    is then compared with its first occurrence, string to string; should any pair differ (a
    hash collision), the whole column is dictionary-encoded instead.
    """
    import pandas as pd

    n = len(group)
    if n and not pa.types.is_dictionary(values.type):
        h = np.concatenate([string_hash(c) for c in values.chunks if len(c)])
        change = np.empty(n, dtype=bool)
        change[0] = True
        np.not_equal(group[1:], group[:-1], out=change[1:])
        runs = np.cumsum(change) - 1
        distinct = (
            np.count_nonzero(np.bincount(group)) if group.max() <= 4 * n else len(pd.unique(group))
        )
        contiguous = runs[-1] + 1 == distinct
        ids = runs if contiguous else group
        bits = max(int(ids.max()).bit_length(), 1)
        if bits <= 40:  # at least 24 bits of hash beside the group
            key = (ids.astype(np.uint64) << np.uint64(64 - bits)) | (h >> np.uint64(bits))
            order = np.argsort(key, kind="stable")
            ordered = key[order]
            repeat = np.empty(n, dtype=bool)
            repeat[0] = False
            np.equal(ordered[1:], ordered[:-1], out=repeat[1:])
            run_start = np.maximum.accumulate(np.where(repeat, 0, np.arange(n)))
            later, earlier = order[repeat], order[run_start[repeat]]
            if (group[later] == group[earlier]).all() and (
                not len(later) or pc.all(pc.equal(values.take(later), values.take(earlier))).as_py()
            ):
                dup = np.zeros(n, dtype=bool)
                dup[later] = True
                return dup
    codes, dictionary = dictionary_codes(values)
    return repeats(group * len(dictionary) + codes)


def unique_values(values: pa.ChunkedArray | pa.Array) -> pa.Array:
    """The distinct values of a column, in order of first occurrence, as one array."""
    u = pc.unique(values)
    return u.combine_chunks() if isinstance(u, pa.ChunkedArray) else u


def dictionary_codes(values: pa.ChunkedArray) -> tuple[np.ndarray, pa.Array]:
    """Integer codes and the string dictionary of a column, in one pass (dictionary columns for free)."""
    if not pa.types.is_dictionary(values.type):
        values = pc.dictionary_encode(values)  # chunk by chunk with one shared memo
    chunks = values.chunks if isinstance(values, pa.ChunkedArray) else [values]
    if not chunks:
        return np.zeros(0, dtype=np.int64), pa.array([], type=pa.string())
    first = chunks[0].dictionary

    def same(d: pa.Array) -> bool:  # the shared memo hands every chunk the same dictionary buffers
        return len(d) == len(first) and all(
            (a is None and b is None)
            or (a is not None and b is not None and a.address == b.address)
            for a, b in zip(d.buffers(), first.buffers(), strict=True)
        )

    if not all(same(c.dictionary) for c in chunks[1:]):
        chunks = values.unify_dictionaries().chunks
        first = chunks[0].dictionary
    codes = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in chunks]).astype(
        np.int64
    )
    return codes, first


def decoded(values: pa.ChunkedArray) -> pa.ChunkedArray:
    """A dictionary-encoded column as plain strings (any other column as it is)."""
    return values.cast(pa.string()) if pa.types.is_dictionary(values.type) else values


def codes_in(values: pa.ChunkedArray | pa.Array, dictionary: pa.Array) -> np.ndarray:
    """The index of every value in ``dictionary`` (-1 where it is not there), as int64."""
    codes: np.ndarray = (
        pc.fill_null(pc.index_in(values, value_set=dictionary), -1)
        .to_numpy(zero_copy_only=False)
        .astype(np.int64)
    )
    return codes
