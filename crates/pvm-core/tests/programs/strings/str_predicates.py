# is* predicates.
samples = ["abc", "ABC", "Abc", "abc123", "123", "12.3", "", " ", "\t\n", "ｈｅｌｌｏ", "٣", "½", "²", "x_1", "1x", "_", "class", "Hello World", "hello\x00", "é"]
for s in samples:
    print(repr(s), s.isalpha(), s.isdigit(), s.isdecimal(), s.isnumeric(), s.isalnum(), s.isspace(),
          s.isidentifier(), s.isprintable(), s.isascii(), s.istitle(), s.islower(), s.isupper())
