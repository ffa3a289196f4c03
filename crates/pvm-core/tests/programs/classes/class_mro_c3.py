# Multiple inheritance with the C3 linearization and cooperative super().
class O:
    def hello(self):
        return ["O"]
class A(O):
    def hello(self):
        return ["A"] + super().hello()
class B(O):
    def hello(self):
        return ["B"] + super().hello()
class C(O):
    def hello(self):
        return ["C"] + super().hello()
class D(A, B):
    def hello(self):
        return ["D"] + super().hello()
class E(B, C):
    def hello(self):
        return ["E"] + super().hello()
class F(D, E):
    def hello(self):
        return ["F"] + super().hello()
for k in (D, E, F):
    print(k.__name__, [c.__name__ for c in k.__mro__], k().hello())
class X: pass
class Y: pass
class Z(X, Y): pass
print([c.__name__ for c in Z.mro()])
try:
    class Bad(X, Z):
        pass
except TypeError as e:
    print("TypeError", str(e).split()[0:3])
