# Rich comparisons, reflected comparisons and NotImplemented fallbacks.
class Money:
    def __init__(self, cents):
        self.cents = cents
    def __eq__(self, o):
        if not isinstance(o, Money):
            return NotImplemented
        return self.cents == o.cents
    def __lt__(self, o):
        return self.cents < o.cents
    def __le__(self, o):
        return self.cents <= o.cents
    def __hash__(self):
        return hash(self.cents)
    def __repr__(self):
        return f"${self.cents / 100:.2f}"
a, b, c = Money(150), Money(99), Money(150)
print(a == c, a != b, a < b, b < a, a <= c, a > b, b >= a)
print(sorted([a, b, Money(5)]), max(a, b), a == 150, 150 == a, a != "x")
print(len({a, b, c}), {a: "x"}[c])
class Weird:
    def __eq__(self, o):
        return "truthy string"
print(Weird() == 1, bool(Weird() == 1), Weird() != 1)
try:
    Money(1) < 5
except AttributeError as e:
    print("AttributeError", e)
class OnlyLt:
    def __init__(self, v):
        self.v = v
    def __lt__(self, o):
        return self.v < o.v
print(OnlyLt(1) < OnlyLt(2), OnlyLt(3) > OnlyLt(2))
try:
    OnlyLt(1) <= OnlyLt(2)
except TypeError as e:
    print("TypeError", e)
