# A bank ledger with accounts, transfers, history and audit.
class InsufficientFunds(Exception):
    pass
class Ledger:
    def __init__(self):
        self.balances = {}
        self.history = []
        self.seq = 0
    def open(self, name, initial=0):
        if name in self.balances:
            raise ValueError(f"account {name} exists")
        self.balances[name] = initial
        self._log("open", name, None, initial)
    def _log(self, kind, src, dst, amount):
        self.seq += 1
        self.history.append((self.seq, kind, src, dst, amount))
    def deposit(self, name, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.balances[name] += amount
        self._log("deposit", name, None, amount)
    def transfer(self, src, dst, amount):
        if self.balances[src] < amount:
            raise InsufficientFunds(f"{src} has {self.balances[src]}, needs {amount}")
        self.balances[src] -= amount
        self.balances[dst] += amount
        self._log("transfer", src, dst, amount)
    def total(self):
        return sum(self.balances.values())
    def statement(self, name):
        out = []
        for seq, kind, src, dst, amt in self.history:
            if src == name:
                out.append((seq, kind, -amt if kind == "transfer" else amt))
            elif dst == name:
                out.append((seq, kind, amt))
        return out
L = Ledger()
for n, a in [("alice", 100), ("bob", 50), ("carol", 0)]:
    L.open(n, a)
ops = [("transfer", "alice", "bob", 30), ("transfer", "bob", "carol", 70), ("deposit", "carol", 5), ("transfer", "carol", "alice", 100),
       ("deposit", "bob", -1), ("transfer", "alice", "carol", 70), ("open", "bob", 0)]
for op in ops:
    try:
        if op[0] == "transfer":
            L.transfer(*op[1:])
        elif op[0] == "deposit":
            L.deposit(*op[1:])
        else:
            L.open(*op[1:])
        print("ok", op, L.balances)
    except (InsufficientFunds, ValueError) as e:
        print("fail", op, type(e).__name__, e)
print("total", L.total())
for n in L.balances:
    print(n, L.statement(n))
print(len(L.history), L.history[-1])
