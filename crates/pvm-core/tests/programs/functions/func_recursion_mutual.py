# Mutual recursion and recursive data processing.
def is_even(n):
    return True if n == 0 else is_odd(n - 1)
def is_odd(n):
    return False if n == 0 else is_even(n - 1)
print([is_even(n) for n in range(6)], is_odd(99))
def count_leaves(tree):
    if isinstance(tree, list):
        return sum(count_leaves(t) for t in tree)
    return 1
print(count_leaves([1, [2, 3], [[4], [5, [6, 7]]]]))
def tree_repr(t):
    if isinstance(t, tuple):
        v, l, r = t
        return "(" + tree_repr(l) + " " + str(v) + " " + tree_repr(r) + ")"
    return "."
def insert(t, v):
    if t is None:
        return (v, None, None)
    k, l, r = t
    return (k, insert(l, v), r) if v < k else (k, l, insert(r, v))
t = None
for v in [5, 3, 8, 1, 4, 9]:
    t = insert(t, v)
print(tree_repr(t))
