# expect: RecursionError
# Mutual recursion that never bottoms out.
def ping(n):
    return pong(n + 1)
def pong(n):
    return ping(n + 1)
ping(0)
