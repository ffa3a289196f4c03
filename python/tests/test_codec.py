"""The Python client against spec 01 Appendix A and the instruction examples of docs/codec.md."""
import random

import pytest

from cowboy_py import (
    Call, CancelTimer, CodecError, Custom, Deploy, PrivateKey, Publish, ScheduleTimer, SignatureError,
    Transaction, Transfer, actor_address, decode_transaction, encode_transaction, recover_signer,
    verify_transaction,
)
from cowboy_py.codec import AccessListEntry

VECTOR_1 = bytes.fromhex(
    "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46"
    "cc70a5dd086daff2a" + "00" * 5 + "00" * 65 + "00")
VECTOR_2 = bytes.fromhex(
    "2a00000122222222222222222222222222222222222222220000000000000001d08603d086030101000019e7e376e7c213b7e7e7e46"
    "cc70a5dd086daff2a0000000000f0dc586dcb01db4f7507163068728c49d112610bfbcf3516ed32bd0fa05a45553f8e8a695b94f6d9aa"
    "7d34657002746f30ce22cadc141bceea3129610de3035b0100")
KEY = PrivateKey(bytes([0x11] * 32))
FROM = bytes.fromhex("19e7e376e7c213b7e7e7e46cc70a5dd086daff2a")


def vector_tx():
    return Transaction(42, 0, Transfer(bytes([0x22] * 20), 1), 50000, 50000, 1, 1, 0, 0, FROM)


def test_appendix_a_vector_1_and_signing_hash():
    tx = vector_tx()
    assert encode_transaction(tx) == VECTOR_1
    assert tx.signing_hash().hex() == "203b9aa5435ad7de1164fa534c9d72de46e734a9d99703790756380c67b8304a"
    assert decode_transaction(VECTOR_1) == tx


def test_appendix_a_vector_2_signature():
    assert KEY.address == FROM
    signed = KEY.sign_transaction(vector_tx())
    assert encode_transaction(signed) == VECTOR_2
    assert recover_signer(decode_transaction(VECTOR_2)) == FROM
    verify_transaction(signed)


@pytest.mark.parametrize("instruction,hexbody", [
    (Transfer(bytes([0x22] * 20), 1), "0001" + "22" * 20 + "0000000000000001"),
    (Deploy(b"x = 1\n", bytes([0x33] * 32), b"", 0), "0101" + "06" + "78203d20310a" + "33" * 32 + "00" + "00" * 8),
    (Call(bytes([0x44] * 20), "increment", b"\x80", 5), "0102" + "44" * 20 + "09696e6372656d656e74" + "0180" + "0000000000000005"),
    (ScheduleTimer(bytes([0x55] * 20), 300, "tick", b"", 10), "0103" + "55" * 20 + "ac02" + "047469636b" + "00" + "010a"),
    (ScheduleTimer(bytes([0x55] * 20), 300, "tick", b"", None), "0103" + "55" * 20 + "ac02" + "047469636b" + "00" + "00"),
    (CancelTimer(bytes([0x55] * 20), bytes([0x66] * 32)), "0104" + "55" * 20 + "66" * 32),
    (Custom(7, bytes.fromhex("deadbeef")), "0207" + "04deadbeef"),
    (Publish("math_utils", 1, b"X = 2\n"), "0301" + "0a6d6174685f7574696c73" + "01" + "0658203d20320a"),
])
def test_instruction_layouts(instruction, hexbody):
    tx = Transaction(1, 0, instruction, 1, 1, 1, 1, 0, 0, FROM)
    encoded = encode_transaction(tx)
    assert hexbody in encoded.hex()
    assert encoded.hex()[4:4 + len(hexbody)] == hexbody
    assert decode_transaction(encoded) == tx


def test_actor_address_example():
    address = actor_address(FROM, bytes([0x33] * 32), b"x = 1\n")
    assert address.hex() == "51f216abb5ec08973e09cb5402ffb448379be37e"


@pytest.mark.parametrize("mutate,code", [
    (lambda b: b + b"\x00", "TRAILING_BYTES"),
    (lambda b: b[:-1], "UNEXPECTED_EOF"),
    (lambda b: b"\xaa\x00" + b[1:], "NON_MINIMAL_VARINT"),  # chain id 42 as 2a → aa 00
    (lambda b: b[:2] + b"\x09" + b[3:], "UNKNOWN_CATEGORY"),
    (lambda b: b[:3] + b"\x09" + b[4:], "UNKNOWN_SUB_TYPE"),
    (lambda b: b[:62] + b"\x02" + b[63:], "INVALID_OPTION_TAG"),
    (lambda b: b"\x00" * (128 * 1024 + 1), "TX_TOO_LARGE"),
])
def test_strict_decoding(mutate, code):
    assert VECTOR_1[62] == 0  # access_list tag sits here
    with pytest.raises(CodecError) as e:
        decode_transaction(mutate(VECTOR_1))
    assert e.value.code == code


def test_source_rules_and_handler_rules():
    for source, code in ((b"\xef\xbb\xbfx=1\n", "SOURCE_HAS_BOM"), (b"x=1\r\n", "SOURCE_HAS_CR"),
                         (b"\xff", "SOURCE_NOT_UTF8"), ("e\u0301 = 1\n".encode(), "SOURCE_NOT_NFC")):
        with pytest.raises(CodecError) as e:
            encode_transaction(Transaction(1, 0, Deploy(source, bytes(32)), 1, 1, 1, 1, 0, 0, FROM))
        assert e.value.code == code
    with pytest.raises(CodecError) as e:
        encode_transaction(Transaction(1, 0, Call(bytes(20), "not valid", b""), 1, 1, 1, 1, 0, 0, FROM))
    assert e.value.code == "INVALID_HANDLER"
    with pytest.raises(CodecError) as e:
        encode_transaction(Transaction(1, 0, Transfer(bytes(20), 1), 1, 1, 1, 1, 0, 0, FROM, signature=bytes(65),
                                       additional_signers=((b"\x02" * 20, bytes(65)), (b"\x01" * 20, bytes(65)))))
    assert e.value.code == "SIGNERS_NOT_ASCENDING"


def test_signature_checks():
    signed = KEY.sign_transaction(vector_tx())
    other = PrivateKey(bytes([0x22] * 32))
    with pytest.raises(SignatureError) as e:
        other.sign_transaction(vector_tx())
    assert e.value.code == "FROM_MISMATCH"
    n = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141
    s = int.from_bytes(signed.signature[32:64], "big")
    high = signed.signature[:32] + (n - s).to_bytes(32, "big") + bytes([signed.signature[64] ^ 1])
    with pytest.raises(SignatureError) as e:
        verify_transaction(Transaction(**{**signed.__dict__, "signature": high}))
    assert e.value.code == "HIGH_S"


def random_tx(rng: random.Random) -> Transaction:
    def b(n):
        return bytes(rng.randrange(256) for _ in range(n))
    choices = [
        lambda: Transfer(b(20), rng.randrange(1 << 64)),
        lambda: Deploy(b"def f():\n    return 1\n", b(32), b(rng.randrange(5)), rng.randrange(1 << 64)),
        lambda: Call(b(20), rng.choice(["increment", "get", "_x9"]), b(rng.randrange(9)), rng.randrange(1 << 64)),
        lambda: ScheduleTimer(b(20), rng.randrange(1 << 40), "tick", b(3), rng.choice([None, 1, 500])),
        lambda: CancelTimer(b(20), b(32)),
        lambda: Custom(rng.randrange(256), b(rng.randrange(12))),
        lambda: Publish("lib_" + str(rng.randrange(99)), rng.randrange(1 << 20), b"X = 1\n"),
    ]
    signers = tuple(sorted(((b(20), b(65)) for _ in range(rng.randrange(3))), key=lambda s: s[0]))
    signers = tuple(dict(signers).items())
    return Transaction(
        rng.randrange(1 << 64), rng.randrange(1 << 64), rng.choice(choices)(),
        *(rng.choice([0, 1, 127, 128, 300, 50000, (1 << 64) - 1]) for _ in range(6)), b(20),
        rng.choice([None, (), (AccessListEntry(b(20), (b(3), b(0))),)]), b(rng.randrange(6)),
        rng.choice([None, b(32)]), rng.choice([None, 7]), rng.choice([None, 1 << 40]), b(65), signers)


def test_random_round_trips_and_mutations_never_accept_non_canonical_bytes():
    rng = random.Random(20261121)
    accepted = 0
    for _ in range(1500):
        tx = random_tx(rng)
        encoded = encode_transaction(tx)
        assert decode_transaction(encoded) == tx
        for _ in range(6):
            m = bytearray(encoded)
            op = rng.randrange(3)
            if op == 0:
                m[rng.randrange(len(m))] ^= 1 << rng.randrange(8)
            elif op == 1:
                del m[rng.randrange(len(m)):]
            else:
                m.insert(rng.randrange(len(m) + 1), rng.randrange(256))
            try:
                decoded = decode_transaction(bytes(m))
            except CodecError:
                continue
            accepted += 1
            assert encode_transaction(decoded) == bytes(m)
    assert accepted > 0


# The validator-set examples of docs/codec.md §3 (System sub-types 2..8).
_SYSTEM_EXAMPLES = [
    ("RegisterValidator", "0002" + "77" * 48 + "88" * 96 + "0000000000002710"),
    ("ExitValidator", "0003"),
    ("WithdrawStake", "0004"),
    ("UnjailValidator", "0005"),
    ("SubmitEvidence", "000602abcd"),
    ("SysCancelTimer", "0007" + "55" * 20 + "66" * 32 + "ac02" + "0107" + "99" * 96),
    ("DkgLog", "0008" + "0000000000000003" + "02abcd"),
]


def _system_example(name):
    from cowboy_py import (DkgLog, ExitValidator, RegisterValidator, SubmitEvidence, SysCancelTimer,
                           UnjailValidator, WithdrawStake)
    return {
        "RegisterValidator": RegisterValidator(bytes([0x77] * 48), bytes([0x88] * 96), 10_000),
        "ExitValidator": ExitValidator(),
        "WithdrawStake": WithdrawStake(),
        "UnjailValidator": UnjailValidator(),
        "SubmitEvidence": SubmitEvidence(bytes([0xAB, 0xCD])),
        "SysCancelTimer": SysCancelTimer(bytes([0x55] * 20), bytes([0x66] * 32), 300, b"\x07", bytes([0x99] * 96)),
        "DkgLog": DkgLog(3, bytes([0xAB, 0xCD])),
    }[name]


@pytest.mark.parametrize("name,hexs", _SYSTEM_EXAMPLES, ids=[n for n, _ in _SYSTEM_EXAMPLES])
def test_system_instruction_examples(name, hexs):
    from cowboy_py import decode_instruction, encode_instruction
    ins = _system_example(name)
    raw = bytes.fromhex(hexs)
    assert encode_instruction(ins) == raw
    assert decode_instruction(raw) == ins
    for cut in range(2, len(raw)):
        with pytest.raises(CodecError) as e:
            decode_instruction(raw[:cut])
        assert e.value.code in ("UNEXPECTED_EOF", "LENGTH_OVERFLOW")
    with pytest.raises(CodecError) as e:
        decode_instruction(raw + b"\x00")
    assert e.value.code == "TRAILING_BYTES"
    # inside a transaction too
    tx = Transaction(**{**decode_transaction(VECTOR_1).__dict__, "instruction": ins})
    assert decode_transaction(encode_transaction(tx)) == tx


def test_system_instruction_bad_widths():
    from cowboy_py import RegisterValidator, SysCancelTimer, encode_instruction
    with pytest.raises(CodecError):
        encode_instruction(RegisterValidator(bytes(47), bytes(96), 1))
    with pytest.raises(CodecError):
        encode_instruction(RegisterValidator(bytes(48), bytes(95), 1))
    with pytest.raises(CodecError):
        encode_instruction(SysCancelTimer(bytes(20), bytes(32), 0, b"", bytes(97)))


def test_dkg_log_bounds_and_unknown_sub_type():
    from cowboy_py import DkgLog, decode_instruction, encode_instruction
    with pytest.raises(CodecError):
        encode_instruction(DkgLog(1 << 64, b""))
    with pytest.raises(CodecError):
        encode_instruction(DkgLog(-1, b""))
    assert decode_instruction(encode_instruction(DkgLog((1 << 64) - 1, b""))) == DkgLog((1 << 64) - 1, b"")
    with pytest.raises(CodecError) as e:
        decode_instruction(bytes([0, 9]))
    assert e.value.code == "UNKNOWN_SUB_TYPE"
