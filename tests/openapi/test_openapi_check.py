"""`docsgen openapi-check`: output, exit codes, agreement with openapi-spec-validator, real third-party specs."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from docsgen.openapi.check import check_sources, openapi_check, reference_problems
from tests.openapi_real import all_real_specs, github_spec, oas_examples

SPECS = Path(__file__).parents[1] / "openapi_specs"
BROKEN = SPECS / "broken"


def run(*args: str, cwd: Path | None = None):
    runner = CliRunner()
    if cwd is None:
        return runner.invoke(openapi_check, list(args), catch_exceptions=False)
    with runner.isolated_filesystem(temp_dir=cwd):
        return runner.invoke(openapi_check, list(args), catch_exceptions=False)


def test_valid_spec_exits_0_with_summary():
    result = run(str(SPECS / "petstore-3.0.yaml"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].endswith("petstore-3.0.yaml: OpenAPI 3.0.3, 4 operations, 2 schemas")
    assert lines[1].startswith("valid: 0 error(s), 0 warning(s) in ")


def test_warnings_are_listed_located_and_the_verdict_agrees_with_the_exit_code(tmp_path):
    """Only warnings: "valid with warnings", exit 0; --strict makes them errors: "invalid", exit 1."""
    shutil.copy(BROKEN / "x-svc-shape.yaml", tmp_path / "api.yaml")
    strict = CliRunner().invoke(openapi_check, ["--strict", str(tmp_path / "api.yaml")])
    assert strict.exit_code == 1
    assert len([line for line in strict.output.splitlines() if ": error: " in line]) == 4
    assert strict.output.splitlines()[-1].startswith("invalid: 4 error(s), 0 warning(s)")
    result = CliRunner().invoke(openapi_check, [str(tmp_path / "api.yaml")])
    assert result.exit_code == 0
    lines = [line for line in result.output.splitlines() if ": warning: " in line]
    assert len(lines) == 4
    assert lines[0].startswith(str(tmp_path / "api.yaml") + ":8:11: ")  # named as given on the command line
    assert lines[0].endswith(
        "api.yaml:8:11: warning: `x-svc.metadata` cannot set `openapi`: the page already documents this operation"
        ' (at paths["/a"].get["x-svc"].metadata.openapi) [openapi.extension]'
    )
    assert result.output.splitlines()[-1].startswith("valid with warnings: 0 error(s), 4 warning(s)")


def test_relative_path_is_shown_as_given(tmp_path, monkeypatch):
    shutil.copy(BROKEN / "missing-info.yaml", tmp_path / "spec.yaml")
    monkeypatch.chdir(tmp_path)
    result = run("spec.yaml")
    assert (
        result.output.splitlines()[0]
        == "spec.yaml:1:1: warning: missing required field `info` [openapi.schema]"
    )


def test_load_error_exits_1_with_location():
    result = run(str(BROKEN / "syntax.yaml"))
    assert result.exit_code == 1
    assert "syntax.yaml:5:2: error: invalid YAML: did not find expected key [openapi.syntax]" in result.output
    assert result.output.splitlines()[-1].startswith("invalid: 1 error(s), 0 warning(s)")


def test_json_format_is_machine_readable():
    result = run("--format", "json", str(BROKEN / "path-parameter.yaml"))
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert (data["valid"], data["errors"], data["warnings"]) == (True, 0, 2)
    strict = json.loads(run("--format", "json", "--strict", str(BROKEN / "path-parameter.yaml")).output)
    assert (strict["valid"], strict["errors"], strict["warnings"]) == (False, 2, 0)
    assert data["specs"][0]["version"] == "3.0.3" and data["specs"][0]["operations"] == 1
    first = data["problems"][0]
    assert (first["line"], first["column"], first["code"], first["severity"]) == (
        5,
        5,
        "openapi.path-parameter",
        "warning",
    )
    assert first["json_path"] == 'paths["/pets/{petId}"].get'
    assert first["path"].endswith("path-parameter.yaml")


def test_several_specs_checked_together_find_duplicate_operations(tmp_path):
    shutil.copy(SPECS / "petstore-3.0.yaml", tmp_path / "a.yaml")
    shutil.copy(SPECS / "petstore-3.0.yaml", tmp_path / "b.yaml")
    specs, problems = check_sources(["a.yaml", "b.yaml"], cwd=tmp_path)
    assert len(specs) == 2
    assert [(d.path, d.line, d.code, d.message) for d in problems][:2] == [
        ("b.yaml", 9, "openapi.duplicate-operation", "GET /pets is also defined in a.yaml"),
        ("b.yaml", 27, "openapi.duplicate-operation", "POST /pets is also defined in a.yaml"),
    ]
    assert len(problems) == 4


def test_strict_reference_adds_openapi_spec_validator_findings():
    result = run("--strict-reference", "--strict", str(BROKEN / "path-parameter.yaml"))
    assert result.exit_code == 1
    reference = [line for line in result.output.splitlines() if "[openapi.reference]" in line]
    assert reference and all("openapi-spec-validator: " in line for line in reference)
    assert run("--strict-reference", str(SPECS / "webhooks-3.1.json")).exit_code == 0


def test_reference_messages_never_embed_the_document():
    big = {"openapi": "3.0.3", "info": {"title": "t" * 5000, "version": "1"}, "paths": {"/a": "oops" * 2000}}
    from docsgen.openapi.spec import Spec

    problems = reference_problems(Spec("big.json", big, "3.0.3"))
    assert problems and all(len(d.message) < 120 for d in problems)
    assert not any("tttt" in d.message or "oopsoops" in d.message for d in problems)


# ---- agreement with openapi-spec-validator (the reference for correctness) ----------------------------------

# Specs where openapi-spec-validator is wrong and we are right, with the reason.
REFERENCE_BUGS = {
    # Its 3.1 default check ignores `jsonSchemaDialect: draft-04` and reads `exclusiveMaximum: true` as the number 1.
    "3.1/json/schema-validation-top-level.json": "draft-04 exclusiveMaximum: true read as 1",
}


def _agreement_cases() -> list[Path]:
    ours = sorted(p for p in SPECS.rglob("*") if p.is_file())
    examples = oas_examples()
    # The yaml/ folder holds the same documents as json/; json/ is enough for the verdicts.
    return ours + sorted(examples.glob("3.*/json/*.json"))


def test_fast_path_finds_at_least_the_reference_invalidity_verdicts():
    checked = invalid_reference = 0
    disagreements = []
    for path in _agreement_cases():
        specs, ours = check_sources([str(path)], cwd=path.parent)
        if not specs:  # not loadable at all: an error, so invalid for us; the reference cannot even start
            assert any(d.is_error for d in ours), path
            continue
        reference = reference_problems(specs[0])
        checked += 1
        invalid_reference += bool(reference)
        key = "/".join(path.parts[-3:])
        if reference and not ours and key not in REFERENCE_BUGS:
            disagreements.append((key, [d.message for d in reference][:2]))
    assert disagreements == []
    assert checked >= 60 and invalid_reference >= 8, (
        checked,
        invalid_reference,
    )  # the set really exercises both verdicts


def test_our_valid_specs_are_valid_for_the_reference_too():
    for name in ("petstore-3.0.yaml", "webhooks-3.1.json"):
        specs, ours = check_sources([str(SPECS / name)])
        assert ours == [] and reference_problems(specs[0]) == []


# ---- real third-party specs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["github", "figma", "blockfrost"])
def test_real_specs_check_fast_with_located_warnings(name):
    path = all_real_specs()[name]
    started = time.perf_counter()
    specs, problems = check_sources([str(path)], cwd=path.parent)
    elapsed = time.perf_counter() - started
    assert elapsed < 15, elapsed
    (spec,) = specs
    assert not any(d.is_error for d in problems)
    assert all(d.line > 0 and d.column > 0 and d.json_path for d in problems)
    assert len(spec.operations()) > 40
    if name == "github":
        assert len(spec.operations()) >= 1000 and spec.version.startswith("3.0")
    if name == "blockfrost":  # known slightly invalid: `type: "null"` is not OpenAPI 3.0
        assert problems and {d.code for d in problems} == {"openapi.schema"}
        assert all('"null" is not one of' in d.message for d in problems)


def test_github_spec_cli_run_in_seconds():
    started = time.perf_counter()
    result = run("--format", "json", str(github_spec()))
    assert time.perf_counter() - started < 15
    data = json.loads(result.output)
    assert data["specs"][0]["operations"] >= 1000
    assert result.exit_code == (0 if data["valid"] else 1)


def test_check_a_url(tmp_path):
    import threading
    from functools import partial
    from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

    shutil.copy(BROKEN / "path-parameter.yaml", tmp_path / "api.yaml")

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(tmp_path)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/api.yaml"
        result = run(url)
        assert result.exit_code == 0  # warnings only
        assert result.output.splitlines()[0].startswith(f"{url}:5:5: warning: path parameter {{petId}}")
        missing = run(url.replace("api.yaml", "nope.yaml"))
        assert missing.exit_code == 1
        assert (
            f"{url.replace('api.yaml', 'nope.yaml')}: error: fetching the spec answered HTTP 404"
            in missing.output
        )
    finally:
        server.shutdown()
        server.server_close()
