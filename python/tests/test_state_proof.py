"""The Python state-proof verifier (cowboy_py.state_proof) against shared vectors
(tests/vectors/state-proofs.json): the Rust crate's proofs verify to Rust's answer, and every
tampered variant gets exactly the outcome of the TypeScript verifier (value, absent, or the
same error code)."""
import json
from pathlib import Path

import pytest

from cowboy_py.state_proof import (
    PROOF_ERROR_CODES,
    OpWitness,
    StateProofError,
    Update,
    decode_state_proof,
    in_gap,
    verify_state_proof,
)

VECTORS = json.loads((Path(__file__).parent / "vectors" / "state-proofs.json").read_text())


def outcome(root: bytes, key: bytes, proof: bytes) -> str:
    try:
        value = verify_state_proof(root, key, proof)
    except StateProofError as e:
        assert e.code in PROOF_ERROR_CODES
        assert str(e).startswith(e.code + ": ")
        return f"error:{e.code}"
    return "absent" if value is None else f"value:{value.hex()}"


@pytest.mark.parametrize("v", VECTORS["vectors"], ids=lambda v: v["name"])
def test_rust_vectors(v):
    got = verify_state_proof(bytes.fromhex(v["root"]), bytes.fromhex(v["key"]), bytes.fromhex(v["proof"]))
    assert got == (None if v["value"] is None else bytes.fromhex(v["value"]))


@pytest.mark.parametrize("c", VECTORS["cases"], ids=lambda c: c["name"])
def test_cases_match_typescript(c):
    assert outcome(bytes.fromhex(c["root"]), bytes.fromhex(c["key"]), bytes.fromhex(c["proof"])) == c["outcome"]


def test_vector_file_covers_every_outcome_kind():
    kinds = {c["outcome"].split(":")[0] if not c["outcome"].startswith("error") else c["outcome"]
             for c in VECTORS["cases"]}
    assert {"value", "absent"} <= kinds
    assert {f"error:{code}" for code in PROOF_ERROR_CODES} <= kinds


@pytest.mark.parametrize("f", VECTORS["flips"], ids=lambda f: f"vector{f['vector']}-bit{f['bit']}")
def test_single_bit_flips_match_typescript(f):
    v = VECTORS["vectors"][f["vector"]]
    root, key, proof = bytes.fromhex(v["root"]), bytes.fromhex(v["key"]), bytes.fromhex(v["proof"])
    expected = [o for o, n in f["runs"] for _ in range(n)]
    assert len(expected) == len(proof)
    for i, want in enumerate(expected):
        bad = bytearray(proof)
        bad[i] ^= 1 << f["bit"]
        assert outcome(root, key, bytes(bad)) == want, f"byte {i}"
        assert want.startswith("error:"), "a tampered proof was accepted"


def test_decoded_proof_is_accepted_too():
    v = next(v for v in VECTORS["vectors"] if v["name"] == "account inclusion")
    proof = decode_state_proof(bytes.fromhex(v["proof"]))
    assert isinstance(proof.witness, OpWitness) and isinstance(proof.witness.op, Update)
    assert verify_state_proof(bytes.fromhex(v["root"]), bytes.fromhex(v["key"]), proof) == bytes.fromhex(v["value"])


def test_non_bytes_inputs_are_typed_errors():
    v = VECTORS["vectors"][0]
    with pytest.raises(StateProofError) as e:
        verify_state_proof(bytes.fromhex(v["root"]), "key", bytes.fromhex(v["proof"]))
    assert e.value.code == "PROOF_BAD_KEY"
    with pytest.raises(StateProofError) as e:
        verify_state_proof(bytes.fromhex(v["root"]), b"k", "00")
    assert e.value.code == "PROOF_MALFORMED"


def test_gap_rule_matches_the_rust_unit_cases():
    assert in_gap(b"b", b"d", b"c")
    assert not in_gap(b"b", b"d", b"d")
    assert in_gap(b"d", b"b", b"e")
    assert in_gap(b"d", b"b", b"a")
    assert not in_gap(b"d", b"b", b"c")
    assert in_gap(b"k", b"k", b"a")
    assert not in_gap(b"k", b"k", b"k")


def test_domain_keys_and_empty_root_follow_the_v2_rules():
    # K(name) = blake3(b"cowboy-qmdb-v2 " + name), six distinct keys (docs/state.md "The state root")
    from blake3 import blake3

    from cowboy_py import state_proof as sp

    names = ("mmr-leaf", "mmr-node", "mmr-bag", "bitmap-leaf", "bitmap-node", "state-root")
    keys = [sp._domain_key(n) for n in names]
    assert keys == [blake3(b"cowboy-qmdb-v2 " + n.encode()).digest() for n in names]
    assert len(set(keys)) == 6
    # the empty store's root, recomputed from the rules, is Rust's empty_root()
    empty = next(v for v in VECTORS["vectors"] if v["name"] == "empty store (no operations)")
    root = sp.state_root(0, sp._mmr_bag(0, []), sp._bitmap_leaf(bytes(64)))
    assert root.hex() == empty["root"]
