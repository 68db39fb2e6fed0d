"""The feedback server's OpenAPI document is valid, covers every route, and the live server conforms to it."""

from __future__ import annotations

import secrets
import uuid
from pathlib import Path

import httpx
import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from openapi_spec_validator import validate
from schemathesis.core.parameters import ParameterLocation
from starlette.routing import Route

from docsgen.server.app import create_app
from docsgen.server.db import open_database
from docsgen.server.testing import LiveServer, seed_project
from tests.pg import fresh_database

SPEC_PATH = Path(__file__).resolve().parents[2] / "schemas" / "feedback-api.yaml"
SPEC = yaml.safe_load(SPEC_PATH.read_text(encoding="utf-8"))
schema = schemathesis.openapi.from_path(str(SPEC_PATH))
# The coverage phase enumerates negative cases of every oneOf branch at collection time (minutes here);
# the examples and fuzzing phases already send both valid and invalid data.
schema.config.phases.coverage.enabled = False


def test_document_is_valid_openapi_3_1():
    assert SPEC["openapi"].startswith("3.1")
    validate(SPEC)


def test_every_route_is_documented_and_every_documented_operation_exists(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'x.sqlite3'}")
    served = {
        (route.path, method.lower())
        for route in app.routes
        if isinstance(route, Route)
        for method in route.methods or ()
        if method != "HEAD"
        and not route.path.startswith(("/dashboard", "/previews/"))  # HTML, not the JSON API
    }
    documented = {
        (path, method) for path, item in SPEC["paths"].items() for method in item if method != "parameters"
    }
    assert served == documented


def test_documented_error_codes_are_the_ones_the_code_uses():
    import re

    source = "".join(p.read_text() for p in (SPEC_PATH.parent.parent / "docsgen" / "server").glob("*.py"))
    used = set(re.findall(r'ApiError\(\s*\d{3},\s*"([a-z_]+)"', source)) | set(
        re.findall(r'code="([a-z_]+)"', source)
    )
    used |= {"invalid_parameter", "validation_failed", "not_found", "method_not_allowed", "internal_error"}
    documented = set(
        SPEC["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    )
    assert used == documented


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def live(request, tmp_path_factory):
    """A live server with one project, a key, a few entries and a deployment-ready docs folder."""
    url = (
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'o.sqlite3'}"
        if request.param == "sqlite"
        else fresh_database()
    )
    engine = open_database(url)
    project = "st" + secrets.token_hex(4)
    docs = tmp_path_factory.mktemp("docs")
    key = seed_project(engine, project, ["http://127.0.0.1:1"], docs_dir=docs, out_dir=docs.parent / "out")

    def build(docs_dir, out_dir, strict=False):
        out_dir.mkdir(parents=True)
        return None

    with LiveServer(create_app(engine=engine, rate_limit=0, build_fn=build)) as server:
        with httpx.Client(base_url=server.url) as client:
            ids = [
                client.post(
                    f"/v1/feedback/{project}", json={"path": "/", "source": "thumbs_only", "helpful": True}
                ).json()["id"]
                for _ in range(3)
            ]
        yield server.url, project, key, ids
    engine.dispose()


@schema.parametrize()
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
def test_live_server_conforms_to_the_document(case, live):
    base_url, project, key, ids = live
    meta = case.meta

    def negative(location: ParameterLocation) -> bool:
        return meta is not None and meta.is_negative_at(location)

    # Aim valid requests at the real project and a real entry so they get past 403/404; leave the parts
    # schemathesis deliberately broke alone, so the server must reject them.
    if case.path_parameters and not negative(ParameterLocation.PATH):
        case.path_parameters["projectId"] = project
        if "id" in case.path_parameters and case.operation.path.endswith("feedback/{id}"):
            case.path_parameters["id"] = ids[0]
    if case.query and "cursor" in case.query and not negative(ParameterLocation.QUERY):
        del case.query[
            "cursor"
        ]  # a valid cursor can only come from the server (random ones are 400 by design)
    if case.headers and "Idempotency-Key" in case.headers and not negative(ParameterLocation.HEADER):
        # a key generated twice with two bodies is refused (422 idempotency_key_reused) by design: one per case
        case.headers["Idempotency-Key"] = uuid.uuid4().hex
    headers = {} if negative(ParameterLocation.HEADER) else {"Authorization": f"Bearer {key}"}
    case.call_and_validate(base_url=base_url, headers=headers)
