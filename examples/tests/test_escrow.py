"""Escrow (examples/escrow.py): funds held by the actor until released or refunded."""
from cowboy_test import raises, Unauthorized, ActorError

CBY = 10**9


def test_release_pays_the_seller(deploy, alice, bob, carol):
    escrow = deploy("escrow.py", bob, carol, sender=alice, value=5 * CBY)
    assert escrow.balance == 5 * CBY
    assert escrow.call("status")["state"] == "funded"
    seller_before = bob.balance
    receipt = escrow.release(sender=carol)
    assert receipt.event("Settled") == {"state": "released", "to": bob.address, "amount": 5 * CBY}
    assert bob.balance == seller_before + 5 * CBY
    assert escrow.balance == 0


def test_only_the_parties_may_settle(deploy, alice, bob, carol, dave):
    escrow = deploy("escrow.py", bob, carol, sender=alice, value=CBY)
    with raises(Unauthorized):
        escrow.release(sender=dave)
    with raises(Unauthorized):
        escrow.refund(sender=alice)
    escrow.refund(sender=bob)
    assert escrow.call("status")["state"] == "refunded"
    with raises(ActorError, match="already refunded"):
        escrow.release(sender=alice)


def test_deploy_without_payment_is_refused(deploy, bob, carol):
    with raises("InvalidArgument", match="payment attached"):
        deploy("escrow.py", bob, carol)
