"""Canonical CBOR: the same vectors as ts/sdk/test/cbor.test.ts."""
import math
import random

import pytest

from cowboy_py import CborError, decode_cbor, encode_cbor

VECTORS = [
    (0, "00"), (23, "17"), (24, "1818"), (100, "1864"), (1000, "1903e8"), (1000000, "1a000f4240"),
    (1000000000000, "1b000000e8d4a51000"), (18446744073709551615, "1bffffffffffffffff"),
    (18446744073709551616, "c249010000000000000000"), (-18446744073709551616, "3bffffffffffffffff"),
    (-18446744073709551617, "c349010000000000000000"), (-1, "20"), (-1000, "3903e7"),
    (1.1, "fb3ff199999999999a"), (1.0, "fb3ff0000000000000"), (-0.0, "fb8000000000000000"),
    (False, "f4"), (True, "f5"), (None, "f6"), (b"", "40"), (bytes.fromhex("01020304"), "4401020304"),
    ("", "60"), ("a", "6161"), ("ü", "62c3bc"), ([], "80"), ([1, 2, 3], "83010203"),
    ({"a": 1, "b": [2, 3]}, "a26161016162820203"), ({"a": 1, -1: 2, 100: 3, 10: 4}, "a40a041864032002616101"),
    ({3, 1, 2}, "d9010283010203"),
]


@pytest.mark.parametrize("value,want", VECTORS)
def test_vectors(value, want):
    assert encode_cbor(value).hex() == want
    assert encode_cbor(decode_cbor(bytes.fromhex(want))) == bytes.fromhex(want)


def test_nan_tuples_and_hashable_keys():
    assert encode_cbor(float("nan")).hex() == "fb7ff8000000000000"
    assert math.isnan(decode_cbor(bytes.fromhex("fb7ff8000000000000")))
    assert encode_cbor((1, 2)) == encode_cbor([1, 2])
    assert decode_cbor(encode_cbor({(1, 2): "pair", frozenset({1}): "set"})) == {(1, 2): "pair", frozenset({1}): "set"}


@pytest.mark.parametrize("data,code", [
    ("1817", "CBOR_NON_CANONICAL"), ("190017", "CBOR_NON_CANONICAL"), ("1b0000000000000001", "CBOR_NON_CANONICAL"),
    ("c24101", "CBOR_NON_CANONICAL"), ("c249000000000000000001", "CBOR_NON_CANONICAL"),
    ("5f4101ff", "CBOR_INDEFINITE_LENGTH"), ("9f01ff", "CBOR_INDEFINITE_LENGTH"), ("f93c00", "CBOR_UNSUPPORTED"),
    ("fa3f800000", "CBOR_UNSUPPORTED"), ("fb7ff8000000000001", "CBOR_NON_CANONICAL"), ("f7", "CBOR_UNSUPPORTED"),
    ("c11a514b67b0", "CBOR_UNSUPPORTED"), ("a2616201616102", "CBOR_UNSORTED_KEYS"),
    ("a2616101616102", "CBOR_DUPLICATE_KEY"), ("d901028202", "CBOR_UNEXPECTED_EOF"),
    ("d90102820201", "CBOR_UNSORTED_KEYS"), ("62c3", "CBOR_UNEXPECTED_EOF"), ("62c328", "CBOR_INVALID_UTF8"),
    ("0000", "CBOR_TRAILING_BYTES"), ("", "CBOR_UNEXPECTED_EOF"), ("9a7fffffff", "CBOR_UNEXPECTED_EOF"),
    ("9b00000000ffffffff", "CBOR_NON_CANONICAL"), ("1c", "CBOR_UNSUPPORTED"),
])
def test_refusals(data, code):
    with pytest.raises(CborError) as e:
        decode_cbor(bytes.fromhex(data))
    assert e.value.code == code


def test_limits_and_unencodable_values():
    with pytest.raises(CborError):
        decode_cbor(bytes.fromhex("81" * 70 + "00"))
    with pytest.raises(CborError):
        encode_cbor(1 << 5000)
    with pytest.raises(CborError):
        encode_cbor(object())


def test_mutations_are_refused_or_canonical():
    rng = random.Random(7)
    values = [None, True, 1, -5, 1 << 70, 2.5, "héllo", b"\x00\x01", [1, [2, {"k": 3}]], {"a": {1, 2}}]
    accepted = 0
    for v in values * 40:
        b = bytearray(encode_cbor(v))
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
        try:
            d = decode_cbor(bytes(b))
        except CborError:
            continue
        accepted += 1
        assert encode_cbor(d) == bytes(b)
    assert accepted > 0
