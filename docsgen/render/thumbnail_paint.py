"""The two costs of a thumbnail made cheap: its text, drawn glyph by glyph, and its JPEG, encoded where it changed.

Text: Pillow lays out and rasterises every glyph of a line again on each call (three FreeType loads a glyph, with the
auto-hinter, and a stroker for the bold title), although a site's titles use a few dozen letters. With the bundled
font Pillow's layout is its basic one: each glyph is rendered at the origin and placed at the rounded pen position,
which moves by the glyph's advance plus the pair's kerning. So `Lettering` rasterises a glyph once per font and size
and pastes it where Pillow would place it, the pen moving by kerned pair advances (getlength("ab") - getlength("b"),
cached too). A site's own font is laid out by Raqm when Pillow has it (shaping: ligatures, marks, right-to-left),
which glyph by glyph cannot reproduce, so its lines are drawn whole by Pillow. The pixels equal draw.text's up to
rounding (1 level of 255 where two glyphs overlap): `tests/render/test_thumbnails.py` compares them.

JPEG: each page differs from the site's base picture only in the rows its text covers. The base is encoded once
with a restart marker after every row of 16-pixel blocks, which makes each such row an independent piece of the
entropy-coded data; a page encodes only its text's rows (same quality, tables and subsampling) and takes the
other rows' pieces from the base. The result decodes to exactly the pixels of the whole picture encoded at once.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw, ImageFont

QUALITY = 90
MCU_ROWS = 16  # pixel rows of one row of blocks with 4:2:0 subsampling (Pillow's default at this quality)
_RESTART = re.compile(rb"\xff[\xd0-\xd7]")


@dataclass(frozen=True)
class Stamp:
    """One mask to paint: a glyph (or a whole line), where its top left goes, and its colour."""

    mask: Any  # a Pillow "L" image
    x: int
    y: int
    fill: tuple[int, int, int]


class Lettering:
    """One font at one size and stroke: its glyph masks and pair advances, made once and pasted per line."""

    def __init__(self, font: ImageFont.FreeTypeFont | ImageFont.ImageFont | Any, stroke: int = 0) -> None:
        self.font, self.stroke = font, stroke
        self._glyphs: dict[str, tuple[Any, int, int] | None] = {}
        self._lengths: dict[str, int] = {}

    def stamps(self, text: str, x: int, y: int, fill: tuple[int, int, int]) -> list[Stamp]:
        """Return the masks that draw `text` with its top left (anchor 'la') at (x, y), as draw.text would."""
        if not text:
            return []
        if getattr(self.font, "layout_engine", None) == ImageFont.Layout.BASIC:
            return self._by_glyph(text, x, y, fill)
        whole = self._mask(text)
        return [Stamp(whole[0], x + whole[1], y + whole[2], fill)] if whole else []

    def _by_glyph(self, text: str, x: int, y: int, fill: tuple[int, int, int]) -> list[Stamp]:
        stamps: list[Stamp] = []
        pen = 0  # 26.6 fixed point, as FreeType and Pillow count
        last = len(text) - 1
        for i, char in enumerate(text):
            if char not in self._glyphs:
                self._glyphs[char] = self._mask(char)
            glyph = self._glyphs[char]
            if glyph is not None:
                mask, left, top = glyph
                stamps.append(Stamp(mask, x + left + ((pen + 32) >> 6), y + top, fill))
            if i < last:  # the advance of char as kerned before the next one
                pen += self._length(text[i : i + 2]) - self._length(text[i + 1])
        return stamps

    def _length(self, text: str) -> int:
        value = self._lengths.get(text)
        if value is None:
            value = self._lengths[text] = round(self.font.getlength(text) * 64)
        return value

    def _mask(self, text: str) -> tuple[Any, int, int] | None:
        """Return (mask, left, top) of text drawn by Pillow at (0, 0), or None when it draws nothing."""
        options: dict[str, Any] = {"anchor": "la"}
        if self.stroke:
            options["stroke_width"] = self.stroke
        left, top, right, bottom = (int(v) for v in self.font.getbbox(text, **options))
        if right <= left or bottom <= top:
            return None
        mask = Image.new("L", (right - left, bottom - top), 0)
        if self.stroke:
            options["stroke_fill"] = 255
        ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=self.font, **options)
        return mask, left, top


def paint(image: Any, stamps: Iterable[Stamp], dy: int = 0) -> None:
    """Paint each stamp's colour through its mask onto image, `dy` pixels higher, blended as draw.text blends (its
    own draw_bitmap, with each colour's ink worked out once)."""
    draw = ImageDraw.Draw(image).draw
    inks: dict[tuple[int, int, int], Any] = {}
    for stamp in stamps:
        ink = inks.get(stamp.fill)
        if ink is None:
            ink = inks[stamp.fill] = draw.draw_ink(stamp.fill)
        stamp.mask.load()
        draw.draw_bitmap((stamp.x, stamp.y - dy), stamp.mask.im, ink)


def encode(image: Any) -> bytes:
    """Return image as a JPEG with a restart marker after every row of blocks (see the module)."""
    out = io.BytesIO()
    image.save(out, "JPEG", quality=QUALITY, restart_marker_rows=1)
    return out.getvalue()


@dataclass(frozen=True)
class RowJpeg:
    """A JPEG cut into its header and one entropy-coded piece per row of blocks."""

    header: bytes  # from SOI to the end of the SOS header
    rows: tuple[bytes, ...]

    @classmethod
    def parse(cls, data: bytes) -> RowJpeg | None:
        """Cut a JPEG written by encode(); None when it is not one piece per row."""
        at = 2
        while at + 4 <= len(data) and data[at] == 0xFF:
            marker, size = data[at + 1], int.from_bytes(data[at + 2 : at + 4], "big")
            at += 2 + size
            if marker == 0xDA:  # start of scan: the entropy-coded data follows
                if not data.endswith(b"\xff\xd9"):
                    return None
                return cls(data[:at], tuple(_RESTART.split(data[at:-2])))
        return None

    def with_rows(self, start: int, rows: tuple[bytes, ...]) -> bytes:
        """Return the JPEG with its rows from `start` on replaced by `rows` (renumbering the restart markers)."""
        pieces = (*self.rows[:start], *rows, *self.rows[start + len(rows) :])
        out = [self.header, pieces[0]]
        for n, piece in enumerate(pieces[1:]):
            out += (bytes((0xFF, 0xD0 + (n & 7))), piece)
        out.append(b"\xff\xd9")
        return b"".join(out)


def compose(base: Any, base_jpeg: RowJpeg | None, stamps: list[Stamp]) -> bytes:
    """Return the JPEG of base with the stamps painted: only the rows of blocks they touch are encoded."""
    if not stamps:
        return base_jpeg.with_rows(0, ()) if base_jpeg else encode(base)
    top = max(0, min(s.y for s in stamps))
    bottom = min(base.height, max(s.y + s.mask.height for s in stamps))
    first = top // MCU_ROWS
    end = min(base.height, -(-bottom // MCU_ROWS) * MCU_ROWS)
    if base_jpeg is None or end <= first * MCU_ROWS:
        image = base.copy()
        paint(image, stamps)
        return encode(image)
    band = base.crop((0, first * MCU_ROWS, base.width, end))
    paint(band, stamps, first * MCU_ROWS)
    cut = RowJpeg.parse(encode(band))
    if cut is None or len(cut.rows) != -(-band.height // MCU_ROWS):
        image = base.copy()
        paint(image, stamps)
        return encode(image)
    return base_jpeg.with_rows(first, cut.rows)
