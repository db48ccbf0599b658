"""What the Python fuzz targets share: the engines that drive them.

A target is a module with ``test_one_input(data: bytes) -> None`` (raises on a finding)
and optionally ``mutate(data: bytes, rnd: random.Random) -> bytes`` (a structure-aware
mutation: JSON documents, argv lists). ``fuzz_one`` runs it under atheris (coverage
guided, libFuzzer) when atheris is installed, and ``random_run`` runs it with a seeded
random mutator over the seed corpus everywhere (the pytest test and the fallback of
``run.py``).
"""

from __future__ import annotations

import json
import os
import random
import re
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"


KNOWN = HERE / "known.json"


def signature(exc: BaseException) -> str:
    """``Type@file:function`` of the innermost frame in the package: the same bug found
    through different inputs has the same signature."""
    import traceback

    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if "triple_draw" in frame.filename.replace("\\", "/").split("/"):
            where = f"{Path(frame.filename).name}:{frame.name}"
    if not where and isinstance(exc, UnicodeError):
        where = f"core:{getattr(exc, 'reason', '')}"
    if not where:  # raised in the compiled core: the gist of the message says where
        text = str(exc).splitlines()[0] if str(exc) else ""
        text = re.sub(r"'[^']*'|`[^`]*`|\([^)]*\)", "", text)
        where = "core:" + re.sub(r"\d+", "N", text).split(";")[0].strip()[:70]
    return f"{type(exc).__name__}@{where}"


def known(name: str) -> dict[str, dict[str, str]]:
    """The known findings of a target (``known.json``): signature -> entry with the input
    file (under ``findings/``), the reason and the issue that will fix it."""
    import json

    if not KNOWN.is_file():
        return {}
    return {k["signature"]: k for k in json.loads(KNOWN.read_text()) if k["target"] == name}


def guarded(check: Callable[[bytes], None], name: str) -> Callable[[bytes], None]:
    """``check`` that lets the known findings of ``name`` pass, so that a long fuzzing run
    goes on looking for new ones (pytest runs every known input as an xfail)."""
    skip = set(known(name))

    def test_one_input(data: bytes) -> None:
        try:
            check(data)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as e:  # a PanicException is a BaseException
            if signature(e) not in skip:
                raise

    return test_one_input


def loaded(data: bytes, load: Callable[[Any], Any], refusals: tuple[type[Exception], ...]) -> Any:
    """What ``load`` makes of the JSON document ``data``, or ``None`` when ``data`` is no
    JSON document or ``load`` refuses it with one of ``refusals`` (the errors it promises
    for a bad document): the start of the targets that load saved documents."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError):
        return None
    try:
        return load(doc)
    except refusals:
        return None


def saves_to_itself(obj: Any, load: Callable[[Any], Any], what: str) -> None:
    """``obj.to_dict()``, through JSON text, loads back to the same document."""
    saved = obj.to_dict()
    again = load(json.loads(json.dumps(saved))).to_dict()
    assert again == saved, f"{what} does not save to the same document"


def seeds(name: str) -> list[bytes]:
    """The committed seed corpus of a target, in a stable order."""
    d = CORPUS / name
    return [p.read_bytes() for p in sorted(d.iterdir()) if p.is_file()] if d.is_dir() else []


def byte_mutate(data: bytes, rnd: random.Random, pool: list[bytes]) -> bytes:
    """A generic mutation: flip, insert, delete, duplicate or splice bytes."""
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        op = rnd.randrange(6)
        i = rnd.randrange(len(b) + 1)
        if op == 0 and b:
            b[min(i, len(b) - 1)] ^= 1 << rnd.randrange(8)
        elif op == 1:
            b[i:i] = bytes([rnd.choice((0, 0x7F, 0xFF, 0xED, 0xC0, 0x80, rnd.randrange(256)))])
        elif op == 2 and b:
            del b[i : i + rnd.randint(1, 8)]
        elif op == 3 and b:
            j = rnd.randrange(len(b))
            b[i:i] = b[j : j + rnd.randint(1, 16)]
        elif op == 4 and pool:
            other = rnd.choice(pool)
            j = rnd.randrange(len(other) + 1)
            b = b[:i] + other[j:]
        elif op == 5:
            b[i:i] = rnd.choice((b"9" * 30, b"-1", b"1e308", b"\xed\xa0\x80", b"null", b"[]"))
    return bytes(b)


def inputs(target: Any, name: str, count: int, seed: int) -> Iterator[bytes]:
    """The seed corpus, then ``count`` seeded mutations of it (structure-aware when the
    target has ``mutate``, else bytes)."""
    pool = seeds(name)
    yield from pool
    rnd = random.Random(seed)
    mutate: Callable[[bytes, random.Random], bytes] | None = getattr(target, "mutate", None)
    current = list(pool) or [b""]
    for _ in range(count):
        # mostly one step from a seed: mutations compound into inputs refused early
        data = rnd.choice(pool if pool and rnd.random() < 0.6 else current)
        if mutate is not None and rnd.random() < 0.9:
            data = mutate(data, rnd)
        else:
            data = byte_mutate(data, rnd, pool)
            if mutate is not None:  # keep the pool of structured inputs well-formed
                yield data
                continue
        if len(current) < 256:
            current.append(data)
        else:
            current[rnd.randrange(len(current))] = data
        yield data


def random_run(
    target: Any, name: str, *, seconds: float | None = None, count: int = 10**9, seed: int = 0
) -> int:
    """Run the target on seeded mutations until ``count`` inputs or ``seconds`` pass.
    Returns the number of inputs; a finding propagates as the target's exception, with the
    input saved to ``fuzz-<name>-crash`` in the current directory."""
    end = None if seconds is None else time.monotonic() + seconds
    n = 0
    for data in inputs(target, name, count, seed):
        try:
            target.test_one_input(data)
        except BaseException:
            path = Path(f"fuzz-{name}-crash")
            path.write_bytes(data)
            sys.stderr.write(f"finding in {name}: input saved to {path.resolve()}\n")
            raise
        n += 1
        if end is not None and time.monotonic() > end:
            break
    return n


def fuzz_one(target: Any, argv: list[str]) -> None:
    """``python fuzz_X.py [libFuzzer options] [corpus dirs]``: atheris, or the random
    engine when atheris is not installed (then ``-max_total_time=N`` is the only option
    read)."""
    try:
        import atheris
    except ImportError:
        seconds = None
        for a in argv[1:]:
            if a.startswith("-max_total_time="):
                seconds = float(a.split("=", 1)[1])
        name = Path(argv[0]).stem.removeprefix("fuzz_")
        n = random_run(target, name, seconds=seconds, seed=int.from_bytes(os.urandom(4), "big"))
        print(f"{name}: {n} inputs, no finding (random engine: atheris is not installed)")
        return
    custom = getattr(target, "mutate", None)
    kwargs: dict[str, Any] = {}
    if custom is not None:

        def custom_mutator(data: bytes, max_size: int, seed: int) -> bytes:
            rnd = random.Random(seed)
            if rnd.random() < 0.3:
                return bytes(atheris.Mutate(data, max_size))
            return custom(data, rnd)[:max_size]

        kwargs["custom_mutator"] = custom_mutator
    atheris.instrument_all()  # coverage of everything imported, triple_draw included
    atheris.Setup(argv, target.test_one_input, **kwargs)
    atheris.Fuzz()
