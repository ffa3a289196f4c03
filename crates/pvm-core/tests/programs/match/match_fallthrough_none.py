# A match with no matching case does nothing; subject evaluated once.
calls = []
def subj():
    calls.append(1)
    return 42
match subj():
    case 1:
        print("one")
    case 2:
        print("two")
print("no case matched", len(calls))
x = [1, 2]
match x:
    case [a, b, c]:
        print("three")
    case [a, b]:
        print("two items", a, b)
print("a and b bound:", a, b)
