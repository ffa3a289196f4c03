"""A lottery drawn with the chain's randomness beacon (`vrf`): players buy tickets with
value; after the deadline anyone may draw, and the pot goes to the winner."""

from cowboy_sdk import actor, ctx, send, emit, vrf_int, require, InvalidArgument, ActorError, OrderedSet


@actor
class Lottery:
    def __init__(self, price, deadline):
        self.storage["price"] = price
        self.storage["deadline"] = deadline
        self.storage["players"] = []

    def enter(self):
        require(ctx.block_height < self.storage["deadline"], "entries are closed", ActorError)
        require(ctx.value == self.storage["price"], "send exactly the ticket price", InvalidArgument)
        players = OrderedSet(self.storage["players"])
        require(ctx.sender not in players, "one ticket per player", InvalidArgument)
        players.add(ctx.sender)
        self.storage["players"] = players.to_list()
        return len(players)

    def draw(self):
        require(ctx.block_height >= self.storage["deadline"], "too early", ActorError)
        require("winner" not in self.storage, "already drawn", ActorError)
        players = self.storage["players"]
        require(len(players) > 0, "no players", ActorError)
        winner = players[vrf_int("lottery-draw", len(players))]
        pot = self.storage["price"] * len(players)
        self.storage["winner"] = winner
        send(winner, "prize", value=pot)
        emit("Drawn", {"winner": winner, "pot": pot})
        return winner
