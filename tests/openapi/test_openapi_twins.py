"""Markdown twins of API pages, written by the API renderer next to the HTML (not parsed back out of it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from docsgen.build import build
from docsgen.openapi.render import ApiSettings, render_operation, render_schema_page, render_webhook
from docsgen.openapi.render.mdtext import code, fence, spec_markdown
from tests.htmldom import parse

SPECS = Path(__file__).parents[1] / "openapi_render_specs"
MD = MarkdownIt("commonmark", {"html": False}).render
READER = MarkdownIt("commonmark", {"html": True})  # how an agent's Markdown viewer would show the twin


@pytest.fixture(scope="module")
def spec30() -> dict:
    return yaml.safe_load((SPECS / "features-3.0.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def spec31() -> dict:
    return json.loads((SPECS / "features-3.1.json").read_text(encoding="utf-8"))


def twin(data: dict, method: str, path: str, **settings) -> str:
    return render_operation(data, method, path, settings=ApiSettings(**settings), markdown=MD).markdown


def sections(markdown: str) -> dict[str, str]:
    """Return the twin's level-2 sections by title."""
    parts = re.split(r"^## (.+)$", markdown, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def test_operation_twin_has_endpoint_description_auth_parameters_and_responses(spec30):
    md = twin(spec30, "get", "/pets/{petId}")
    assert md.startswith("**GET** `https://pets.example.com/v2/pets/{petId}`\n")  # the path-level server
    assert "Returns one pet." in md and "Second paragraph." in md
    found = sections(md)
    assert list(found) == [
        "Authorizations",
        "Path Parameters",
        "Query Parameters",
        "Header Parameters",
        "Cookie Parameters",
        "Response",
        "Request example",
        "Response example",
    ]
    assert "- `Authorization` (`string`, header, required): Your API token" in found["Authorizations"]
    assert "`Bearer <token>`" in found["Authorizations"]
    petid = found["Path Parameters"].strip().split("\n")
    assert petid == [
        "- `petId` (`integer<int64>`, required): The pet's \\<b>id\\</b>",
        "  Required range: `1 <= x <= 1000000`",
        "  Example: `42`",
    ]
    assert (
        "- `fields` (`array<enum<string>>`, deprecated)\n  Items must be unique" in found["Query Parameters"]
    )
    assert "Pattern: `^[a-f0-9]{16}$`" in found["Header Parameters"]
    assert "Required string length: `8 - 64`" in found["Cookie Parameters"]
    response = found["Response"]
    assert "### 200\n\nThe pet" in response and "### 404\n\nNot found" in response
    assert "- `X-Rate-Limit` (`integer`): Calls left" in response
    assert "Content type: `application/json`" in response and "Type: `object` (Pet)" in response
    assert "- `kind` (`enum<string>`)\n  Available options: `dog`, `cat`" in response
    assert "- `password`" not in response  # writeOnly: not returned
    assert "- `owner` (`object`, Owner)\n  - `email` (`string<email>`, required)\n  - `address`" in response
    assert "    - `city` (`string`)" in response  # nested two levels down
    assert "- `attributes` (`object`)\n  - `{key}` (`string`)" in response


def test_twin_is_markdown_an_agent_can_read(spec30):
    md = twin(spec30, "get", "/pets/{petId}")
    html = READER.render(md)
    root = parse(html)
    assert not root.find_all("script") and not root.find_all("b")  # spec HTML stays text
    assert "<script>alert" in root.text  # ...and is still there to read
    # The response fields are nested lists: owner's fields are a list inside owner's item.
    owner = next(li for li in root.find_all("li") if li.text.startswith("owner"))
    assert [c.text.split(" ")[0] for c in owner.find("ul").children if getattr(c, "tag", "") == "li"] == [
        "email",
        "address",
        "since",
    ]
    samples = sections(md)["Request example"]
    assert (
        "### cURL\n\n```bash\ncurl --request GET \\\n  --url 'https://pets.example.com/v2/pets/{petId}"
        in samples
    )
    assert [p.attrs.get("class") for p in root.find_all("code") if p.attrs.get("class")][:2] == [
        "language-bash",
        "language-python",
    ]
    example = sections(md)["Response example"]
    blocks = re.findall(r"^### ([^\n]+)\n\n```json\n(.*?)\n```$", example, re.M | re.S)
    assert [label for label, _ in blocks] == ["200 · A dog", "200 · A cat", "404"]
    assert json.loads(blocks[0][1]) == {"id": 1, "name": "Rex", "kind": "dog"}


def test_body_alternatives_and_security_alternatives(spec30):
    body = sections(twin(spec30, "post", "/shapes"))["Body"]
    assert "Type: `round | boxy` (Shape)" in body
    assert "- One of (by `shape`):\n  - **round** (`object`)\n    - `shape` (`string`, required)" in body
    assert "      Required range: `0 < x`" in body and "      Multiple of: `0.5`" in body
    put = sections(twin(spec30, "put", "/pets/{petId}"))
    assert (
        put["Authorizations"]
        .strip()
        .startswith("- One of:\n  - `apiKey`\n    - `X-API-Key` (`string`, header")
    )
    assert "The body is required." in put["Body"]
    assert "Content type: `application/x-www-form-urlencoded`" in put["Body"]
    assert '- `tag` (`string`)\n  Default: `"none"`' in put["Body"]
    assert "- `id`" not in put["Body"]  # readOnly: not sent
    tree = sections(twin(spec30, "get", "/tree"))["Response"]
    assert "Recursive: Node (see above)" in tree


def test_custom_code_samples_keep_their_code_and_fences_grow(spec30):
    data = json.loads(json.dumps(spec30))
    data["paths"]["/pets"]["post"]["x-codeSamples"][0]["source"] = "print('''\n```\n''')\n"
    samples = sections(twin(data, "post", "/pets", example_languages=("curl",)))["Request example"]
    assert "### SDK (Python)\n\n````python\nprint('''\n```\n''')\n````" in samples
    assert "### cURL\n\n```bash\ncurl --request POST" in samples


def test_webhook_and_schema_twins(spec31):
    settings = ApiSettings()
    hook = render_webhook(spec31, next(iter(spec31["webhooks"])), settings=settings, markdown=MD).markdown
    assert hook.startswith("Webhook: **POST** `")
    assert "## Payload\n" in hook and "## Payload example\n" in hook and "```json\n" in hook
    name = next(iter(spec31["components"]["schemas"]))
    model = render_schema_page(spec31, name, settings=settings, markdown=MD).markdown
    assert model.startswith(f"## {name}\n\nType: `") and "## Example\n\n### " in model
    assert re.search(r"^- `\w+` \(`", model, re.M)


def test_spec_text_helpers():
    assert spec_markdown("a <b>x</b> `<i>` <https://e.x> 1 < 2") == "a \\<b>x\\</b> `<i>` <https://e.x> 1 < 2"
    assert spec_markdown("```\n<pre>\n```") == "```\n<pre>\n```"
    assert code("a`b") == "`` a`b ``" and code("x\ny") == "`x y`"
    assert fence("js", "x = `y`") == "```js\nx = `y`\n```"
    assert fence("", "```\nin\n```").startswith("````\n")


SITE_SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Pets", "version": "1"},
    "servers": [{"url": "https://api.example.com"}, {"url": "https://eu.example.com"}],
    "externalDocs": {"url": "https://vendor.example/docs"},
    "paths": {
        "/pets": {
            "get": {
                "summary": "List pets",
                "operationId": "listPets",
                "description": (
                    "See [the guide](/guide), [creating](#operation/createPet), [a vendor\npage](/vendor/x) "
                    "and [by path](#tag/pets/POST/pets)."
                ),
                "responses": {"200": {"description": "OK"}},
            },
            "post": {
                "summary": "Create a pet",
                "operationId": "createPet",
                "x-svc": {"content": "<Note>Pets start **pending**.</Note>\n\nRead [the guide](/guide)."},
                "responses": {"201": {"description": "Created"}},
            },
        }
    },
}


def site_files() -> dict[str, str]:
    return {
        "docs.json": json.dumps(
            {
                "theme": "mint",
                "name": "Pets",
                "colors": {"primary": "#112233"},
                "navigation": {
                    "groups": [
                        {"group": "Start", "pages": ["guide", "intro"]},
                        {"group": "API", "openapi": "openapi.json"},
                    ]
                },
            }
        ),
        "guide.mdx": "---\ntitle: Guide\n---\nHello.\n",
        "intro.mdx": (
            "---\ntitle: Intro\nopenapi: openapi.json GET /pets\n---\n\n<Tip>Read this first.</Tip>\n"
        ),
        "openapi.json": json.dumps(SITE_SPEC),
    }


def test_built_twins_resolve_links_and_convert_the_pages_mdx(make_site, tmp_path):
    site = make_site(site_files())
    out = tmp_path / "out"
    build(site, out, site_url="https://docs.example", cache=False, workers=1)
    listing = (out / "api-reference/list-pets.md").read_text(encoding="utf-8")
    assert listing.startswith("# List pets\n")
    assert "**GET** `https://api.example.com/pets`\n\nOther servers: `https://eu.example.com`" in listing
    assert "[the guide](https://docs.example/guide/)" in listing  # a page of this site
    assert "[creating](https://docs.example/api-reference/create-a-pet/)" in listing  # Redoc operation link
    assert "[by path](https://docs.example/api-reference/create-a-pet/)" in listing  # Redoc tag/METHOD/path
    assert "[a vendor\npage](https://vendor.example/vendor/x)" in listing  # not here: the vendor's docs
    create = (out / "api-reference/create-a-pet.md").read_text(encoding="utf-8")
    assert "> **Note:** Pets start **pending**." in create  # x-svc content: MDX made Markdown
    assert "Read [the guide](https://docs.example/guide/)." in create
    assert create.index("> **Note:**") < create.index("**POST** `https://api.example.com/pets`")
    intro = (out / "intro.md").read_text(encoding="utf-8")  # an MDX page around an `openapi:` endpoint
    assert intro.startswith("# Intro\n") and "> **Tip:** Read this first." in intro
    assert "**GET** `https://api.example.com/pets`" in intro and "## Response\n\n### 200\n\nOK" in intro
    full = (out / "llms-full.txt").read_text(encoding="utf-8")
    assert "Source: https://docs.example/api-reference/list-pets/" in full


def test_cached_build_writes_the_same_twins(make_site, tmp_path):
    site = make_site(site_files())
    build(site, tmp_path / "a", cache=True, workers=1)
    build(site, tmp_path / "b", cache=True, workers=1)  # API pages restored from the page cache
    for path in ("api-reference/list-pets.md", "api-reference/create-a-pet.md", "intro.md", "llms-full.txt"):
        assert (tmp_path / "a" / path).read_bytes() == (tmp_path / "b" / path).read_bytes(), path
