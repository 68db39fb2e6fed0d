"""Real third-party OpenAPI specs from the npm registry, downloaded once into a cache (never committed).

Functions return paths; other tests use them, e.g. `from tests.openapi_real import github_spec`.
The cache is $DOCSGEN_TEST_CACHE/openapi (default /tmp/docsgen-test-cache/openapi).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

CACHE = Path(os.environ.get("DOCSGEN_TEST_CACHE", "/tmp/docsgen-test-cache")) / "openapi"

# name: (npm package, pinned version, file inside the tarball)
PACKAGES = {
    "github": ("@octokit/openapi", "23.0.2", "package/generated/api.github.com.json"),
    "figma": ("@figma/rest-api-spec", "0.43.0", "package/openapi/openapi.yaml"),
    "blockfrost": ("@blockfrost/openapi", "0.1.93", "package/openapi.yaml"),
}
EXAMPLES = ("@readme/oas-examples", "8.2.2")


def _npm_pack(package: str, version: str, workdir: Path) -> Path:
    """Download a package tarball with `npm pack` and return its path."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is needed to download the real OpenAPI specs (apt-get install npm)")
    result = subprocess.run(
        [npm, "pack", f"{package}@{version}", "--silent", "--pack-destination", str(workdir)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"npm pack {package}@{version} failed: {result.stderr.strip()[-500:]}")
    tarballs = list(workdir.glob("*.tgz"))
    if len(tarballs) != 1:
        raise RuntimeError(f"npm pack {package}@{version} produced {len(tarballs)} tarballs")
    return tarballs[0]


def _extract(package: str, version: str, members: list[str] | None, target: Path) -> Path:
    """Extract some members (all files when None) of an npm package into target, atomically."""
    if target.exists():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE) as tmp:
        work = Path(tmp)
        tarball = _npm_pack(package, version, work)
        out = work / "out"
        with tarfile.open(tarball) as tar:
            for member in tar.getmembers():
                if not member.isfile() or (members is not None and member.name not in members):
                    continue
                source = tar.extractfile(member)
                dest = out / member.name
                dest.parent.mkdir(parents=True, exist_ok=True)
                dest.write_bytes(source.read() if source else b"")
        result = out / members[0] if members and len(members) == 1 else out
        if not result.exists():
            raise RuntimeError(f"{package}@{version} does not contain {members}")
        try:
            result.rename(target)
        except OSError:
            if not target.exists():
                raise
    return target


def real_spec(name: str) -> Path:
    """Return the path of a cached real spec by name (github, figma, blockfrost)."""
    package, version, member = PACKAGES[name]
    suffix = Path(member).suffix
    return _extract(package, version, [member], CACHE / f"{name}-{version}{suffix}")


def github_spec() -> Path:
    """GitHub's REST description (13 MB JSON, OpenAPI 3.0.3, 1,200+ operations) from @octokit/openapi."""
    return real_spec("github")


def figma_spec() -> Path:
    """Figma's REST API (YAML, OpenAPI 3.1) from @figma/rest-api-spec."""
    return real_spec("figma")


def blockfrost_spec() -> Path:
    """Blockfrost's Cardano API (YAML, OpenAPI 3.0, slightly invalid: `type: "null"`) from @blockfrost/openapi."""
    return real_spec("blockfrost")


def all_real_specs() -> dict[str, Path]:
    """Return every real spec by name."""
    return {name: real_spec(name) for name in PACKAGES}


def oas_examples() -> Path:
    """Return the folder of ReadMe's example specs (3.0/ and 3.1/, json and yaml) from @readme/oas-examples."""
    package, version = EXAMPLES
    root = _extract(package, version, None, CACHE / f"oas-examples-{version}")
    return root / "package"
