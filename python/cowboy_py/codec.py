"""The canonical transaction codec of Cowboy (docs/codec.md), byte-identical to the Rust crate
`cowboy-codec` and the TypeScript SDK.

Encoding: a flat concatenation of fields; minimal LEB128 varints for u64 scalars and lengths,
1-byte option tags, raw fixed-width bytes, big-endian u64 for amounts. Decoding is strict: any
byte string that is not the one canonical encoding of a transaction raises `CodecError`.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Optional, Union

from Crypto.Hash import keccak as _keccak

from .errors import CodecError

MAX_TX_SIZE = 128 * 1024
U64_MAX = (1 << 64) - 1
U32_MAX = (1 << 32) - 1
ZERO_SIGNATURE = bytes(65)


def keccak256(data: bytes) -> bytes:
    h = _keccak.new(digest_bits=256)
    h.update(data)
    return h.digest()


# ---------------------------------------------------------------------------- instructions

@dataclass(frozen=True)
class Transfer:
    to: bytes
    amount: int


@dataclass(frozen=True)
class RegisterValidator:
    """System(0) / RegisterValidator(2): the sender registers as a validator with `stake` of its own
    balance, BLS key `bls_key` (48 bytes) and proof of possession `proof_of_possession` (96 bytes)."""
    bls_key: bytes
    proof_of_possession: bytes
    stake: int


@dataclass(frozen=True)
class ExitValidator:
    """System(0) / ExitValidator(3): the sender's validator starts unbonding (empty body)."""


@dataclass(frozen=True)
class WithdrawStake:
    """System(0) / WithdrawStake(4): the sender's unbonded validator takes its stake back (empty body)."""


@dataclass(frozen=True)
class UnjailValidator:
    """System(0) / UnjailValidator(5): the sender's validator rejoins the set after its jail (empty body)."""


@dataclass(frozen=True)
class SubmitEvidence:
    """System(0) / SubmitEvidence(6): equivocation evidence bytes (opaque to the codec)."""
    evidence: bytes


@dataclass(frozen=True)
class SysCancelTimer:
    """System(0) / SysCancelTimer(7) (spec §5.1a SYS_CANCEL_TIMER): the validator set of `epoch`
    cancels `timer_id` of `actor`; `signers` is the signer bitmap, `signature` the 96-byte BLS aggregate."""
    actor: bytes
    timer_id: bytes
    epoch: int
    signers: bytes
    signature: bytes


@dataclass(frozen=True)
class DkgLog:
    """System(0) / DkgLog(8): a dealer's signed log (opaque to the codec) of the chain's open resharing
    ceremony number `ceremony` (u64, 8-byte big-endian on the wire)."""
    ceremony: int
    log: bytes


@dataclass(frozen=True)
class Deploy:
    source: bytes
    salt: bytes
    init_args: bytes = b""
    value: int = 0


@dataclass(frozen=True)
class Call:
    to: bytes
    handler: str
    args: bytes = b""
    value: int = 0


@dataclass(frozen=True)
class ScheduleTimer:
    actor: bytes
    fire_at_height: int
    handler: str
    data: bytes = b""
    interval: Optional[int] = None


@dataclass(frozen=True)
class CancelTimer:
    actor: bytes
    timer_id: bytes


@dataclass(frozen=True)
class Custom:
    sub_type: int
    payload: bytes


@dataclass(frozen=True)
class Publish:
    name: str
    version: int
    source: bytes


Instruction = Union[Transfer, RegisterValidator, ExitValidator, WithdrawStake, UnjailValidator, SubmitEvidence,
                    SysCancelTimer, DkgLog, Deploy, Call, ScheduleTimer, CancelTimer, Custom, Publish]


@dataclass(frozen=True)
class AccessListEntry:
    address: bytes
    storage_keys: tuple = ()


@dataclass(frozen=True)
class Transaction:
    chain_id: int
    nonce: int
    instruction: Instruction
    cycles_limit: int
    cells_limit: int
    max_fee_per_cycle: int
    max_fee_per_cell: int
    max_priority_fee_per_cycle: int
    max_priority_fee_per_cell: int
    sender: bytes
    access_list: Optional[tuple] = None
    metadata: bytes = b""
    origin_tx_hash: Optional[bytes] = None
    origin_remaining_cycles: Optional[int] = None
    origin_remaining_cells: Optional[int] = None
    signature: bytes = ZERO_SIGNATURE
    additional_signers: tuple = field(default_factory=tuple)

    def encode(self) -> bytes:
        return encode_transaction(self)

    def signing_hash(self) -> bytes:
        """keccak256 of the encoding with every signature zeroed; also the transaction digest."""
        unsigned = replace(
            self,
            signature=ZERO_SIGNATURE,
            additional_signers=tuple((addr, ZERO_SIGNATURE) for addr, _ in self.additional_signers),
        )
        return keccak256(encode_transaction(unsigned))


# ---------------------------------------------------------------------------- source rules

_HANDLER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_LIBRARY = re.compile(r"[a-z_][a-z0-9_]*\Z")


def check_source(source: bytes, field_name: str) -> None:
    """Canonical Python source: UTF-8, no BOM, LF line endings only, NFC (spec §1.2)."""
    try:
        text = source.decode("utf-8")
    except UnicodeDecodeError:
        raise CodecError("SOURCE_NOT_UTF8", f"{field_name}: source is not valid UTF-8") from None
    if text.startswith("\ufeff"):
        raise CodecError("SOURCE_HAS_BOM", f"{field_name}: source starts with a byte-order mark")
    if "\r" in text:
        raise CodecError("SOURCE_HAS_CR", f"{field_name}: source contains a carriage return")
    if unicodedata.normalize("NFC", text) != text:
        raise CodecError("SOURCE_NOT_NFC", f"{field_name}: source is not NFC-normalized")


def canonicalize_source(text: str) -> bytes:
    """Fixes up source text into canonical bytes (drops a BOM, CRLF/CR → LF, NFC)."""
    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return unicodedata.normalize("NFC", text).encode("utf-8")


# ---------------------------------------------------------------------------- writer

class _Writer:
    def __init__(self) -> None:
        self.parts: list[bytes] = []

    def varint(self, n: int, name: str) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= U64_MAX:
            raise CodecError("VARINT_OVERFLOW", f"{name}: {n!r} is not a u64")
        out = bytearray()
        while True:
            b = n & 0x7F
            n >>= 7
            if n:
                out.append(b | 0x80)
            else:
                out.append(b)
                break
        self.parts.append(bytes(out))

    def length(self, n: int, name: str) -> None:
        if n > U32_MAX:
            raise CodecError("LENGTH_OVERFLOW", f"{name}: length {n} exceeds u32")
        self.varint(n, name)

    def u8(self, n: int) -> None:
        self.parts.append(bytes([n]))

    def u64be(self, n: int, name: str) -> None:
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= U64_MAX:
            raise CodecError("VARINT_OVERFLOW", f"{name}: {n!r} is not a u64")
        self.parts.append(n.to_bytes(8, "big"))

    def fixed(self, b: bytes, size: int, name: str) -> None:
        if len(b) != size:
            raise CodecError("UNEXPECTED_EOF", f"{name}: expected {size} bytes, got {len(b)}")
        self.parts.append(bytes(b))

    def bytes_(self, b: bytes, name: str) -> None:
        self.length(len(b), name)
        self.parts.append(bytes(b))

    def string(self, s: str, name: str) -> None:
        self.bytes_(s.encode("utf-8"), name)

    def option_tag(self, present: bool) -> None:
        self.u8(1 if present else 0)

    def finish(self) -> bytes:
        return b"".join(self.parts)


def _write_instruction(w: _Writer, ins: Instruction) -> None:
    if isinstance(ins, Transfer):
        w.u8(0), w.u8(1)
        w.fixed(ins.to, 20, "instruction.to")
        w.u64be(ins.amount, "instruction.amount")
    elif isinstance(ins, RegisterValidator):
        w.u8(0), w.u8(2)
        w.fixed(ins.bls_key, 48, "instruction.bls_key")
        w.fixed(ins.proof_of_possession, 96, "instruction.proof_of_possession")
        w.u64be(ins.stake, "instruction.stake")
    elif isinstance(ins, ExitValidator):
        w.u8(0), w.u8(3)
    elif isinstance(ins, WithdrawStake):
        w.u8(0), w.u8(4)
    elif isinstance(ins, UnjailValidator):
        w.u8(0), w.u8(5)
    elif isinstance(ins, SubmitEvidence):
        w.u8(0), w.u8(6)
        w.bytes_(ins.evidence, "instruction.evidence")
    elif isinstance(ins, SysCancelTimer):
        w.u8(0), w.u8(7)
        w.fixed(ins.actor, 20, "instruction.actor")
        w.fixed(ins.timer_id, 32, "instruction.timer_id")
        w.varint(ins.epoch, "instruction.epoch")
        w.bytes_(ins.signers, "instruction.signers")
        w.fixed(ins.signature, 96, "instruction.signature")
    elif isinstance(ins, DkgLog):
        w.u8(0), w.u8(8)
        w.u64be(ins.ceremony, "instruction.ceremony")
        w.bytes_(ins.log, "instruction.log")
    elif isinstance(ins, Deploy):
        check_source(ins.source, "instruction.source")
        w.u8(1), w.u8(1)
        w.bytes_(ins.source, "instruction.source")
        w.fixed(ins.salt, 32, "instruction.salt")
        w.bytes_(ins.init_args, "instruction.init_args")
        w.u64be(ins.value, "instruction.value")
    elif isinstance(ins, Call):
        _check_handler(ins.handler)
        w.u8(1), w.u8(2)
        w.fixed(ins.to, 20, "instruction.to")
        w.string(ins.handler, "instruction.handler")
        w.bytes_(ins.args, "instruction.args")
        w.u64be(ins.value, "instruction.value")
    elif isinstance(ins, ScheduleTimer):
        _check_handler(ins.handler)
        w.u8(1), w.u8(3)
        w.fixed(ins.actor, 20, "instruction.actor")
        w.varint(ins.fire_at_height, "instruction.fire_at_height")
        w.string(ins.handler, "instruction.handler")
        w.bytes_(ins.data, "instruction.data")
        w.option_tag(ins.interval is not None)
        if ins.interval is not None:
            if ins.interval < 1:
                raise CodecError("INVALID_INTERVAL", "instruction.interval must be at least 1")
            w.varint(ins.interval, "instruction.interval")
    elif isinstance(ins, CancelTimer):
        w.u8(1), w.u8(4)
        w.fixed(ins.actor, 20, "instruction.actor")
        w.fixed(ins.timer_id, 32, "instruction.timer_id")
    elif isinstance(ins, Custom):
        if not 0 <= ins.sub_type <= 255:
            raise CodecError("UNKNOWN_SUB_TYPE", f"custom sub_type {ins.sub_type} is not a byte")
        w.u8(2), w.u8(ins.sub_type)
        w.bytes_(ins.payload, "instruction.payload")
    elif isinstance(ins, Publish):
        if not (1 <= len(ins.name.encode()) <= 64 and _LIBRARY.match(ins.name)):
            raise CodecError("INVALID_LIBRARY_NAME", f"library name {ins.name!r} must match [a-z_][a-z0-9_]* (1..=64 bytes)")
        check_source(ins.source, "instruction.source")
        w.u8(3), w.u8(1)
        w.string(ins.name, "instruction.name")
        w.varint(ins.version, "instruction.version")
        w.bytes_(ins.source, "instruction.source")
    else:
        raise CodecError("UNKNOWN_CATEGORY", f"not an instruction: {type(ins).__name__}")


def _check_handler(handler: str) -> None:
    if not (1 <= len(handler.encode()) <= 64 and handler.isascii() and _HANDLER.match(handler)):
        raise CodecError("INVALID_HANDLER", f"handler {handler!r} must be an ASCII identifier of 1..=64 bytes")


def encode_transaction(tx: Transaction) -> bytes:
    w = _Writer()
    w.varint(tx.chain_id, "chain_id")
    w.varint(tx.nonce, "nonce")
    _write_instruction(w, tx.instruction)
    for name in ("cycles_limit", "cells_limit", "max_fee_per_cycle", "max_fee_per_cell",
                 "max_priority_fee_per_cycle", "max_priority_fee_per_cell"):
        w.varint(getattr(tx, name), name)
    w.fixed(tx.sender, 20, "from")
    w.option_tag(tx.access_list is not None)
    if tx.access_list is not None:
        w.length(len(tx.access_list), "access_list")
        for entry in tx.access_list:
            w.fixed(entry.address, 20, "access_list.address")
            w.length(len(entry.storage_keys), "access_list.storage_keys")
            for key in entry.storage_keys:
                w.bytes_(key, "access_list.storage_key")
    w.bytes_(tx.metadata, "metadata")
    w.option_tag(tx.origin_tx_hash is not None)
    if tx.origin_tx_hash is not None:
        w.fixed(tx.origin_tx_hash, 32, "origin_tx_hash")
    for name in ("origin_remaining_cycles", "origin_remaining_cells"):
        value = getattr(tx, name)
        w.option_tag(value is not None)
        if value is not None:
            w.varint(value, name)
    w.fixed(tx.signature, 65, "signature")
    w.length(len(tx.additional_signers), "additional_signers")
    previous = None
    for address, signature in tx.additional_signers:
        if previous is not None and bytes(address) <= previous:
            raise CodecError("SIGNERS_NOT_ASCENDING", "additional_signers must be strictly ascending by address")
        previous = bytes(address)
        w.fixed(address, 20, "additional_signers.address")
        w.fixed(signature, 65, "additional_signers.signature")
    out = w.finish()
    if len(out) > MAX_TX_SIZE:
        raise CodecError("TX_TOO_LARGE", f"transaction of {len(out)} bytes exceeds {MAX_TX_SIZE}")
    return out


# ---------------------------------------------------------------------------- reader

class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int, name: str) -> bytes:
        if self.pos + n > len(self.data):
            raise CodecError("UNEXPECTED_EOF", f"{name}: input ends early")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def u8(self, name: str) -> int:
        return self.take(1, name)[0]

    def varint(self, name: str) -> int:
        result = 0
        for i in range(10):
            b = self.u8(name)
            if i == 9 and b > 1:
                raise CodecError("VARINT_OVERFLOW", f"{name}: varint exceeds 64 bits")
            result |= (b & 0x7F) << (7 * i)
            if not b & 0x80:
                if b == 0 and i > 0:
                    raise CodecError("NON_MINIMAL_VARINT", f"{name}: varint is not minimal")
                return result
        raise CodecError("VARINT_OVERFLOW", f"{name}: varint exceeds 64 bits")

    def length(self, name: str, min_item_size: int = 1) -> int:
        """A u32 length (at most 5 varint bytes) whose items must fit the remaining input."""
        result = 0
        for i in range(5):
            b = self.u8(name)
            if i == 4 and b > 0x0F:
                raise CodecError("VARINT_OVERFLOW", f"{name}: length exceeds u32")
            result |= (b & 0x7F) << (7 * i)
            if not b & 0x80:
                if b == 0 and i > 0:
                    raise CodecError("NON_MINIMAL_VARINT", f"{name}: varint is not minimal")
                break
        if result * min_item_size > len(self.data) - self.pos:
            raise CodecError("LENGTH_OVERFLOW", f"{name}: {result} items cannot fit the remaining input")
        return result

    def bytes_(self, name: str) -> bytes:
        return self.take(self.length(name), name)

    def string(self, name: str) -> str:
        raw = self.bytes_(name)
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CodecError("INVALID_UTF8", f"{name}: not valid UTF-8") from None

    def option(self, name: str) -> bool:
        tag = self.u8(name)
        if tag > 1:
            raise CodecError("INVALID_OPTION_TAG", f"{name}: option tag {tag} is not 0 or 1")
        return tag == 1

    def u64be(self, name: str) -> int:
        return int.from_bytes(self.take(8, name), "big")


def _read_instruction(r: _Reader) -> Instruction:
    category = r.u8("instruction.category")
    sub = r.u8("instruction.sub_type")
    if category == 0:
        if sub == 1:
            return Transfer(r.take(20, "instruction.to"), r.u64be("instruction.amount"))
        if sub == 2:
            return RegisterValidator(r.take(48, "instruction.bls_key"), r.take(96, "instruction.proof_of_possession"),
                                     r.u64be("instruction.stake"))
        if sub == 3:
            return ExitValidator()
        if sub == 4:
            return WithdrawStake()
        if sub == 5:
            return UnjailValidator()
        if sub == 6:
            return SubmitEvidence(r.bytes_("instruction.evidence"))
        if sub == 7:
            return SysCancelTimer(r.take(20, "instruction.actor"), r.take(32, "instruction.timer_id"),
                                  r.varint("instruction.epoch"), r.bytes_("instruction.signers"),
                                  r.take(96, "instruction.signature"))
        if sub == 8:
            return DkgLog(r.u64be("instruction.ceremony"), r.bytes_("instruction.log"))
        raise CodecError("UNKNOWN_SUB_TYPE", f"system sub_type {sub} is unknown")
    if category == 1:
        if sub == 1:
            source = r.bytes_("instruction.source")
            check_source(source, "instruction.source")
            return Deploy(source, r.take(32, "instruction.salt"), r.bytes_("instruction.init_args"), r.u64be("instruction.value"))
        if sub == 2:
            to = r.take(20, "instruction.to")
            handler = r.string("instruction.handler")
            _check_handler(handler)
            return Call(to, handler, r.bytes_("instruction.args"), r.u64be("instruction.value"))
        if sub == 3:
            actor = r.take(20, "instruction.actor")
            height = r.varint("instruction.fire_at_height")
            handler = r.string("instruction.handler")
            _check_handler(handler)
            data = r.bytes_("instruction.data")
            interval = r.varint("instruction.interval") if r.option("instruction.interval") else None
            if interval is not None and interval < 1:
                raise CodecError("INVALID_INTERVAL", "instruction.interval must be at least 1")
            return ScheduleTimer(actor, height, handler, data, interval)
        if sub == 4:
            return CancelTimer(r.take(20, "instruction.actor"), r.take(32, "instruction.timer_id"))
        raise CodecError("UNKNOWN_SUB_TYPE", f"actor sub_type {sub} is unknown")
    if category == 2:
        return Custom(sub, r.bytes_("instruction.payload"))
    if category == 3:
        if sub != 1:
            raise CodecError("UNKNOWN_SUB_TYPE", f"library sub_type {sub} is unknown")
        name = r.string("instruction.name")
        if not (1 <= len(name.encode()) <= 64 and _LIBRARY.match(name)):
            raise CodecError("INVALID_LIBRARY_NAME", f"library name {name!r} is invalid")
        version = r.varint("instruction.version")
        source = r.bytes_("instruction.source")
        check_source(source, "instruction.source")
        return Publish(name, version, source)
    raise CodecError("UNKNOWN_CATEGORY", f"instruction category {category} is unknown")


def encode_instruction(ins: Instruction) -> bytes:
    """The canonical bytes of an instruction alone (`[category, sub_type, body]`)."""
    w = _Writer()
    _write_instruction(w, ins)
    return w.finish()


def decode_instruction(data: bytes) -> Instruction:
    """Strictly decodes an instruction alone (no trailing bytes)."""
    data = bytes(data)
    r = _Reader(data)
    ins = _read_instruction(r)
    if r.pos != len(data):
        raise CodecError("TRAILING_BYTES", f"{len(data) - r.pos} bytes after the instruction")
    return ins


def decode_transaction(data: bytes) -> Transaction:
    data = bytes(data)
    if len(data) > MAX_TX_SIZE:
        raise CodecError("TX_TOO_LARGE", f"transaction of {len(data)} bytes exceeds {MAX_TX_SIZE}")
    r = _Reader(data)
    chain_id = r.varint("chain_id")
    nonce = r.varint("nonce")
    instruction = _read_instruction(r)
    limits = [r.varint(name) for name in ("cycles_limit", "cells_limit", "max_fee_per_cycle", "max_fee_per_cell",
                                          "max_priority_fee_per_cycle", "max_priority_fee_per_cell")]
    sender = r.take(20, "from")
    access_list = None
    if r.option("access_list"):
        entries = []
        for _ in range(r.length("access_list", 21)):
            address = r.take(20, "access_list.address")
            keys = tuple(r.bytes_("access_list.storage_key") for _ in range(r.length("access_list.storage_keys")))
            entries.append(AccessListEntry(address, keys))
        access_list = tuple(entries)
    metadata = r.bytes_("metadata")
    origin_tx_hash = r.take(32, "origin_tx_hash") if r.option("origin_tx_hash") else None
    origin_cycles = r.varint("origin_remaining_cycles") if r.option("origin_remaining_cycles") else None
    origin_cells = r.varint("origin_remaining_cells") if r.option("origin_remaining_cells") else None
    signature = r.take(65, "signature")
    signers = [(r.take(20, "additional_signers.address"), r.take(65, "additional_signers.signature"))
               for _ in range(r.length("additional_signers", 85))]
    for i in range(1, len(signers)):
        if signers[i][0] <= signers[i - 1][0]:
            raise CodecError("SIGNERS_NOT_ASCENDING", f"additional_signers[{i}] is not above the one before it")
    if r.pos != len(data):
        raise CodecError("TRAILING_BYTES", f"{len(data) - r.pos} bytes after the transaction")
    return Transaction(chain_id, nonce, instruction, *limits, sender, access_list, metadata, origin_tx_hash,
                       origin_cycles, origin_cells, signature, tuple(signers))


def actor_address(creator: bytes, salt: bytes, source: bytes) -> bytes:
    """last_20_bytes(keccak256(creator ‖ salt ‖ keccak256(source))) for canonical `source` (spec §1.2)."""
    check_source(source, "source")
    if len(creator) != 20 or len(salt) != 32:
        raise CodecError("UNEXPECTED_EOF", "creator must be 20 bytes and salt 32 bytes")
    return keccak256(creator + salt + keccak256(source))[-20:]
