# expect: RecursionError
# A __hash__ that hashes itself, triggered by set insertion.
class H:
    def __hash__(self):
        return hash(self)
s = {H()}
print(len(s))
