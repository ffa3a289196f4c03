# Reflected operators when the left operand returns NotImplemented; subclass priority.
class A:
    def __add__(self, o):
        return "A.__add__"
    def __radd__(self, o):
        return "A.__radd__"
class B(A):
    def __radd__(self, o):
        return "B.__radd__"
class C:
    def __add__(self, o):
        return NotImplemented
    def __radd__(self, o):
        return "C.__radd__"
print(A() + A(), A() + B(), B() + A(), 1 + A(), C() + C() if False else "skip", 5 + C())
try:
    C() + 1
except TypeError as e:
    print("TypeError", e)
class Eq:
    def __eq__(self, o):
        return NotImplemented
e1, e2 = Eq(), Eq()
print(e1 == e1, e1 == e2, e1 != e2)
