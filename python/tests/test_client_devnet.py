"""The Python client end to end against the real devnet (cowboyd as a child process):
chain reads, signed transfers with the node's fee estimate, receipts, the faucet and
state reads."""
import pytest

from cowboy_py import Client, RpcError, dev_account

from node_process import Devnet, find_node, has_actor_runtime

pytestmark = pytest.mark.skipif(find_node() is None, reason="needs Node.js >= 22 to run the devnet")


@pytest.fixture(scope="module")
def client():
    with Devnet("--block-time", "100") as url:
        yield Client(url)


def test_reads(client):
    assert client.chain_id() == 7777
    assert client.get_balance(dev_account(0).address) == 1_000_000 * 10**9
    assert client.get_block(0)["number"] == "0x0"
    assert client.get_storage(bytes([0x98] * 20), "count") is None


def test_transfers(client):
    to = bytes([0xCC] * 20)
    r1 = client.transfer(dev_account(3), to, 700)
    r2 = client.transfer(dev_account(3), to, 300)
    assert (r1.status, r2.status) == ("success", "success")
    assert client.get_balance(to) == 1000
    assert r2.fee_paid > 0
    tx = client.get_transaction(r2.transaction_hash)
    assert tx.nonce == client.get_transaction(r1.transaction_hash).nonce + 1


def test_faucet_and_refusals(client):
    who = bytes([0xCD] * 20)
    h = client.faucet(who, 5 * 10**9)
    client.wait_for_receipt(h, timeout=30)
    assert client.get_balance(who) == 5 * 10**9
    with pytest.raises(RpcError) as e:
        client.transfer(dev_account(3), who, 1, nonce=0)
    assert e.value.reason.startswith("ERR_")


def test_new_heads_subscription(client):
    with client.subscribe("newHeads") as heads:
        a = int(heads.next_result(timeout=10)["number"], 16)
        b = int(heads.next_result(timeout=10)["number"], 16)
    assert b == a + 1


COUNTER = """from cowboy_sdk import actor, emit


@actor
class Counter:
    def __init__(self, start: int = 0):
        self.storage["count"] = start

    def increment(self, by: int = 1) -> int:
        if by <= 0:
            raise ValueError("by must be positive")
        self.storage["count"] += by
        emit("Incremented", self.storage["count"])
        return self.storage["count"]

    def get(self) -> int:
        return self.storage["count"]
"""


@pytest.mark.skipif(not has_actor_runtime(), reason="the native addon has no actor runtime (executeActor)")
def test_actor_deploy_send_call(client):
    from cowboy_py import ActorCallError
    me = dev_account(4)
    d = client.deploy(me, COUNTER, args=[10])
    assert d.receipt.contract_address == d.address
    assert client.call(d.address, "get") == 10
    r = client.send(me, d.address, "increment", [5])
    assert r.value == 15
    assert [(e.name, e.value) for e in r.events] == [("Incremented", 15)]
    assert client.get_storage(d.address, "count") == 15
    with pytest.raises(ActorCallError) as e:
        client.send(me, d.address, "increment", [0])
    assert (e.value.type, e.value.detail) == ("ValueError", "by must be positive")
    logs = client.get_logs(d.address, topics=["Incremented"], from_block=0)
    assert [ev.value for ev in logs] == [15]
