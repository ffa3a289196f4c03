# User-defined exception classes with extra state.
class AppError(Exception):
    pass
class InsufficientFunds(AppError):
    def __init__(self, need, have):
        super().__init__(f"need {need}, have {have}")
        self.need, self.have = need, have
class ValidationError(AppError):
    def __str__(self):
        return "invalid: " + ", ".join(self.args)
try:
    raise InsufficientFunds(10, 3)
except AppError as e:
    print(type(e).__name__, e, e.args, e.need, e.have, repr(e))
try:
    raise ValidationError("name", "age")
except ValidationError as e:
    print(e, e.args, repr(e))
class Bare(Exception):
    pass
try:
    raise Bare
except Bare as e:
    print("Bare", repr(e), e.args, str(e) == "")
try:
    raise AppError("a", 1, None)
except Exception as e:
    print(str(e), repr(e))
print(issubclass(InsufficientFunds, Exception), InsufficientFunds.__mro__[1].__name__)
