"""Lottery (examples/lottery.py): tickets with value, a draw from the beacon."""
from cowboy_test import raises, InvalidArgument, ActorError

PRICE = 10**9


def test_one_ticket_per_player_at_the_exact_price(chain, deploy, bob, carol):
    lottery = deploy("lottery.py", PRICE, chain.height + 20)
    assert lottery.enter(sender=bob, value=PRICE).value == 1
    with raises(InvalidArgument, match="exactly"):
        lottery.enter(sender=carol, value=PRICE - 1)
    with raises(InvalidArgument, match="one ticket"):
        lottery.enter(sender=bob, value=PRICE)
    assert lottery.balance == PRICE


def test_the_draw_pays_the_pot_to_a_player(chain, deploy, bob, carol, dave):
    lottery = deploy("lottery.py", PRICE, chain.height + 10)
    for p in (bob, carol, dave):
        lottery.enter(sender=p, value=PRICE)
    with raises(ActorError, match="too early"):
        lottery.draw()
    chain.advance(10)
    receipt = lottery.draw()
    winner = receipt.value
    assert winner in [bob.address, carol.address, dave.address]
    assert receipt.event("Drawn") == {"winner": winner, "pot": 3 * PRICE}
    assert lottery.balance == 0
    assert lottery.storage("winner") == winner
