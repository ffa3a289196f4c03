# expect: RecursionError
# A __repr__ that calls repr() on itself.
class Loop:
    def __repr__(self):
        return "Loop(" + repr(self) + ")"
print(Loop())
