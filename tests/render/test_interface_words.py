"""No English left behind: a walk over the theme's scripts and templates for words a reader sees that do not come
from the string table (themes/base/strings.json). In scripts, every string literal that reads as English prose
must be the English text of a T("key", ...) / problem(path, "key", ...) call (the page's words are read from
<html data-strings>); in templates, every text node and every aria-label, title, placeholder and alt must come
from `t.*`. What is left is listed below with why it is not the reader's language (protocol words, key names,
messages for developers in the console)."""

from __future__ import annotations

import json
import re

from docsgen.build import build
from docsgen.common.resources import themes_dir
from tests.conftest import write_tree
from tests.htmldom import parse

# (file, literal): why it stays as written
ALLOWED = {
    # protocol words, header names and values, key names, media queries, selectors
    ("playground-oauth.js", "Basic "): "HTTP Basic credentials",
    ("playground-oauth.js", "Authorization"): "header name",
    ("playground-request.js", "Authorization"): "header name",
    ("playground-request.js", "Basic "): "HTTP Basic credentials",
    ("playground-request.js", "Bearer "): "HTTP Bearer credentials",
    ("playground-request.js", "Cookie"): "header name",
    ("playground-ws.js", "closed by the reader"): "the WebSocket close reason sent to the server",
    ("playground.js", "input, select, textarea, button"): "selector",
    ("playground.js", "input, select, textarea"): "selector",
    ("playground.js", " dg-pg-invalid"): "class name",
    ("playground.js", " dg-pg-valid"): "class name",
    ("playground.js", "pre code"): "selector",
    ("playground.js", "AbortError"): "DOMException name",
    ("mermaid-init.js", "(prefers-color-scheme: dark)"): "media query",
    ("contextual.js", "npx add-mcp ${mcpUrl}"): "a shell command the reader copies",
    ("assistant-actions.js", "Control+I Meta+I"): "aria-keyshortcuts value (key names)",
    # errors thrown for the console or turned into a translated message by their caller
    ("image-actions.js", "no image"): "rejected promise; the reader sees copy_failed",
    ("mermaid-init.js", "mermaid did not load"): "console error; the diagram keeps its source",
    ("mermaid-init.js", "cannot load ${src}"): "console error; the diagram keeps its source",
    ("react.js", "preact did not load"): "console error; the server-rendered HTML stays",
    ("react.js", "cannot load ${src}"): "console error; the server-rendered HTML stays",
    ("react.js", "module ${id} is missing from the page"): "console error",
    ("react.js", "React"): "the global's name",
    ("search.js", "no search index"): "caught; the reader sees search_unavailable",
}
KEY_NAMES = {
    "Enter",
    "Escape",
    "ArrowRight",
    "ArrowLeft",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
    "Content-Type",
}
SAMPLES = "playground-samples.js"  # code samples in curl, Python, Go ...: program text, not interface words
# template text that is not a language's word: key caps, a brand, a symbol
TEMPLATE_ALLOWED = {"Esc", "Ctrl K", "RSS", "&times;", "Esc:", "(Ctrl K)", "OAuth 2.0"}

# the English argument of T("key", "English") and problem(path, "key", "English"): where its quote opens
CALL = re.compile(r'\b(?:T\(|problem\((?:[^;()"]|"[^"]*"|\([^()]*\))*?,)\s*"[a-z_]+",\s*(?=")')


def table_words(src: str) -> set[int]:
    """Return where each string table call's English text starts."""
    return {m.end() for m in CALL.finditer(src)}


def js_literals(src: str):
    """Yield (line, text) of each string literal of a script, skipping comments and regular expressions."""
    i, n, prev, word = 0, len(src), "", ""
    while i < n:
        c = src[i]
        if c in " \t\r\n":
            i += 1
        elif src.startswith("//", i):
            j = src.find("\n", i)
            i = n if j < 0 else j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c in "\"'`":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            yield i, src[i + 1 : j]
            i, prev, word = j + 1, c, ""
        elif c == "/" and (
            prev == "" or prev in "(,=:[!&|?{};+-*%<>~^" or word in ("return", "typeof", "case")
        ):
            j, in_class = i + 1, False
            while j < n and src[j] != "\n" and (src[j] != "/" or in_class):
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                j += 1
            i, prev, word = j + 1, "/", ""
        elif c.isalnum() or c in "_$":
            j = i
            while j < n and (src[j].isalnum() or src[j] in "_$"):
                j += 1
            i, prev, word = j, "a", src[i:j]
        else:
            i, prev, word = i + 1, c, ""


def reads_as_prose(text: str) -> bool:
    """Tell whether a literal reads as English a person would see (not a key, selector or code)."""
    if not re.search(r"[A-Za-z]{2,}", text) or text == "use strict":
        return False
    if re.search(r"[<>=;]|^\s*[.#\[]|^[a-z]+[-:]", text) and not re.search(r"\{\w+\}", text):
        return False
    if re.match(r"^[A-Z][a-z]+", text):
        return True
    words = re.findall(r"[A-Za-z][a-z']+", text)
    return len(words) >= 2 and " " in text and not re.search(r"[.#]\w|\[", text)


def english_in_scripts() -> list[str]:
    found = []
    for path in sorted((themes_dir() / "base" / "static").rglob("*.js")):
        if "vendor" in path.parts or path.name == SAMPLES:
            continue
        src = path.read_text(encoding="utf-8")
        calls = table_words(src)
        for at, text in js_literals(src):
            if at in calls or text in KEY_NAMES:
                continue
            if reads_as_prose(text) and (path.name, text) not in ALLOWED:
                found.append(f"{path.name}:{src.count(chr(10), 0, at) + 1}: {text!r}")
    return found


TEMPLATE_ATTRS = re.compile(r'\s(?:aria-label|title|placeholder|alt)="([^"]*)"')


def english_in_templates() -> list[str]:
    found = []
    paths = sorted((themes_dir()).rglob("*.html"))
    assert len(paths) > 20
    for path in paths:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"\{#.*?#\}", " ", text, flags=re.S)
        text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S | re.I)
        # quoted text inside {{ }} / {% %} that reads as prose (a default written into an expression)
        for block in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", text, flags=re.S):
            for literal in re.findall(r"'([^']*)'|\"([^\"]*)\"", block):
                words = literal[0] or literal[1]
                if re.search(r"[A-Z][a-z]+ [a-z]+", words):
                    found.append(f"{path.name}: {words!r} in {block[:60]!r}")
        plain = re.sub(r"\{\{.*?\}\}|\{%.*?%\}", " ", text, flags=re.S)
        pieces = [m.group(1) for m in re.finditer(r">([^<]+)<", plain)]
        pieces += [m.group(1) for m in TEMPLATE_ATTRS.finditer(plain)]
        for piece in pieces:
            words = piece.strip()
            if re.search(r"[A-Za-z]{2,}", words) and words not in TEMPLATE_ALLOWED:
                found.append(f"{path.name}: {words!r}")
    return found


def test_scripts_write_no_english_of_their_own():
    assert english_in_scripts() == []


def test_templates_write_no_english_of_their_own():
    assert english_in_templates() == []


def test_the_walk_finds_what_it_is_for(tmp_path):
    """The scanners catch the kinds of string this class of bug was made of (so an empty list means something)."""
    src = 'el("button", {}, "Get token"); x.textContent = "Not connected."; T("send", "Send"); k === "Enter";'
    hits = [text for at, text in js_literals(src) if at not in table_words(src)]
    assert [t for t in hits if reads_as_prose(t) and t not in KEY_NAMES] == ["Get token", "Not connected."]
    assert reads_as_prose("must be at least {n}") and not reads_as_prose(".dg-pg-field input")
    assert not reads_as_prose("use strict") and not reads_as_prose("content-type")
    src = 'problem(path ? path + "." + name : name, "val_required", "is required")'
    assert table_words(src) == {src.index('"is required"')}


# -- the labels Python writes into API reference pages (a spec's operations, webhooks, models, channels and the
# ParamField/ResponseField of MDX pages) ----------------------------------------------------------------------

SPEC = {
    "openapi": "3.1.0",
    "info": {"title": "Zoo", "version": "1"},
    "servers": [{"url": "https://zoo.test"}],
    "components": {
        "securitySchemes": {
            "oauth": {
                "type": "oauth2",
                "flows": {
                    "clientCredentials": {"tokenUrl": "https://zoo.test/token", "scopes": {"tiere": "x"}}
                },
            },
            "token": {"type": "http", "scheme": "bearer"},
            "basis": {"type": "http", "scheme": "basic"},
        },
        "schemas": {
            "Tier": {
                "type": "object",
                "required": ["name"],
                "properties": {
                    "name": {"type": "string", "minLength": 1, "maxLength": 9, "pattern": "^[a-z]+$"},
                    "alt": {
                        "type": "integer",
                        "minimum": 0,
                        "maximum": 99,
                        "multipleOf": 3,
                        "deprecated": True,
                    },
                    "id": {"type": "string", "readOnly": True, "const": "x"},
                    "geheim": {"type": "string", "writeOnly": True, "default": "y", "example": "z"},
                    "art": {"type": "string", "enum": [f"a{i}" for i in range(70)]},
                    "farbe": {
                        "type": "string",
                        "enum": ["r", "g"],
                        "x-enumDescriptions": {"r": "rot", "g": "grün"},
                    },
                    "tags": {
                        "type": "array",
                        "items": {"type": "string"},
                        "minItems": 1,
                        "uniqueItems": True,
                    },
                    "extra": {"type": "object", "minProperties": 1, "examples": [{"a": 1}, {"b": 2}]},
                    "eltern": {"$ref": "#/components/schemas/Tier"},
                    "gehege": {"type": "object", "properties": {"nr": {"type": "integer"}}},
                    "ort": {
                        "anyOf": [
                            {"title": "stadt", "type": "object", "properties": {"plz": {"type": "string"}}},
                            {"title": "land", "type": "object", "properties": {"iso": {"type": "string"}}},
                        ]
                    },
                    "futter": {
                        "oneOf": [
                            {"title": "fleisch", "type": "object", "properties": {"art": {"type": "string"}}},
                            {"title": "pflanze", "type": "object", "properties": {"art": {"type": "string"}}},
                        ],
                        "discriminator": {"propertyName": "art"},
                    },
                },
            }
        },
    },
    "paths": {
        "/tiere/{id}": {
            "post": {
                "summary": "Tier anlegen",
                "security": [{"oauth": ["tiere"]}, {"token": []}, {"basis": []}],
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}},
                    {"name": "q", "in": "query", "schema": {"type": "string"}},
                    {"name": "X-Zoo", "in": "header", "schema": {"type": "string"}},
                    {"name": "sitzung", "in": "cookie", "schema": {"type": "string"}},
                ],
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/json": {"schema": {"$ref": "#/components/schemas/Tier"}},
                        "multipart/form-data": {
                            "schema": {"type": "object", "properties": {"bild": {"type": "string"}}},
                            "encoding": {"bild": {"contentType": "image/png"}},
                        },
                    },
                },
                "responses": {
                    "200": {
                        "description": "ok",
                        "headers": {"X-Rest": {"schema": {"type": "integer"}}},
                        "links": {"holen": {"operationId": "tierHolen"}},
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tier"}}},
                    },
                    "204": {"description": "leer"},
                },
                "callbacks": {
                    "neu": {
                        "{$request.body#/url}": {
                            "post": {
                                "requestBody": {
                                    "content": {"application/json": {"schema": {"type": "object"}}}
                                },
                                "responses": {"200": {"description": "ok"}},
                            }
                        }
                    }
                },
            }
        }
    },
    "webhooks": {
        "geboren": {
            "post": {
                "requestBody": {
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tier"}}}
                },
                "responses": {"200": {"description": "ok"}},
            }
        }
    },
}
ASYNC = {
    "asyncapi": "2.6.0",
    "info": {"title": "Chat", "version": "1"},
    "channels": {
        "raum": {
            "subscribe": {
                "message": {"name": "Post", "headers": {"type": "object"}, "payload": {"type": "object"}}
            }
        }
    },
}
FIELDS = (
    '<ParamField query="seite" type="number" required deprecated default="1" placeholder="2">Seite</ParamField>\n\n'
    '<ResponseField name="anzahl" type="number" required>Anzahl</ResponseField>\n'
)
API_PAGES = {
    "op": "openapi: zoo.json POST /tiere/{id}",
    "hook": "openapi: zoo.json webhook geboren",
    "model": "openapi-schema: zoo.json Tier",
    "chat": "asyncapi: chat.json raum",
    "manual": "api: GET /tiere",
}
# each English label these pages show, as a text node (trailing ":" and spaces dropped)
ENGLISH_LABELS = {
    "Authorizations", "Path Parameters", "Query Parameters", "Header Parameters", "Cookie Parameters", "Body",
    "Payload", "Response", "Callbacks", "Request", "Messages", "Headers", "Expected responses", "required",
    "deprecated", "read-only", "write-only", "Available options", "Allowed value", "Default", "Example",
    "Examples", "Required range", "Required string length", "Pattern", "Multiple of", "Required array length",
    "Items must be unique", "Number of properties", "Scopes", "and 10 more", "One of", "Any of",
    "Show child attributes", "Recursive: Tier (see above)", "One of (by", "Content types", "Links", "Encoding",
}  # fmt: skip


def _api_site(tmp_path, languages: list[str], strings: dict | None = None):
    nav = [
        {
            "language": lang,
            "groups": [{"group": "API", "pages": [f"{lang}/{p}" for p in [*API_PAGES, "fields"]]}],
        }
        for lang in languages
    ]
    files = {
        "docs.json": json.dumps(
            {
                "name": "Zoo",
                "theme": "mint",
                "colors": {"primary": "#112233"},
                "api": {"mdx": {"server": "https://zoo.test", "auth": {"method": "bearer"}}},
                "strings": strings or {},
                "navigation": {"languages": nav},
            }
        ),
        "zoo.json": json.dumps(SPEC),
        "chat.json": json.dumps(ASYNC),
    }
    for lang in languages:
        for name, line in API_PAGES.items():
            files[f"{lang}/{name}.mdx"] = f"---\ntitle: {name}\n{line}\n---\n"
        files[f"{lang}/fields.mdx"] = f"---\ntitle: Felder\n---\n\n{FIELDS}"
    assert build(write_tree(tmp_path / "docs", files), tmp_path / "out").warnings == []
    return tmp_path / "out"


def _labels(out, lang: str) -> tuple[set[str], str]:
    """The text nodes of a language's API pages (main column and examples), and the text of their <code>s."""
    nodes: set[str] = set()
    codes = []
    for name in [*API_PAGES, "fields"]:
        dom = parse((out / lang / name / "index.html").read_text(encoding="utf-8"))
        areas = dom.find_all("div", cls="dg-api") + dom.find_all("div", cls="dg-api-examples")
        areas += dom.find_all("div", cls="dg-field")
        assert areas, (lang, name)
        for area in areas:
            for node in area.iter():
                if node.tag == "pre" or any(a.tag == "pre" for a in node.ancestors()):
                    continue  # code samples are program text
                nodes |= {c.strip().rstrip(":").strip() for c in node.children if isinstance(c, str)}
                if node.tag == "code":
                    codes.append(node.text)
    return nodes, " ".join(codes)


def _read(out, lang: str, name: str) -> str:
    return (out / lang / name / "index.html").read_text(encoding="utf-8")


def test_api_reference_labels_are_in_the_pages_language(tmp_path):
    """A de page generated from a spec (operation, webhook, model, AsyncAPI channel) or with ParamField and
    ResponseField shows none of the English labels an en page of the same spec shows; the spec's own words stay."""
    out = _api_site(tmp_path, ["en", "de"])
    english, english_codes = _labels(out, "en")
    assert english >= ENGLISH_LABELS  # the pages show every label (so their absence below means something)
    assert "1 - 9" in english_codes and ">= 1 elements" in english_codes
    german, german_codes = _labels(out, "de")
    assert german & ENGLISH_LABELS == {"Callbacks"}  # the word German uses too
    expected = {
        "Autorisierungen", "Pfadparameter", "Abfrageparameter", "Header-Parameter", "Cookie-Parameter", "Inhalt",
        "Nutzlast", "Antwort", "Callbacks", "Anfrage", "Nachrichten", "Header", "Erwartete Antworten",
        "erforderlich", "veraltet", "schreibgeschützt", "nur schreiben", "Verfügbare Optionen", "Zulässiger Wert",
        "Standardwert", "Beispiel", "Beispiele", "Erforderlicher Bereich", "Erforderliche Zeichenlänge", "Muster",
        "Vielfaches von", "Erforderliche Array-Länge", "Elemente müssen eindeutig sein", "Anzahl der Eigenschaften",
        "Berechtigungen", "und 10 weitere", "Eines von", "Beliebige von", "Untergeordnete Attribute anzeigen",
        "Rekursiv: Tier (siehe oben)", "Eines von (nach", "Inhaltstypen", "Verknüpfungen", "Kodierung",
    }  # fmt: skip
    assert expected <= german, sorted(expected - german)
    assert ">= 1 Elemente" in german_codes and "elements" not in german_codes
    assert {"name", "alt", "farbe", "rot", "Tier anlegen", "neu"} & german  # the spec's words are its own
    channel = parse((out / "de" / "chat" / "index.html").read_text(encoding="utf-8")).find(
        "div", cls="dg-api"
    )
    headings = [h.text for h in channel.find_all("h2")]  # AsyncAPI 2.6 subscribe: the reader receives
    assert headings and all(h.startswith("Empfangen: ") for h in headings), headings
    manual = _read(out, "de", "manual")  # an `api:` page with docs.json api.mdx.auth
    assert (
        ">Autorisierungen<" in manual
        and "Authorizations" not in manual
        and "Bearer authentication" not in manual
    )
    # how each credential is sent, and the example of a response without a body: sentences with code in them
    en_op, de_op = (_read(out, lang, "op") for lang in ("en", "de"))
    for english, german in (
        (
            "The access token received from the authorization server",
            "Das Zugriffstoken, das du im OAuth-2.0-Ablauf",
        ),
        (
            "Bearer authentication header of the form",
            "Bearer-Authentifizierungsheader der Form <code>Bearer &lt;",
        ),
        (
            "is the base64-encoded string <code>username:password</code>",
            "Zeichenkette <code>username:password</code>",
        ),
        ("This response has no body data.", "Diese Antwort hat keinen Inhalt."),
    ):
        assert english in en_op and english not in de_op and german in de_op, english
    twin = (out / "de" / "op.md").read_text(encoding="utf-8")  # the Markdown twin's headings too
    assert "## Pfadparameter" in twin and "## Antwort" in twin and "Parameters" not in twin
    assert "Der Inhalt ist erforderlich." in twin and "Inhaltstyp: `application/json`" in twin
    assert "Typ: `object`" in twin and "Erwartete Antworten:" in twin
    chat_twin, en_chat_twin = ((out / lang / "chat.md").read_text(encoding="utf-8") for lang in ("de", "en"))
    assert "Kanaladresse: `" in chat_twin and "Channel address" not in chat_twin
    assert "Channel address: `" in en_chat_twin
    for english in (
        "The body is required.",
        "Content type",
        "Request example",
        "Response example",
        "One of",
        "\nType: `",
    ):
        assert english not in twin and english in (out / "en" / "op.md").read_text(encoding="utf-8"), english
    assert "Beispielnachrichten" in (out / "de" / "chat.md").read_text(encoding="utf-8")


def test_a_spec_shared_by_two_languages_renders_each_ones_labels(tmp_path):
    """The spec's render context is shared by its pages: an en page rendered first must not hand its labels to
    the de page (the language is part of the settings the cache is keyed on), nor the other way round."""
    out = _api_site(tmp_path, ["de", "en"])
    de = (out / "de" / "op" / "index.html").read_text(encoding="utf-8")
    en = (out / "en" / "op" / "index.html").read_text(encoding="utf-8")
    assert "Pfadparameter" in de and "Path Parameters" not in de
    assert "Path Parameters" in en and "Pfadparameter" not in en
    for text, word in ((de, "erforderlich"), (en, "required")):
        pills = parse(text).find_all("span", cls="dg-api-required")
        assert pills and {p.text for p in pills} == {word}


def test_docs_json_strings_override_api_words_and_are_escaped(tmp_path):
    """docs.json `strings` reach the API words ("*" and one language), written as text, never as markup."""
    strings = {"de": {"path_parameters": "Pfad-Werte", "required": "Pflicht"}, "*": {"response": "Reply <b>"}}
    out = _api_site(tmp_path, ["en", "de"], strings)
    de, en = _read(out, "de", "op"), _read(out, "en", "op")
    headings = [h.text for h in parse(de).find("div", cls="dg-api").find_all("h2")]
    assert "Pfad-Werte" in headings and "Pfadparameter" not in headings and ">Path Parameters<" in en
    assert {p.text for p in parse(de).find_all("span", cls="dg-api-required")} == {"Pflicht"}
    assert {p.text for p in parse(_read(out, "de", "fields")).find_all("span", cls="dg-pill-required")} == {
        "Pflicht"
    }
    for page in (de, en):
        assert "Reply &lt;b&gt;" in page and "Reply <b>" not in page
