"""The fungible token (examples/token.py)."""
from cowboy_test import parametrize, raises, InsufficientFunds, InvalidArgument


def test_deploy_mints_the_supply_to_the_deployer(token, alice):
    assert token.call("total_supply") == 1_000_000
    assert token.call("balance_of", alice) == 1_000_000
    assert token.deploy_receipt.events == [("Transfer", {"from": None, "to": alice.address, "amount": 1_000_000})]


def test_transfer_moves_balances_and_emits(token, alice, bob):
    receipt = token.transfer(bob, 250, sender=alice)
    assert receipt.ok and receipt.value is True
    assert token.call("balance_of", alice) == 999_750
    assert token.call("balance_of", bob) == 250
    assert receipt.event("Transfer") == {"from": alice.address, "to": bob.address, "amount": 250}
    # storage is keyed by the canonical encoding of the key, as the actor wrote it
    assert token.storage(("bal", bob)) == 250


def test_transfer_of_more_than_the_balance_fails_and_changes_nothing(token, alice, bob):
    with raises(InsufficientFunds, match="balance too small") as failure:
        token.transfer(alice, 1, sender=bob)
    assert failure.value.receipt.status == "reverted"
    # the actor's traceback names its file: the failing require() is in _move
    assert any('token.py", line' in line and "_move" in line for line in failure.value.traceback)
    assert token.call("balance_of", alice) == 1_000_000


@parametrize("to, amount, message", [
    (b"short", 5, "20 bytes"),
    (None, 0, "positive"),
    (None, -5, "positive"),
    (None, "5", "positive"),
])
def test_bad_arguments_are_typed_errors(token, bob, to, amount, message):
    with raises(InvalidArgument, match=message):
        token.transfer(bob if to is None else to, amount)


def test_allowances(token, alice, bob, carol):
    token.approve(bob, 100, sender=alice)
    assert token.call("allowance", alice, bob) == 100
    token.transfer_from(alice, carol, 60, sender=bob)
    assert token.call("allowance", alice, bob) == 40
    assert token.call("balance_of", carol) == 60
    with raises(InsufficientFunds, match="allowance"):
        token.transfer_from(alice, carol, 41, sender=bob)


def test_a_transfer_costs_cycles_and_a_fee(token, alice, bob):
    before = alice.balance
    receipt = token.transfer(bob, 1, sender=alice)
    assert 0 < receipt.cycles < 1_000_000
    assert receipt.cells > 0
    assert receipt.fee > 0
    assert alice.balance == before - receipt.fee
    # the same call on the same kind of state costs the same (deterministic metering);
    # the first transfer to bob created his balance entry, later ones update it
    second = token.transfer(bob, 1, sender=alice)
    third = token.transfer(bob, 1, sender=alice)
    assert second.cycles == third.cycles
    assert second.cycles != receipt.cycles
