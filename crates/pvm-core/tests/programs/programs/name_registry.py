# A name registry actor: registration with fees, expiry by height, transfers and lookups.
class Registry:
    FEE_PER_BLOCK = 10
    def __init__(self):
        self.names = {}
        self.income = 0
    def _valid(self, name):
        return 3 <= len(name) <= 32 and name.isascii() and all(c.isalnum() or c == "-" for c in name) and not name.startswith("-")
    def register(self, height, who, name, blocks, paid):
        name = name.lower()
        if not self._valid(name):
            raise ValueError(f"invalid name {name!r}")
        cur = self.names.get(name)
        if cur and cur["expires"] > height:
            raise PermissionError(f"{name} is owned by {cur['owner']} until {cur['expires']}")
        fee = blocks * self.FEE_PER_BLOCK * (2 if len(name) < 5 else 1)
        if paid < fee:
            raise ValueError(f"fee {fee} required, {paid} paid")
        self.income += fee
        self.names[name] = {"owner": who, "expires": height + blocks, "target": who}
        return paid - fee
    def transfer(self, height, who, name, to):
        rec = self.names.get(name)
        if not rec or rec["expires"] <= height or rec["owner"] != who:
            raise PermissionError(f"{who} cannot transfer {name}")
        rec["owner"] = to
    def resolve(self, height, name):
        rec = self.names.get(name.lower())
        return rec["target"] if rec and rec["expires"] > height else None
r = Registry()
ops = [(1, "register", "ann", "Cowboy", 100, 5000), (2, "register", "bob", "cowboy", 50, 5000), (3, "register", "bob", "pvm", 10, 150),
       (4, "register", "bob", "pvm", 10, 200), (5, "register", "eve", "-bad", 10, 1000), (6, "register", "eve", "ab", 10, 1000),
       (7, "transfer", "bob", "pvm", "cy"), (8, "transfer", "bob", "pvm", "dan"), (120, "register", "bob", "cowboy", 20, 200)]
for op in ops:
    h, kind = op[0], op[1]
    try:
        if kind == "register":
            print(h, kind, op[2:4], "change", r.register(h, *op[2:]))
        else:
            r.transfer(h, *op[2:])
            print(h, kind, op[2:], "ok")
    except (ValueError, PermissionError) as e:
        print(h, kind, op[2:4], type(e).__name__, e)
for h in (50, 101, 130, 200):
    print(h, r.resolve(h, "COWBOY"), r.resolve(h, "pvm"))
print(r.income, {k: v["owner"] for k, v in r.names.items()})
