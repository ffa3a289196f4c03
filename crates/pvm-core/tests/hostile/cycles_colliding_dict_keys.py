# expect: OutOfCycles
# Dict keys that all collide and never compare equal: quadratic __eq__ calls.
class Collide:
    def __init__(self, v):
        self.v = v
    def __hash__(self):
        return 42
    def __eq__(self, other):
        return False
d = {}
for i in range(5000):
    d[Collide(i)] = i
print(len(d))
