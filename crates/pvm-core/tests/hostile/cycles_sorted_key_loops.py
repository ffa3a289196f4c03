# expect: OutOfCycles
# sorted() with a key function that never returns: the loop hides inside a builtin call.
def key(x):
    return any(False for _ in iter(int, 1))
print(sorted([3, 1, 2], key=key))
