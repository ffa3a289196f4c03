# classmethod, staticmethod, alternative constructors.
class Temp:
    scale = "C"
    def __init__(self, deg):
        self.deg = deg
    @classmethod
    def from_f(cls, f):
        return cls(round((f - 32) * 5 / 9, 2))
    @staticmethod
    def valid(d):
        return d > -273.15
    @classmethod
    def describe(cls):
        return f"{cls.__name__} in {cls.scale}"
class Kelvin(Temp):
    scale = "K"
t = Temp.from_f(212)
print(t.deg, type(t).__name__, Temp.valid(-300), t.valid(5), Temp.describe(), Kelvin.describe())
k = Kelvin.from_f(32)
print(type(k).__name__, k.deg, k.describe())
