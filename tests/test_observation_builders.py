"""The bots' Observation is built in several places - from a view
(``Observation.from_view``), along the hands of :func:`triple_draw.simulate` (the heuristic
bot's ``choose`` and any ``decide`` bot), by the vector environment's bots and by
``HeuristicBot.discard`` - all through one factory: a list of the fields set by name
(``bots.F_*``, taken from the class) made a named tuple by ``bots.new_observation``.

These tests hold every builder to the same observation at the same decision, field by field
and type by type (``0 == False``, so equality alone would let a count and a flag swap), with
no field left unset, and keep any positional build of an Observation out of the package."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from triple_draw import bots
from triple_draw.bots import (
    UNSET,
    Bot,
    CallingStationBot,
    HeuristicBot,
    Observation,
    RandomBot,
    new_observation,
    observation_fields,
)
from triple_draw.game import Action, Hand, Rules
from triple_draw.simulation import simulate

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "python" / "triple_draw"


def same(obs: Any, expected: Observation) -> None:
    """``obs`` is ``expected``: an Observation, equal, with the same type in every field
    and no field unset."""
    assert type(obs) is Observation
    assert UNSET not in obs and UNSET not in expected
    assert obs == expected
    assert [type(x) for x in obs] == [type(x) for x in expected], (obs, expected)


# -- the factory ---------------------------------------------------------------------------------


def test_every_field_has_its_position_by_name() -> None:
    """``F_<NAME>`` is the position of field ``name`` for every field, and nothing else is
    an ``F_`` constant: a field added to the class without its position fails here."""
    positions = {k: v for k, v in vars(bots).items() if re.fullmatch(r"F_[A-Z_]+", k)}
    assert positions == {"F_" + f.upper(): i for i, f in enumerate(Observation._fields)}


def test_observation_fields_are_a_new_list_of_unset_fields() -> None:
    a = observation_fields()
    b = observation_fields()
    assert a is not b and a == b == [UNSET] * len(Observation._fields)
    a[bots.F_SEAT] = 3
    assert observation_fields()[bots.F_SEAT] is UNSET
    assert repr(UNSET) == "UNSET"


def test_new_observation_puts_each_value_in_its_field() -> None:
    f = observation_fields()
    for name in Observation._fields:
        f[getattr(bots, "F_" + name.upper())] = name
    obs = new_observation(f)
    assert type(obs) is Observation
    assert all(getattr(obs, name) == name for name in Observation._fields)
    assert obs._asdict() == {name: name for name in Observation._fields}


def test_the_compiled_kernel_reads_the_fields_where_the_class_puts_them() -> None:
    """The heuristic bot's compiled kernel reads an Observation by position (the ``OBS_*``
    constants of rust/python/bots.rs, which its pure-Python twin follows: the kernel tests
    compare them): those positions are the class's."""
    src = ROOT / "rust" / "python" / "bots.rs"
    if not src.exists():
        pytest.skip("no Rust sources here")
    names = {
        "SEAT": "seat", "HOLE": "hole", "PHASE": "phase", "STREET": "street",
        "N": "n_players", "BUTTON": "button", "SB": "small_blind_seat",
        "BB": "big_blind_seat", "FOLDED": "folded", "STACKS": "stacks", "DRAWS": "draws",
        "POT": "pot", "TO_CALL": "to_call", "RAISE_TO": "raise_to",
        "ROUND_BETS": "round_bets", "VOLUNTARY": "round_voluntary",
    }  # fmt: skip
    read = dict(re.findall(r"const OBS_(\w+): usize = (\d+);", src.read_text()))
    assert set(read) == set(names)
    for k, pos in read.items():
        assert Observation._fields.index(names[k]) == int(pos), k


def test_no_positional_build_of_an_observation_in_the_package() -> None:
    """Nothing builds an Observation from values in order: no ``Observation(value, ...)``
    (nor ``cls(...)`` in the class), no ``._make``, no call handed the class first
    (``tuple.__new__(Observation, ...)``) and no other name for the class, which could hide
    one."""
    allowed = {"isinstance", "issubclass", "cast"}
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        text = path.read_text()
        if "Observation" not in text:
            continue
        tree = ast.parse(text, str(path))
        for c in ast.walk(tree):
            if isinstance(c, ast.ClassDef) and c.name == "Observation":
                for node in ast.walk(c):  # cls(...) in the class's own methods
                    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "cls":
                        found.append(f"{path.name}:{node.lineno} cls(<values in order>)")
        for node in ast.walk(tree):
            where = f"{path.relative_to(PACKAGE)}:{getattr(node, 'lineno', 0)}"
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                if isinstance(node.value, ast.Name) and node.value.id == "Observation":
                    found.append(f"{where} another name for Observation")
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else getattr(f, "attr", "")
            if name == "Observation" and node.args:
                found.append(f"{where} Observation(<values in order>)")
            if name == "_make" and isinstance(f, ast.Attribute):
                found.append(f"{where} ._make(<values in order>)")
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Name) and first.id == "Observation" and name not in allowed:
                found.append(f"{where} {name}(Observation, ...)")
    assert found == []


# -- from a view, HeuristicBot.discard ----------------------------------------------------------


def test_from_view_and_discard_set_every_field(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[Observation] = []

    def checked(fields: list[Any]) -> Observation:
        assert UNSET not in fields and len(fields) == len(Observation._fields)
        obs = new_observation(fields)
        built.append(obs)
        return obs

    monkeypatch.setattr(bots, "new_observation", checked)
    h = Hand(Rules(), [100] * 4, 1, 7)
    obs = Observation.from_view(h.view(h.actor))
    assert obs.seat == h.actor and obs.phase == "bet" and obs.n_players == 4
    assert HeuristicBot(seed=1).discard([0, 5, 9, 14, 51], 2, [1, 3]) == (51,)
    assert len(built) == 2 and built[0] is obs
    d = built[1]
    assert (d.phase, d.street, d.n_players, d.draws) == ("draw", 1, 3, ((), (1,), (3,)))


# -- simulate: the heuristic bot's choose and a decide bot --------------------------------------


def _view_obs(seat: int) -> Observation:
    """The observation of the view of ``seat`` at the decision simulate's loop is at (the
    hand is the loop's local ``hand``)."""
    frame = sys._getframe(1)
    while frame.f_code.co_name != "_play_chunk":
        assert frame.f_back is not None, "not called from simulate's loop"
        frame = frame.f_back
    hand = frame.f_locals["hand"]
    assert hand.actor == seat
    return Observation.from_view(hand.view(seat))


class _Checking(Bot):
    """A decide bot that holds simulate's observation to the one of the view, then plays
    like ``inner``."""

    seen: ClassVar[list[str]] = []

    def __init__(self, inner: Any) -> None:
        super().__init__()
        self.inner = inner

    def reseed(self, seed: int | None = None) -> None:
        self.inner.reseed(seed)

    def decide(self, obs: Observation) -> Action:
        same(obs, _view_obs(obs.seat))
        type(self).seen.append(obs.phase)
        act: Action = self.inner.decide(obs)
        return act


@pytest.mark.parametrize("mode", ["independent", "table"])
@pytest.mark.parametrize(
    "rules, players",
    [(Rules(), 6), (Rules(), 2), (Rules.online(2, max_players=8), 8),
     (Rules(short_all_in="full-raise", raise_cap=4, ante=1, max_players=8), 5)],
    ids=["live-6", "live-2", "online-8", "opts-5"],
)  # fmt: skip
def test_simulate_builds_what_the_view_shows(
    monkeypatch: pytest.MonkeyPatch, rules: Rules, players: int, mode: str
) -> None:
    """At every decision of many hands, what simulate hands a bot - through the heuristic
    bot's ``choose`` and through a ``decide`` bot, playing together so that each path's
    record of the other's actions is checked too - is the observation of the seat's view."""
    chosen: list[str] = []
    choose = HeuristicBot.choose

    def checking_choose(self: HeuristicBot, obs: Observation) -> Any:
        same(obs, _view_obs(obs.seat))
        chosen.append(obs.phase)
        return choose(self, obs)

    monkeypatch.setattr(HeuristicBot, "choose", checking_choose)
    _Checking.seen = []
    inner = [HeuristicBot(seed=3, bluff=0.5), RandomBot(), CallingStationBot()]
    seats: list[Any] = [
        HeuristicBot(seed=s) if s % 2 == 0 else _Checking(inner[s // 2 % 3]) for s in range(players)
    ]
    if players > 2:
        seats[-1] = "random"  # an act bot: simulate records its actions from the engine
    r = simulate(
        seats, hands=150, seed=players, rules=rules, stack=30, mode=mode, workers=1,
        chunk_size=75,
    )  # fmt: skip
    assert sum(s.net for s in r.seats) == 0
    for seen in (chosen, _Checking.seen):
        assert seen.count("bet") > 150 and seen.count("draw") > 50


# -- the vector environment's bots ---------------------------------------------------------------


@pytest.mark.parametrize(
    "n_players, opponents",
    [(2, "heuristic"), (6, ["random", "call", "heuristic", "random", "heuristic"])],
)
def test_vector_env_bots_get_what_the_view_shows(n_players: int, opponents: Any) -> None:
    pytest.importorskip("gymnasium")
    from triple_draw.envs.vector import TripleDrawVectorEnv

    env = TripleDrawVectorEnv(
        num_envs=4, num_players=n_players, learner=0, opponents=opponents, stacks=15,
        autoreset_mode="same_step",
    )  # fmt: skip
    env._compiled = False  # the Python loop builds Observations for every bot
    built = env._bot_obs
    phases: list[str] = []

    def checked(i: int, h: Hand, s: int) -> Observation:
        obs = built(i, h, s)
        same(obs, Observation.from_view(h.view(s)))
        phases.append(obs.phase)
        return obs

    env._bot_obs = checked  # type: ignore[method-assign]
    _obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(50):
        _obs, _r, _t, _tr, info = env.step(env.sample_actions(info["action_mask"], rng))
    assert phases.count("bet") > 50 and phases.count("draw") > 10
