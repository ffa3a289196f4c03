"""Verifier for Cowboy state proofs (docs/state.md "Proofs"): checks that a key has a value,
or is absent, under a trusted blake3 state root, by the same rules as the Rust crate
`cowboy-qmdb` (`Proof::verify`) and the TypeScript SDK (`verifyStateProof`).

A proof shows one operation of the state's operation log, its path in the Merkle mountain
range (MMR) over the log, and the 512-bit (64-byte) bitmap chunk that marks it active with
that chunk's path. An active ``Update {key, value, next_key}`` proves ``key = value``, or proves
absent every key strictly inside the cyclic gap ``(key, next_key)``. An empty state is
proven by the final ``Commit {active_keys: 0}`` operation (or by having no operations).

Hashing is state format v2: every hash is blake3 in keyed mode with one 32-byte key per
domain, ``K(name) = blake3(b"cowboy-qmdb-v2 " + name)``.

    from cowboy_py.state_proof import verify_state_proof
    value = verify_state_proof(root, key, proof_bytes)   # bytes, or None when proven absent

Every inconsistency raises :class:`StateProofError` whose ``code`` is the one Rust's
``ProofError::code()`` gives (``PROOF_ROOT_MISMATCH``, ``PROOF_MALFORMED``, ...).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Union

from blake3 import blake3 as _blake3

#: Longest key the store accepts (``MAX_KEY_LEN``).
STATE_MAX_KEY_LEN = 1024
#: Longest value the store accepts (``MAX_VALUE_LEN``).
STATE_MAX_VALUE_LEN = 16 * 1024 * 1024
#: Most hashes a path or the peak list may hold.
_MAX_PATH = 128
#: Activity bits per bitmap chunk (one chunk is 64 bytes).
_CHUNK_BITS = 512
_CHUNK_BYTES = 64
#: Prefix of every domain-key derivation string.
_KEY_PREFIX = b"cowboy-qmdb-v2 "

#: The error codes of :class:`StateProofError` (Rust ``ProofError::code()``).
PROOF_ERROR_CODES = (
    "PROOF_MALFORMED",
    "PROOF_BAD_MMR_PATH",
    "PROOF_INACTIVE",
    "PROOF_BAD_BITMAP_PATH",
    "PROOF_ROOT_MISMATCH",
    "PROOF_KEY_NOT_COVERED",
    "PROOF_BAD_KEY",
)


class StateProofError(ValueError):
    """A rejected state proof; ``code`` is one of :data:`PROOF_ERROR_CODES`."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code


def _malformed(msg: str) -> StateProofError:
    return StateProofError("PROOF_MALFORMED", msg)


@dataclass(frozen=True)
class Update:
    """``Update {key, value, next_key}``: `key` holds `value`; `next_key` is the next live key
    (cyclically)."""

    key: bytes
    value: bytes
    next_key: bytes


@dataclass(frozen=True)
class Delete:
    """``Delete {key}``."""

    key: bytes


@dataclass(frozen=True)
class Commit:
    """``Commit {floor, active_keys}``: ends each committed block."""

    floor: int
    active_keys: int


StateOp = Union[Update, Delete, Commit]


@dataclass(frozen=True)
class LastOp:
    """The last operation of the log with its MMR path (empty-state witness)."""

    op: StateOp
    op_bytes: bytes
    path: List[bytes]


@dataclass(frozen=True)
class EmptyWitness:
    """Witness that the state holds no key: the final empty commit (None when the log is
    empty) and the bitmap root."""

    last: Optional[LastOp]
    bitmap_root: bytes


@dataclass(frozen=True)
class OpWitness:
    """Witness of one active operation: its location, MMR path, bitmap chunk and chunk path."""

    loc: int
    op: StateOp
    op_bytes: bytes
    mmr_path: List[bytes]
    chunk: bytes
    bitmap_path: List[bytes]


@dataclass(frozen=True)
class StateProof:
    """A decoded state proof (byte layout: docs/state.md)."""

    op_count: int
    peaks: List[bytes]
    witness: Union[EmptyWitness, OpWitness]


class _Reader:
    def __init__(self, buf: bytes):
        self.buf = buf
        self.pos = 0

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.buf):
            raise _malformed("unexpected end of input")
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    def u8(self) -> int:
        return self.take(1)[0]

    def u32(self) -> int:
        return int.from_bytes(self.take(4), "little")

    def u64(self) -> int:
        return int.from_bytes(self.take(8), "little")

    def hash(self) -> bytes:
        return self.take(32)

    def chunk(self) -> bytes:
        return self.take(_CHUNK_BYTES)

    def bytes(self, limit: int) -> bytes:
        n = self.u32()
        if n > limit:
            raise _malformed(f"length {n} above limit {limit}")
        return self.take(n)

    def hashes(self) -> List[bytes]:
        n = self.u32()
        if n > _MAX_PATH:
            raise _malformed(f"{n} hashes in a path")
        return [self.hash() for _ in range(n)]

    def done(self, what: str) -> None:
        if self.pos != len(self.buf):
            raise _malformed(f"trailing bytes after {what}")


def decode_state_op(buf: bytes) -> StateOp:
    """Strictly decodes one encoded operation (all of `buf`)."""
    r = _Reader(bytes(buf))
    tag = r.u8()
    op: StateOp
    if tag == 0x01:
        key = r.bytes(STATE_MAX_KEY_LEN)
        value = r.bytes(STATE_MAX_VALUE_LEN)
        next_key = r.bytes(STATE_MAX_KEY_LEN)
        if not key or not next_key:
            raise _malformed("empty key in update")
        op = Update(key, value, next_key)
    elif tag == 0x02:
        key = r.bytes(STATE_MAX_KEY_LEN)
        if not key:
            raise _malformed("empty key in delete")
        op = Delete(key)
    elif tag == 0x03:
        op = Commit(r.u64(), r.u64())
    else:
        raise _malformed(f"unknown operation tag {tag}")
    r.done("operation")
    return op


def _read_op(r: _Reader) -> tuple:
    op_bytes = r.take(r.u32())
    return decode_state_op(op_bytes), op_bytes


def decode_state_proof(buf: bytes) -> StateProof:
    """Strictly decodes the proof bytes produced by Rust's ``Proof::encode``."""
    if not isinstance(buf, (bytes, bytearray, memoryview)):
        raise _malformed("a proof is bytes")
    r = _Reader(bytes(buf))
    op_count = r.u64()
    peaks = r.hashes()
    kind = r.u8()
    witness: Union[EmptyWitness, OpWitness]
    if kind == 0:
        flag = r.u8()
        last = None
        if flag == 1:
            op, op_bytes = _read_op(r)
            last = LastOp(op, op_bytes, r.hashes())
        elif flag != 0:
            raise _malformed(f"bad flag {flag}")
        witness = EmptyWitness(last, r.hash())
    elif kind == 1:
        loc = r.u64()
        op, op_bytes = _read_op(r)
        witness = OpWitness(loc, op, op_bytes, r.hashes(), r.chunk(), r.hashes())
    else:
        raise _malformed(f"bad witness kind {kind}")
    r.done("proof")
    return StateProof(op_count, peaks, witness)


def _domain_key(name: str) -> bytes:
    """The blake3 key of a hashing domain: ``blake3(b"cowboy-qmdb-v2 " + name)``."""
    return _blake3(_KEY_PREFIX + name.encode()).digest()


_K_MMR_LEAF = _domain_key("mmr-leaf")
_K_MMR_NODE = _domain_key("mmr-node")
_K_MMR_BAG = _domain_key("mmr-bag")
_K_BITMAP_LEAF = _domain_key("bitmap-leaf")
_K_BITMAP_NODE = _domain_key("bitmap-node")
_K_STATE_ROOT = _domain_key("state-root")


def _keyed(key: bytes, *parts: bytes) -> bytes:
    """``blake3_keyed(key, parts[0] || parts[1] || ...)``."""
    h = _blake3(key=key)
    for p in parts:
        h.update(p)
    return h.digest()


def _u64le(v: int) -> bytes:
    return v.to_bytes(8, "little")


def _mmr_leaf(op_bytes: bytes) -> bytes:
    return _keyed(_K_MMR_LEAF, op_bytes)


def _mmr_node(left: bytes, right: bytes) -> bytes:
    return _keyed(_K_MMR_NODE, left, right)


def _mmr_bag(leaves: int, peaks: List[bytes]) -> bytes:
    return _keyed(_K_MMR_BAG, _u64le(leaves), *peaks)


def _bitmap_leaf(chunk: bytes) -> bytes:
    return _keyed(_K_BITMAP_LEAF, chunk)


def _bitmap_node(left: bytes, right: bytes) -> bytes:
    return _keyed(_K_BITMAP_NODE, left, right)


def state_root(op_count: int, mmr_root: bytes, bitmap_root: bytes) -> bytes:
    """``blake3_keyed(K("state-root"), op_count u64 LE || mmr_root || bitmap_root)``."""
    return _keyed(_K_STATE_ROOT, _u64le(op_count), mmr_root, bitmap_root)


def _bitmap_depth(op_count: int) -> int:
    """ceil(log2(max(1, ceil(op_count / 512))))."""
    chunks = (op_count + _CHUNK_BITS - 1) // _CHUNK_BITS
    d = 0
    while (1 << d) < chunks:
        d += 1
    return d


def _verify_mmr_leaf(leaves: int, loc: int, leaf: bytes, path: List[bytes], peaks: List[bytes]) -> bool:
    """Checks leaf `loc` of an MMR of `leaves` leaves against its peaks (high mountains first)."""
    if loc >= leaves or len(peaks) != bin(leaves).count("1"):
        return False
    first = 0
    index = 0
    for k in range(63, -1, -1):
        size = 1 << k
        if not leaves & size:
            continue
        if loc < first + size:
            if len(path) != k:
                return False
            local = loc - first
            cur = leaf
            for t, sib in enumerate(path):
                cur = _mmr_node(sib, cur) if (local >> t) & 1 else _mmr_node(cur, sib)
            return cur == peaks[index]
        first += size
        index += 1
    return False


def in_gap(start: bytes, end: bytes, key: bytes) -> bool:
    """Whether `key` lies strictly inside the cyclic gap (start, end) of the live key set."""
    if start < end:
        return start < key < end
    return key > start or key < end


def verify_state_proof(root: bytes, key: bytes, proof: Union[bytes, StateProof]) -> Optional[bytes]:
    """Verifies `proof` (bytes or decoded) for `key` under the trusted state `root`.

    Returns the proven value (inclusion) or None (the key is proven absent); raises
    :class:`StateProofError` for anything inconsistent, including a proof that is fine but
    belongs to another root or does not cover `key`.
    """
    if not isinstance(key, (bytes, bytearray)) or not 1 <= len(key) <= STATE_MAX_KEY_LEN:
        raise StateProofError("PROOF_BAD_KEY", "key length out of range")
    key = bytes(key)
    if not isinstance(root, (bytes, bytearray)) or len(root) != 32:
        raise _malformed("root must be 32 bytes")
    root = bytes(root)
    p = proof if isinstance(proof, StateProof) else decode_state_proof(proof)
    n = p.op_count
    if len(p.peaks) != bin(n).count("1"):
        raise _malformed("peak count")
    mmr_root = _mmr_bag(n, p.peaks)
    w = p.witness
    if isinstance(w, EmptyWitness):
        if n == 0:
            if w.last is not None:
                raise _malformed("empty witness shape")
        else:
            if w.last is None:
                raise _malformed("empty witness shape")
            op = w.last.op
            if not isinstance(op, Commit) or op.active_keys != 0:
                raise StateProofError("PROOF_KEY_NOT_COVERED", "last operation is not an empty commit")
            if not _verify_mmr_leaf(n, n - 1, _mmr_leaf(w.last.op_bytes), w.last.path, p.peaks):
                raise StateProofError("PROOF_BAD_MMR_PATH", "operation is not in the log under this root")
        if state_root(n, mmr_root, w.bitmap_root) != root:
            raise StateProofError("PROOF_ROOT_MISMATCH", "recomputed root differs from the trusted root")
        return None
    op = w.op
    if not isinstance(op, Update):
        raise _malformed("witness operation is not an update")
    if not _verify_mmr_leaf(n, w.loc, _mmr_leaf(w.op_bytes), w.mmr_path, p.peaks):
        raise StateProofError("PROOF_BAD_MMR_PATH", "operation is not in the log under this root")
    if len(w.bitmap_path) != _bitmap_depth(n):
        raise StateProofError("PROOF_BAD_BITMAP_PATH", "bitmap path has the wrong shape")
    bit = w.loc % _CHUNK_BITS
    if not (w.chunk[bit >> 3] >> (bit & 7)) & 1:
        raise StateProofError("PROOF_INACTIVE", "operation is not active")
    chunk_index = w.loc // _CHUNK_BITS
    cur = _bitmap_leaf(w.chunk)
    for t, sib in enumerate(w.bitmap_path):
        cur = _bitmap_node(sib, cur) if (chunk_index >> t) & 1 else _bitmap_node(cur, sib)
    if state_root(n, mmr_root, cur) != root:
        raise StateProofError("PROOF_ROOT_MISMATCH", "recomputed root differs from the trusted root")
    if op.key == key:
        return op.value
    if in_gap(op.key, op.next_key, key):
        return None
    raise StateProofError("PROOF_KEY_NOT_COVERED", "witness does not cover the key")
