"""Opens a frost-inspect graph --html page in headless Chromium and reports
what it shows: pixels of each op-kind fill colour in a screenshot, and what
the page's script did (--dump-dom of page.html#selftest).

  picture_in_browser.py --chromium chromium --work DIR page.html

Prints one line per fact for FileCheck:
  pixels input=N constant=N ... total=N
  nodes drawn: yes|no
  script: ready=N error=<none>|MESSAGE
  selftest: ...
The PNG is decoded here (zlib + the five PNG filters), so no imaging library
is needed.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import zlib

# GraphPicture.cpp's KindColours, in OpKind order.
KINDS = [("input", "ffd166"), ("constant", "cfd8dc"), ("variable", "f4a261"),
         ("math", "a8dadc"), ("neural net", "b8a9f5"), ("control flow", "f7a8c4"),
         ("array", "b7e4a0"), ("other", "eeeeee")]
# GraphPicture.cpp's MarkStyles: frost-diff's outlines.
MARKS = [("added", "16a34a"), ("removed", "dc2626"), ("changed", "c026d3")]
# A box of 56 x 36 pixels is about 2000: a drawn node is far above this,
# anti-aliased edges and text are far below.
NODE_PIXELS = 600


def decode_png(data):
    """(width, height, channels, rows of bytes) of an 8-bit RGB/RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, row = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        c = channels
        if kind == 1:
            for i in range(c, stride):
                row[i] = (row[i] + row[i - c]) & 0xFF
        elif kind == 2:
            row = bytearray((a + b) & 0xFF for a, b in zip(row, prev))
        elif kind == 3:
            for i in range(stride):
                left = row[i - c] if i >= c else 0
                row[i] = (row[i] + ((left + prev[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                a = row[i - c] if i >= c else 0
                b = prev[i]
                cc = prev[i - c] if i >= c else 0
                p = a + b - cc
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - cc)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else cc)
                row[i] = (row[i] + pred) & 0xFF
        rows.append(row)
        prev = row
    return width, height, channels, rows


def count_colours(png, colours=KINDS):
    width, height, channels, rows = decode_png(png)
    wanted = {bytes.fromhex(hexa): name for name, hexa in colours}
    counts = {name: 0 for name, _ in colours}
    for row in rows:
        for x in range(0, width * channels, channels):
            name = wanted.get(bytes(row[x:x + 3]))
            if name:
                counts[name] += 1
    return counts


def chromium(args, extra, url):
    cmd = [args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--no-first-run", "--user-data-dir=" + os.path.join(args.work, "profile"),
           "--window-size=1200,800"] + extra + [url]
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                          check=True).stdout.decode("utf-8", "replace")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("page")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    url = "file://" + os.path.abspath(args.page)

    shot = os.path.join(args.work, "screenshot.png")
    chromium(args, ["--screenshot=" + shot], url)
    with open(shot, "rb") as f:
        png = f.read()
    counts = count_colours(png)
    total = sum(counts.values())
    print("pixels " + " ".join("%s=%d" % (k.replace(" ", "_"), v) for k, v in counts.items()) +
          " total=%d" % total)
    print("nodes drawn: " + ("yes" if total >= NODE_PIXELS else "no"))
    # A mark outlines a node (hundreds of pixels); its legend swatch is a few dozen.
    marks = count_colours(png, MARKS)
    print("outlined: " + " ".join("%s=%s" % (k, "yes" if v >= NODE_PIXELS // 3 else "no")
                                  for k, v in marks.items()))

    dom = chromium(args, ["--dump-dom"], url + "#selftest")
    body = re.search(r"<body([^>]*)>", dom)
    attrs = dict(re.findall(r'(data-[a-z]+)="([^"]*)"', body.group(1) if body else ""))
    print("script: ready=%s error=%s" % (attrs.get("data-ready", "<missing>"),
                                         attrs.get("data-error", "<none>")))
    if "data-selftest" in attrs:
        print("selftest: " + attrs["data-selftest"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
