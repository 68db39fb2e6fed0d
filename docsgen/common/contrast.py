"""Colour arithmetic for readers: parse CSS colours, WCAG contrast ratios, and text-safe variants of an accent."""

from __future__ import annotations

import re
from collections.abc import Iterable

# The backgrounds of the built-in themes (site.css, maple's theme.css): text must read on each of them.
# Page and surface colours, plus the lightest/darkest tints boxes put behind text (tabs, badges, sidebars).
LIGHT_BACKGROUNDS = ("#ffffff", "#fdfcfa", "#f8fafc", "#f5f3ef", "#edeff1")
DARK_BACKGROUNDS = ("#0f1115", "#121110", "#171a21", "#1b1a17", "#1f232b")
TEXT_CONTRAST = 4.5  # WCAG 2 AA, normal text

_HEX = re.compile(r"#([0-9a-fA-F]{3,4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})")
_FUNC = re.compile(
    r"(rgba?|hsla?)\(\s*([0-9.]+%?)[\s,]+([0-9.]+%?)[\s,]+([0-9.]+%?)(?:\s*[,/]\s*[0-9.]+%?)?\s*\)", re.I
)
_NAMED = {
    "black": "#000000",
    "white": "#ffffff",
    "red": "#ff0000",
    "green": "#008000",
    "blue": "#0000ff",
    "orange": "#ffa500",
    "purple": "#800080",
    "gray": "#808080",
    "grey": "#808080",
    "yellow": "#ffff00",
    "teal": "#008080",
    "navy": "#000080",
}

RGB = tuple[float, float, float]


def _rgb(values: Iterable[float]) -> RGB:
    red, green, blue = values
    return (red, green, blue)


def parse_color(value: object) -> RGB | None:
    """Return (r, g, b) in 0..255 of a #hex, rgb()/hsl() or common named colour; None for anything else."""
    if not isinstance(value, str):
        return None
    text = value.strip().lower()
    text = _NAMED.get(text, text)
    if _HEX.fullmatch(text):
        digits = text[1:]
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits[:3])
        return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))
    match = _FUNC.fullmatch(text)
    if not match:
        return None
    kind, a, b, c = match.groups()

    def number(part: str, scale: float) -> float:
        return float(part[:-1]) * scale / 100 if part.endswith("%") else float(part)

    try:
        if kind.startswith("rgb"):
            return _rgb(min(255.0, number(p, 255)) for p in (a, b, c))
        return _hsl(
            float(a.rstrip("%")) % 360,
            number(b, 1) / (1 if b.endswith("%") else 100),
            number(c, 1) / (1 if c.endswith("%") else 100),
        )
    except ValueError:
        return None


def _hsl(h: float, s: float, lum: float) -> RGB:
    """Convert HSL (degrees, 0..1, 0..1) to RGB 0..255."""
    s, lum = min(max(s, 0.0), 1.0), min(max(lum, 0.0), 1.0)
    c = (1 - abs(2 * lum - 1)) * s
    x = c * (1 - abs((h / 60) % 2 - 1))
    m = lum - c / 2
    r, g, b = [(c, x, 0), (x, c, 0), (0, c, x), (0, x, c), (x, 0, c), (c, 0, x)][int(h // 60) % 6]
    return ((r + m) * 255, (g + m) * 255, (b + m) * 255)


def luminance(rgb: RGB) -> float:
    """Return the WCAG relative luminance of an sRGB colour."""

    def channel(v: float) -> float:
        v = v / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(fg: RGB, bg: RGB) -> float:
    """Return the WCAG contrast ratio of two colours (1..21)."""
    hi, lo = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def to_hex(rgb: RGB) -> str:
    """Return #rrggbb for an RGB triple."""
    return "#" + "".join(f"{round(min(max(v, 0), 255)):02x}" for v in rgb)


def mix(color: RGB, background: RGB, amount: float) -> RGB:
    """Return `amount` of color over background (CSS color-mix in sRGB)."""
    return _rgb(c * amount + b * (1 - amount) for c, b in zip(color, background, strict=True))


def readable(color: RGB, backgrounds: tuple[str, ...], *, dark: bool, target: float = TEXT_CONTRAST) -> RGB:
    """Return the colour itself when it reads on every background, else the nearest shade (toward white on
    dark backgrounds, black on light ones) that does: links keep the site's hue and stay legible."""
    bgs = [parse_color(b) or (0.0, 0.0, 0.0) for b in backgrounds]
    toward = (255.0, 255.0, 255.0) if dark else (0.0, 0.0, 0.0)
    for step in range(0, 21):
        t = step / 20
        mixed = _rgb(c + (w - c) * t for c, w in zip(color, toward, strict=True))
        if all(ratio(mixed, bg) >= target for bg in bgs):
            return mixed
    return toward
