# Abstract-method pattern via NotImplementedError; template method.
class Shape:
    def area(self):
        raise NotImplementedError("subclass must implement area")
    def describe(self):
        return f"{type(self).__name__} with area {self.area():.2f}"
class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s ** 2
class Circle(Shape):
    def __init__(self, r):
        self.r = r
    def area(self):
        return 3.14159 * self.r ** 2
for s in [Sq(2), Circle(1.5)]:
    print(s.describe())
try:
    Shape().describe()
except NotImplementedError as e:
    print("NotImplementedError", e)
print(sorted([Sq(3), Circle(1), Sq(1)], key=lambda s: s.area())[0].describe())
