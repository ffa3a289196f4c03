# Subclassing list and dict.
class Stack(list):
    def push(self, x):
        self.append(x)
    def peek(self):
        return self[-1]
s = Stack([1, 2])
s.push(3)
print(s, s.peek(), len(s), s.pop(), isinstance(s, list), type(s).__name__, s + [9])
class AttrDict(dict):
    def __getattr__(self, k):
        try:
            return self[k]
        except KeyError:
            raise AttributeError(k)
    def __setattr__(self, k, v):
        self[k] = v
d = AttrDict(a=1)
d.b = 2
print(d, d.a, d.b, dict(d))
try:
    d.c
except AttributeError as e:
    print("AttributeError", e)
class LoggedList(list):
    def __setitem__(self, i, v):
        print("set", i, v)
        super().__setitem__(i, v)
ll = LoggedList([0, 0])
ll[1] = 5
print(ll)
