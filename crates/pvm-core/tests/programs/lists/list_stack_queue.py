# Lists as stacks and queues.
stack = []
for ch in "([{}])":
    if ch in "([{":
        stack.append(ch)
    else:
        top = stack.pop()
        print("match", top, ch)
print("empty", not stack)
def balanced(s):
    pairs = {")": "(", "]": "[", "}": "{"}
    st = []
    for c in s:
        if c in "([{":
            st.append(c)
        elif c in pairs:
            if not st or st.pop() != pairs[c]:
                return False
    return not st
for s in ["()", "([)]", "{[()()]}", "((", "", "}"]:
    print(repr(s), balanced(s))
queue = list(range(5))
order = []
while queue:
    x = queue.pop(0)
    order.append(x)
    if x < 3:
        queue.append(x + 10)
print(order)
