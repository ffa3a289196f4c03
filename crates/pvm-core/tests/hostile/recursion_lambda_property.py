# expect: RecursionError
# A property getter that reads itself.
class P:
    @property
    def value(self):
        return self.value + 1
print(P().value)
