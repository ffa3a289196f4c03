"""Canonical CBOR for actor values (handler arguments and results, storage values, events).

Same rules as `ts/sdk/src/cbor.ts` and the PVM: shortest-form integers (tag 2/3 bignums only
beyond 64 bits, at most 4096 bits), floats always as float64 with one NaN, text and byte
strings, arrays (from list or tuple), maps with keys sorted by their encoded bytes, sets as
tag 258 over a sorted array, and nothing else. Arrays decode as lists, except as map keys or
set elements, where they decode as tuples (so they stay hashable).
"""
from __future__ import annotations

import math
import struct

MAX_DEPTH = 64
MAX_BIGNUM_BYTES = 512
_SET_TAG = 258
_CANONICAL_NAN = bytes.fromhex("7ff8000000000000")


class CborError(ValueError):
    def __init__(self, code: str, message: str, offset: int = -1):
        super().__init__(f"{code}: {message}" + (f" (at byte {offset})" if offset >= 0 else ""))
        self.code = code
        self.offset = offset


def _head(major: int, arg: int) -> bytes:
    m = major << 5
    if arg < 24:
        return bytes([m | arg])
    if arg < 0x100:
        return bytes([m | 24, arg])
    if arg < 0x10000:
        return bytes([m | 25]) + arg.to_bytes(2, "big")
    if arg < 0x100000000:
        return bytes([m | 26]) + arg.to_bytes(4, "big")
    return bytes([m | 27]) + arg.to_bytes(8, "big")


def encode_cbor(value) -> bytes:
    out: list[bytes] = []
    _write(out, value, 0)
    return b"".join(out)


def _write(out: list, v, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise CborError("CBOR_TOO_DEEP", f"nesting deeper than {MAX_DEPTH}")
    if v is None:
        out.append(b"\xf6")
    elif v is True:
        out.append(b"\xf5")
    elif v is False:
        out.append(b"\xf4")
    elif isinstance(v, int):
        negative = v < 0
        m = -1 - v if negative else v
        if m < 1 << 64:
            out.append(_head(1 if negative else 0, m))
        else:
            mag = m.to_bytes((m.bit_length() + 7) // 8, "big")
            if len(mag) > MAX_BIGNUM_BYTES:
                raise CborError("CBOR_TOO_LARGE", "integer over 4096 bits")
            out.append(_head(6, 3 if negative else 2) + _head(2, len(mag)) + mag)
    elif isinstance(v, float):
        out.append(b"\xfb" + (_CANONICAL_NAN if math.isnan(v) else struct.pack(">d", v)))
    elif isinstance(v, str):
        raw = v.encode("utf-8")
        out.append(_head(3, len(raw)) + raw)
    elif isinstance(v, (bytes, bytearray)):
        out.append(_head(2, len(v)) + bytes(v))
    elif isinstance(v, (list, tuple)):
        out.append(_head(4, len(v)))
        for item in v:
            _write(out, item, depth + 1)
    elif isinstance(v, dict):
        items = sorted(((_encode_nested(k, depth + 1), val) for k, val in v.items()), key=lambda kv: kv[0])
        for a, b in zip(items, items[1:]):
            if a[0] == b[0]:
                raise CborError("CBOR_DUPLICATE_KEY", "a map has two equal keys")
        out.append(_head(5, len(items)))
        for key, val in items:
            out.append(key)
            _write(out, val, depth + 1)
    elif isinstance(v, (set, frozenset)):
        items = sorted(_encode_nested(x, depth + 2) for x in v)
        for a, b in zip(items, items[1:]):
            if a == b:
                raise CborError("CBOR_DUPLICATE_KEY", "duplicate set element")
        out.append(_head(6, _SET_TAG) + _head(4, len(items)))
        out.extend(items)
    else:
        raise CborError("CBOR_NOT_ENCODABLE", f"values of type {type(v).__name__} have no canonical encoding")


def _encode_nested(v, depth: int) -> bytes:
    out: list[bytes] = []
    _write(out, v, depth)
    return b"".join(out)


class _In:
    def __init__(self, data: bytes):
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        if self.pos + n > len(self.data):
            raise CborError("CBOR_UNEXPECTED_EOF", "input ends early", self.pos)
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def head(self):
        start = self.pos
        ib = self.take(1)[0]
        major, info = ib >> 5, ib & 0x1F
        if info < 24:
            return major, info, start, ib
        if info == 31:
            raise CborError("CBOR_INDEFINITE_LENGTH", "indefinite lengths are not canonical", start)
        if info > 27:
            raise CborError("CBOR_UNSUPPORTED", f"reserved additional information {info}", start)
        size = 1 << (info - 24)
        arg = int.from_bytes(self.take(size), "big")
        if major != 7 and arg < (24 if info == 24 else 1 << (8 * (size // 2))):
            raise CborError("CBOR_NON_CANONICAL", "argument not in its shortest form", start)
        return major, arg, start, ib

    def length(self, arg: int, start: int) -> int:
        if arg > len(self.data) - self.pos:
            raise CborError("CBOR_UNEXPECTED_EOF", "length exceeds the input", start)
        return arg


def decode_cbor(data: bytes):
    data = bytes(data)
    inp = _In(data)
    value = _read(inp, 0, False)
    if inp.pos != len(data):
        raise CborError("CBOR_TRAILING_BYTES", "bytes after the value", inp.pos)
    return value


def _read(inp: _In, depth: int, as_key: bool):
    if depth > MAX_DEPTH:
        raise CborError("CBOR_TOO_DEEP", f"nesting deeper than {MAX_DEPTH}", inp.pos)
    major, arg, start, ib = inp.head()
    if major == 0:
        return arg
    if major == 1:
        return -1 - arg
    if major == 2:
        return inp.take(inp.length(arg, start))
    if major == 3:
        raw = inp.take(inp.length(arg, start))
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CborError("CBOR_INVALID_UTF8", "text is not valid UTF-8", start) from None
    if major == 4:
        items = [_read(inp, depth + 1, as_key) for _ in range(inp.length(arg, start))]
        return tuple(items) if as_key else items
    if major == 5:
        result = {}
        previous = None
        for _ in range(inp.length(arg, start)):
            key_start = inp.pos
            key = _read(inp, depth + 1, True)
            key_bytes = inp.data[key_start:inp.pos]
            if previous is not None:
                if previous == key_bytes:
                    raise CborError("CBOR_DUPLICATE_KEY", "a map has two equal keys", key_start)
                if previous > key_bytes:
                    raise CborError("CBOR_UNSORTED_KEYS", "map keys are not in canonical order", key_start)
            previous = key_bytes
            try:
                result[key] = _read(inp, depth + 1, False)
            except TypeError:
                raise CborError("CBOR_UNSUPPORTED", "map key is not hashable", key_start) from None
        return result
    if major == 6:
        if arg in (2, 3):
            m2, n, s2, _ = inp.head()
            if m2 != 2:
                raise CborError("CBOR_UNSUPPORTED", "a bignum tag must wrap a byte string", s2)
            n = inp.length(n, s2)
            if n > MAX_BIGNUM_BYTES:
                raise CborError("CBOR_TOO_LARGE", "integer over 4096 bits", s2)
            mag = inp.take(n)
            if n == 0 or mag[0] == 0:
                raise CborError("CBOR_NON_CANONICAL", "bignum with leading zeros", s2)
            m = int.from_bytes(mag, "big")
            if m < 1 << 64:
                raise CborError("CBOR_NON_CANONICAL", "bignum for a value that fits 64 bits", start)
            return m if arg == 2 else -1 - m
        if arg == _SET_TAG:
            m2, n, s2, _ = inp.head()
            if m2 != 4:
                raise CborError("CBOR_UNSUPPORTED", "a set tag must wrap an array", s2)
            items = []
            previous = None
            for _ in range(inp.length(n, s2)):
                s = inp.pos
                items.append(_read(inp, depth + 1, True))
                b = inp.data[s:inp.pos]
                if previous is not None:
                    if previous == b:
                        raise CborError("CBOR_DUPLICATE_KEY", "a set has two equal elements", s)
                    if previous > b:
                        raise CborError("CBOR_UNSORTED_KEYS", "set elements are not in canonical order", s)
                previous = b
            return frozenset(items) if as_key else set(items)
        raise CborError("CBOR_UNSUPPORTED", f"tag {arg} is not part of the canonical encoding", start)
    if ib == 0xF4:
        return False
    if ib == 0xF5:
        return True
    if ib == 0xF6:
        return None
    if ib == 0xFB:
        raw = inp.data[start + 1:start + 9]
        value = struct.unpack(">d", raw)[0]
        if math.isnan(value) and raw != _CANONICAL_NAN:
            raise CborError("CBOR_NON_CANONICAL", "NaN must be 7ff8000000000000", start)
        return value
    raise CborError("CBOR_UNSUPPORTED", f"simple value or float form 0x{ib:02x} is not canonical", start)
