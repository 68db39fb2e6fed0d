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

JPEG: each page differs from the site's base picture only where its text is. The base is encoded once with a
restart marker after every SPAN blocks (16x16 pixels each: 80 pixels, 15 pieces a row of blocks), which makes each
such piece of the entropy-coded data independent of the others (the DC prediction restarts). A page gathers, row
of blocks by row of blocks, the pieces its text's lines cover into one strip 16 pixels high, encodes that (same
quality, tables and subsampling; about half the pixels of the rows the text covers, as a title rarely spans the
width) and takes every other piece from the base. The result is the whole picture's JPEG, piece for piece.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, NamedTuple

from PIL import Image, ImageDraw, ImageFont

QUALITY = 90
BLOCK = 16  # pixels of one block (MCU) each way with 4:2:0 subsampling (Pillow's default at this quality)
SPAN = 5  # blocks between restart markers: one piece of the JPEG is 80x16 pixels
SPAN_PX = SPAN * BLOCK
_RESTART = re.compile(rb"\xff[\xd0-\xd7]")
_MARKERS = tuple(bytes((0xFF, 0xD0 + n)) for n in range(8))
_FAR = -(1 << 30)
_UNSEEN: Any = object()  # a glyph not rasterised yet
# Pairs every kerning table kerns (capitals against round or diagonal letters, punctuation after r, T, V, Y).
KERN_PROBES = (
    "AV",
    "AW",
    "AY",
    "AT",
    "VA",
    "WA",
    "Te",
    "To",
    "Ty",
    "Vo",
    "Wa",
    "Yo",
    "LT",
    "LY",
    "P.",
    "r.",
    "F,",
)


class Stamp(NamedTuple):
    """One mask to paint: a glyph (or a whole line), where its top left goes, and its colour (a tuple: a page
    makes a hundred or more)."""

    mask: Any  # a Pillow "L" image
    x: int
    y: int
    fill: tuple[int, int, int]
    line: int  # the y of its line's origin: the stamps of a line are painted together, left to right
    w: int  # the mask's size (read once per glyph, not per paste)
    h: int


class Lettering:
    """One font at one size and stroke: its glyph masks and pair advances, made once and pasted per line."""

    def __init__(self, font: ImageFont.FreeTypeFont | ImageFont.ImageFont | Any, stroke: int = 0) -> None:
        self.font, self.stroke = font, stroke
        self._glyphs: dict[str, tuple[Any, int, int, int, int] | None] = {}
        self._lengths: dict[str, int] = {}
        self._advances: dict[str, int] = {}  # "ab" -> the advance of a before b (kerned)
        self._kerned = True  # pairs' advances differ from their first letter's (found out on first use)
        self._probed = False

    def stamps(self, text: str, x: int, y: int, fill: tuple[int, int, int]) -> list[Stamp]:
        """Return the masks that draw `text` with its top left (anchor 'la') at (x, y), as draw.text would."""
        if not text:
            return []
        if getattr(self.font, "layout_engine", None) == ImageFont.Layout.BASIC:
            return self._by_glyph(text, x, y, fill)
        whole = self._mask(text)
        return [Stamp(whole[0], x + whole[1], y + whole[2], fill, y, whole[3], whole[4])] if whole else []

    def _by_glyph(self, text: str, x: int, y: int, fill: tuple[int, int, int]) -> list[Stamp]:
        stamps: list[Stamp] = []
        if not self._probed:
            self._probed, self._kerned = True, self._kerns()
        glyphs, kerned = self._glyphs, self._kerned
        advances = self._advances if kerned else self._lengths
        pen = 32  # 26.6 fixed point, as FreeType and Pillow count; + 32 rounds to the nearest pixel below
        previous = ""
        for char in text:
            if previous:
                pair = previous + char if kerned else previous
                advance = advances.get(pair)
                if advance is None:
                    advance = self._length(pair) - self._length(char) if kerned else self._length(pair)
                    advances[pair] = advance
                pen += advance
            previous = char
            glyph = glyphs.get(char, _UNSEEN)
            if glyph is _UNSEEN:
                glyph = glyphs[char] = self._mask(char)
            if glyph is not None:
                mask, left, top, w, h = glyph
                stamps.append(Stamp(mask, x + left + (pen >> 6), y + top, fill, y, w, h))
        return stamps

    def _kerns(self) -> bool:
        """Tell whether the font kerns: a pair's advance differs from its first letter's for a pair fonts kern
        (without, as with the bundled Inter, whose kerning is in GPOS which the basic layout does not read, a
        letter's advance is looked up alone)."""
        return any(
            self._length(pair) != self._length(pair[0]) + self._length(pair[1]) for pair in KERN_PROBES
        )

    def _length(self, text: str) -> int:
        value = self._lengths.get(text)
        if value is None:
            value = self._lengths[text] = round(self.font.getlength(text) * 64)
        return value

    def _mask(self, text: str) -> tuple[Any, int, int, int, int] | None:
        """Return (mask, left, top, width, height) of text drawn by Pillow at (0, 0), or None when it draws
        nothing."""
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
        mask.load()
        return mask, left, top, right - left, bottom - top


# (fill, background) -> id(mask) -> (mask, its tile's core): glyphs blended once onto a plain background
Tiles = dict[tuple[tuple[int, int, int], Any], dict[int, tuple[Any, Any]]]


def paint(
    image: Any,
    stamps: Iterable[Stamp],
    dy: int = 0,
    flat: Any = None,
    tiles: Tiles | None = None,
    dx: int = 0,
) -> None:
    """Paint each stamp's colour through its mask onto image, `dy` pixels higher and `dx` further left, blended as
    draw.text blends (its own draw_bitmap, each colour's ink worked out once).

    With `flat` (image is that one colour) and `tiles`, a stamp whose box nothing was painted into yet (left of it
    in its line, or in an earlier line) is pasted as a tile: its mask blended onto `flat` once, copied after; the
    same pixels, at the cost of a copy instead of a blend.
    """
    draw = ImageDraw.Draw(image).draw
    image.load()
    core = image.im
    inks: dict[tuple[int, int, int], Any] = {}
    line, right, lowest, painted_bottom = None, _FAR, _FAR, _FAR
    tiling = tiles is not None and flat is not None
    kind: dict[int, tuple[Any, Any]] = {}
    kind_fill = None
    for mask, x, y, fill, at, w, h in stamps:
        x, y = x - dx, y - dy
        if at != line:  # a new line: nothing of it painted yet, every earlier line above `lowest`
            line, right, lowest = at, _FAR, painted_bottom
        if tiling and x >= right and y >= lowest:
            if fill is not kind_fill:  # the tiles of this colour on this background
                kind, kind_fill = tiles.setdefault((fill, flat), {}), fill  # type: ignore[union-attr]
            tile = kind.get(id(mask))
            if tile is None:
                made = Image.new(image.mode, (w, h), flat)
                paint(made, [Stamp(mask, 0, 0, fill, 0, w, h)])
                tile = kind[id(mask)] = (mask, made.im)
            core.paste(tile[1], (x, y, x + w, y + h))
        else:
            ink = inks.get(fill)
            if ink is None:
                ink = inks[fill] = draw.draw_ink(fill)
            draw.draw_bitmap((x, y), mask.im, ink)
        if x + w > right:
            right = x + w
        if y + h > painted_bottom:
            painted_bottom = y + h


def encode(image: Any) -> bytes:
    """Return image as a JPEG with a restart marker after every SPAN blocks (see the module)."""
    out = io.BytesIO()
    image.save(out, "JPEG", quality=QUALITY, restart_marker_blocks=SPAN)
    return out.getvalue()


def pieces_of(data: bytes) -> tuple[bytes, list[bytes]] | None:
    """Cut a JPEG written by encode() into its header (SOI to the end of the SOS header) and its entropy-coded
    pieces; None when it is not such a JPEG."""
    at = 2
    while at + 4 <= len(data) and data[at] == 0xFF:
        marker, size = data[at + 1], int.from_bytes(data[at + 2 : at + 4], "big")
        at += 2 + size
        if marker == 0xDA:  # start of scan: the entropy-coded data follows
            if not data.endswith(b"\xff\xd9"):
                return None
            return data[:at], _RESTART.split(data[at:-2])
    return None


@dataclass(frozen=True)
class PieceJpeg:
    """A JPEG cut into its header and one entropy-coded piece per SPAN blocks, ready to have pieces replaced."""

    header: bytes
    stream: tuple[bytes, ...]  # piece 0, marker, piece 1, marker, ... (piece n at 2n), the end marker last
    per_row: int  # pieces a row of blocks

    @classmethod
    def parse(cls, data: bytes, width: int, height: int) -> PieceJpeg | None:
        """Cut the JPEG of a width x height picture written by encode(); None when its pieces are not SPAN blocks
        each (a Pillow without restart_marker_blocks) or the width is not a whole number of pieces."""
        cut = pieces_of(data)
        per_row, rows = width // SPAN_PX, -(-height // BLOCK)
        if cut is None or width % SPAN_PX or len(cut[1]) != per_row * rows:
            return None
        stream: list[bytes] = []
        for n, piece in enumerate(cut[1]):
            stream += (piece, _MARKERS[n & 7])
        stream[-1] = b"\xff\xd9"
        return cls(cut[0], tuple(stream), per_row)

    def with_pieces(self, replaced: dict[int, bytes]) -> bytes:
        """Return the JPEG with the pieces numbered in `replaced` (row * per_row + column) replaced."""
        stream = list(self.stream)
        for n, piece in replaced.items():
            stream[2 * n] = piece
        return self.header + b"".join(stream)


@dataclass(frozen=True)
class Canvas:
    """The picture every page of a site starts from, encoded and measured once."""

    base: Any  # the RGB picture
    jpeg: PieceJpeg | None  # its JPEG cut into pieces (None: Pillow wrote no restart markers)
    flat: tuple[Any, ...]  # per row of blocks: its one colour, or None when it has more than one

    @classmethod
    def of(cls, base: Any) -> Canvas:
        """Encode and measure a base picture."""
        flat = []
        for top in range(0, base.height, BLOCK):
            extrema = base.crop((0, top, base.width, min(base.height, top + BLOCK))).getextrema()
            flat.append(
                tuple(low for low, _ in extrema) if all(low == high for low, high in extrema) else None
            )
        return cls(base, PieceJpeg.parse(encode(base), base.width, base.height), tuple(flat))

    def flat_colour(self, first: int, end: int) -> Any:
        """Return the one colour of rows of blocks first..end-1, or None."""
        colours = set(self.flat[first:end])
        return colours.pop() if len(colours) == 1 else None


def spans(stamps: list[Stamp], per_row: int) -> dict[int, tuple[int, int]]:
    """Return, per row of blocks the stamps paint into, the pieces they cover: {row: (first, end)}. Each line's
    box (its stamps' union) covers its rows from its leftmost to its rightmost piece."""
    boxes: list[list[int]] = []
    line = None
    box = [0, 0, 0, 0]
    for stamp in stamps:
        x, y = stamp.x, stamp.y
        if stamp.line != line:
            line, box = stamp.line, [x, y, x + stamp.w, y + stamp.h]
            boxes.append(box)
            continue
        if x < box[0]:
            box[0] = x
        if y < box[1]:
            box[1] = y
        if x + stamp.w > box[2]:
            box[2] = x + stamp.w
        if y + stamp.h > box[3]:
            box[3] = y + stamp.h
    rows: dict[int, tuple[int, int]] = {}
    for left, top, right, bottom in boxes:
        first, end = max(0, left // SPAN_PX), min(per_row, -(-right // SPAN_PX))
        if end <= first:
            continue
        for row in range(max(0, top // BLOCK), -(-bottom // BLOCK)):
            had = rows.get(row)
            rows[row] = (first, end) if had is None else (min(had[0], first), max(had[1], end))
    return rows


def _whole(base: Any, stamps: list[Stamp]) -> bytes:
    """Return the JPEG of base with the stamps painted, encoded whole."""
    image = base.copy()
    paint(image, stamps)
    return encode(image)


def compose(canvas: Canvas, stamps: list[Stamp], tiles: Tiles | None = None) -> bytes:
    """Return the JPEG of the canvas with the stamps painted: only the pieces they cover are encoded."""
    base, jpeg = canvas.base, canvas.jpeg
    if jpeg is None:
        return _whole(base, stamps)
    rows = {row: cover for row, cover in spans(stamps, jpeg.per_row).items() if row * BLOCK < base.height}
    if not rows:
        return jpeg.with_pieces({})
    first, end = min(rows), max(rows) + 1
    if end * BLOCK > base.height:  # the last row of blocks is partial: its padding is the encoder's
        return _whole(base, stamps)
    # the band: the rows of blocks the text covers, from its leftmost piece to its rightmost
    band_left = min(cover[0] for cover in rows.values()) * SPAN_PX
    band_right = max(cover[1] for cover in rows.values()) * SPAN_PX
    band = base.crop((band_left, first * BLOCK, band_right, end * BLOCK))
    paint(band, stamps, first * BLOCK, canvas.flat_colour(first, end), tiles, band_left)
    strip = Image.new("RGB", (sum(e - f for f, e in rows.values()) * SPAN_PX, BLOCK))
    at, core = 0, band.im
    for row in sorted(rows):
        left, right = rows[row][0] * SPAN_PX - band_left, rows[row][1] * SPAN_PX - band_left
        top = (row - first) * BLOCK
        strip.im.paste(core.crop((left, top, right, top + BLOCK)), (at, 0, at + right - left, BLOCK))
        at += right - left
    cut = pieces_of(encode(strip))
    if cut is None or len(cut[1]) != at // SPAN_PX:
        return _whole(base, stamps)
    pieces, n = cut[1], 0
    replaced = {}
    for row in sorted(rows):
        for column in range(*rows[row]):
            replaced[row * jpeg.per_row + column] = pieces[n]
            n += 1
    return jpeg.with_pieces(replaced)
