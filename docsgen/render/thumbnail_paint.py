"""The two costs of a thumbnail made cheap: its text, drawn glyph by glyph, and its JPEG, encoded where it changed.

Text: Pillow lays out and rasterises every glyph of a line again on each call (three FreeType loads a glyph, with the
auto-hinter, and a stroker for the bold title), although a site's titles use a few dozen letters. With the bundled
font Pillow's layout is its basic one: each glyph is rendered at the origin and placed at the rounded pen position,
which moves by the glyph's advance plus the pair's kerning. So `Lettering` rasterises a glyph once per font and size
and pastes it where Pillow would place it, the pen moving by kerned pair advances (getlength("ab") - getlength("b"),
cached too). A site's own font is laid out by Raqm when Pillow has it (shaping: ligatures, marks, right-to-left),
which glyph by glyph cannot reproduce, so its lines are drawn whole by Pillow. The pixels equal draw.text's up to
rounding (1 level of 255 where two glyphs overlap): `tests/render/test_thumbnails.py` compares them. On a plain
background a glyph whose box nothing was painted into yet is copied as a tile blended once (`paint`).

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
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

QUALITY = 90
MCU_ROWS = 16  # pixel rows of one row of blocks with 4:2:0 subsampling (Pillow's default at this quality)
_RESTART = re.compile(rb"\xff[\xd0-\xd7]")
_FAR = -(1 << 30)


class Stamp(NamedTuple):
    """One mask to paint: a glyph (or a whole line), where its top left goes, and its colour (a tuple: a page
    makes a hundred or more)."""

    mask: Any  # a Pillow "L" image
    x: int
    y: int
    fill: tuple[int, int, int]
    line: int  # the y of its line's origin: the stamps of a line are painted together, left to right


class Lettering:
    """One font at one size and stroke: its glyph masks and pair advances, made once and pasted per line."""

    def __init__(self, font: ImageFont.FreeTypeFont | ImageFont.ImageFont | Any, stroke: int = 0) -> None:
        self.font, self.stroke = font, stroke
        self._glyphs: dict[str, tuple[Any, int, int] | None] = {}
        self._lengths: dict[str, int] = {}
        self._advances: dict[str, int] = {}  # "ab" -> the advance of a before b (kerned)

    def stamps(self, text: str, x: int, y: int, fill: tuple[int, int, int]) -> list[Stamp]:
        """Return the masks that draw `text` with its top left (anchor 'la') at (x, y), as draw.text would."""
        if not text:
            return []
        if getattr(self.font, "layout_engine", None) == ImageFont.Layout.BASIC:
            return self._by_glyph(text, x, y, fill)
        whole = self._mask(text)
        return [Stamp(whole[0], x + whole[1], y + whole[2], fill, y)] if whole else []

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
                stamps.append(Stamp(mask, x + left + ((pen + 32) >> 6), y + top, fill, y))
            if i < last:
                pair = text[i : i + 2]
                advance = self._advances.get(pair)
                if advance is None:
                    advance = self._advances[pair] = self._length(pair) - self._length(text[i + 1])
                pen += advance
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


Tiles = dict[tuple[int, tuple[int, int, int]], tuple[Any, Any]]  # (id(mask), fill) -> (mask, its tile)


def paint(
    image: Any, stamps: Iterable[Stamp], dy: int = 0, flat: Any = None, tiles: Tiles | None = None
) -> None:
    """Paint each stamp's colour through its mask onto image, `dy` pixels higher, blended as draw.text blends (its
    own draw_bitmap, each colour's ink worked out once).

    With `flat` (image is that one colour) and `tiles`, a stamp whose box nothing was painted into yet (left of it
    in its line, or in an earlier line) is pasted as a tile: its mask blended onto `flat` once, copied after; the
    same pixels, at the cost of a copy instead of a blend.
    """
    draw = ImageDraw.Draw(image).draw
    image.load()
    core = image.im
    inks: dict[tuple[int, int, int], Any] = {}
    line, right, lowest, painted_bottom = None, _FAR, _FAR, _FAR
    for stamp in stamps:
        mask, x, y = stamp.mask, stamp.x, stamp.y - dy
        if stamp.line != line:  # a new line: nothing of it painted yet, every earlier line above `lowest`
            line, right, lowest = stamp.line, _FAR, painted_bottom
        if tiles is not None and flat is not None and x >= right and y >= lowest:
            key = (id(mask), stamp.fill)
            tile = tiles.get(key)
            if tile is None:
                tile = tiles[key] = (mask, Image.new(image.mode, mask.size, flat))
                paint(tile[1], [stamp._replace(x=0, y=0)])
            core.paste(tile[1].im, (x, y, x + mask.width, y + mask.height))
        else:
            ink = inks.get(stamp.fill)
            if ink is None:
                ink = inks[stamp.fill] = draw.draw_ink(stamp.fill)
            mask.load()
            draw.draw_bitmap((x, y), mask.im, ink)
        right, painted_bottom = max(right, x + mask.width), max(painted_bottom, y + mask.height)


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


@dataclass(frozen=True)
class Canvas:
    """The picture every page of a site starts from, encoded and measured once."""

    base: Any  # the RGB picture
    jpeg: RowJpeg | None  # its JPEG cut into rows of blocks (None: Pillow wrote no restart markers)
    flat: tuple[Any, ...]  # per row of blocks: its one colour, or None when it has more than one

    @classmethod
    def of(cls, base: Any) -> Canvas:
        """Encode and measure a base picture."""
        flat = []
        for top in range(0, base.height, MCU_ROWS):
            extrema = base.crop((0, top, base.width, min(base.height, top + MCU_ROWS))).getextrema()
            flat.append(
                tuple(low for low, _ in extrema) if all(low == high for low, high in extrema) else None
            )
        return cls(base, RowJpeg.parse(encode(base)), tuple(flat))

    def flat_colour(self, first: int, end: int) -> Any:
        """Return the one colour of rows of blocks first..end-1, or None."""
        colours = set(self.flat[first:end])
        return colours.pop() if len(colours) == 1 else None


def compose(canvas: Canvas, stamps: list[Stamp], tiles: Tiles | None = None) -> bytes:
    """Return the JPEG of the canvas with the stamps painted: only the rows of blocks they touch are encoded."""
    base, jpeg = canvas.base, canvas.jpeg
    if not stamps:
        return jpeg.with_rows(0, ()) if jpeg else encode(base)
    top = max(0, min(s.y for s in stamps))
    bottom = min(base.height, max(s.y + s.mask.height for s in stamps))
    first = top // MCU_ROWS
    end = min(base.height, -(-bottom // MCU_ROWS) * MCU_ROWS)
    if jpeg is not None and end > first * MCU_ROWS:
        band = base.crop((0, first * MCU_ROWS, base.width, end))
        flat = canvas.flat_colour(first, -(-end // MCU_ROWS))
        paint(band, stamps, first * MCU_ROWS, flat, tiles)
        cut = RowJpeg.parse(encode(band))
        if cut is not None and len(cut.rows) == -(-band.height // MCU_ROWS):
            return jpeg.with_rows(first, cut.rows)
    image = base.copy()
    paint(image, stamps)
    return encode(image)
