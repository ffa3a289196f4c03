# A 2-of-3 multisig escrow with proposals, approvals and execution.
class Multisig:
    def __init__(self, owners, threshold, balance):
        self.owners, self.threshold, self.balance = set(owners), threshold, balance
        self.proposals = {}
        self.next = 0
        self.executed = []
    def propose(self, who, to, amount):
        self._owner(who)
        self.next += 1
        self.proposals[self.next] = {"to": to, "amount": amount, "approvals": {who}, "done": False}
        return self.next
    def approve(self, who, pid):
        self._owner(who)
        p = self.proposals[pid]
        if p["done"]:
            raise RuntimeError(f"proposal {pid} already executed")
        p["approvals"].add(who)
        if len(p["approvals"]) >= self.threshold:
            if p["amount"] > self.balance:
                raise RuntimeError(f"insufficient balance for {pid}")
            self.balance -= p["amount"]
            p["done"] = True
            self.executed.append((pid, p["to"], p["amount"]))
            return "executed"
        return f"{len(p['approvals'])}/{self.threshold}"
    def _owner(self, who):
        if who not in self.owners:
            raise PermissionError(f"{who} is not an owner")
m = Multisig(["ann", "ben", "cid"], 2, 1000)
p1 = m.propose("ann", "vendor", 300)
p2 = m.propose("ben", "payroll", 900)
steps = [("approve", "ann", p1), ("approve", "cid", p1), ("approve", "ben", p1), ("approve", "eve", p2), ("approve", "cid", p2)]
for op, who, pid in steps:
    try:
        print(op, who, pid, m.approve(who, pid))
    except (RuntimeError, PermissionError) as e:
        print(op, who, pid, type(e).__name__, e)
print(m.balance, m.executed, sorted(m.proposals[p2]["approvals"]))
