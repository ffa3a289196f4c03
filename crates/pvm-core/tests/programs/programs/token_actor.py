# An ERC20-like token actor with allowances, events and error handling.
class TokenError(Exception):
    pass
class Token:
    def __init__(self, name, symbol, supply, owner):
        self.name, self.symbol = name, symbol
        self.balances = {owner: supply}
        self.allowances = {}
        self.events = []
        self.total_supply = supply
    def _emit(self, *ev):
        self.events.append(ev)
    def balance_of(self, who):
        return self.balances.get(who, 0)
    def transfer(self, sender, to, amount):
        if amount < 0:
            raise TokenError("negative amount")
        if self.balance_of(sender) < amount:
            raise TokenError(f"insufficient balance: {sender} has {self.balance_of(sender)}")
        self.balances[sender] -= amount
        self.balances[to] = self.balance_of(to) + amount
        self._emit("Transfer", sender, to, amount)
        return True
    def approve(self, owner, spender, amount):
        self.allowances[(owner, spender)] = amount
        self._emit("Approval", owner, spender, amount)
    def transfer_from(self, spender, owner, to, amount):
        allowed = self.allowances.get((owner, spender), 0)
        if allowed < amount:
            raise TokenError(f"allowance exceeded: {allowed} < {amount}")
        self.transfer(owner, to, amount)
        self.allowances[(owner, spender)] = allowed - amount
    def mint(self, caller, to, amount):
        if caller != "owner":
            raise TokenError("only owner can mint")
        self.total_supply += amount
        self.balances[to] = self.balance_of(to) + amount
        self._emit("Transfer", None, to, amount)
t = Token("Cowboy Gold", "CBG", 10**24, "owner")
calls = [("transfer", "owner", "alice", 5 * 10**21), ("transfer", "alice", "bob", 10**21), ("approve", "alice", "carol", 2 * 10**21),
         ("transfer_from", "carol", "alice", "dave", 1500 * 10**18), ("transfer_from", "carol", "alice", "dave", 10**21),
         ("transfer", "bob", "alice", 2 * 10**21), ("mint", "alice", "alice", 1), ("mint", "owner", "erin", 42), ("transfer", "dave", "erin", -5)]
for c in calls:
    try:
        getattr(t, c[0])(*c[1:])
        print("ok  ", c[0], c[1:])
    except TokenError as e:
        print("fail", c[0], e)
for who in sorted(t.balances):
    print(f"{who:>6} {t.balance_of(who):>28,}")
print("supply", t.total_supply, sum(t.balances.values()) == t.total_supply)
print("events", len(t.events), t.events[-1])
print("allowance", t.allowances)
