# any/all stop consuming as soon as the answer is known.
consumed = []
def gen(vals):
    for v in vals:
        consumed.append(v)
        yield v
print(any(gen([0, 0, 3, 0, 5])), consumed)
consumed.clear()
print(all(gen([1, 2, 0, 4])), consumed)
consumed.clear()
print(any(gen([])), all(gen([])), consumed)
it = iter([1, 2, 3, 4])
print(any(x == 2 for x in it), list(it))
