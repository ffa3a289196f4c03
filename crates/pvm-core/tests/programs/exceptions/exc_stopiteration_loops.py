# StopIteration handling by for-loops and manual iteration; iterator exhaustion.
class Limited:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return self
    def __next__(self):
        if self.n == 0:
            raise StopIteration("done")
        self.n -= 1
        return self.n
print(list(Limited(3)))
it = Limited(2)
while True:
    try:
        print("value", next(it))
    except StopIteration as e:
        print("stopped:", e)
        break
print(next(Limited(0), "default"), sum(Limited(5)))
