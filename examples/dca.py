"""Dollar-cost averaging bot that reschedules itself with a timer.

Every `every` blocks it sends `amount` to an exchange actor's `swap` handler, until its
budget runs out or the owner stops it.
"""

from cowboy_sdk import actor, ctx, send, emit, set_timer, cancel_timer, require, Unauthorized


@actor
class DcaBot:
    def __init__(self, exchange, every, amount, rounds):
        self.storage["owner"] = ctx.sender
        self.storage["exchange"] = exchange
        self.storage["every"] = every
        self.storage["amount"] = amount
        self.storage["left"] = rounds
        self.storage["done"] = 0
        self._schedule()

    def buy(self, data=None):
        require(ctx.block_height >= self.storage["next"], "the next round is not due yet")
        left = self.storage["left"]
        if left == 0:
            return 0
        amount = self.storage["amount"]
        send(self.storage["exchange"], "swap", amount, value=amount)
        self.storage["left"] = left - 1
        self.storage["done"] += 1
        emit("Bought", {"round": self.storage["done"], "amount": amount})
        if left > 1:
            self._schedule()
        else:
            del self.storage["timer"]
        return self.storage["done"]

    def stop(self):
        require(ctx.sender == self.storage["owner"], "only the owner may stop the bot", Unauthorized)
        if "timer" in self.storage:
            cancel_timer(self.storage["timer"])
            del self.storage["timer"]
        self.storage["left"] = 0

    def progress(self):
        return {"done": self.storage["done"], "left": self.storage["left"]}

    def _schedule(self):
        due = ctx.block_height + self.storage["every"]
        self.storage["next"] = due
        self.storage["timer"] = set_timer(due, "buy")
