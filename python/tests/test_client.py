"""The RPC client against the in-memory test chain of the TS SDK's tests served by the real
RPC modules of ts/rpc (ts/sdk/test/mini-node-main.ts, run as a child process): reads,
simulations, signed transfers, deploys and calls, receipts, errors."""
import pytest

from cowboy_py import (
    ActorCallError,
    Client,
    RpcError,
    TransportError,
    actor_address,
    canonicalize_source,
    decode_cbor,
    default_deploy_salt,
    dev_account,
    encode_args,
    verify_transaction,
)

from node_process import NodeProcess, find_node

pytestmark = pytest.mark.skipif(find_node() is None, reason="needs Node.js >= 22 for the test node")

ACTOR = bytes([0xAC] * 20)


@pytest.fixture(scope="module")
def client():
    with NodeProcess("ts/sdk/test/mini-node-main.ts") as urls:
        yield Client(urls["http"])


def test_reads(client):
    assert client.chain_id() == 7
    assert client.block_number() >= 0
    assert client.get_balance(dev_account(0).address) > 0
    block = client.get_block(0)
    assert block["number"] == "0x0"
    assert client.get_block(bytes.fromhex(block["hash"][2:]))["hash"] == block["hash"]
    assert client.get_block(10**6) is None
    assert client.status()["chainId"] == "0x7"
    assert client.get_timers(ACTOR)[0]["handler"] == "tick"
    assert client.get_storage(ACTOR, "count") is None


def test_simulated_calls(client):
    assert client.call(ACTOR, "echo", [1, "a", b"\x00"]) == [1, "a", b"\x00"]
    sim = client.simulate(ACTOR, "echo", [2])
    assert sim.ok and sim.cycles_used == 5000 and sim.value == [2]
    with pytest.raises(ActorCallError) as e:
        client.call(ACTOR, "fail")
    assert e.value.type == "ValueError" and e.value.detail == "told to fail"


def test_transfer_fills_nonce_and_fees(client):
    key = dev_account(1)
    to = bytes([0x31] * 20)
    before = client.get_balance(to)
    r1 = client.transfer(key, to, 5)
    r2 = client.transfer(key, to, 6)
    assert r1.status == "success" and r2.status == "success"
    assert client.get_balance(to) == before + 11
    tx = client.get_transaction(r2.transaction_hash)
    verify_transaction(tx)
    assert tx.cycles_limit == 31_500 and tx.max_fee_per_cycle == 21
    assert r2.fee_paid == 211_000


def test_deploy_and_send(client):
    key = dev_account(2)
    source = "class A:\r\n    pass\r\n"
    nonce = client.next_nonce(key)
    d = client.deploy(key, source, args=[10])
    assert d.address == actor_address(key.address, default_deploy_salt(nonce), canonicalize_source(source))
    assert d.receipt.contract_address == d.address
    assert client.get_code(d.address) == canonicalize_source(source)
    assert d.transaction.instruction.init_args == encode_args([10])
    r = client.send(key, ACTOR, "echo", [7, {"k": [1, 2]}])
    assert r.value == [7, {"k": [1, 2]}]
    with pytest.raises(ActorCallError) as e:
        client.send(key, ACTOR, "fail")
    assert e.value.receipt.status == "reverted"
    r = client.send(key, ACTOR, "emit", ["hi"])
    logs = client.get_logs(ACTOR, topics=["Ping"], from_block=0)
    assert logs[-1].value == ["hi"] and logs[-1].name == "Ping" and logs[-1].topics == [b"Ping"]
    assert decode_cbor(r.return_data) is None


def test_errors(client):
    with pytest.raises(RpcError) as e:
        client.transfer(dev_account(1), bytes(20), 1, nonce=0)
    assert e.value.reason == "ERR_MEMPOOL_NONCE_TOO_LOW"
    with pytest.raises(RpcError) as e:
        client.request("cowboy_nope")
    assert e.value.code == -32601
    with pytest.raises(TransportError, match="cowboy devnet"):
        Client("http://127.0.0.1:9/").chain_id()


def test_subscriptions(client):
    with client.subscribe("newHeads") as heads, client.subscribe("pendingTransactions") as pending, \
            client.watch_events(ACTOR) as events:
        r = client.send(dev_account(1), ACTOR, "emit", [42])
        head = heads.next_result(timeout=10)
        assert int(head["number"], 16) >= 1
        assert pending.next_result(timeout=10) == "0x" + r.transaction_hash.hex()
        event = events.next_result(timeout=10)
        assert event["emitter"] == "0x" + ACTOR.hex()
        assert decode_cbor(bytes.fromhex(event["data"][2:])) == [42]
    with pytest.raises(RpcError) as e:
        client.subscribe("nonsense")
    assert e.value.code == -32602
    with pytest.raises(TimeoutError):
        with client.subscribe("newHeads") as quiet:
            quiet.next_result(timeout=0.2)


def test_topics():
    from cowboy_py import decode_topics, encode_topics
    field = encode_topics("Transfer", b"\xaa\xbb")
    assert field.hex() == "00085472616e736665720002aabb"   # the same bytes as the TS SDK's encodeTopics
    assert decode_topics(field) == [b"Transfer", b"\xaa\xbb"]
    assert decode_topics(b"\x00\x05A") is None


def test_parse_failure():
    from cowboy_py.client import parse_failure
    assert parse_failure("ERR_EXEC_HANDLER: ValueError: by must be positive") == \
        ("ERR_EXEC_HANDLER", "ValueError", "by must be positive")
    assert parse_failure("ERR_EXEC_NOT_ACTOR: 0xab is not an actor") == \
        ("ERR_EXEC_NOT_ACTOR", "ERR_EXEC_NOT_ACTOR", "0xab is not an actor")
    assert parse_failure("ValueError: told to fail") == (None, "ValueError", "told to fail")
    assert parse_failure("ERR_EXEC_OUT_OF_CYCLES: OutOfCycles") == ("ERR_EXEC_OUT_OF_CYCLES", "OutOfCycles", "")
    assert parse_failure("something odd", "reverted") == (None, "reverted", "something odd")
