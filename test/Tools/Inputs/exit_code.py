"""exit_code.py N CMD [ARG...]: runs CMD, passing its output through, and
succeeds when it exits with code N (lit's `not` only tells zero from
non-zero; frost-diff's 1 "different" and 2 "error" must not be confused)."""
import subprocess
import sys

want = int(sys.argv[1])
code = subprocess.call(sys.argv[2:])
if code != want:
    sys.stderr.write("exit_code.py: %s exited with %d, expected %d\n" % (sys.argv[2], code, want))
    sys.exit(1)
