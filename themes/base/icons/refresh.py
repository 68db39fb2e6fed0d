"""Rebuild the compact icon data files from the npm packages (run by hand; see docs/vendored.md).

Usage: python themes/base/icons/refresh.py [--from DIR]

Without --from it runs `npm pack` for the pinned versions below into a temporary directory. With --from DIR it
reads already extracted packages from DIR/<library>/package/. It writes <library>.json.gz and
<library>.LICENSE.txt next to this file. The output is deterministic (sorted keys, gzip mtime 0).
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent

PACKAGES = {
    "fontawesome": ("@fortawesome/fontawesome-free", "7.3.1", "CC-BY-4.0 (icons), MIT (code)", "LICENSE.txt"),
    "lucide": ("lucide-static", "1.62.0", "ISC", "LICENSE"),
    "tabler": ("@tabler/icons", "3.51.0", "MIT", "LICENSE"),
}

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_ROOT = re.compile(r"<svg\b([^>]*)>(.*)</svg>", re.S)
_ATTR = re.compile(r'([\w:-]+)="([^"]*)"')
# Tabler draws an invisible 24x24 bounding box in every icon; it only costs bytes.
_TABLER_BOX = re.compile(r'<path stroke="none" d="M0 0h24v24H0z" fill="none"\s*/>')


def _split(svg: str) -> tuple[dict[str, str], str]:
    """Return (root attributes, minified inner markup) of one SVG file."""
    match = _ROOT.search(_COMMENT.sub("", svg))
    if not match:
        raise ValueError("not an SVG document")
    attrs = dict(_ATTR.findall(match.group(1)))
    inner = re.sub(r">\s+<", "><", match.group(2).strip())
    inner = re.sub(r"\s*/>", "/>", inner)
    inner = re.sub(r"\s{2,}", " ", inner)
    return attrs, inner


def _fontawesome(pkg: Path) -> dict:
    """Font Awesome: each icon is one path; keep [viewBox width, d] (the height is always 512)."""
    meta = json.loads((pkg / "metadata" / "icon-families.json").read_text(encoding="utf-8"))
    alias_of = {
        alias: name for name, info in meta.items() for alias in (info.get("aliases") or {}).get("names") or []
    }
    styles: dict[str, dict[str, list]] = {}
    for style in ("solid", "regular", "brands"):
        folder = pkg / "svgs" / style
        icons: dict[str, list] = {}
        for path in sorted(folder.glob("*.svg")):
            if path.stem in alias_of and (folder / f"{alias_of[path.stem]}.svg").exists():
                continue  # FA ships each alias as a duplicate file
            attrs, inner = _split(path.read_text(encoding="utf-8"))
            x, y, width, height = attrs["viewBox"].split()
            if (x, y, height) != ("0", "0", "512"):
                raise ValueError(f"{path}: unexpected viewBox {attrs['viewBox']}")
            paths = re.findall(r'<path fill="currentColor" d="([^"]*)"/>', inner)
            if len(paths) != 1 or len(inner) != len(f'<path fill="currentColor" d="{paths[0]}"/>'):
                raise ValueError(f"{path}: expected exactly one path")
            icons[path.stem] = [int(width), paths[0]]
        styles[style] = icons
    aliases = {
        alias: name
        for alias, name in alias_of.items()
        if any(name in icons for icons in styles.values()) and not any(alias in i for i in styles.values())
    }
    return {"attrs": {"fill": "currentColor"}, "height": 512, "styles": styles, "aliases": aliases}


def _stroke_library(icon_dirs: dict[str, Path], box: re.Pattern[str] | None) -> dict:
    """Lucide/Tabler: same 24x24 root attributes per style; keep the inner markup per name."""
    styles: dict[str, dict] = {}
    for style, folder in icon_dirs.items():
        icons: dict[str, str] = {}
        root: dict[str, str] | None = None
        for path in sorted(folder.glob("*.svg")):
            attrs, inner = _split(path.read_text(encoding="utf-8"))
            attrs = {k: v for k, v in attrs.items() if k not in ("class", "xmlns", "width", "height")}
            if root is None:
                root = attrs
            elif attrs != root:
                raise ValueError(f"{path}: root attributes differ from the rest of the set: {attrs}")
            icons[path.stem] = box.sub("", inner) if box else inner
        styles[style] = {"attrs": root or {}, "icons": icons}
    return {"styles": styles, "aliases": {}}


def _dedupe_aliases(data: dict, style: str, alias_names: set[str]) -> None:
    """Lucide ships renamed icons as duplicate files: keep one canonical name and record the rest as aliases."""
    icons = data["styles"][style]["icons"]
    canonical: dict[str, str] = {}
    for name in sorted(icons, key=lambda n: (n in alias_names, n)):
        canonical.setdefault(icons[name], name)
    for name, inner in list(icons.items()):
        if name in alias_names and canonical[inner] != name:
            data["aliases"][name] = canonical[inner]
            del icons[name]


def convert(library: str, pkg: Path) -> dict:
    """Convert one extracted npm package (its package/ folder) to the icon data dictionary."""
    name, version, licence, _ = PACKAGES[library]
    if library == "fontawesome":
        data = _fontawesome(pkg)
    elif library == "lucide":
        nodes = json.loads((pkg / "icon-nodes.json").read_text(encoding="utf-8"))
        data = _stroke_library({"default": pkg / "icons"}, None)
        _dedupe_aliases(data, "default", {p.stem for p in (pkg / "icons").glob("*.svg")} - set(nodes))
    else:
        data = _stroke_library(
            {"outline": pkg / "icons" / "outline", "filled": pkg / "icons" / "filled"}, _TABLER_BOX
        )
    return {"library": library, "package": name, "version": version, "license": licence, **data}


def write(library: str, data: dict, licence_text: str, out: Path = HERE) -> Path:
    """Write <library>.json.gz (reproducibly) and its licence text."""
    raw = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    target = out / f"{library}.json.gz"
    target.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    (out / f"{library}.LICENSE.txt").write_text(licence_text, encoding="utf-8")
    return target


def _npm_pack(library: str, workdir: Path) -> Path:
    name, version, _, _ = PACKAGES[library]
    result = subprocess.run(
        ["npm", "pack", f"{name}@{version}", "--silent"],
        cwd=workdir,
        check=True,
        capture_output=True,
        text=True,
    )
    tarball = workdir / result.stdout.strip().splitlines()[-1]
    dest = workdir / library
    with tarfile.open(tarball) as tar:
        tar.extractall(dest, filter="data")
    return dest / "package"


def main(argv: list[str] | None = None) -> int:
    """Fetch (or read) the three packages and rewrite the data files."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, help="folder holding <library>/package/ trees")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for library, (_, _, _, licence_file) in PACKAGES.items():
            pkg = args.source / library / "package" if args.source else _npm_pack(library, Path(tmp))
            data = convert(library, pkg)
            target = write(library, data, (pkg / licence_file).read_text(encoding="utf-8"))
            count = sum(
                len(s) if library == "fontawesome" else len(s["icons"]) for s in data["styles"].values()
            )
            print(
                f"{target.name}: {count} icons, {len(data['aliases'])} aliases, {target.stat().st_size} bytes"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
