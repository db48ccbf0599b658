"""Every code block of README.md, ARCHITECTURE.md and docs/*.md runs; shown output is checked.

The convention (also written down in docs/development.md):

* ```pycon   - a doctest session: ``>>>`` / ``...`` lines run, the lines after them are
  the expected output (doctest's ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``).
* ```python  - runs and must not raise.
  The ``python`` and ``pycon`` blocks of one page run in order in one namespace (a later
  block may use what an earlier one defined), in a scratch directory.
* ```console - a terminal transcript: each ``$ command`` line (``\\`` continues it) runs
  in bash, with ``triple-draw`` meaning this interpreter's ``python -m triple_draw``; the
  lines up to the next ``$`` are its expected output (stdout and stderr together; trailing
  spaces ignored; ``...`` matches anything, as in doctest). A command that fails must
  show its output.
* ```sh      - commands to copy, not run here (they install things or take minutes): every
  ``triple-draw`` command in them must be accepted by the CLI's argument parser, every
  ``pip install '.[extra]'`` must name extras that pyproject.toml defines, and every
  repository path they name (``benches/...``, ``tests/...``, ``scripts/...``) must exist.
* ```toml    - a PHH hand history: it must load with ``triple_draw.phh.loads`` (the hand is
  replayed and its finishing stacks checked); or, when it has a top-level
  ``starting_stack``, a tournament structure file: it must load with ``Structure``.
* ```json    - a JSON document (an example of an output or a file): it must parse.
* ```text    - not code (directory layouts, diagrams): not run.

A block that needs an optional extra says so on the line just before its fence:
``<!-- docs-test: requires ray -->`` (skipped when the module cannot be imported).
Any other fence language fails the test, so every block is either checked or declared text.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    *(ROOT / name for name in ("README.md", "ARCHITECTURE.md") if (ROOT / name).exists()),
    *sorted((ROOT / "docs").glob("*.md")),
]
RUN_LANGS = {"python", "pycon"}
KNOWN_LANGS = {"python", "pycon", "console", "sh", "toml", "json", "text"}
FENCE = re.compile(r"^```([\w-]*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
REQUIRES = re.compile(r"<!--\s*docs-test:\s*requires\s+([\w.]+)\s*-->\s*$")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@dataclass
class Block:
    page: Path
    line: int
    lang: str
    body: str
    requires: str | None

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        before = text[: m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        req = REQUIRES.search(before)
        out.append(Block(page, line, m.group(1), m.group(2), req.group(1) if req else None))
    return out


ALL = [b for p in PAGES for b in blocks(p)]


def _ids(items: list[Block]) -> list[str]:
    return [b.where for b in items]


def _need(block: Block) -> None:
    if block.requires:
        pytest.importorskip(block.requires)


def test_pages_exist() -> None:
    names = {p.name for p in PAGES}
    assert {"README.md", "index.md", "getting-started.md", "api.md"} <= names


@pytest.mark.parametrize("block", ALL, ids=_ids(ALL))
def test_fence_language_is_known(block: Block) -> None:
    assert block.lang in KNOWN_LANGS, (
        f"{block.where}: fence language {block.lang!r}; use one of {sorted(KNOWN_LANGS)}"
    )


# -- python and pycon: one namespace per page ----------------------------------------------

RUN_PAGES = [p for p in PAGES if any(b.lang in RUN_LANGS for b in blocks(p))]


@pytest.mark.parametrize("page", RUN_PAGES, ids=[str(p.relative_to(ROOT)) for p in RUN_PAGES])
def test_page_examples_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__main__"}
    parser = doctest.DocTestParser()
    for block in blocks(page):
        if block.lang not in RUN_LANGS:
            continue
        if block.requires:
            try:
                __import__(block.requires)
            except ImportError:
                continue  # the extra is missing: this block and its page's later use skip
        if block.lang == "python":
            code = compile(block.body, block.where, "exec")
            try:
                exec(code, namespace)
            except Exception as e:
                raise AssertionError(f"{block.where}: the example raised {e!r}") from e
        else:
            test = parser.get_doctest(block.body, namespace, block.where, str(page), block.line)
            runner = doctest.DocTestRunner(optionflags=FLAGS)
            report: list[str] = []
            runner.run(test, out=report.append, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy of the namespace
            assert runner.failures == 0, f"{block.where}:\n" + "".join(report)


# -- console transcripts -------------------------------------------------------------------

CONSOLE = [b for b in ALL if b.lang == "console"]


def _transcript(body: str) -> list[tuple[str, str]]:
    """[(command, expected output)] of a console block."""
    steps: list[tuple[str, list[str]]] = []
    lines = body.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("$ "):
            cmd = line[2:]
            while cmd.endswith("\\") and i + 1 < len(lines):
                i += 1
                cmd = cmd[:-1] + " " + lines[i].strip()
            steps.append((cmd, []))
        elif steps:
            steps[-1][1].append(line)
        else:
            raise AssertionError(f"console block must start with a '$ ' command: {line!r}")
        i += 1
    return [(cmd, "\n".join(out).rstrip("\n")) for cmd, out in steps]


@pytest.fixture(scope="module")
def shim(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """An environment where ``triple-draw`` runs this interpreter's ``python -m triple_draw``."""
    d = tmp_path_factory.mktemp("bin")
    exe = d / "triple-draw"
    exe.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m triple_draw "$@"\n')
    exe.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{d}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    env.pop("COLUMNS", None)
    return env


@pytest.mark.skipif(
    sys.platform == "win32" or shutil.which("bash") is None,
    reason="console transcripts run in bash with a POSIX shell script as triple-draw",
)
@pytest.mark.parametrize("block", CONSOLE, ids=_ids(CONSOLE))
def test_console_transcript(block: Block, shim: dict[str, str], tmp_path: Path) -> None:
    _need(block)
    checker = doctest.OutputChecker()
    for cmd, expected in _transcript(block.body):
        proc = subprocess.run(
            ["bash", "-c", cmd],
            cwd=tmp_path,
            env=shim,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=600,
        )
        got = "\n".join(line.rstrip() for line in proc.stdout.rstrip("\n").splitlines())
        want = "\n".join(line.rstrip() for line in expected.splitlines())
        if proc.returncode != 0:
            assert want, f"{block.where}: `{cmd}` failed ({proc.returncode}):\n{got}"
        ok = checker.check_output(want + "\n", got + "\n", doctest.ELLIPSIS)
        assert ok, f"{block.where}: `{cmd}` printed\n{got}\n--- but the page shows ---\n{want}"


# -- sh: commands to copy ------------------------------------------------------------------

SH = [b for b in ALL if b.lang == "sh"]
REPO_PATH = re.compile(r"^(benches|tests|scripts|docs|python|rust|fuzz|examples|\.ci)/")


def _commands(body: str) -> list[list[str]]:
    """The simple commands of a shell block (continuations joined, comments dropped)."""
    text = re.sub(r"\\\n\s*", " ", body)
    out: list[list[str]] = []
    for line in text.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|<>")
        lexer.whitespace_split = True
        lexer.commenters = "#"
        cmd: list[str] = []
        for tok in lexer:
            if tok and set(tok) <= set(";&|<>"):
                if cmd:
                    out.append(cmd)
                cmd = []
            else:
                cmd.append(tok)
        if cmd:
            out.append(cmd)
    return [[t for t in c if not re.match(r"^[A-Z_]+=", t)] or c for c in out]


def _extras() -> set[str]:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(data["project"].get("optional-dependencies", {}))


@pytest.mark.parametrize("block", SH, ids=_ids(SH))
def test_shell_commands_are_valid(block: Block) -> None:
    from triple_draw.cli import build_parser

    extras = _extras()
    for cmd in _commands(block.body):
        args = cmd
        if args[:3] == ["python", "-m", "triple_draw"]:
            args = ["triple-draw", *args[3:]]
        if args[0] == "triple-draw":
            try:
                build_parser().parse_args(args[1:])
            except SystemExit as e:
                raise AssertionError(f"{block.where}: the CLI refuses `{shlex.join(args)}`") from e
        if args[:2] == ["pip", "install"]:
            for a in args[2:]:
                m = re.match(r"^(?:\.|triple[_-]draw)\[([\w,-]+)\]$", a)
                if m:
                    unknown = set(m.group(1).split(",")) - extras
                    assert not unknown, f"{block.where}: no extra {sorted(unknown)} in {a}"
        for a in args:
            path = a.split("::")[0]
            if REPO_PATH.match(path):
                assert (ROOT / path).exists(), f"{block.where}: `{shlex.join(cmd)}`: no {path}"


# -- toml: PHH hand histories --------------------------------------------------------------

TOML = [b for b in ALL if b.lang == "toml"]


@pytest.mark.parametrize("block", TOML, ids=_ids(TOML))
def test_toml_is_a_phh_history(block: Block) -> None:
    from triple_draw import Structure, phh

    if re.search(r"^starting_stack\s*=", block.body, re.M):  # a tournament structure file
        try:
            import tomllib
        except ImportError:  # Python 3.10
            import tomli as tomllib
        assert Structure.from_dict(tomllib.loads(block.body)).levels
        return
    hand = phh.loads(block.body)
    assert hand.n_players >= 2


# -- json: documents -----------------------------------------------------------------------

JSON = [b for b in ALL if b.lang == "json"]


@pytest.mark.parametrize("block", JSON, ids=_ids(JSON))
def test_json_parses(block: Block) -> None:
    import json

    try:
        json.loads(block.body)
    except ValueError as e:
        raise AssertionError(f"{block.where}: not valid JSON: {e}") from e


# -- the site builds -----------------------------------------------------------------------


def test_mkdocs_build_strict(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    if not (ROOT / "mkdocs.yml").exists():
        pytest.skip("no mkdocs.yml next to the tests (an installed copy of the suite)")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(tmp_path / "site")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout
