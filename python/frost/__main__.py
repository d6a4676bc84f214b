"""python -m frost COMMAND [ARGS...]: runs one of Frost's commands in this interpreter's process,
without the installed scripts: freeze-graph, transform-graph, optimize-for-inference,
frost-verify, frost-run, frost-diff, frost-inspect, frost-opt. The command's own flags, output and exit
code (python -m frost freeze-graph model.ckpt --outputs logits -o frozen.pb)."""
import os
import sys
from typing import Optional, Sequence

from . import _frost

COMMANDS = ("freeze-graph", "transform-graph", "optimize-for-inference", "frost-verify",
            "frost-run", "frost-diff", "frost-inspect", "frost-opt")


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    command, args = argv[0], argv[1:]
    if command not in COMMANDS:
        print("python -m frost: error: unknown command '%s'; one of: %s"
              % (command, ", ".join(COMMANDS)), file=sys.stderr)
        return 2
    sys.stdout.flush()
    sys.stderr.flush()
    # Bytes, as the command gets them: a file name that is no UTF-8 stays one.
    return _frost.run_tool(command, [os.fsencode(a) for a in args])


if __name__ == "__main__":
    sys.exit(main())
