# Classes, instances, class vs instance attributes.
class Dog:
    species = "canis"
    count = 0
    def __init__(self, name):
        self.name = name
        Dog.count += 1
    def speak(self):
        return f"{self.name} says woof"
a, b = Dog("rex"), Dog("fido")
print(a.speak(), b.speak(), Dog.count, a.species, Dog.species)
a.species = "wolf"
print(a.species, b.species, Dog.species, "species" in vars(a), "species" in vars(b))
Dog.species = "changed"
print(a.species, b.species)
print(type(a).__name__, isinstance(a, Dog), Dog.__name__, a.__class__.__name__)
print(Dog.speak(a), vars(b))
b.age = 3
print(vars(b), hasattr(b, "age"), hasattr(a, "age"))
