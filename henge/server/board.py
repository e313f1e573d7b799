"""The Stonehenge board as SVG, drawn from the shared box (``henge.box``).

From the outside in: the outer ring (30 black and white spaces), the
coloured ring (space ``n`` in ``colour_of(n)``, its colour's letter printed
on it twice), the numbered ring (the 30 sarsen stones), the inner ring of 60
night and day stones, the horseshoe of 19 bluestones, the 5 trilithon spaces
and the altar stone, with the "STONEHENGE" label in a corner. Number ``n`` sits at the clockwise angle
``(n - 0.5) * 12°`` from the top, so clockwise means increasing number.

Every space is an element with ``data-space`` (``outer:n``, ``colour:n``,
``sarsen:n``, ``inner:i``, ``bluestone:k``, ``trilithon:k``, ``altar``,
``label``) and its centre in ``data-x``/``data-y`` (and its angle in
``data-a``), so the browser can put pieces on it and make it clickable. The
pieces go in the layer ``#pieces``, the hit areas of legal targets in
``#targets`` above it.
"""

from __future__ import annotations

import math
from functools import cache

from henge import box

SIZE = 1000
CENTRE = SIZE / 2
FILL = {
    "white": "#f5f1e6",
    "blue": "#2f6fd0",
    "green": "#2f9a4a",
    "yellow": "#f1c232",
    "red": "#d23b2f",
    "black": "#1d1d1d",
    "gray": "#8d8d87",
}
"""Screen colours of the box's six colours (and gray); the browser uses the same."""
LETTER = {"white": "W", "blue": "B", "green": "G", "yellow": "Y", "red": "R", "black": "K"}
"""Each colour's letter, printed on its spaces and pieces so that no colour depends on its hue alone."""
_DARK_INK = {"white", "yellow"}  # colours whose letter is printed dark
_MARK_OFFSET = 4.4  # degrees either side of a coloured space's middle where its letter stands

_R_OUTER = (490.0, 460.0)
_R_COLOUR = (460.0, 424.0)
_R_SARSEN = 392.0
_R_INNER = 330.0
_HORSESHOE = (500.0, 515.0, 212.0, 232.0)  # centre x, centre y, radius x, radius y
_TRILITHON_RING = (500.0, 515.0, 120.0, 138.0)
_BLUESTONE_ARC = (220.0, 500.0)  # from the lower left end, clockwise over the top, to the lower right end
_TRILITHON_ANGLES = (240.0, 300.0, 360.0, 420.0, 480.0)
_ALTAR = (500.0, 448.0)


def _point(radius: float, degrees: float, cx: float = CENTRE, cy: float = CENTRE, ry: float | None = None) -> tuple:
    rad = math.radians(degrees)
    return cx + radius * math.sin(rad), cy - (radius if ry is None else ry) * math.cos(rad)


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _sector(r_out: float, r_in: float, start: float, end: float) -> str:
    """Returns the path of a ring sector between two clockwise angles from the top."""
    x1, y1 = _point(r_out, start)
    x2, y2 = _point(r_out, end)
    x3, y3 = _point(r_in, end)
    x4, y4 = _point(r_in, start)
    return (
        f"M{_f(x1)},{_f(y1)} A{_f(r_out)},{_f(r_out)} 0 0 1 {_f(x2)},{_f(y2)} "
        f"L{_f(x3)},{_f(y3)} A{_f(r_in)},{_f(r_in)} 0 0 0 {_f(x4)},{_f(y4)} Z"
    )


def _space(name: str, x: float, y: float, angle: float, body: str, title: str) -> str:
    return (
        f'<g class="space" data-space="{name}" data-x="{_f(x)}" data-y="{_f(y)}" data-a="{_f(angle)}">'
        f"<title>{title}</title>{body}</g>"
    )


def colour_marks(n: int) -> list[tuple[float, float]]:
    """Returns where the two letters of coloured space ``n`` stand (board units), either side of its middle."""
    mid = (n - 0.5) * 360 / box.RING_SPACES
    return [_point(sum(_R_COLOUR) / 2, mid + side * _MARK_OFFSET) for side in (-1, 1)]


def _rings() -> list[str]:
    parts = []
    step = 360 / box.RING_SPACES
    for n in box.NUMBERS:
        start, end = (n - 1) * step, n * step
        mid = (n - 0.5) * step
        # The outer ring's real pattern is unknown (COMPONENTS.md); it alternates here.
        shade = FILL["black"] if n % 2 else FILL["white"]
        x, y = _point(sum(_R_OUTER) / 2, mid)
        parts.append(
            _space(
                f"outer:{n}",
                x,
                y,
                mid,
                f'<path d="{_sector(*_R_OUTER, start, end)}" fill="{shade}" stroke="#555" stroke-width="1"/>',
                f"outer ring {n}",
            )
        )
        colour = box.colour_of(n)
        x, y = _point(sum(_R_COLOUR) / 2, mid)
        ink = "#161616" if colour in _DARK_INK else "#ffffff"
        marks = "".join(
            f'<text class="colour-mark ring-mark" x="{_f(mx)}" y="{_f(my)}" fill="{ink}">{LETTER[colour]}</text>'
            for mx, my in colour_marks(n)
        )
        parts.append(
            _space(
                f"colour:{n}",
                x,
                y,
                mid,
                f'<path class="ring-colour" d="{_sector(*_R_COLOUR, start, end)}" fill="{FILL[colour]}" '
                f'stroke="#333" stroke-width="1.2"/>{marks}',
                f"coloured ring {n}: {colour}",
            )
        )
    return parts


def _sarsens() -> list[str]:
    parts = []
    step = 360 / box.RING_SPACES
    for n in box.NUMBERS:
        mid = (n - 0.5) * step
        x, y = _point(_R_SARSEN, mid)
        body = (
            f'<rect class="stone sarsen" x="{_f(x - 24)}" y="{_f(y - 17)}" width="48" height="34" rx="5" '
            f'transform="rotate({_f(mid)} {_f(x)} {_f(y)})"/>'
            f'<text class="sarsen-number" x="{_f(x)}" y="{_f(y)}">{n}</text>'
        )
        parts.append(_space(f"sarsen:{n}", x, y, mid, body, f"sarsen stone {n}"))
    return parts


def _inner() -> list[str]:
    parts = []
    step = 360 / box.INNER_STONES
    for index in range(box.INNER_STONES):
        day = box.inner_stone(index)[1]
        angle = (index + 0.5) * step
        x, y = _point(_R_INNER, angle)
        kind = "day" if day else "night"
        symbol = "☀" if day else "☾"
        body = (
            f'<rect class="stone inner {kind}" x="{_f(x - 12)}" y="{_f(y - 13)}" width="24" height="26" rx="4" '
            f'transform="rotate({_f(angle)} {_f(x)} {_f(y)})"/>'
            f'<text class="inner-symbol {kind}" x="{_f(x)}" y="{_f(y)}">{symbol}</text>'
        )
        parts.append(_space(f"inner:{index}", x, y, angle, body, f"inner stone {box.inner_text(index)}"))
    return parts


def bluestone_position(k: int) -> tuple[float, float, float]:
    """Returns the centre and angle of bluestone ``k`` (1..19), filled clockwise from one end."""
    cx, cy, rx, ry = _HORSESHOE
    first, last = _BLUESTONE_ARC
    angle = first + (last - first) * (k - 1) / (box.BLUESTONES - 1)
    x, y = _point(rx, angle, cx, cy, ry)
    return x, y, angle % 360


def _bluestones() -> list[str]:
    parts = []
    for k in range(1, box.BLUESTONES + 1):
        x, y, angle = bluestone_position(k)
        body = (
            f'<ellipse class="stone bluestone" cx="{_f(x)}" cy="{_f(y)}" rx="15" ry="12" '
            f'transform="rotate({_f(angle)} {_f(x)} {_f(y)})"/>'
            f'<text class="bluestone-number" x="{_f(x)}" y="{_f(y)}">{k}</text>'
        )
        parts.append(_space(f"bluestone:{k}", x, y, angle, body, f"bluestone {k}"))
    return parts


def _trilithons() -> list[str]:
    parts = []
    cx, cy, rx, ry = _TRILITHON_RING
    for k, angle in enumerate(_TRILITHON_ANGLES, start=1):
        x, y = _point(rx, angle, cx, cy, ry)
        rotate = f'transform="rotate({_f(angle)} {_f(x)} {_f(y)})"'
        body = (
            f"<g {rotate}>"
            f'<rect class="trilithon-space" x="{_f(x - 34)}" y="{_f(y - 24)}" width="68" height="48" rx="6"/>'
            f'<rect class="stone upright" x="{_f(x - 24)}" y="{_f(y - 12)}" width="14" height="30"/>'
            f'<rect class="stone upright" x="{_f(x + 10)}" y="{_f(y - 12)}" width="14" height="30"/>'
            f'<rect class="stone lintel" x="{_f(x - 28)}" y="{_f(y - 20)}" width="56" height="10"/>'
            f"</g>"
            f'<text class="trilithon-number" x="{_f(x)}" y="{_f(y + 6)}">{k}</text>'
        )
        parts.append(_space(f"trilithon:{k}", x, y, angle % 360, body, f"trilithon space {k}"))
    return parts


def _altar() -> str:
    x, y = _ALTAR
    body = (
        f'<rect class="stone altar" x="{_f(x - 44)}" y="{_f(y - 14)}" width="88" height="28" rx="4"/>'
        f'<text class="altar-label" x="{_f(x)}" y="{_f(y)}">altar</text>'
    )
    return _space("altar", x, y, 0, body, "the altar stone")


def _label() -> str:
    x, y = 868.0, 972.0
    body = (
        f'<rect class="label-plate" x="{_f(x - 120)}" y="{_f(y - 20)}" width="240" height="40" rx="6"/>'
        f'<text class="board-label" x="{_f(x)}" y="{_f(y)}">STONEHENGE</text>'
    )
    return _space("label", x, y, 0, body, "the STONEHENGE label")


@cache
def board_svg() -> str:
    """Returns the whole board as an inline SVG element (id ``board``), pieces layer empty."""
    parts = [
        f'<svg id="board" class="board" viewBox="0 0 {SIZE} {SIZE}" xmlns="http://www.w3.org/2000/svg" '
        f'role="img" aria-label="the Stonehenge board">',
        f'<rect class="board-ground" x="0" y="0" width="{SIZE}" height="{SIZE}" rx="18"/>',
        f'<circle class="board-field" cx="{_f(CENTRE)}" cy="{_f(CENTRE)}" r="{_f(_R_OUTER[0])}"/>',
        f'<circle class="board-inner-field" cx="{_f(CENTRE)}" cy="{_f(CENTRE)}" r="{_f(_R_COLOUR[1])}"/>',
        '<g class="ring outer-ring">',
        *_rings(),
        "</g>",
        '<g class="ring sarsen-ring">',
        *_sarsens(),
        "</g>",
        '<g class="ring inner-ring">',
        *_inner(),
        "</g>",
        '<g class="horseshoe">',
        *_bluestones(),
        "</g>",
        '<g class="trilithons">',
        *_trilithons(),
        "</g>",
        _altar(),
        _label(),
        '<g id="pieces"></g>',
        '<g id="targets"></g>',
        "</svg>",
    ]
    return "\n".join(parts)
