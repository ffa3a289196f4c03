# Control flow combining match, loops and early exits.
commands = ["push 3", "push 4", "add", "push 5", "mul", "dup", "print", "pop", "print", "halt", "push 99"]
stack = []
for cmd in commands:
    match cmd.split():
        case ["push", n]:
            stack.append(int(n))
        case ["add"]:
            stack.append(stack.pop() + stack.pop())
        case ["mul"]:
            stack.append(stack.pop() * stack.pop())
        case ["dup"]:
            stack.append(stack[-1])
        case ["pop"]:
            stack.pop()
        case ["print"]:
            print("stack", stack)
        case ["halt"]:
            print("halting")
            break
else:
    print("no halt")
print("final", stack)
