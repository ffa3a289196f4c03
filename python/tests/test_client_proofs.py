"""Proven reads of the Client (get_storage_at, get_storage, get_proven_account): the node's
answer is verified against the state root of the block header, with the Rust proofs of
tests/vectors/state-proofs.json served by a scripted transport (Client.request replaced), so
honest answers pass and every kind of lie is a typed error."""
import json
from pathlib import Path

import pytest

from cowboy_py import (
    Client,
    ProofMismatchError,
    StateProofError,
    TransportError,
    account_key,
    actor_storage_key,
    decode_account_record,
)

VECTORS = {v["name"]: v for v in json.loads(
    (Path(__file__).parent / "vectors" / "state-proofs.json").read_text())["vectors"]}
ACCOUNT = VECTORS["account inclusion"]
STORAGE = VECTORS["storage inclusion"]
ABSENT = VECTORS["storage exclusion (other key)"]
# the vectors' actor: account key = 0x01 ‖ address
ADDRESS = bytes.fromhex(ACCOUNT["key"])[1:]


class ScriptedClient(Client):
    """Answers `cowboy_getStorageAt` / `cowboy_getProof` with `answer` and serves one block
    whose header carries `header_root`."""

    def __init__(self, answer: dict, header_root: str):
        super().__init__("http://unused.invalid")
        self.answer = answer
        self.header_root = header_root
        self.calls: list = []

    def request(self, method, params=()):
        self.calls.append((method, list(params)))
        if method in ("cowboy_getStorageAt", "cowboy_getProof"):
            return self.answer
        if method == "cowboy_getBlockByNumber":
            return {"number": params[0], "stateRoot": "0x" + self.header_root} if params[0] == "0x9" else None
        raise AssertionError(method)


def answer(v: dict, **over) -> dict:
    a = {"key": "0x" + v["key"], "value": None if v["value"] is None else "0x" + v["value"],
         "proof": "0x" + v["proof"], "stateRoot": "0x" + v["root"], "blockNumber": "0x9"}
    a.update(over)
    return a


def test_storage_inclusion_is_verified():
    c = ScriptedClient(answer(STORAGE), STORAGE["root"])
    got = c.get_storage_at(ADDRESS, b"count", 9)
    assert got.value == bytes.fromhex(STORAGE["value"]) and got.block_number == 9
    assert got.key == actor_storage_key(ADDRESS, b"count") == bytes.fromhex(STORAGE["key"])
    assert got.state_root == bytes.fromhex(STORAGE["root"])
    assert c.calls[0] == ("cowboy_getStorageAt", ["0x" + ADDRESS.hex(), "0x" + b"count".hex(), "0x9"])
    assert c.calls[1] == ("cowboy_getBlockByNumber", ["0x9", False])


def test_storage_exclusion_is_verified():
    c = ScriptedClient(answer(ABSENT), ABSENT["root"])
    assert c.get_storage_at(ADDRESS, b"other").value is None
    c = ScriptedClient(answer(ABSENT), ABSENT["root"])
    assert c.get_storage("0x" + ADDRESS.hex(), b"other") is None


def test_account_is_verified_and_decoded():
    c = ScriptedClient(answer(ACCOUNT, balance="0x1388", nonce="0x5"), ACCOUNT["root"])
    acct = c.get_proven_account(ADDRESS)
    record = decode_account_record(bytes.fromhex(ACCOUNT["value"]))
    assert (acct.balance, acct.nonce) == (5000, 5) == (record.balance, record.nonce)
    assert acct.code_hash == bytes(32) and acct.metadata == b""
    assert acct.proof.key == account_key(ADDRESS)
    assert record.encode() == bytes.fromhex(ACCOUNT["value"])


def test_absent_account_is_none():
    empty = VECTORS["empty store (no operations)"]
    c = ScriptedClient(answer(empty, key="0x" + account_key(ADDRESS).hex()), empty["root"])
    assert c.get_proven_account(ADDRESS) is None
    # a witness whose gap does not hold the account key
    v = VECTORS["storage exclusion (other key)"]
    c = ScriptedClient(answer(v, key=None), v["root"])
    with pytest.raises(StateProofError) as e:
        c.get_proven_account(ADDRESS)
    assert e.value.code == "PROOF_KEY_NOT_COVERED"


def test_a_tampered_proof_is_rejected():
    proof = bytearray.fromhex(STORAGE["proof"])
    proof[100] ^= 0x08
    c = ScriptedClient(answer(STORAGE, proof="0x" + proof.hex()), STORAGE["root"])
    with pytest.raises(StateProofError) as e:
        c.get_storage_at(ADDRESS, b"count")
    assert e.value.code in ("PROOF_ROOT_MISMATCH", "PROOF_BAD_MMR_PATH")


def test_a_proof_under_another_root_is_rejected():
    wrong = VECTORS["single key inclusion"]["root"]
    c = ScriptedClient(answer(STORAGE, stateRoot="0x" + wrong), wrong)
    with pytest.raises(StateProofError) as e:
        c.get_storage_at(ADDRESS, b"count")
    assert e.value.code == "PROOF_ROOT_MISMATCH"


def test_a_claimed_value_the_proof_does_not_show_is_rejected():
    c = ScriptedClient(answer(ABSENT, value="0x01"), ABSENT["root"])
    with pytest.raises(ProofMismatchError) as e:
        c.get_storage(ADDRESS, b"other")
    assert e.value.field == "cowboy_getStorageAt.value"
    c = ScriptedClient(answer(STORAGE, value="0x0600000000000000"), STORAGE["root"])
    with pytest.raises(ProofMismatchError):
        c.get_storage_at(ADDRESS, b"count")
    c = ScriptedClient(answer(STORAGE, value=None), STORAGE["root"])
    with pytest.raises(ProofMismatchError):
        c.get_storage_at(ADDRESS, b"count")


def test_answer_for_another_key_or_root_is_rejected():
    c = ScriptedClient(answer(STORAGE), STORAGE["root"])
    with pytest.raises(ProofMismatchError) as e:
        c.get_storage_at(ADDRESS, b"other")
    assert e.value.field == "cowboy_getStorageAt.key"
    # the witness of "count" also proves "other" absent (it lies in the gap after "count") ...
    c = ScriptedClient(answer(STORAGE, key=None, value=None), STORAGE["root"])
    assert c.get_storage_at(ADDRESS, b"other").value is None
    # ... but not "a", which sorts before "count"
    c = ScriptedClient(answer(STORAGE, key=None, value=None), STORAGE["root"])
    with pytest.raises(StateProofError) as e:
        c.get_storage_at(ADDRESS, b"a")
    assert e.value.code == "PROOF_KEY_NOT_COVERED"
    c = ScriptedClient(answer(STORAGE, stateRoot="0x" + "00" * 32), STORAGE["root"])
    with pytest.raises(ProofMismatchError) as e:
        c.get_storage_at(ADDRESS, b"count")
    assert e.value.field == "cowboy_getStorageAt.stateRoot"


def test_unknown_block_and_missing_proof():
    c = ScriptedClient(answer(STORAGE, blockNumber="0x8"), STORAGE["root"])
    with pytest.raises(ProofMismatchError) as e:
        c.get_storage_at(ADDRESS, b"count")
    assert e.value.field == "cowboy_getStorageAt.blockNumber"
    c = ScriptedClient({"value": None, "blockNumber": "0x9"}, STORAGE["root"])
    with pytest.raises(TransportError):
        c.get_storage_at(ADDRESS, b"count")


def test_bad_storage_keys_fail_before_any_request():
    c = ScriptedClient(answer(STORAGE), STORAGE["root"])
    with pytest.raises(ValueError):
        c.get_storage_at(ADDRESS, b"x" * 513)
    with pytest.raises(ValueError):
        c.get_storage_at(b"short", b"count")
    assert c.calls == []
