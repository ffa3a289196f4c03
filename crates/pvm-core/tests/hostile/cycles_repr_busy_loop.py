# expect: OutOfCycles
# print() calls a __repr__ that loops forever.
class Slow:
    def __repr__(self):
        x = 0
        while x >= 0:
            x += 1
        return "never"
print([Slow()])
