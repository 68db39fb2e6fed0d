"""What a generated API page puts in the search index, read back from the built Pagefind bundle, and readers'
queries from bench/search_quality.json answered by the real Pagefind in chromium."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

from docsgen.build import build
from tests.htmldom import parse

REPO = Path(__file__).parents[2]
OWNER_REPO = [
    {
        "name": "owner",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
        "description": "The account owner of the repository. The name is not case sensitive.",
    },
    {
        "name": "repo",
        "in": "path",
        "required": True,
        "schema": {"type": "string"},
        "description": "The name of the repository without the `.git` extension.",
    },
]
PER_PAGE = {
    "name": "per_page",
    "in": "query",
    "schema": {"type": "integer"},
    "description": "The number of results per page (max 100). For more information, see [paging](https://docs.example/paging).",
}
# A response with nested objects whose descriptions repeat the words of other pages' titles.
PULL = {
    "type": "object",
    "properties": {
        "number": {
            "type": "integer",
            "description": "Number uniquely identifying the pull request within its repository.",
        },
        "state": {"type": "string", "description": "State of this pull request: open or closed."},
        "head": {
            "type": "object",
            "properties": {
                "ref": {
                    "type": "string",
                    "description": "The branch a commit of this pull request was made on.",
                },
                "repo": {
                    "type": "object",
                    "description": "A repository that can be forked, starred, watched; webhooks list its events.",
                },
            },
        },
        "merged_by": {
            "type": "object",
            "properties": {
                "login": {
                    "type": "string",
                    "description": "The user who merged a pull request, commented on an issue or created a fork.",
                }
            },
        },
    },
}


def op(
    op_id: str, summary: str, tag: str, params: list, description: str, schema: dict | None = None
) -> dict:
    ok = {"description": "Response"}
    if schema is not None:
        ok["content"] = {"application/json": {"schema": schema}}
    return {
        "operationId": op_id,
        "summary": summary,
        "tags": [tag],
        "description": description,
        "parameters": params,
        "responses": {
            "200": ok,
            "404": {
                "description": "Resource not found",
                "content": {
                    "application/json": {
                        "schema": {"type": "object", "properties": {"documentation_url": {"type": "string"}}}
                    }
                },
            },
        },
    }


def spec() -> dict:
    number = {"name": "pull_number", "in": "path", "required": True, "schema": {"type": "integer"}}
    recursive = {
        "name": "recursive",
        "in": "query",
        "schema": {"type": "string"},
        "description": "Setting this parameter to any value returns the objects or subtrees referenced by the tree.",
    }
    return {
        "openapi": "3.0.3",
        "info": {"title": "Repos", "version": "1"},
        "servers": [{"url": "https://api.example.com"}],
        "paths": {
            "/repos/{owner}/{repo}/pulls": {
                "get": op(
                    "pulls/list",
                    "List pull requests",
                    "pulls",
                    [*OWNER_REPO, PER_PAGE],
                    "Lists pull requests in a specified repository.",
                    {"type": "array", "items": PULL},
                ),
            },
            "/repos/{owner}/{repo}/pulls/{pull_number}": {
                "get": op(
                    "pulls/get",
                    "Get a pull request",
                    "pulls",
                    [*OWNER_REPO, number],
                    "Draft pull requests are available in public repositories.\n\nLists details of a pull request by providing its number. Pull requests list merges, reviews and forks.",
                    PULL,
                ),
            },
            "/repos/{owner}/{repo}/pulls/{pull_number}/merge": {
                "put": op(
                    "pulls/merge",
                    "Merge a pull request",
                    "pulls",
                    [*OWNER_REPO, number],
                    "Merges a pull request into the base branch.",
                    {
                        "type": "object",
                        "properties": {"sha": {"type": "string"}, "merged": {"type": "boolean"}},
                    },
                ),
            },
            "/repos/{owner}/{repo}/forks": {
                "post": op(
                    "repos/create-fork",
                    "Create a fork",
                    "repos",
                    OWNER_REPO,
                    "Create a fork for the [authenticated user](https://docs.example/auth).\n\nMore.",
                    PULL["properties"]["head"],
                ),
            },
            "/repos/{owner}/{repo}/git/trees/{tree_sha}": {
                "get": op(
                    "git/get-tree",
                    "Get a tree",
                    "git",
                    [
                        *OWNER_REPO,
                        {"name": "tree_sha", "in": "path", "required": True, "schema": {"type": "string"}},
                        recursive,
                    ],
                    "Returns a single tree using the SHA1 value or ref name for that tree.",
                    {
                        "type": "object",
                        "properties": {
                            "sha": {"type": "string"},
                            "tree": {"type": "array"},
                            "truncated": {"type": "boolean"},
                        },
                    },
                ),
            },
            "/repos/{owner}/{repo}/commits": {
                "get": op(
                    "repos/list-commits",
                    "List commits",
                    "repos",
                    [*OWNER_REPO, PER_PAGE],
                    "**Signature verification object**\n\nThe response will include a verification object.",
                    {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "properties": {"sha": {"type": "string"}, "commit": PULL},
                        },
                    },
                ),
            },
            "/repos/{owner}/{repo}/issues/{issue_number}/comments": {
                "post": op(
                    "issues/create-comment",
                    "Create an issue comment",
                    "issues",
                    OWNER_REPO,
                    "You can use the REST API to create comments on issues and pull requests.",
                    {"type": "object", "properties": {"id": {"type": "integer"}, "body": {"type": "string"}}},
                ),
            },
            "/repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": {
                "post": op(
                    "reactions/create-for-issue-comment",
                    "Create reaction for an issue comment",
                    "reactions",
                    OWNER_REPO,
                    "Create a reaction to an issue comment.",
                    {"type": "object", "properties": {"content": {"type": "string"}}},
                ),
            },
        },
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("api-search")
    docs, out = root / "docs", root / "out"
    docs.mkdir()
    config = {
        "theme": "mint",
        "name": "Repos",
        "colors": {"primary": "#0D9373"},
        "navigation": {"groups": [{"group": "REST API", "openapi": "openapi.json"}]},
    }
    (docs / "docs.json").write_text(json.dumps(config), encoding="utf-8")
    (docs / "openapi.json").write_text(json.dumps(spec()), encoding="utf-8")
    result = build(docs, out, cache=False)
    assert not [d for d in result.diagnostics if d.severity == "error"]
    return out


def fragments(out: Path) -> dict[str, dict]:
    """Return {page: fragment} of the built index: the text, title and anchors Pagefind indexed per page."""
    found = {}
    for path in (out / "pagefind" / "fragment").glob("*.pf_fragment"):
        record = json.loads(gzip.decompress(path.read_bytes())[len(b"pagefind_dcd") :])
        found[record["url"].strip("/")] = record
    return found


def test_the_index_holds_what_readers_search_an_operation_for(built):
    record = fragments(built)["api-reference/pulls/get-a-pull-request"]
    text = " ".join(record["content"].split())
    assert record["meta"]["title"] == "Get a pull request"
    assert "GET /repos/{owner}/{repo}/pulls/{pull_number}" in text  # method and path
    assert "pulls/get pulls get · pulls" in text  # operationId, its words, the tag
    assert "Draft pull requests are available in public repositories." in text  # the description's start
    assert "Lists details of a pull request" not in text  # ... its first paragraph only
    assert "owner The account owner of the repository." in text  # parameters with their first sentence
    assert "not case sensitive" not in text
    assert "number state head merged_by" in text  # the response's first-level property names
    assert (
        "Number uniquely identifying" not in text and "login" not in text
    )  # not their descriptions, nor deeper
    assert "documentation_url" not in text and "Resource not found" not in text  # error responses stay out
    assert "curl" not in text and "Request example" not in text  # no samples
    anchors = {anchor["id"] for anchor in record["anchors"]}
    assert {"api-path-parameters", "api-response"} <= anchors  # sub-results link to the page's sections
    page = (built / "api-reference/pulls/get-a-pull-request/index.html").read_text(encoding="utf-8")
    assert all(f'id="{anchor}"' in page for anchor in anchors)


def test_descriptions_are_text_in_the_record_and_the_meta_description(built):
    found = fragments(built)
    commits = " ".join(found["api-reference/repos/list-commits"]["content"].split())
    assert "Signature verification object" in commits and "**" not in commits
    fork = " ".join(found["api-reference/repos/create-a-fork"]["content"].split())
    assert "Create a fork for the authenticated user." in fork
    assert "docs.example" not in fork and "More." not in fork
    page = parse((built / "api-reference/repos/create-a-fork/index.html").read_text(encoding="utf-8"))
    meta = next(m for m in page.find_all("meta") if m.attrs.get("name") == "description")
    assert meta.attrs["content"] == "Create a fork for the authenticated user."


def test_each_operation_is_one_compact_record(built):
    found = fragments(built)
    operations = {url: r for url, r in found.items() if url.startswith("api-reference/")}
    assert len(operations) == 8
    for url, record in operations.items():
        page = (built / url / "index.html").read_text(encoding="utf-8")
        assert len(record["content"]) < len(page) / 10, url


CASES = {
    "POST /repos/{owner}/{repo}/forks": "api-reference/repos/create-a-fork",
    "pulls/merge": "api-reference/pulls/merge-a-pull-request",
    "list commits per_page": "api-reference/repos/list-commits",
    "get tree recursive": "api-reference/git/get-a-tree",
    "create issue comment": "api-reference/issues/create-an-issue-comment",
}


@pytest.mark.browser
def test_queries_from_the_bench_list_find_their_page_first(built, page):
    sys.path.insert(0, str(REPO / "bench"))
    from search_quality import QUERIES, run_queries

    listed = {case["query"] for case in json.loads(QUERIES.read_text(encoding="utf-8"))["queries"]}
    assert set(CASES) <= listed  # the bench's own queries, on a small site of the same shape
    found = dict(zip(CASES, run_queries(built, list(CASES), page=page), strict=True))
    assert {query: pages[:1] for query, pages in found.items()} == {q: [page] for q, page in CASES.items()}
