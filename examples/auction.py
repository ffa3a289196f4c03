"""English auction with a timer deadline.

Bids carry their value; the previous highest bidder is refunded by message at once. A
one-shot timer calls `close` at the deadline, which pays the seller and ends the auction.
"""

from cowboy_sdk import actor, ctx, send, emit, set_timer, require, InvalidArgument, ActorError


@actor
class Auction:
    def __init__(self, item, duration_blocks, reserve):
        require(duration_blocks > 0, "duration must be positive", InvalidArgument)
        end = ctx.block_height + duration_blocks
        self.storage["item"] = item
        self.storage["seller"] = ctx.sender
        self.storage["reserve"] = reserve
        self.storage["end"] = end
        self.storage["best"] = None
        self.storage["timer"] = set_timer(end, "close")

    def bid(self):
        require(ctx.block_height < self.storage["end"], "the auction has ended", ActorError)
        amount = ctx.value
        best = self.storage["best"]
        floor = self.storage["reserve"] if best is None else best[1] + 1
        require(amount >= floor, "bid too low: at least " + str(floor), InvalidArgument)
        if best is not None:
            send(best[0], "refund", value=best[1])
        self.storage["best"] = [ctx.sender, amount]
        emit("Bid", {"bidder": ctx.sender, "amount": amount})
        return amount

    def best(self):
        return self.storage["best"]

    def close(self, data=None):
        require(ctx.block_height >= self.storage["end"], "the auction is still running", ActorError)
        require("closed" not in self.storage, "already closed", ActorError)
        self.storage["closed"] = True
        best = self.storage["best"]
        if best is None:
            emit("Closed", {"winner": None})
            return None
        send(self.storage["seller"], "proceeds", value=best[1])
        emit("Closed", {"winner": best[0], "amount": best[1]})
        return best[0]
