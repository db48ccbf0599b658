"""Bad input to the engine's public API raises a TripleDrawError (errors.py: every error of
the package is one, with the matching builtin base), never a bare builtin exception, and
leaves the hand as it was. Hypothesis feeds junk to ``Rules``, ``Hand`` and ``Table``, to the
bots (their options, specs and decisions, on both cores), ``simulate`` and the executors."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from triple_draw import TripleDrawError
from triple_draw._executors import RayExecutor, resolve_executor
from triple_draw.bots import (
    CallingStationBot,
    HeuristicBot,
    Observation,
    RandomBot,
    as_action,
    make_bot,
    parse_bot_specs,
    standard_discard,
    worst_low,
)
from triple_draw.game import Action, Hand, Rules, Table
from triple_draw.simulation import simulate
from conftest import play_randomly

junk_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True),
    st.text(max_size=12),
    st.sampled_from(["7h", "??", "7h 5d", "Zz", "draw", "fold", "compiled", "reference"]),
    st.binary(max_size=4),
)
junk = st.recursive(
    junk_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6),
        st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=6), inner, max_size=3),
    ),
    max_leaves=8,
)
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def only_package_errors(call: Any, *args: Any, **kwargs: Any) -> None:
    """Run the call; any exception it raises must be a TripleDrawError."""
    try:
        call(*args, **kwargs)
    except TripleDrawError:
        pass
    except RecursionError:  # pragma: no cover - not an input check
        raise
    except Exception as e:  # the point of the test: anything else is a bug
        raise AssertionError(f"{call.__qualname__}: {type(e).__name__}: {e}") from e


def a_hand(seed: int) -> Hand:
    """A hand some random steps in (betting or drawing)."""
    rnd = random.Random(seed)
    h = Hand(Rules(), [rnd.choice([3, 20, 100])] * rnd.randint(2, 6), 0, seed)
    return play_randomly(h, rnd, steps=rnd.randint(0, 25))


@SETTINGS
@given(st.sampled_from([f.name for f in Rules.__dataclass_fields__.values() if f.init]), junk)
def test_rules_fields(field, value):
    only_package_errors(Rules, **{field: value})
    only_package_errors(Rules.from_dict, {field: value})


@SETTINGS
@given(junk)
def test_rules_documents(doc):
    only_package_errors(Rules.from_dict, doc)


@SETTINGS
@given(junk, junk, junk, junk)
def test_hand_setup(rules, stacks, button, seed):
    only_package_errors(Hand, rules, stacks, button, seed)
    only_package_errors(Hand, Rules(), stacks, button, seed)
    only_package_errors(Hand, Rules(), [100, 100], button, seed)


@SETTINGS
@given(junk, junk, junk, junk)
def test_hand_given_cards_deck_core(hole_cards, deck, core, withhold):
    only_package_errors(Hand, Rules(), [100, 100, 100], hole_cards=hole_cards)
    only_package_errors(Hand, Rules(), [100, 100, 100], deck=deck)
    only_package_errors(Hand, Rules(), [100, 100, 100], 1, core=core)
    only_package_errors(Hand, Rules(), [100, 100, 100], 1, withhold=withhold)


@SETTINGS
@given(st.integers(0, 10_000), junk, junk, st.sampled_from(["bet", "draw", "any"]))
def test_hand_actions_and_queries(seed, x, y, _phase):
    h = a_hand(seed)
    before = h.to_dict()
    for call, args in (
        (h.apply, (x,)),
        (h.apply, (x, y)),
        (h.discard, (x,)),
        (h.discard, (x, y)),
        (h.receivable, (x,)),
        (h.receivable, (x, y)),
        (h.view, (x,)),
        (h.hole_ids, (x,)),
        (h.hole_text, (x,)),
        (h.hole_cards, (x,)),
        (h.draws, (x,)),
        (h.discards, (x,)),
    ):
        only_package_errors(call, *args)
    # junk never changes the hand (only a legal action would, and junk is never one)
    if isinstance(x, (list, tuple, str)) or x is None:
        return  # a list/str/None may be a legal discard
    assert h.to_dict() == before


@SETTINGS
@given(st.integers(0, 10_000), junk)
def test_actions_from_junk(seed, kind):
    h = a_hand(seed)
    only_package_errors(Action, kind)
    only_package_errors(Action, "discard", None, kind)
    only_package_errors(Action, "call", kind)
    only_package_errors(Action.from_dict, kind)
    if not h.is_over:
        only_package_errors(h.apply, Action("discard", cards=()))


@SETTINGS
@given(junk)
def test_hand_documents(doc):
    only_package_errors(Hand.from_dict, doc)


@SETTINGS
@given(
    st.integers(0, 10_000), st.sampled_from(["betting", "draw", "deck", "hands", "history"]), junk
)
def test_hand_documents_with_one_junk_field(seed, key, value):
    doc = a_hand(seed).to_dict()
    doc[key] = value
    only_package_errors(Hand.from_dict, doc)


@SETTINGS
@given(junk, junk, junk, junk)
def test_table(stacks, button, seat, stack):
    only_package_errors(Table, Rules(), stacks, button)
    only_package_errors(Table, stacks, [100, 100], button)
    t = Table(Rules(), [100, 100, None, 100], seed=1)
    only_package_errors(t.sit, seat, stack)
    only_package_errors(t.leave, seat)
    only_package_errors(t.hand_seat, seat)


# -- bots, simulate, executors ---------------------------------------------------------------

_SIM = dict(hands=3, chunk_size=3, seed=1, stack=20)


def _small(field: str, value: Any) -> bool:
    """Junk that happens to be a valid, costly request (a long run, a process pool)."""
    if type(value) is not int:
        return False
    return (field == "hands" and value > 20) or (field == "workers" and value > 1)


@SETTINGS
@given(
    st.sampled_from(
        ["bots", "hands", "seed", "players", "rules", "stack", "mode", "chunk_size",
         "executor", "workers", "progress", "core"]
    ),
    junk,
)  # fmt: skip
def test_simulate_options(field, value):
    assume(not _small(field, value))
    kw: dict[str, Any] = dict(_SIM, **{field: value})
    if field != "bots":
        kw["bots"] = ["random", "call"]
    only_package_errors(simulate, **kw)


@SETTINGS
@given(st.lists(junk, min_size=1, max_size=3))
def test_simulate_bot_lists(bots):
    only_package_errors(simulate, bots, **_SIM)


@SETTINGS
@given(junk, junk, junk)
def test_make_bot_and_specs(spec, seed, core):
    only_package_errors(make_bot, spec, seed)
    only_package_errors(make_bot, "heuristic", seed, core=core)
    only_package_errors(parse_bot_specs, spec)
    only_package_errors(parse_bot_specs, "heuristic,random", seed)


_BOT_OPTIONS = (
    [(HeuristicBot, f) for f in ("seed", "keep_max", "pat", "bluff", "aggression", "core")]
    + [(RandomBot, f) for f in ("seed", "core")]
    + [(CallingStationBot, f) for f in ("seed", "keep_max", "core")]
)


@SETTINGS
@given(st.sampled_from(_BOT_OPTIONS), junk)
def test_bundled_bot_options(option, value):
    cls, field = option
    only_package_errors(cls, **{field: value})


@SETTINGS
@given(st.sampled_from(["compiled", "reference"]), junk, junk, junk)
def test_bot_decisions_from_junk(core, x, y, z):
    bots = [HeuristicBot(1, core=core), RandomBot(1), CallingStationBot(1, core=core)]
    for bot in bots:
        only_package_errors(bot.act, x)
        only_package_errors(bot.decide, x)
    only_package_errors(bots[0].choose, x)
    only_package_errors(bots[0].discard, x, y, z)
    only_package_errors(standard_discard, x, y, z, core=core)
    only_package_errors(standard_discard, "7c 5d 4h 3s Kd", y, z, core=core)
    only_package_errors(worst_low, x, core=core)
    only_package_errors(as_action, x)
    only_package_errors(Observation.from_view, x)


@SETTINGS
@given(st.integers(0, 10_000), st.sampled_from(Observation._fields), junk)
def test_observations_with_one_junk_field(seed, field, value):
    """A real observation with one field replaced by junk: the kernels of both cores
    refuse it with a TripleDrawError, or decide."""
    h = a_hand(seed)
    if h.actor is None:
        return
    obs = Observation.from_view(h.view(h.actor))._replace(**{field: value})
    for core in ("compiled", "reference"):
        only_package_errors(HeuristicBot(1, core=core).choose, obs)
        only_package_errors(CallingStationBot(1, core=core).decide, obs)


@SETTINGS
@given(junk, junk, junk)
def test_executor_arguments(executor, workers, task_cpus):
    if type(workers) is int and workers > 1:
        workers = None  # a pool of processes per example would be slow, not wrong
    if executor is None or isinstance(executor, str):
        only_package_errors(resolve_executor, executor, workers, 1)
    only_package_errors(RayExecutor, executor, task_cpus=task_cpus)
