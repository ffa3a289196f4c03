"""The validator lifecycle through cowboy-py: typed parsing of the node's validator records and
sets, the receipt errors with their fixes, and end to end against the real devnet (cowboyd as a
child process, default parameters: 10,000 CBY minimum stake, 3,600-block epochs, 7-day
unbonding) with a BLS key made by `cowboy validator keygen` — registered, bonded with activation
epoch = the next epoch, exited, and refused what the chain refuses."""
import json
import subprocess

import pytest

from cowboy_py import (
    Client,
    TransportError,
    Validator,
    ValidatorError,
    ValidatorSet,
    dev_account,
    parse_validator_error,
)

import time

from node_process import ROOT, Devnet, NodeProcess, find_node

CBY = 10**9
RECORD = {
    "address": "0x" + "11" * 20,
    "blsKey": "0x" + "77" * 48,
    "stake": "0x9184e72a000",
    "status": "exiting",
    "registeredHeight": "0x4",
    "activationEpoch": "0x1",
    "exitHeight": "0x5a",
    "jailedUntil": "0x78",
    "jailCount": 2,
    "slashed": "0x174876e800",
    "missed": 7,
}


def test_parse_validator_record():
    v = Validator.parse(RECORD)
    assert (v.address, v.bls_key) == (bytes([0x11] * 20), bytes([0x77] * 48))
    assert (v.stake, v.status, v.registered_height, v.activation_epoch) == (10_000 * CBY, "exiting", 4, 1)
    assert (v.exit_height, v.jailed_until, v.jail_count, v.slashed, v.missed) == (90, 120, 2, 100 * CBY, 7)
    for bad, field in [({"status": "jailed"}, "status"), ({"blsKey": "0x77"}, "blsKey"), ({"stake": 5}, "stake"),
                       ({"missed": -1}, "missed"), ({"jailCount": True}, "jailCount")]:
        with pytest.raises(TransportError, match=field):
            Validator.parse({**RECORD, **bad})


def test_parse_validator_set():
    member = {"index": 0, "address": RECORD["address"], "blsKey": RECORD["blsKey"], "stake": "0x5"}
    s = ValidatorSet.parse({"epoch": "0x3", "validators": [member, {**member, "index": 1, "stake": "0x7"}]})
    assert (s.epoch, s.total_stake, [m.index for m in s.validators]) == (3, 12, [0, 1])
    with pytest.raises(TransportError, match="index order"):
        ValidatorSet.parse({"epoch": "0x3", "validators": [{**member, "index": 1}]})
    with pytest.raises(TransportError):
        ValidatorSet.parse({"epoch": "0x3"})


def test_validator_errors_carry_the_fix():
    low = parse_validator_error("ERR_VALIDATOR_STAKE_TOO_LOW: stake 5 is below the minimum 10000000000000")
    assert (low.code, low.err_code) == ("STAKE_TOO_LOW", "ERR_VALIDATOR_STAKE_TOO_LOW")
    assert low.values == {"stake": 5, "min_stake": 10_000 * CBY}
    assert low.fix == "stake at least the minimum 10000 CBY (10000000000000 base units)"
    unbonding = parse_validator_error("ERR_VALIDATOR_STILL_UNBONDING: ab unbonds at height 604805")
    assert unbonding.values == {"unbonds_at": 604805}
    assert unbonding.fix == "wait until block 604805, then withdraw again"
    assert parse_validator_error("ERR_VALIDATOR_STILL_JAILED: ab is jailed until height 77").values == \
        {"jailed_until": 77}
    assert parse_validator_error("ERR_VALIDATOR_BALANCE: balance 3 < stake 9").values == {"balance": 3, "stake": 9}
    assert parse_validator_error("ERR_EXEC_HANDLER: boom") is None
    assert parse_validator_error(None) is None


needs_node = pytest.mark.skipif(find_node() is None, reason="needs Node.js >= 22 to run the devnet")


@pytest.fixture(scope="module")
def client():
    with Devnet("--block-time", "100") as url:
        yield Client(url)


def keygen(tmp_path, chain_id: int) -> dict:
    """A BLS key and its proof of possession from the CLI (`cowboy validator keygen`)."""
    r = subprocess.run([find_node(), str(ROOT / "ts" / "cli" / "bin" / "cowboy.js"), "validator", "keygen",
                        "--chain-id", str(chain_id), "--out", str(tmp_path / "v.key"), "--json"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@needs_node
def test_lifecycle_on_the_devnet(client, tmp_path):
    key = dev_account(8)
    assert client.get_validator(key.address) is None
    assert client.get_validators(0).validators == []
    pub = keygen(tmp_path, client.chain_id())
    bls_key, pop = bytes.fromhex(pub["blsPublicKey"][2:]), bytes.fromhex(pub["proofOfPossession"][2:])

    with pytest.raises(ValidatorError) as low:
        client.register_validator(key, bls_key, pop, 5 * CBY)
    assert low.value.err_code == "ERR_VALIDATOR_STAKE_TOO_LOW"
    assert low.value.failure.values["min_stake"] == 10_000 * CBY
    assert "stake at least the minimum 10000 CBY" in str(low.value)

    before = client.get_balance(key.address)
    r = client.register_validator(key, bls_key, pop, 11_000 * CBY)
    assert r.status == "success"
    assert client.get_balance(key.address) == before - 11_000 * CBY - r.fee_paid
    v = client.get_validator(key.address)
    assert (v.address, v.bls_key, v.stake, v.status) == (key.address, bls_key, 11_000 * CBY, "bonded")
    assert v.registered_height == r.block_number
    assert v.activation_epoch == r.block_number // 3600 + 1
    assert (v.exit_height, v.jailed_until, v.slashed) == (0, 0, 0)
    assert key.address not in [m.address for m in client.get_validators(r.block_number // 3600).validators]

    with pytest.raises(ValidatorError) as again:
        client.register_validator(key, bls_key, pop, 10_000 * CBY)
    assert again.value.err_code == "ERR_VALIDATOR_ALREADY_REGISTERED"
    with pytest.raises(ValidatorError) as unjail:
        client.unjail_validator(key)
    assert unjail.value.err_code == "ERR_VALIDATOR_NOT_JAILED"

    exit_receipt = client.exit_validator(key)
    v = client.get_validator(key.address)
    assert (v.status, v.exit_height) == ("exiting", exit_receipt.block_number)
    with pytest.raises(ValidatorError) as early:
        client.withdraw_stake(key)
    assert early.value.err_code == "ERR_VALIDATOR_STILL_UNBONDING"
    assert early.value.failure.values["unbonds_at"] == exit_receipt.block_number + 7 * 24 * 3600
    assert str(early.value).endswith("then withdraw again)")


@needs_node
def test_not_a_validator(client):
    with pytest.raises(ValidatorError) as e:
        client.exit_validator(dev_account(9))
    assert e.value.err_code == "ERR_VALIDATOR_UNKNOWN_VALIDATOR"
    assert e.value.receipt.status != "success"
    tx_hash = client.withdraw_stake(dev_account(9), wait=False)
    assert len(tx_hash) == 32


VECTORS = json.loads((ROOT / "python" / "tests" / "vectors" / "client-signing.json").read_text())


def test_client_methods_send_the_shared_vectors_bytes():
    """register_validator & co. send the signed bytes of tests/vectors/client-signing.json, which the TS
    SDK's WalletClient methods also send (ts/sdk/test/validators.test.ts)."""
    from cowboy_py import PrivateKey, derive_secret_key, mnemonic_to_seed

    seed = mnemonic_to_seed(VECTORS["mnemonic"])
    limits = {
        "cycles_limit": int(VECTORS["limits"]["cyclesLimit"]),
        "cells_limit": int(VECTORS["limits"]["cellsLimit"]),
        "max_fee_per_cycle": int(VECTORS["limits"]["maxFeePerCycle"]),
        "max_fee_per_cell": int(VECTORS["limits"]["maxFeePerCell"]),
        "max_priority_fee_per_cycle": int(VECTORS["limits"]["maxPriorityFeePerCycle"]),
        "max_priority_fee_per_cell": int(VECTORS["limits"]["maxPriorityFeePerCell"]),
    }
    calls = {
        "registerValidator": lambda c, k, i, kw: c.register_validator(
            k, bytes.fromhex(i["blsKey"][2:]), bytes.fromhex(i["proofOfPossession"][2:]), int(i["stake"]), **kw),
        "exitValidator": lambda c, k, i, kw: c.exit_validator(k, **kw),
        "withdrawStake": lambda c, k, i, kw: c.withdraw_stake(k, **kw),
        "unjailValidator": lambda c, k, i, kw: c.unjail_validator(k, **kw),
        "submitEvidence": lambda c, k, i, kw: c.submit_evidence(k, bytes.fromhex(i["evidence"][2:]), **kw),
    }
    cases = [c for c in VECTORS["cases"] if c["instruction"]["kind"] in calls]
    assert [c["instruction"]["kind"] for c in cases] == list(calls)
    for case in cases:
        sent = []

        def request(method, params=()):
            if method == "cowboy_chainId":
                return hex(int(VECTORS["chainId"]))
            if method == "cowboy_sendRawTransaction":
                sent.append(params[0])
                return "0x" + "00" * 32
            raise AssertionError(f"unexpected {method}")

        c = Client("http://capture.invalid")
        c.request = request
        key = PrivateKey(derive_secret_key(seed, case["path"]))
        tx_hash = calls[case["instruction"]["kind"]](c, key, case["instruction"],
                                                      {"nonce": case["nonce"], "wait": False, **limits})
        assert tx_hash == bytes(32)
        assert sent == ["0x" + case["signedHex"]], case["name"]


@needs_node
def _first_epoch_after(height: int, epoch: int) -> int:
    """The first epoch whose set a change in block `height` reaches: the set of e+1 is frozen at the start of
    block F(e) = e*E + E//2 (docs/execution.md "Validator set")."""
    return height // epoch + (1 if height % epoch < epoch // 2 else 2)


def test_whole_lifecycle_with_short_epochs(tmp_path):
    """On a devnet with 5-block epochs and 40-block unbonding (ts/sdk/test/validator-devnet-main.ts): in the
    set from the next epoch fixed after the registration, out of it after the exit, the stake withdrawn after the unbonding."""
    epoch, unbonding = 5, 40
    with NodeProcess("ts/sdk/test/validator-devnet-main.ts", str(epoch), str(unbonding)) as urls:
        c = Client(urls["http"])
        key = dev_account(4)

        def until(height):
            deadline = time.time() + 30
            while c.block_number() < height:
                assert time.time() < deadline, f"the devnet did not reach block {height}"
                time.sleep(0.025)

        pub = keygen(tmp_path, c.chain_id())
        bls_key = bytes.fromhex(pub["blsPublicKey"][2:])
        r = c.register_validator(key, bls_key, bytes.fromhex(pub["proofOfPossession"][2:]), 10_000 * CBY)
        activation = _first_epoch_after(r.block_number, epoch)
        assert c.get_validator(key.address).activation_epoch == activation
        until(activation * epoch)
        s = c.get_validators(activation)
        assert [(m.index, m.address, m.bls_key, m.stake) for m in s.validators] == \
            [(0, key.address, bls_key, 10_000 * CBY)]
        assert s.total_stake == 10_000 * CBY

        exit_receipt = c.exit_validator(key)
        with pytest.raises(ValidatorError) as early:
            c.withdraw_stake(key)
        assert early.value.failure.values["unbonds_at"] == exit_receipt.block_number + unbonding
        out = _first_epoch_after(exit_receipt.block_number, epoch)
        until(out * epoch)
        assert key.address not in [m.address for m in c.get_validators(out).validators]

        until(exit_receipt.block_number + unbonding)
        balance = c.get_balance(key.address)
        w = c.withdraw_stake(key)
        assert w.status == "success"
        assert c.get_validator(key.address) is None
        assert c.get_balance(key.address, w.block_number) >= balance + 10_000 * CBY - w.fee_paid
