# Recursive generators: tree traversals and permutations.
def inorder(t):
    if t:
        yield from inorder(t[1])
        yield t[0]
        yield from inorder(t[2])
def preorder(t):
    if t:
        yield t[0]
        yield from preorder(t[1])
        yield from preorder(t[2])
tree = (5, (3, (1, None, None), (4, None, None)), (8, None, (9, None, None)))
print(list(inorder(tree)), list(preorder(tree)))
def perms(items):
    if len(items) <= 1:
        yield items
        return
    for i in range(len(items)):
        for p in perms(items[:i] + items[i + 1:]):
            yield items[i:i + 1] + p
print(list(perms("abc")), sum(1 for _ in perms([1, 2, 3, 4, 5])))
def combos(items, k):
    if k == 0:
        yield ()
        return
    for i in range(len(items)):
        for c in combos(items[i + 1:], k - 1):
            yield (items[i],) + c
print(list(combos("abcd", 2)), len(list(combos(range(8), 3))))
