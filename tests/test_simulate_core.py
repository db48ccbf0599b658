"""The core switch covers simulation, bots and the terminal game (docs: the ``core=``
option of ``simulate``; ``triple_draw.game.core``): a seeded run on the pure-Python
reference core equals the same run on the compiled core, and a run on the reference core
never calls into the compiled module - in this process, on threads or in worker
processes."""

from __future__ import annotations

import concurrent.futures as cf
import io
import multiprocessing
import pickle
import sys
from collections.abc import Iterator
from typing import Any

import pytest

import triple_draw
from triple_draw import _core
from triple_draw._play import TerminalGame
from triple_draw.bots import CallingStationBot, HeuristicBot, RandomBot, make_bot
from triple_draw.errors import ArgumentTypeError
from triple_draw.game import Rules, set_default_core
from triple_draw.game.core import default_core, resolve_core
from triple_draw.simulation import simulate

_KW: dict[str, Any] = dict(hands=36, seed=20261130, chunk_size=12, stack=30)


#: made on the default (compiled) core: a run rebinds them to its own core
_BOTS = [
    HeuristicBot(),
    HeuristicBot(keep_max="9", bluff=0.7, aggression=1.5),
    RandomBot(),
    CallingStationBot(),
]


def _bots() -> list[Any]:
    return list(_BOTS)


class _CompiledCalledError(AssertionError):
    pass


@pytest.fixture
def compiled_forbidden(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every function and class of ``triple_draw._core``, and every name any triple_draw
    module imported from it, raises when called."""
    originals = {
        name: obj
        for name, obj in vars(_core).items()
        if not name.startswith("__") and callable(obj)
    }

    def forbid(name: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            raise _CompiledCalledError(f"the compiled core was called: _core.{name}")

        return call

    stubs = {name: forbid(name) for name in originals}
    for name, stub in stubs.items():
        monkeypatch.setattr(_core, name, stub)
    by_id = {id(obj): name for name, obj in originals.items()}
    for mod_name, mod in list(sys.modules.items()):
        if not mod_name.startswith("triple_draw") or mod is _core or mod is None:
            continue
        for attr, value in list(vars(mod).items()):
            name = by_id.get(id(value))
            if name is not None and value is originals[name]:
                monkeypatch.setattr(mod, attr, stubs[name])
    yield


@pytest.mark.parametrize("mode", ["independent", "table"])
@pytest.mark.parametrize("rules", [Rules(), Rules.online(2, max_players=8)], ids=["live", "online"])
def test_a_seeded_run_is_the_same_on_both_cores_and_the_reference_never_calls_compiled(
    rules: Rules, mode: str, compiled_forbidden: None, request: pytest.FixtureRequest
) -> None:
    ref = simulate(_bots(), rules=rules, mode=mode, core="reference", **_KW)
    request.getfixturevalue("monkeypatch").undo()  # the compiled core again
    compiled = simulate(_bots(), rules=rules, mode=mode, core="compiled", **_KW)
    assert ref == compiled
    assert ref.showdowns > 0 and sum(s.net for s in ref.seats) == 0


def test_the_fixture_catches_a_compiled_run(compiled_forbidden: None) -> None:
    with pytest.raises(_CompiledCalledError):
        simulate(_bots(), core="compiled", **_KW)


def test_workers_play_on_the_run_core(compiled_forbidden: None) -> None:
    """Threads and forked worker processes use the run's core (the processes inherit the
    forbidden compiled module, so a call there fails the run)."""
    want = simulate(_bots(), core="reference", **_KW)
    assert simulate(_bots(), core="reference", executor="threads", workers=2, **_KW) == want
    fork = multiprocessing.get_context("fork")
    with cf.ProcessPoolExecutor(2, mp_context=fork) as ex:
        assert simulate(_bots(), core="reference", executor=ex, **_KW) == want


def test_spawned_workers_get_the_core_by_name() -> None:
    want = simulate(_bots(), core="compiled", **_KW)
    spawn = multiprocessing.get_context("spawn")
    with cf.ProcessPoolExecutor(1, mp_context=spawn) as ex:
        assert simulate(_bots(), core="reference", executor=ex, **_KW) == want


def test_the_default_core_switch_covers_simulate_and_bots(
    compiled_forbidden: None, request: pytest.FixtureRequest
) -> None:
    before = default_core()
    set_default_core("reference")
    try:
        bots = [make_bot("heuristic"), make_bot("call"), make_bot("random")]
        assert all(b.core is triple_draw.reference for b in bots)
        result = simulate(bots, **_KW)
    finally:
        set_default_core(before)
    request.getfixturevalue("monkeypatch").undo()
    assert result == simulate(["heuristic", "call", "random"], core="compiled", **_KW)


def test_bots_pickle_with_their_core() -> None:
    bot = HeuristicBot(seed=4, core="reference")
    back = pickle.loads(pickle.dumps(bot))
    assert back.core is triple_draw.reference
    assert back._heuristic is triple_draw.reference.bots_heuristic
    assert pickle.loads(pickle.dumps(HeuristicBot())).core is resolve_core("compiled")


def test_a_bot_given_another_core_plays_on_the_run_core(compiled_forbidden: None) -> None:
    ref_bots = [HeuristicBot(core="reference"), CallingStationBot(core="reference")]
    a = simulate(ref_bots, core="reference", **_KW)
    assert a.hands == _KW["hands"]


def test_terminal_game_on_the_reference_core_never_calls_compiled(
    compiled_forbidden: None,
) -> None:
    lines = iter(["c"] * 400 + ["pat"] * 100)

    def answer() -> str:
        try:
            return next(lines)
        except StopIteration:
            return "q"

    out = io.StringIO()
    game = TerminalGame(players=3, seed=5, bots=("heuristic", "call"), max_hands=2,
                        input_fn=answer, out=out, core="reference")  # fmt: skip
    game.run()
    assert "You are dealt" in out.getvalue()


def test_a_core_that_is_not_one_is_refused() -> None:
    with pytest.raises(ArgumentTypeError):
        simulate(_bots(), core=object(), **_KW)
    with pytest.raises(ArgumentTypeError):
        HeuristicBot(core=42)
