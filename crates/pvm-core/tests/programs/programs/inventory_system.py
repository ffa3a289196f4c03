# Inventory with SKUs, reservations, restocks and a report.
class OutOfStock(Exception):
    def __init__(self, sku, wanted, have):
        super().__init__(f"{sku}: wanted {wanted}, have {have}")
        self.sku = sku
class Inventory:
    def __init__(self):
        self.items = {}
        self.reserved = {}
    def add(self, sku, name, qty, price_cents):
        self.items[sku] = {"name": name, "qty": qty, "price": price_cents}
    def available(self, sku):
        return self.items[sku]["qty"] - self.reserved.get(sku, 0)
    def reserve(self, order):
        for sku, q in order.items():
            if self.available(sku) < q:
                raise OutOfStock(sku, q, self.available(sku))
        for sku, q in order.items():
            self.reserved[sku] = self.reserved.get(sku, 0) + q
        return sum(self.items[s]["price"] * q for s, q in order.items())
    def commit(self, order):
        for sku, q in order.items():
            self.items[sku]["qty"] -= q
            self.reserved[sku] -= q
    def restock(self, sku, q):
        self.items[sku]["qty"] += q
    def report(self):
        lines = []
        for sku in sorted(self.items):
            it = self.items[sku]
            lines.append(f"{sku:<6}{it['name']:<12}{it['qty']:>5}{self.reserved.get(sku, 0):>5}{it['price'] / 100:>9.2f}")
        return "\n".join(lines)
inv = Inventory()
inv.add("A1", "widget", 10, 250)
inv.add("B2", "gadget", 3, 1999)
inv.add("C3", "doohickey", 0, 75)
orders = [{"A1": 4, "B2": 1}, {"B2": 3}, {"A1": 6}, {"C3": 1}, {"A1": 1}]
for o in orders:
    try:
        total = inv.reserve(o)
        print("reserved", o, "total", f"${total / 100:.2f}")
        inv.commit(o)
    except OutOfStock as e:
        print("out of stock", e, e.sku)
inv.restock("C3", 5)
print(inv.report())
