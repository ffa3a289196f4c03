"""Escrow: the buyer deploys it with the payment attached; the arbiter (or the buyer)
releases the funds to the seller, or the arbiter (or the seller) refunds the buyer.

A plain `class Actor:` — its attributes persist between calls.
"""

from cowboy_sdk import ctx, send, emit, require, Unauthorized, InvalidArgument


class Actor:
    def __init__(self, seller, arbiter):
        require(len(seller) == 20 and len(arbiter) == 20, "addresses are 20 bytes", InvalidArgument)
        require(ctx.value > 0, "deploy the escrow with the payment attached", InvalidArgument)
        self.buyer = ctx.sender
        self.seller = seller
        self.arbiter = arbiter
        self.amount = ctx.value
        self.state = "funded"

    def status(self):
        return {"state": self.state, "amount": self.amount, "buyer": self.buyer, "seller": self.seller}

    def release(self):
        who = ctx.sender
        require(who == self.buyer or who == self.arbiter, "only the buyer or the arbiter may release", Unauthorized)
        self._settle(self.seller, "released")

    def refund(self):
        who = ctx.sender
        require(who == self.seller or who == self.arbiter, "only the seller or the arbiter may refund", Unauthorized)
        self._settle(self.buyer, "refunded")

    def _settle(self, to, state):
        require(self.state == "funded", "the escrow is already " + self.state)
        self.state = state
        send(to, "receive", value=self.amount)
        emit("Settled", {"state": state, "to": to, "amount": self.amount})
