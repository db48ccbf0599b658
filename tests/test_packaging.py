"""The package's metadata: one version, the license, the typing marker, light test extras.

Metadata of the installed distribution is checked when the suite runs against an installed
wheel (``TD_TEST_INSTALLED=1``, set by scripts/test-wheel.sh); a development checkout
imported through PYTHONPATH may carry another build's metadata.
"""

from __future__ import annotations

import importlib.metadata as md
import os
import re
import sys
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

import triple_draw

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
INSTALLED = os.environ.get("TD_TEST_INSTALLED") == "1"
installed_only = pytest.mark.skipif(
    not INSTALLED, reason="checks an installed wheel (scripts/test-wheel.sh)"
)


def _toml(name: str) -> dict:  # type: ignore[type-arg]
    return tomllib.loads((ROOT / name).read_text(encoding="utf-8"))


PYPROJECT = _toml("pyproject.toml")
PROJECT = PYPROJECT["project"]


def test_the_version_comes_from_cargo_toml_only() -> None:
    assert PROJECT["dynamic"] == ["version"] and "version" not in PROJECT
    cargo = _toml("Cargo.toml")["package"]["version"]
    assert Version(triple_draw.__version__) == Version(cargo)


@installed_only
def test_installed_package_is_not_the_source_tree() -> None:
    here = Path(triple_draw.__file__).resolve()
    assert ROOT / "python" not in here.parents, here


@installed_only
def test_version_matches_the_installed_metadata() -> None:
    assert Version(md.version("triple_draw")) == Version(triple_draw.__version__)


@installed_only
def test_installed_metadata_has_the_license_and_urls() -> None:
    meta = md.metadata("triple_draw")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    files = {str(f).replace("\\", "/") for f in md.files("triple_draw") or []}
    assert any(f.endswith(".dist-info/licenses/LICENSE") for f in files), sorted(files)
    assert "Typing :: Typed" in (meta.get_all("Classifier") or [])
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL") or [])
    assert {"Documentation", "Source", "Changelog"} <= set(urls)


def test_package_ships_its_typing_marker_and_stub() -> None:
    pkg = Path(triple_draw.__file__).parent
    assert (pkg / "py.typed").is_file()
    assert (pkg / "_core.pyi").is_file()


def test_license_metadata_is_pep_639() -> None:
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    assert _toml("Cargo.toml")["package"]["license"] == "MIT"
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])  # PEP 639


def test_classifiers_match_requires_python() -> None:
    floor = Version(PROJECT["requires-python"].removeprefix(">="))
    versions = sorted(
        Version(m.group(1))
        for c in PROJECT["classifiers"]
        if (m := re.fullmatch(r"Programming Language :: Python :: (3\.\d+)", c))
    )
    assert versions[0] == floor
    assert [v.minor for v in versions] == list(range(versions[0].minor, versions[-1].minor + 1))
    assert "Typing :: Typed" in PROJECT["classifiers"]


def _extra(name: str) -> set[str]:
    """Distribution names an extra pulls in, following the project's own extras."""
    names: set[str] = set()
    for req in map(Requirement, PROJECT["optional-dependencies"][name]):
        if req.name.replace("-", "_") == "triple_draw":
            for sub in req.extras:
                names |= _extra(sub)
        else:
            names.add(req.name)
    return names


def test_core_test_extra_is_light() -> None:
    core = _extra("test")
    assert not core & {"ray", "pettingzoo", "gymnasium"}, core
    assert {"ray"} <= _extra("test-ray") and core <= _extra("test-ray")
    assert {"pettingzoo", "gymnasium"} <= _extra("test-pettingzoo")
    dev = _extra("dev")
    for name in PROJECT["optional-dependencies"]:
        if name != "dev":
            assert _extra(name) <= dev, f"the dev extra (what CI installs) misses {name}"


def test_core_dependencies_stay_few() -> None:
    names = {Requirement(r).name for r in PROJECT["dependencies"]}
    assert names <= {"numpy", "tqdm", "tomli", "tomli-w", "tomli_w"}, names


def test_changelog_is_keep_a_changelog() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "https://keepachangelog.com/en/1.1.0/" in text
    headings = re.findall(r"^## (.*)$", text, re.M)
    assert headings[0] == "[Unreleased]", headings
    released = [re.fullmatch(r"\[(\S+)\] - \d{4}-\d{2}-\d{2}", h) for h in headings[1:]]
    assert all(released), headings
    versions = [Version(m.group(1)) for m in released if m]
    assert versions == sorted(versions, reverse=True), "newest release first"
    for h in ["Unreleased", *(m.group(1) for m in released if m)]:
        assert re.search(rf"^\[{re.escape(h)}\]: https://", text, re.M), f"no link for [{h}]"


def test_sdist_holds_the_license_sources_and_tests(tmp_path: Path) -> None:
    import shutil
    import subprocess
    import tarfile

    maturin = shutil.which("maturin")
    if maturin is None or shutil.which("cargo") is None or not (ROOT / "Cargo.toml").exists():
        pytest.skip("needs maturin, cargo and the source tree (the dev extra in a checkout)")
    subprocess.run(
        [maturin, "sdist", "--out", str(tmp_path)],
        cwd=ROOT,
        check=True,
        capture_output=True,
        timeout=600,
    )
    (sdist,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
        pkg_info = tar.extractfile(f"{sdist.name.removesuffix('.tar.gz')}/PKG-INFO")
        assert pkg_info is not None
        meta = pkg_info.read().decode()
    for name in (
        "LICENSE",
        "README.md",
        "CHANGELOG.md",
        "pyproject.toml",
        "Cargo.toml",
        "Cargo.lock",
        "rust/lib.rs",
        "python/triple_draw/__init__.py",
        "python/triple_draw/py.typed",
        "python/triple_draw/_core.pyi",
        "tests/test_packaging.py",
    ):
        assert name in names, f"the sdist lacks {name}"
    assert not any(n.endswith((".so", ".pyd")) for n in names), "a compiled core in the sdist"
    assert "License-Expression: MIT" in meta and "License-File: LICENSE" in meta
