#!/usr/bin/env python3
"""Whether any two texts of a picture collide: the report's pictures drawn
as SVG (scripts/plots/common.gp with svg=1), each text's box estimated from
its position, anchor, font size and length (an average character of the
sans font of pngcairo is about 0.55 of its size wide: measured on the
report's PNGs), and every pair of boxes checked for overlap. Rotated
texts (an axis label along y) are left out.

    plot_labels.py PICTURE.svg...

Prints each collision (both texts, their boxes) and exits 1 if there is
any, 0 if none; 2 when a file cannot be read as SVG or holds no text
this checker reads."""
import re
import sys
import xml.etree.ElementTree as ET

EM = 0.55       # an average character's width, in units of the font size
ASCENT = 0.80   # a line's box: from 0.8 of the size above the baseline
DESCENT = 0.22  # to 0.22 below it
SLACK = 0.5     # pixels of overlap forgiven (rounding)


def boxes(path):
    """Every unrotated text of the SVG at path: (text, x0, y0, x1, y1)."""
    tree = ET.parse(path)
    out = []
    for g in tree.iter():
        if not g.tag.endswith('}g') and g.tag != 'g':
            continue
        t = g.get('transform', '')
        m = re.match(r'\s*translate\(\s*([-0-9.]+)\s*,\s*([-0-9.]+)\s*\)\s*$', t)
        if not m:
            continue  # no position, or rotated
        texts = [e for e in g if e.tag.endswith('text')]
        if not texts:
            continue
        x, y = float(m.group(1)), float(m.group(2))
        size = float(g.get('font-size', '12'))
        anchor = g.get('text-anchor', 'start')
        for e in texts:
            s = ''.join(e.itertext())
            if not s.strip():
                continue
            # leading and trailing blanks take room but draw nothing
            lead = len(s) - len(s.lstrip())
            w_all = len(s) * EM * size
            x0 = x if anchor == 'start' else x - w_all / 2 if anchor == 'middle' else x - w_all
            x0 += lead * EM * size
            x1 = x0 + len(s.strip()) * EM * size
            out.append((s.strip(), x0, y - ASCENT * size, x1, y + DESCENT * size))
    return out


def collisions(bs):
    found = []
    for i in range(len(bs)):
        for j in range(i + 1, len(bs)):
            a, b = bs[i], bs[j]
            if min(a[3], b[3]) - max(a[1], b[1]) > SLACK and min(a[4], b[4]) - max(a[2], b[2]) > SLACK:
                found.append((a, b))
    return found


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        try:
            bs = boxes(path)
        except (OSError, ET.ParseError) as e:
            print(f'plot_labels: {path}: {e}', file=sys.stderr)
            return 2
        if not bs:
            # a picture without one text read is an SVG this checker cannot
            # read (another gnuplot's form), not a picture without collisions
            print(f'plot_labels: {path}: no text found to check', file=sys.stderr)
            return 2
        for a, b in collisions(bs):
            bad += 1
            print(f'{path}: "{a[0]}" ({a[1]:.0f}-{a[3]:.0f}, {a[2]:.0f}-{a[4]:.0f}) collides with '
                  f'"{b[0]}" ({b[1]:.0f}-{b[3]:.0f}, {b[2]:.0f}-{b[4]:.0f})')
        print(f'plot_labels: {path}: {len(bs)} texts, {len(collisions(bs))} collisions')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
