# Ends with an uncaught AttributeError on a str method that does not exist.
s = "hello"
print(s.upper())
print(hasattr(s, "upper"), hasattr(s, "reverse"))
print(s.reverse())
