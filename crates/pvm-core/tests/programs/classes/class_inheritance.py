# Single inheritance, overriding, super().
class Animal:
    def __init__(self, name):
        self.name = name
    def sound(self):
        return "..."
    def describe(self):
        return f"{self.name} goes {self.sound()}"
class Cat(Animal):
    def sound(self):
        return "meow"
class Lion(Cat):
    def __init__(self, name, pride):
        super().__init__(name)
        self.pride = pride
    def sound(self):
        return super().sound().upper() + "!"
for x in [Animal("thing"), Cat("tom"), Lion("leo", "east")]:
    print(x.describe(), type(x).__name__)
l = Lion("simba", "west")
print(isinstance(l, Animal), isinstance(l, Cat), issubclass(Lion, Animal), issubclass(Animal, Lion), l.pride)
print([c.__name__ for c in Lion.__mro__], Lion.__bases__[0].__name__, Animal.__bases__[0].__name__)
