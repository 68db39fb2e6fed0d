"""Open Graph thumbnails drawn fast (issue 37 item 16) and still as Pillow draws them: glyph-by-glyph text against
draw.text, row-spliced JPEGs against a whole encoding, and a page's thumbnail against a reference drawing."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from docsgen.build import build
from docsgen.common.resources import themes_dir
from docsgen.render import site_context, thumbnail_paint, thumbnails
from docsgen.render.thumbnail_paint import Canvas, Lettering, compose, encode, paint
from docsgen.site.read import read_site

LINES = [
    "Welcome to Acme",
    "AVATAR WAVE Tokyo, Yes! To: \"quotes\" and 'apostrophes' (1/2) [x] {y} 100% $5 #7 @you",
    "Corriger un fichier statique qui renvoie 404 sur votre site de documentation…",
    "Straße, naïve café, crème brûlée, Ærø, Łódź, İstanbul, ñandú",
    "API リファレンス 快速入门 빠른 시작",
    "مرحبا بالعالم and שלום",
    "combining e\u0301 and emoji 🚀✨",
    "fi fl ffi office",
]


def difference(a: Image.Image, b: Image.Image) -> int:
    """Return the largest channel difference between two pictures of the same size."""
    assert a.size == b.size
    return max(high for _, high in ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getextrema())


@pytest.mark.parametrize(("size", "stroke"), [(68, 1), (32, 0), (26, 0)])
@pytest.mark.parametrize(
    ("background", "ink"), [((255, 255, 255), (17, 24, 39)), ((11, 13, 14), (156, 163, 175))]
)
def test_glyph_by_glyph_text_is_pillows_text(size, stroke, background, ink):
    font = ImageFont.load_default(size)
    lettering = Lettering(font, stroke)
    for line in LINES:
        expected = Image.new("RGB", (1700, 140), background)
        options = {"stroke_width": stroke, "stroke_fill": ink} if stroke else {}
        ImageDraw.Draw(expected).text((80, 30), line, font=font, fill=ink, **options)
        drawn = Image.new("RGB", (1700, 140), background)
        stamps = lettering.stamps(line, 80, 30, ink)
        assert len(stamps) > len(line) // 2  # glyph by glyph, not the line at once
        paint(drawn, stamps)
        assert difference(expected, drawn) <= 1, line  # rounding where two glyphs overlap, nothing more
        changed = ImageChops.difference(expected, Image.new("RGB", expected.size, background)).getbbox()
        assert changed == ImageChops.difference(drawn, Image.new("RGB", drawn.size, background)).getbbox()


class Kerned:
    """A font that kerns "AV" 5 pixels tighter (the fonts at hand have no kerning table the basic layout reads)."""

    def __init__(self, font: ImageFont.FreeTypeFont) -> None:
        self.font = font

    def getlength(self, text: str, *args: object, **kwargs: object) -> float:
        return self.font.getlength(text, *args, **kwargs) - 5 * text.count("AV")

    def __getattr__(self, name: str) -> object:
        return getattr(self.font, name)


def test_a_kerning_font_moves_the_pen_by_its_pairs():
    font = ImageFont.load_default(68)
    plain, kerned = (
        Lettering(font).stamps("AVA", 80, 30, (0, 0, 0)),
        Lettering(Kerned(font)).stamps("AVA", 80, 30, (0, 0, 0)),
    )
    assert [s.x for s in kerned] == [plain[0].x, plain[1].x - 5, plain[2].x - 5]


def test_a_shaped_font_draws_whole_lines_exactly():
    """A site's own font is laid out by Raqm (ligatures, marks, right to left): its lines are drawn by Pillow whole."""
    font = ImageFont.truetype(str(themes_dir() / "base/static/fonts/inter-latin-wght-normal.woff2"), 40)
    lettering = Lettering(font)
    for line in ("Office efficiency -> 12:30", "Welcome to Acme"):
        expected = Image.new("RGB", (900, 100), (255, 255, 255))
        ImageDraw.Draw(expected).text((20, 10), line, font=font, fill=(0, 0, 0))
        drawn = Image.new("RGB", (900, 100), (255, 255, 255))
        stamps = lettering.stamps(line, 20, 10, (0, 0, 0))
        assert len(stamps) == 1
        paint(drawn, stamps)
        assert difference(expected, drawn) == 0


def gradient() -> Image.Image:
    """A background with detail everywhere (a flat one would hide a misplaced row)."""
    image = Image.linear_gradient("L").resize((1200, 630)).convert("RGB")
    ImageDraw.Draw(image).ellipse((300, 100, 900, 600), fill=(200, 40, 90))
    return image


@pytest.mark.parametrize(
    ("x", "y"),
    [(80, 200), (80, 0), (80, -30), (40, 600), (500, 615), (80, 700), (1150, 300)],
    ids=["middle", "first row", "above the top", "last rows", "partial last row", "below", "right edge"],
)
def test_a_row_spliced_jpeg_decodes_to_the_whole_encoding(x, y):
    base = gradient()
    lettering = Lettering(ImageFont.load_default(68), 1)
    stamps = lettering.stamps("Quickstart guide", x, y, (255, 255, 255))
    stamps += Lettering(ImageFont.load_default(32)).stamps("and a description", x, y + 90, (10, 10, 10))
    canvas = Canvas.of(base)
    # 630 pixel rows: 40 rows of blocks, one partial; 1200 pixels: 15 pieces of 80 a row
    assert canvas.jpeg is not None and canvas.jpeg.per_row == 15 and len(canvas.jpeg.stream) == 2 * 40 * 15
    data = compose(canvas, stamps, {})
    whole = base.copy()
    paint(whole, stamps)
    reference = io.BytesIO()
    whole.save(reference, "JPEG", quality=thumbnail_paint.QUALITY)
    with Image.open(io.BytesIO(data)) as spliced, Image.open(reference) as expected:
        assert spliced.size == (1200, 630) and spliced.format == "JPEG"
        assert difference(spliced, expected) == 0


def test_only_the_pieces_the_text_covers_are_encoded(monkeypatch):
    """A page encodes the 80x16 pieces its lines cover, gathered into one strip, not the whole rows they cross."""
    encoded: list[tuple[int, int]] = []
    original = thumbnail_paint.encode

    def encode_recorded(image: Image.Image) -> bytes:
        encoded.append(image.size)
        return original(image)

    canvas = Canvas.of(gradient())
    monkeypatch.setattr(thumbnail_paint, "encode", encode_recorded)
    stamps = Lettering(ImageFont.load_default(68), 1).stamps("Quickstart", 80, 200, (255, 255, 255))
    compose(canvas, stamps, {})
    ((width, height),) = encoded
    rows = -(-(max(s.y + s.h for s in stamps)) // 16) - min(s.y for s in stamps) // 16
    assert height == 16 and width % 80 == 0
    assert width <= rows * 6 * 80  # "Quickstart" is under 480 pixels wide: at most 6 pieces a row, of 15


def test_a_page_without_text_is_the_base_picture():
    base = gradient()
    data = compose(Canvas.of(base), [], {})
    with Image.open(io.BytesIO(data)) as picture, Image.open(io.BytesIO(encode(base))) as expected:
        assert difference(picture, expected) == 0


@pytest.mark.parametrize("spacing", [84, 40], ids=["lines apart", "lines overlapping"])
def test_glyphs_pasted_as_tiles_are_the_blended_glyphs(spacing):
    """On a plain background a glyph nothing was painted under is copied pre-blended: the same pixels as blending."""
    lettering, small = Lettering(ImageFont.load_default(68), 1), Lettering(ImageFont.load_default(32))
    stamps, lines = [], ["AVAWAY Ty To f. ff Wj", "jÅgÉ ÿ Yo LT W. ij", "P, r. y, g; Ç ǅ"]
    for n, line in enumerate(lines):  # top to bottom, as a thumbnail's lines come
        stamps += lettering.stamps(line, 60, 20 + n * spacing, (17, 24, 39))
    for n, line in enumerate(lines):
        stamps += small.stamps(line, 60, 20 + 3 * spacing + n * spacing // 2, (75, 85, 99))
    background = (250, 250, 245)
    tiles: dict = {}
    pasted, blended = Image.new("RGB", (1200, 400), background), Image.new("RGB", (1200, 400), background)
    paint(pasted, stamps, 0, background, tiles)
    paint(blended, stamps)
    pasted_glyphs = sum(len(kind) for kind in tiles.values())
    assert pasted_glyphs > (20 if spacing == 84 else 0)  # most glyphs were pasted when the lines keep apart
    assert ImageChops.difference(pasted, blended).getbbox() is None
    canvas = Canvas.of(Image.new("RGB", (1200, 630), background))
    with Image.open(io.BytesIO(compose(canvas, stamps, tiles))) as picture:
        expected = Image.new("RGB", (1200, 630), background)
        paint(expected, stamps)
        reference = io.BytesIO()
        expected.save(reference, "JPEG", quality=thumbnail_paint.QUALITY)
        assert difference(picture, Image.open(reference)) == 0


def test_tiles_are_kept_per_background():
    """A glyph blended onto one plain background is not pasted onto another (two flat bands of one picture)."""
    stamps = Lettering(ImageFont.load_default(32)).stamps("Tile W", 10, 10, (120, 130, 140))
    tiles: dict = {}
    for background in ((255, 255, 255), (20, 20, 20)):
        pasted, blended = Image.new("RGB", (200, 60), background), Image.new("RGB", (200, 60), background)
        paint(pasted, stamps, 0, background, tiles)
        paint(blended, stamps)
        assert ImageChops.difference(pasted, blended).getbbox() is None, background


SITE = {
    "name": "Acme Docs",
    "theme": "mint",
    "colors": {"primary": "#0D9373"},
    "thumbnails": {},
    "navigation": {"groups": [{"group": "Getting started", "pages": ["index"]}]},
}


def inter(size: int) -> ImageFont.FreeTypeFont:
    """The bundled thumbnail font, opened here as the code under test is not asked to."""
    return ImageFont.truetype(str(thumbnails.bundled_font()), size, layout_engine=ImageFont.Layout.BASIC)


def reference_drawing(drawing: thumbnails.Drawing, title: str, description: str, section: str) -> Image.Image:
    """Draw a thumbnail as docsgen did before glyph caching and row splicing: draw.text on a copy, one JPEG."""
    base, y = drawing.base()
    image = base.copy()
    draw = ImageDraw.Draw(image)
    fg, muted = drawing.palette["fg"], drawing.palette["muted"]
    draw.text((80, y), section.upper(), font=inter(26), fill=muted)
    y += 50
    for line in thumbnails._wrap(title, 28, 3):
        draw.text((80, y), line, font=inter(68), fill=fg, stroke_width=1, stroke_fill=fg)
        y += 84
    y += 16
    for line in thumbnails._wrap(description, 60, 2):
        draw.text((80, y), line, font=inter(32), fill=muted)
        y += 46
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90)
    return Image.open(out)


@pytest.mark.parametrize("appearance", ["light", "dark"])
def test_a_thumbnail_is_the_reference_drawing(make_site, tmp_path, appearance):
    docs = make_site(
        {"docs.json": json.dumps({**SITE, "thumbnails": {"appearance": appearance}}), "index.mdx": "x"}
    )
    site = read_site(docs, tmp_path / "out")
    drawing = thumbnails.Drawing(site_context(site), Path(docs))
    title = "Corriger un fichier statique qui renvoie 404 sur votre site de documentation"
    description = "Diagnostiquez pourquoi un fichier ajouté à votre dépôt ne se charge pas à l'URL attendue, et comment le corriger."
    data = drawing.render(title, description, "Centre d'aide")
    with (
        Image.open(io.BytesIO(data)) as picture,
        reference_drawing(drawing, title, description, "Centre d'aide") as ref,
    ):
        assert picture.size == (1200, 630) and picture.format == "JPEG"
        assert difference(picture, ref) <= 8  # the 1-level rounding of overlapping glyph edges, through JPEG
        changed = ImageChops.difference(picture.convert("RGB"), ref.convert("RGB")).convert("L")
        assert sum(changed.histogram()[1:]) < 200  # of 756,000 pixels
        title_region = picture.convert("RGB").crop((80, 220, 1100, 470))
        plain = Image.new("RGB", title_region.size, drawing.palette["bg"])
        inked = ImageChops.difference(title_region, plain).convert("L").histogram()[60:]
        assert sum(inked) > 20_000  # three lines of title text are drawn there


def test_accented_titles_are_drawn_in_their_letters(make_site, tmp_path):
    """French, German and Spanish titles keep their letters: Pillow's embedded font drew é, à, ß as one box."""
    docs = make_site({"docs.json": json.dumps(SITE), "index.mdx": "x"})
    drawing = thumbnails.Drawing(site_context(read_site(docs, tmp_path / "out")), Path(docs))
    pictures = {
        word: Image.open(io.BytesIO(drawing.render(word, "", "Guide"))).convert("L")
        for word in ("ééé", "ààà", "ßßß", "中中中")
    }
    title_band = (80, 200, 1100, 400)
    crops = {word: picture.crop(title_band) for word, picture in pictures.items()}
    for word in ("ééé", "ààà", "ßßß"):
        assert ImageChops.difference(crops[word], crops["中中中"]).getbbox() is not None, word
    assert ImageChops.difference(crops["ééé"], crops["ààà"]).getbbox() is not None
    for word, crop in crops.items():
        low, high = crop.getextrema()
        assert high - low > 100, f"{word}: no text drawn in the title band"


def test_render_workers_draw_the_thumbnails(make_site, tmp_path, monkeypatch):
    """Each page's thumbnail is drawn in the render worker that rendered the page, while the pool is busy; the main
    process draws none (but the first page's, rendered before the workers fork) after the pages rendered."""
    monkeypatch.setenv("DOCSGEN_CACHE_DIR", str(tmp_path / "cache"))
    count = 110  # two workers (docsgen.engine.pool.MIN_PAGES_PER_WORKER)
    pages = {
        f"p{n}.mdx": f"---\ntitle: Page {n}\ndescription: About {n}.\n---\nText {n}.\n" for n in range(count)
    }
    names = sorted(name.removesuffix(".mdx") for name in pages)
    config = {"name": "Acme", "theme": "mint", "colors": {"primary": "#0D9373"}, "thumbnails": {}}
    config["navigation"] = {"groups": [{"group": "All", "pages": names}]}
    docs = make_site({"docs.json": json.dumps(config), **pages})
    log = tmp_path / "drawn-by"
    original = thumbnails.Drawing.render

    def render(self, title: str, description: str, section: str) -> bytes:
        with log.open("a") as out:  # O_APPEND: one line per picture, from whichever process drew it
            out.write(f"{os.getpid()} {title}\n")
        return original(self, title, description, section)

    monkeypatch.setattr(thumbnails.Drawing, "render", render)
    build(docs, tmp_path / "out", workers=2)
    drawn = [line.split(" ", 1) for line in log.read_text().splitlines()]
    assert sorted(title for _, title in drawn) == sorted(f"Page {n}" for n in range(count))  # each page once
    here = [title for pid, title in drawn if int(pid) == os.getpid()]
    assert len(here) <= 1, here
    assert len({pid for pid, _ in drawn} - {str(os.getpid())}) == 2  # both workers drew
    for n in (0, count - 1):
        with Image.open(tmp_path / f"out/_og/p{n}.jpg") as picture:
            assert picture.size == (1200, 630)
