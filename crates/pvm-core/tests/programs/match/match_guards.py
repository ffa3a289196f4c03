# Guards and binding with 'as'.
def grade(score):
    match score:
        case int(s) if s >= 90:
            return "A"
        case int(s) if s >= 80:
            return "B"
        case int() as s if s >= 0:
            return "C or below"
        case _:
            return "invalid"
print([grade(s) for s in [95, 85, 50, -1, "x"]])
def cmd(text):
    match text.split():
        case ["go", ("north" | "south" | "east" | "west") as d]:
            return f"going {d}"
        case ["go", other]:
            return f"can't go {other}"
        case ["take", *items] if items:
            return f"taking {', '.join(items)}"
        case ["quit" | "exit"]:
            return "bye"
        case []:
            return "say something"
        case _:
            return f"unknown: {text}"
for t in ["go north", "go up", "take apple key", "take", "quit", "exit", "", "dance now"]:
    print(repr(t), "->", cmd(t))
