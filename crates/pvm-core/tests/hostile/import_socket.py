# expect: ImportError
import socket
s = socket.socket()
s.connect(("example.com", 80))
