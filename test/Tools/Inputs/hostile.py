"""Writes hostile inputs for negative_hostile-*.test: `hostile.py KIND PATH`."""
import os
import subprocess
import sys
import threading

kind, path = sys.argv[1], sys.argv[2]
if kind == "nested-text":
    # ~1,700 nested messages: attr { value { list { func { attr { ...
    depth = 1700
    head = 'node { name: "a" op: "Const" attr { key: "x" value { '
    body = 'list { func { name: "f" attr { key: "k" value { ' * depth
    tail = "} } } } " * depth
    open(path, "w").write(head + body + tail + "} } }\n")
elif kind == "long-name":
    open(path, "w").write('node { name: "%s" op: "NoOp" input: "%s" }\n' % ("n" * 100, "g" * 100000))
elif kind == "bad-utf8":
    # A binary GraphDef whose one node is named b"\xff": protobuf logs the
    # invalid UTF-8 when parsing it.
    name = b"\xff"
    node = b"\x0a" + bytes([len(name)]) + name + b"\x12\x04NoOp"
    open(path, "wb").write(b"\x0a" + bytes([len(node)]) + node)
elif kind == "fifo":
    # Feeds a graph through a FIFO to the command after the path; prints its
    # output and exits with its status.
    os.mkfifo(path)
    text = open(sys.argv[3]).read()
    writer = threading.Thread(target=lambda: open(path, "w").write(text), daemon=True)
    writer.start()
    sys.exit(subprocess.call(sys.argv[4:]))
else:
    sys.exit("unknown kind " + kind)
