# expect: RecursionError
# Each instance builds a child instance in __init__.
class Node:
    def __init__(self, depth):
        self.child = Node(depth + 1)
Node(0)
