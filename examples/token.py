"""A fungible token with allowances (the ERC-20 shape) as a Cowboy actor.

Balances and allowances live in `self.storage` under tuple keys, so each account costs one
storage cell. Every state change emits an event.
"""

from cowboy_sdk import actor, ctx, emit, require, InsufficientFunds, InvalidArgument


@actor
class Token:
    def __init__(self, name, symbol, supply):
        require(isinstance(supply, int) and supply >= 0, "supply must be a non-negative int", InvalidArgument)
        self.storage["meta"] = {"name": name, "symbol": symbol, "decimals": 9}
        self.storage["supply"] = supply
        owner = ctx.sender
        self.storage[("bal", owner)] = supply
        emit("Transfer", {"from": None, "to": owner, "amount": supply})

    def meta(self):
        return self.storage["meta"]

    def total_supply(self):
        return self.storage["supply"]

    def balance_of(self, owner):
        return self.storage.get(("bal", owner), 0)

    def allowance(self, owner, spender):
        return self.storage.get(("allow", owner, spender), 0)

    def transfer(self, to, amount):
        self._move(ctx.sender, to, amount)
        return True

    def approve(self, spender, amount):
        _check_address(spender)
        require(isinstance(amount, int) and amount >= 0, "amount must be a non-negative int", InvalidArgument)
        owner = ctx.sender
        if amount == 0:
            if ("allow", owner, spender) in self.storage:
                del self.storage[("allow", owner, spender)]
        else:
            self.storage[("allow", owner, spender)] = amount
        emit("Approval", {"owner": owner, "spender": spender, "amount": amount})
        return True

    def transfer_from(self, owner, to, amount):
        spender = ctx.sender
        allowed = self.storage.get(("allow", owner, spender), 0)
        require(allowed >= amount, "allowance too small", InsufficientFunds)
        self._move(owner, to, amount)
        if allowed == amount:
            del self.storage[("allow", owner, spender)]
        else:
            self.storage[("allow", owner, spender)] = allowed - amount
        return True

    def _move(self, sender, to, amount):
        _check_address(to)
        require(isinstance(amount, int) and amount > 0, "amount must be a positive int", InvalidArgument)
        have = self.storage.get(("bal", sender), 0)
        require(have >= amount, "balance too small", InsufficientFunds)
        if have == amount:
            del self.storage[("bal", sender)]
        else:
            self.storage[("bal", sender)] = have - amount
        self.storage[("bal", to)] = self.storage.get(("bal", to), 0) + amount
        emit("Transfer", {"from": sender, "to": to, "amount": amount})


def _check_address(a):
    require(isinstance(a, bytes) and len(a) == 20, "an address is 20 bytes", InvalidArgument)
