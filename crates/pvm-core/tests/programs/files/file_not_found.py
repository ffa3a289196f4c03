# Opening a missing /tmp file raises FileNotFoundError; the program ends uncaught.
try:
    open("/tmp/pvm_corpus_definitely_missing_file.txt")
except FileNotFoundError as e:
    print("FileNotFoundError caught", type(e).__name__, isinstance(e, OSError))
with open("/tmp/pvm_corpus_exists.txt", "w") as f:
    f.write("x")
with open("/tmp/pvm_corpus_exists.txt") as f:
    print(f.read())
print("now opening a missing file without a handler")
open("/tmp/pvm_corpus_missing_second.txt", "r")
