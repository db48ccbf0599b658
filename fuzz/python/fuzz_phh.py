"""Fuzz target: ``phh.loads`` / ``phh.loads_all`` of arbitrary text.

Every input must either load or be refused with a
:class:`~triple_draw.errors.TripleDrawError` subclass; any other exception is a crash.
With atheris (``pip install atheris``; Linux, CPython)::

    python fuzz/python/fuzz_phh.py fuzz/corpus/phh -max_total_time=600

runs the coverage-guided fuzzer from the seed corpus (``-atheris_runs=N`` bounds the
number of inputs instead). The same property is run as a test with hypothesis in
``tests/test_phh_fuzz.py``.
"""

from __future__ import annotations

import io
import sys
import warnings

from triple_draw import phh
from triple_draw.errors import TripleDrawError


def check(data: bytes) -> None:
    """Load ``data`` as PHH text: a hand, or a package error - nothing else."""
    # as a file (bytes that are not UTF-8 are refused), and as a str that may hold lone
    # surrogates
    text = data.decode("utf-8", errors="surrogateescape")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown fields are reported as warnings
        for run in (
            lambda: phh.load(io.BytesIO(data), seed=0),
            lambda: phh.loads(text, seed=0),
            lambda: phh.loads_all(text, seed=0),
        ):
            try:
                run()
            except TripleDrawError:
                pass


def main() -> None:
    import atheris

    atheris.instrument_all()
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
