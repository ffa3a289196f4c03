# Custom sequence handling slices through __getitem__ with slice.indices.
class Seq:
    def __init__(self, data):
        self.data = list(data)
    def __len__(self):
        return len(self.data)
    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            return Seq(self.data[i] for i in range(start, stop, step))
        if key < 0:
            key += len(self)
        if not 0 <= key < len(self):
            raise IndexError("Seq index out of range")
        return self.data[key]
    def __repr__(self):
        return f"Seq({self.data})"
s = Seq("abcdefg")
print(s[1:4], s[::-2], s[-3:], s[5], s[-1], len(s[::3]), list(s)[:3])
try:
    s[10]
except IndexError as e:
    print("IndexError", e)
