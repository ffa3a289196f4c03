"""DCA bot (examples/dca.py): a timer that reschedules itself every few blocks."""
from cowboy_test import raises, Unauthorized

# the bot pays for its own timer fires (§5.1a), so it is deployed with a budget for them
FIRES = 100 * 10**9

EXCHANGE = """
from cowboy_sdk import actor, ctx, emit

@actor
class Exchange:
    def __init__(self):
        self.storage["swaps"] = 0

    def swap(self, amount):
        self.storage["swaps"] += 1
        emit("Swapped", {"amount": amount, "value": ctx.value})

    def swaps(self):
        return self.storage["swaps"]
"""


def test_buys_every_period_until_the_budget_is_spent(chain, deploy, alice):
    exchange = deploy(EXCHANGE)
    bot = deploy("dca.py", exchange, 3, 1000, 2, sender=alice, value=FIRES + 2000)
    fired = chain.advance(3)
    assert [r.handler for r in fired] == ["buy"]
    assert fired[0].event("Bought") == {"round": 1, "amount": 1000}
    assert exchange.call("swaps") == 1
    assert bot.call("progress") == {"done": 1, "left": 1}
    assert [r.handler for r in chain.advance(3)] == ["buy"]
    assert bot.call("progress") == {"done": 2, "left": 0}
    assert exchange.balance == 2000
    # the budget is spent: no more timers
    assert chain.advance(6) == []
    assert [e.data["amount"] for e in exchange.events("Swapped")] == [1000, 1000]


def test_the_owner_stops_it(chain, deploy, alice, bob):
    exchange = deploy(EXCHANGE)
    bot = deploy("dca.py", exchange, 2, 500, 5, sender=alice, value=FIRES)
    with raises(Unauthorized):
        bot.stop(sender=bob)
    bot.stop(sender=alice)
    assert chain.advance(10) == []
    assert exchange.call("swaps") == 0


def test_each_fire_costs_the_same(chain, deploy):
    exchange = deploy(EXCHANGE)
    deploy("dca.py", exchange, 1, 10, 3, value=FIRES)
    fires = chain.advance(3)
    assert len(fires) == 3
    assert fires[0].cycles == fires[1].cycles
