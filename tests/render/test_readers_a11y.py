"""`docsgen a11y`: docs.json colour contrast and images/videos without a text alternative, located."""

from __future__ import annotations

import json

from click.testing import CliRunner

from docsgen.cli import main

PAGE = """---
title: Media
---

![](/images/a.png)

![A diagram](/images/b.png)

<img src="/images/c.png" />

<img src="/images/d.png" alt="Dashboard" />

<img src="/images/e.png" alt="" aria-hidden="true" />

<video src="/v.mp4" controls></video>

<video src="/w.mp4" aria-label="Demo" controls></video>

```mdx
<img src="/inside-code.png" />
![](/inside-code.png)
```

Inline `<img src="x.png" />` is an example too.
"""


def _run(*args: str):
    return CliRunner().invoke(main, ["a11y", *args])


def test_images_and_videos_without_alt_are_located(make_site):
    docs = make_site(
        {
            "docs.json": json.dumps(
                {
                    "theme": "mint",
                    "name": "S",
                    "colors": {"primary": "#1D4ED8"},
                    "navigation": {"pages": ["media"]},
                }
            ),
            "media.mdx": PAGE,
        }
    )
    result = _run(str(docs), "--format", "json")
    assert result.exit_code == 1
    findings = json.loads(result.stdout)["findings"]
    found = [(f["path"], f["line"], f["column"], f["code"]) for f in findings if f["path"] == "media.mdx"]
    assert found == [
        ("media.mdx", 5, 1, "a11y.image-alt"),
        ("media.mdx", 9, 1, "a11y.image-alt"),
        ("media.mdx", 15, 1, "a11y.video-alt"),
    ]


def test_colours_are_checked_against_both_backgrounds_with_their_location(make_site):
    docs = make_site(
        {
            "docs.json": '{\n  "theme": "mint",\n  "name": "S",\n  "colors": {\n    "primary": "#FDE047",\n'
            '    "light": "#1E1B4B"\n  },\n  "navigation": {"pages": ["index"]}\n}\n',
            "index.mdx": "# Home\n",
        }
    )
    result = _run(str(docs))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    light = next(line for line in lines if "colors.primary #FDE047 has a contrast" in line)
    dark = next(line for line in lines if "colors.light #1E1B4B has a contrast" in line)
    assert (
        light.startswith("docs.json:5:")
        and "light background #ffffff" in light
        and "[a11y.contrast]" in light
    )
    assert dark.startswith("docs.json:6:") and "dark background" in dark


def test_a_site_with_readable_colours_and_described_media_passes(make_site):
    docs = make_site(
        {
            "docs.json": json.dumps(
                {
                    "theme": "mint",
                    "name": "S",
                    "colors": {"primary": "#1D4ED8", "light": "#93C5FD"},
                    "navigation": {"pages": ["index"]},
                }
            ),
            "index.mdx": "# Home\n\n![Chart](/c.png)\n\n<img src='/d.png' alt='Dashboard' />\n",
        }
    )
    result = _run(str(docs))
    assert result.exit_code == 0, result.output
    assert "0 accessibility finding(s) in docs.json and 1 page(s)" in result.output


def test_a_missing_folder_is_a_user_error_without_traceback(tmp_path):
    result = _run(str(tmp_path / "nope"))
    assert result.exit_code != 0 and "Traceback" not in result.output
