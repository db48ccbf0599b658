"""Fuzzing ``phh.loads`` (docs: PHH, untrusted input): texts mutated from the seed corpus
in ``fuzz/python/corpus/phh/`` either load - hands that hold their chips and write
themselves back out - or are refused with a ``TripleDrawError``, never another exception.
``fuzz/python/fuzz_phh.py`` is the check (and runs under atheris: ``fuzz/python/run.py``);
here hypothesis draws the mutations."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted((ROOT / "fuzz" / "python" / "corpus" / "phh").iterdir())
_spec = importlib.util.spec_from_file_location("fuzz_phh", ROOT / "fuzz" / "python" / "fuzz_phh.py")
assert _spec is not None and _spec.loader is not None
fuzz_phh = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fuzz_phh)

TOKENS = fuzz_phh.TOKENS  # what its mutator inserts: the format's words, hostile values


def test_the_seed_corpus_loads() -> None:
    assert len(CORPUS) >= 5
    for path in CORPUS:
        fuzz_phh.check(path.read_bytes())


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    text = CORPUS[draw(st.integers(0, len(CORPUS) - 1))].read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        how = draw(st.sampled_from(["insert", "delete", "replace", "duplicate", "swap-lines"]))
        if how == "insert":
            text = text[:at] + draw(st.sampled_from(TOKENS)) + text[at:]
        elif how == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 40)) :]
        elif how == "replace":
            text = text[:at] + draw(st.text(max_size=8)) + text[at + 1 :]
        elif how == "duplicate":
            end = at + draw(st.integers(1, 200))
            text = text[:end] + text[at:end] + text[end:]
        else:
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
    return text.encode("utf-8", errors="surrogatepass")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_histories_load_or_raise_the_packages_error(data: bytes) -> None:
    fuzz_phh.check(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_load_or_raise_the_packages_error(data: bytes) -> None:
    fuzz_phh.check(data)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_every_truncation_of_a_corpus_file_is_handled(path: Path) -> None:
    data = path.read_bytes()
    for end in range(0, len(data), max(1, len(data) // 60)):
        fuzz_phh.check(data[:end])
