# super() with explicit arguments, in classmethods, and property overriding.
class A:
    def who(self):
        return "A"
    @classmethod
    def make(cls):
        return f"A.make({cls.__name__})"
    @property
    def p(self):
        return "A.p"
class B(A):
    def who(self):
        return "B>" + super(B, self).who()
    @classmethod
    def make(cls):
        return "B>" + super().make()
    @property
    def p(self):
        return "B.p>" + super().p
class C(B):
    def who(self):
        return "C>" + super(B, self).who()
print(B().who(), C().who(), B.make(), C.make(), C().p)
