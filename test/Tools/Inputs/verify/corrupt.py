"""Makes the broken frozen graphs frost-verify.test expects verification to
catch, from a good frozen graph in protobuf text (frost-verify reads text):
each edit is one mistake a freezing tool or a hand could make.

Usage: corrupt.py GOOD.pbtxt OUT_DIR
"""
import os
import sys

good = open(sys.argv[1]).read()
out = sys.argv[2]


def node_span(text, name):
    """The [start, end) of node NAME's block in TensorFlow's text format."""
    start = text.index('node {\n  name: "%s"\n' % name)
    end = text.index("\n}\n", start) + 3
    return start, end


def replace_in_node(text, name, old, new):
    start, end = node_span(text, name)
    block = text[start:end]
    assert old in block, (name, old)
    return text[:start] + block.replace(old, new, 1) + text[end:]


def add_nodes(text, nodes):
    at = text.rindex("versions {")
    return text[:at] + nodes + text[at:]


def write(name, text):
    assert text != good
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


# v1 = 2.0 becomes the next float up, 2.0000002 (1 ulp).
write("ulp.pbtxt", replace_in_node(good, "v1", "float_val: 2\n", "float_val: 2.0000002\n"))
# add reads v1 where it read v2 (both float [1]: only the values tell).
write("rewired.pbtxt", replace_in_node(good, "add", 'input: "v2/read"', 'input: "v1/read"'))
# A Saver's restore op left in the graph, reaching nothing.
write("saver.pbtxt", add_nodes(good, """node {
  name: "save/Const"
  op: "Const"
  attr { key: "dtype" value { type: DT_STRING } }
  attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { } string_val: "model" } } }
}
node {
  name: "save/RestoreV2"
  op: "RestoreV2"
  input: "save/Const"
  input: "save/Const"
  input: "save/Const"
  attr { key: "dtypes" value { list { type: DT_FLOAT } } }
}
"""))
# mul reads a new input the source never had instead of x.
extra = add_nodes(good, """node {
  name: "extra"
  op: "Placeholder"
  attr { key: "dtype" value { type: DT_FLOAT } }
  attr { key: "shape" value { shape { dim { size: -1 } dim { size: 1 } } } }
}
""")
write("new-input.pbtxt", replace_in_node(extra, "mul", 'input: "x"', 'input: "extra"'))
# add claims int32 while its inputs are float (caught with OpDefs only).
write("mistyped.pbtxt", replace_in_node(good, "add", "type: DT_FLOAT", "type: DT_INT32"))
