# expect: RecursionError
# An __eq__ that compares itself again.
class Eq:
    def __eq__(self, other):
        return self == other
print(Eq() == Eq())
