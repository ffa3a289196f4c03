# Comprehension inside methods sees self and locals.
class Inventory:
    def __init__(self, items):
        self.items = items
    def expensive(self, threshold):
        return [n for n, p in self.items.items() if p > threshold]
    def scaled(self, factor):
        return {n: round(p * factor, 2) for n, p in self.items.items()}
inv = Inventory({"pen": 1.5, "book": 12.0, "lamp": 30.0})
print(inv.expensive(5), inv.scaled(1.1))
