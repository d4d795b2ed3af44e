"""Debug preview of a label grid (developer aid): one colour per label, anchors and names."""

from __future__ import annotations

import hashlib

from PIL import Image, ImageDraw


def preview(lab: list[list[str]], cell: float, anchors: dict, terrain: dict, path: str) -> None:
    rows, cols = len(lab), len(lab[0])
    img = Image.new("RGB", (cols, rows))
    px = img.load()
    cache: dict[str, tuple[int, int, int]] = {}
    for y in range(rows):
        for x in range(cols):
            q = lab[y][x]
            if q not in cache:
                h = hashlib.md5(q.encode()).digest()
                if q.startswith("~"):
                    cache[q] = (60, 60, 60) if q == "~sea" else (200, 200, 200)
                elif terrain.get(q) == "sea":
                    cache[q] = (40 + h[0] % 60, 90 + h[1] % 80, 170 + h[2] % 80)
                else:
                    cache[q] = (150 + h[0] % 100, 130 + h[1] % 100, 60 + h[2] % 80)
            px[x, y] = cache[q]
    img = img.resize((int(cols * cell), int(rows * cell)), Image.NEAREST)
    d = ImageDraw.Draw(img)
    for q, (x, y) in anchors.items():
        d.text((x - 8, y - 5), q, fill=(0, 0, 0))
    img.save(path)
