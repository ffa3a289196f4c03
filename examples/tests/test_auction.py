"""English auction (examples/auction.py): bids, refunds and a timer that closes it."""
from cowboy_test import fixture, raises, InvalidArgument, ActorError

CBY = 10**9
# an actor pays for its own timers (§5.1a): without a balance its timer would be dropped
FUND = 100 * CBY


@fixture
def auction(deploy, alice):
    """A 10-block auction of a painting with a 1 CBY reserve, sold by alice."""
    return deploy("auction.py", "painting", 10, CBY, sender=alice, value=FUND)


def test_bids_must_beat_the_best(auction, bob, carol):
    with raises(InvalidArgument, match="at least"):
        auction.bid(sender=bob, value=CBY // 2)
    auction.bid(sender=bob, value=CBY)
    with raises(InvalidArgument):
        auction.bid(sender=carol, value=CBY)
    auction.bid(sender=carol, value=2 * CBY)
    assert auction.call("best") == [carol.address, 2 * CBY]


def test_the_outbid_bidder_is_refunded_at_once(auction, bob, carol):
    auction.bid(sender=bob, value=3 * CBY)
    before = bob.balance
    auction.bid(sender=carol, value=4 * CBY)
    assert bob.balance == before + 3 * CBY
    assert auction.balance == FUND + 4 * CBY


def test_the_timer_closes_the_auction_and_pays_the_seller(chain, auction, alice, bob):
    auction.bid(sender=bob, value=5 * CBY)
    end = auction.storage("end")
    seller_before = alice.balance
    fires = chain.advance(end - chain.height)
    assert chain.height == end
    assert [r.handler for r in fires] == ["close"]
    assert fires[0].ok and fires[0].kind == "timer"
    assert fires[0].event("Closed") == {"winner": bob.address, "amount": 5 * CBY}
    assert alice.balance == seller_before + 5 * CBY
    assert auction.storage("closed") is True
    with raises(ActorError, match="has ended"):
        auction.bid(sender=bob, value=10 * CBY)


def test_nothing_fires_before_the_deadline(chain, auction):
    end = auction.storage("end")
    assert chain.advance(end - chain.height - 1) == []
    assert auction.storage("closed") is None
    assert chain.advance(1)[0].handler == "close"
