from abc import ABC, ABCMeta, abstractmethod

class Shape(ABC):
    @abstractmethod
    def area(self):
        ...
    def describe(self):
        return f"{type(self).__name__} with area {self.area()}"

class Sq(Shape):
    def __init__(self, s):
        self.s = s
    def area(self):
        return self.s * self.s

print(Sq(3).describe(), isinstance(Sq(1), Shape), issubclass(Sq, Shape))
try:
    Shape()
except TypeError as e:
    print("TypeError:", e)

class Half(Shape):
    pass

try:
    Half()
except TypeError as e:
    print("TypeError:", e)

class Two(ABC):
    @abstractmethod
    def a(self): ...
    @abstractmethod
    def b(self): ...

try:
    Two()
except TypeError as e:
    print("TypeError:", e)

class Reg(metaclass=ABCMeta):
    pass

Reg.register(int)
print(isinstance(3, Reg), issubclass(int, Reg), isinstance("s", Reg))
print(sorted(Shape.__abstractmethods__), sorted(Sq.__abstractmethods__))
