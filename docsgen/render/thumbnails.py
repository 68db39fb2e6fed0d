"""Open Graph thumbnails: one 1200x630 JPEG per page, drawn at build time with Pillow, offline, cached by content.

On when docs.json has `thumbnails` (Mintlify's fields: `appearance` light/dark, `background` image, `fonts.family`).
A page gets `og:image`/`twitter:image` pointing at `_og/<page>.jpg` unless its frontmatter or `seo.metatags` set
an image already. Text is drawn with the theme's Inter (Latin, docs/vendored.md) or with the
site's own font file when `thumbnails.fonts.family` names a `fonts` entry with a local source. Google Fonts are
never fetched. Images are cached in the docs folder's cache (docsgen/engine/cachedir.py, one pack:
docsgen/render/thumbnail_cache.py) under a hash of everything drawn, so unchanged pages cost nothing to draw on the
next build. What every page shares (background, logo, the
encoded base picture, each glyph) is made once; a page costs its text's glyph pastes and the JPEG of the rows its
text covers (docsgen/render/thumbnail_paint.py). A build draws each page's image in the render worker that renders
the page (`Thumbnails.draw`, called by docsgen/engine/rendering.py), so the images cost no time after the pages render.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import textwrap
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsgen.common.errors import Diagnostic, info, warning
from docsgen.common.resources import themes_dir
from docsgen.config.analytics import where_in_config
from docsgen.engine.cachedir import cache_dir
from docsgen.render.thumbnail_cache import read_pack, write_pack

if TYPE_CHECKING:
    from docsgen.pages.page import Page
    from docsgen.render.context import SiteContext

WIDTH, HEIGHT = 1200, 630
VERSION = "4"  # bump when the drawing changes: cached images are keyed with it
FOLDER = "_og"
# JPEG: encoding a 1200x630 PNG cost 7x a JPEG of the same picture (75 vs 10 ms), most of a thumbnail's cost.
SUFFIX = ".jpg"
MAX_IMAGE_BYTES = 20_000_000  # a background or logo larger than this is not decoded
_RASTER = (".png", ".jpg", ".jpeg", ".webp", ".gif")
_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")
PALETTE = {
    "light": {"bg": (255, 255, 255), "fg": (17, 24, 39), "muted": (75, 85, 99)},
    "dark": {"bg": (11, 13, 14), "fg": (243, 244, 246), "muted": (156, 163, 175)},
}


def settings(ctx: SiteContext) -> dict | None:
    """Return docs.json `thumbnails` when set (an object, possibly empty): thumbnails are on then."""
    value = ctx.config.raw.get("thumbnails")
    return value if isinstance(value, dict) else None


def image_path(page: Page) -> str:
    """Return a page's thumbnail path in the site: 'guides/setup/' -> '_og/guides/setup.jpg'."""
    return f"{FOLDER}/{page.url.strip('/') or 'index'}{SUFFIX}"


def add_image_tags(ctx: SiteContext, page: Page, tags: dict[tuple[str, str], str]) -> None:
    """Point og:image and twitter:image at the page's thumbnail, unless an image is set already."""
    if settings(ctx) is None or ("property", "og:image") in tags:
        return
    base = (ctx.public_url or "").rstrip("/")
    url = f"{base}/{image_path(page)}"
    tags[("property", "og:image")] = url
    tags[("property", "og:image:width")] = str(WIDTH)
    tags[("property", "og:image:height")] = str(HEIGHT)
    tags.setdefault(("name", "twitter:image"), url)


def _color(value: Any, default: tuple[int, int, int]) -> tuple[int, int, int]:
    """Return an RGB colour from '#rgb'/'#rrggbb', else the default."""
    if not isinstance(value, str) or not _HEX.fullmatch(value.strip()):
        return default
    text = value.strip()[1:]
    text = "".join(c * 2 for c in text) if len(text) == 3 else text
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


def _local_file(docs_dir: Path, rel: Any) -> Path | None:
    """Return a regular file of the docs folder named by a docs.json path (never outside it), or None."""
    if not isinstance(rel, str) or not rel.strip() or "://" in rel or rel.startswith("//") or "\x00" in rel:
        return None
    root = docs_dir.resolve()
    path = (root / rel.strip().lstrip("/")).resolve()
    if not path.is_relative_to(root) or not path.is_file() or path.stat().st_size > MAX_IMAGE_BYTES:
        return None
    return path


def bundled_font() -> Path:
    """The font thumbnails use unless the site names its own: the theme's Inter (Latin subset, variable weight)."""
    return themes_dir() / "base" / "static" / "fonts" / "inter-latin-wght-normal.woff2"


class Drawing:
    """What every thumbnail of a site shares: colours, fonts, background and logo (resolved once per build)."""

    def __init__(self, ctx: SiteContext, docs_dir: Path) -> None:
        self.ctx = ctx
        self.docs_dir = docs_dir
        self.diagnostics: list[Diagnostic] = []
        conf = settings(ctx) or {}
        mode = conf.get("appearance")
        if mode not in ("light", "dark"):
            mode = "dark" if ctx.config.appearance.default == "dark" else "light"
        self.mode = mode
        colors = ctx.config.colors
        self.palette = dict(PALETTE[mode])
        self.accent = _color(
            colors.get("primary") if mode == "light" else colors.get("light"), (13, 147, 115)
        )
        self.background = self._file("background", conf.get("background"), _RASTER)
        logo = ctx.config.logo if isinstance(ctx.config.logo, dict) else {}
        self.logo = _local_file(docs_dir, logo.get(mode) or logo.get("light"))
        if self.logo is not None and self.logo.suffix.lower() not in _RASTER:
            self.logo = None  # SVG logos: Pillow does not rasterise SVG, the site name is drawn instead
        self.font = self._font(conf.get("fonts"))
        self._base: tuple[Any, int] | None = None
        self._canvas: Any = None
        self._local = threading.local()  # fonts per thread: a FreeType face is not shared between threads

    def _where(self, *path: str) -> dict:
        return {"json_path": ".".join(("thumbnails", *path))}

    def _file(self, field: str, rel: Any, suffixes: tuple[str, ...]) -> Path | None:
        if rel is None:
            return None
        path = _local_file(self.docs_dir, rel)
        if path is None or path.suffix.lower() not in suffixes:
            where = where_in_config(self.ctx.config, ("thumbnails", field))
            self.diagnostics.append(
                warning(
                    "thumbnails.background",
                    f"thumbnails.{field} {str(rel)[:120]!r} is not a PNG, JPEG, WebP or GIF file of the docs "
                    "folder (URLs are not fetched): thumbnails use a plain background",
                    *where,
                    **self._where(field),
                )
            )
            return None
        return path

    def _font(self, fonts: Any) -> Path | None:
        """Return the site's own font file for thumbnails.fonts.family, or None for the bundled font."""
        family = fonts.get("family") if isinstance(fonts, dict) else None
        if not isinstance(family, str) or not family.strip():
            return None
        site_fonts = self.ctx.config.raw.get("fonts")
        entries: list[Any] = [site_fonts] if isinstance(site_fonts, dict) else []
        entries += [site_fonts.get(k) for k in ("heading", "body")] if isinstance(site_fonts, dict) else []
        for entry in entries:
            if (
                isinstance(entry, dict)
                and str(entry.get("family", "")).strip().lower() == family.strip().lower()
            ):
                path = _local_file(self.docs_dir, entry.get("source"))
                if path is not None and path.suffix.lower() in (".ttf", ".otf", ".woff"):
                    return path
        self.diagnostics.append(
            info(
                "thumbnails.font",
                f"thumbnail font '{family[:60]}' is not a local font file of docs.json `fonts`: Google Fonts are "
                "not fetched, thumbnails use the bundled Inter font",
                *where_in_config(self.ctx.config, ("thumbnails", "fonts", "family")),
                **self._where("fonts", "family"),
            )
        )
        return None

    def digest(self) -> str:
        """Return a hash of everything the site contributes to its thumbnails (files by content)."""
        parts: list[Any] = [VERSION, self.mode, self.palette, self.accent, self.ctx.config.name]
        for path in (self.background, self.logo, self.font):
            parts.append(hashlib.sha256(path.read_bytes()).hexdigest() if path else "")
        return hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()

    def font_at(self, size: int) -> Any:
        """Return the font at a size, loaded once per drawing (loading a TrueType file costs more than a line)."""
        fonts = self._local.__dict__.setdefault("fonts", {})
        if size not in fonts:
            fonts[size] = self._load_font(size)
        return fonts[size]

    def _load_font(self, size: int) -> Any:
        from PIL import ImageFont

        if self.font is not None:
            try:
                return ImageFont.truetype(str(self.font), size)
            except OSError:
                self.font = None
        # The theme's Inter (Latin with its accents: é, ß, œ, €, typographic quotes and dashes), where Pillow's
        # embedded Aileron is ASCII only and drew every accented letter of a French or German title as a box. The
        # basic layout keeps the glyph-by-glyph drawing of thumbnail_paint; a file that cannot be read falls back.
        try:
            return ImageFont.truetype(str(bundled_font()), size, layout_engine=ImageFont.Layout.BASIC)
        except OSError:
            return ImageFont.load_default(size)

    def base(self) -> tuple[Any, int]:
        """Return (the picture every thumbnail starts from, the y where page text starts), made once.

        Background and logo are decoded once per build, under Pillow's pixel limit (a decompression bomb is
        skipped like an unreadable file).
        """
        if self._base is not None:
            return self._base
        from PIL import Image, ImageDraw

        image = Image.new("RGB", (WIDTH, HEIGHT), self.palette["bg"])
        if self.background is not None:
            try:
                with Image.open(self.background) as source:
                    _check_pixels(source)
                    source.draft("RGB", (WIDTH, HEIGHT))
                    image = _cover(source.convert("RGB"))
            except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
                pass
        draw = ImageDraw.Draw(image)
        draw.rectangle((0, 0, WIDTH, 12), fill=self.accent)
        x, y = 80, 80
        logo_drawn = False
        if self.logo is not None:
            try:
                with Image.open(self.logo) as logo:
                    _check_pixels(logo)
                    logo.thumbnail((360, 72))
                    rgba = logo.convert("RGBA")
                    image.paste(rgba, (x, y), rgba)
                    y += rgba.height + 40
                    logo_drawn = True
            except (OSError, ValueError, Image.DecompressionBombError, Image.DecompressionBombWarning):
                pass
        if not logo_drawn:
            draw.text((x, y), self.ctx.config.name[:60], font=self.font_at(40), fill=self.accent)
            y += 80
        self._base = (image, y)
        return self._base

    def lettering(self, size: int, stroke: int = 0) -> Any:
        """Return the glyph cache of the font at a size (and stroke), one per thread like the fonts."""
        from docsgen.render.thumbnail_paint import Lettering

        letterings = self._local.__dict__.setdefault("letterings", {})
        if (size, stroke) not in letterings:
            letterings[size, stroke] = Lettering(self.font_at(size), stroke)
        return letterings[size, stroke]

    def canvas(self) -> Any:
        """Return the base picture encoded and measured (made once), which pages' JPEGs reuse."""
        from docsgen.render.thumbnail_paint import Canvas

        if self._canvas is None:
            self._canvas = Canvas.of(self.base()[0])
        return self._canvas

    def render(self, title: str, description: str, section: str) -> bytes:
        """Draw one thumbnail and return its JPEG bytes."""
        from docsgen.render.thumbnail_paint import compose

        y = self.base()[1]
        stamps = []
        x = 80
        if section:
            stamps += self.lettering(26).stamps(section[:80].upper(), x, y, self.palette["muted"])
            y += 50
        big = self.lettering(68, stroke=1)
        for line in _wrap(title, 28, 3):
            stamps += big.stamps(line, x, y, self.palette["fg"])
            y += 84
        y += 16
        small = self.lettering(32)
        for line in _wrap(description, 60, 2):
            if y > HEIGHT - 70:
                break
            stamps += small.stamps(line, x, y, self.palette["muted"])
            y += 46
        tiles = self._local.__dict__.setdefault("tiles", {})
        return compose(self.canvas(), stamps, tiles)


MAX_PIXELS = 40_000_000


def _check_pixels(image: Any) -> None:
    """Refuse images over MAX_PIXELS before decoding them (the header gives the size)."""
    from PIL import Image

    if image.width * image.height > MAX_PIXELS:
        raise Image.DecompressionBombError(f"{image.width}x{image.height} pixels")


def _cover(source: Any) -> Any:
    """Scale and crop an image to fill 1200x630 (CSS background-size: cover)."""
    from PIL import Image

    scale = max(WIDTH / source.width, HEIGHT / source.height)
    size = (max(WIDTH, round(source.width * scale)), max(HEIGHT, round(source.height * scale)))
    resized = source.resize(size, Image.Resampling.LANCZOS)
    left, top = (size[0] - WIDTH) // 2, (size[1] - HEIGHT) // 2
    return resized.crop((left, top, left + WIDTH, top + HEIGHT))


def _wrap(text: str, width: int, lines: int) -> list[str]:
    """Wrap text to at most `lines` lines, the last one ending with an ellipsis when text is cut."""
    wrapped = textwrap.wrap(" ".join(str(text).split())[:600], width) or []
    if len(wrapped) > lines:
        wrapped = wrapped[:lines]
        wrapped[-1] = wrapped[-1][: width - 1].rstrip() + "…"
    return wrapped


def _key(site_digest: str, page: Page, section: str) -> str:
    """Return the cache key of a page's thumbnail: everything it shows."""
    parts = [site_digest, page.title or "", page.meta_description or "", section]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


class Thumbnails:
    """A site's thumbnails for one build: the drawing, the cache and what each page shows.

    Made once in the main process before the render workers fork: they inherit it (the base picture encoded, the
    cached images) and draw the thumbnail of each page they render (`draw`); the main process then draws only what
    no worker drew (`add_files`) and writes the cache.
    """

    def __init__(self, ctx: SiteContext, docs_dir: Path, *, cache: bool = True) -> None:
        self.ctx = ctx
        self.drawing = Drawing(ctx, docs_dir)
        self.digest = self.drawing.digest()
        self.folder = cache_dir(docs_dir) / "thumbnails" if cache else None
        self.cached = read_pack(self.folder) if self.folder is not None else {}
        self.drawing.canvas()  # decoded, encoded and measured once, before threads or workers share it

    def job(self, page: Page) -> tuple[str, str] | None:
        """Return (section, cache key) of a page's thumbnail, or None when its og:image is its own."""
        if _own_image(self.ctx, page):
            return None
        crumbs = self.ctx.nav.breadcrumbs(page.key) if self.ctx.nav is not None else []
        section = str(crumbs[-1]) if crumbs else ""
        return section, _key(self.digest, page, section)

    def draw(self, page: Page) -> tuple[str, bytes] | None:
        """Return (key, JPEG) of a page's thumbnail where it is not cached (a render worker calls this for each
        page it renders); None when the page has no thumbnail or its image is in the cache."""
        job = self.job(page)
        if job is None or job[1] in self.cached:
            return None
        return job[1], self._render(page, job[0])

    def _render(self, page: Page, section: str) -> bytes:
        return self.drawing.render(page.title or "", page.meta_description or "", section)

    def add_files(self, pages: list[Page], files: Any, drawn: Mapping[str, bytes]) -> list[Diagnostic]:
        """Write `_og/<page>.jpg` for every page whose og:image is the generated one (those `drawn` lacks are
        drawn here, on a few threads: JPEG encoding runs without the GIL); rewrite the cache with exactly this
        build's images (docsgen/render/thumbnail_cache.py); return the diagnostics."""
        jobs = [(page, *job) for page in pages if (job := self.job(page)) is not None]
        missing = [
            (page, section, key) for page, section, key in jobs if key not in drawn and key not in self.cached
        ]
        from concurrent.futures import ThreadPoolExecutor  # here: a site without thumbnails never needs it

        with ThreadPoolExecutor(max_workers=min(4, os.cpu_count() or 1)) as pool:
            made = dict(
                zip(
                    (key for _, _, key in missing),
                    pool.map(lambda job: self._render(*job[:2]), missing),
                    strict=True,
                )
            )
        images = {key: drawn.get(key) or made.get(key) or self.cached[key] for _, _, key in jobs}
        for page, _, key in jobs:
            files.add(image_path(page), images[key], "thumbnails")
        folder = self.folder
        if folder is not None and images.keys() != self.cached.keys():
            write_pack(folder, images)
            for old in [*folder.glob("*.png"), *folder.glob(f"*{SUFFIX}"), *folder.glob("*.tmp")]:
                old.unlink(missing_ok=True)  # a file per image, as docsgen kept them before the pack
        return self.drawing.diagnostics


def maker(ctx: SiteContext, docs_dir: Path, *, cache: bool = True) -> Thumbnails | None:
    """Return the site's Thumbnails when docs.json sets `thumbnails` and Pillow is installed, else None."""
    if settings(ctx) is None:
        return None
    try:
        import PIL  # noqa: F401
    except ImportError:
        return None
    return Thumbnails(ctx, docs_dir, cache=cache)


def add_thumbnails(
    ctx: SiteContext,
    pages: list[Page],
    docs_dir: Path,
    files: Any,
    *,
    cache: bool = True,
    drawn: Drawn | None = None,
) -> list[Diagnostic]:
    """Write `_og/<page>.jpg` for every page whose og:image is the generated one; return the diagnostics.

    `drawn`: the build's Thumbnails and the images its render workers drew (only the rest are drawn here).
    """
    if settings(ctx) is None:
        return []
    try:
        import PIL  # noqa: F401
    except ImportError:
        return [warning("thumbnails.no-pillow", "thumbnails are set but Pillow is not installed: no images made",
                        "docs.json", 0, 0, json_path="thumbnails", hint="pip install pillow")]  # fmt: skip
    if drawn is not None:
        return drawn.maker.add_files(pages, files, drawn.images)
    return Thumbnails(ctx, docs_dir, cache=cache).add_files(pages, files, {})


@dataclass(frozen=True)
class Drawn:
    """The thumbnails render workers drew during a build: the build's Thumbnails and the images by cache key."""

    maker: Thumbnails
    images: Mapping[str, bytes]


def _own_image(ctx: SiteContext, page: Page) -> bool:
    """Tell whether a page's og:image comes from its frontmatter or seo.metatags (no thumbnail then)."""
    return bool(page.meta.get("og:image") or ctx.config.seo.metatags.get("og:image"))
