"""Writes regex-hostile.test's graph (text GraphDef): 50,000 'a's matched in full against
patterns a backtracking engine takes exponential time on, patterns RE2 refuses, and a
replacement whose compiled pattern is 80,000 instructions (RE2 steps each per byte)."""
import sys

LONG = "a" * 50000


def const(name, value):
    return ('node { name: "%s" op: "Const" attr { key: "dtype" value { type: DT_STRING } } '
            'attr { key: "value" value { tensor { dtype: DT_STRING tensor_shape { dim { size: 1 } } '
            'string_val: "%s" } } } }\n' % (name, value))


def full_match(name, pattern):
    return ('node { name: "%s" op: "StaticRegexFullMatch" input: "long" '
            'attr { key: "pattern" value { s: "%s" } } }\n' % (name, pattern))


with open(sys.argv[1], "w") as f:
    f.write(const("long", LONG))
    f.write(full_match("exponential", "(a*)*b"))
    f.write(full_match("alternation", "(a|aa)+$"))
    f.write(full_match("nested", "a{1000}{1000}"))
    f.write(full_match("wide", "a{1001}"))
    f.write('node { name: "windows" op: "StaticRegexReplace" input: "long" '
            'attr { key: "pattern" value { s: "(%s)" } } attr { key: "rewrite" value { s: "x" } } '
            'attr { key: "replace_global" value { b: true } } }\n' % (".{1000}" * 10))
