"""The OpenSpiel game's strings and tensors carry the same information: for every seat,
two states have equal information state strings exactly when they have equal
information state tensors, and the same for the observation string and tensor (the
default observer and the public one, ``private_info`` NONE).

Random hands alone rarely give two states that a seat cannot tell apart, so each hand is
also replayed with what the seat cannot see changed (``resample_from_infostate``), with
the order of his own cards changed (the deal, his replacements), and every prefix of
every history is a state: chance nodes of every kind (the deal, replacement cards,
replacements from a reshuffled stub), decisions, and finished hands.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from conftest import random_spiel_history

pyspiel = pytest.importorskip("pyspiel")

from triple_draw.envs import encoding  # noqa: E402
from triple_draw.envs import openspiel as tos  # noqa: E402
from triple_draw.errors import TripleDrawError  # noqa: E402

#: heads-up and short-handed tables, 6 and 8 players drawing heavily (reshuffles under
#: every rule, both procedures), short and uneven stacks (all-ins), the num_draws
#: reduction (automatic stand-pats and checks), uncapped heads-up
CONFIGS = [
    {"players": 2, "stacks": 30},
    {"players": 3, "seat_stacks": "4 10 40", "ante": 1, "num_draws": 2},
    {"players": 6, "stacks": 60},
    {"players": 6, "stacks": 60, "reshuffle": "pokerstars", "draw_procedure": "immediate"},
    {"players": 8, "stacks": 40, "reshuffle": "pokerkit", "draw_procedure": "immediate"},
    {"players": 8, "stacks": 40, "reshuffle": "pokerstars"},
    {"players": 2, "stacks": 6, "num_draws": 1, "heads_up_uncapped": True},
]


def load(params: dict) -> tos.TripleDrawGame:
    return pyspiel.load_game("python_triple_draw", params)


def chance_slots(game, history: list[int]) -> list[tuple[int, int]]:
    """For each chance node of ``history``: (its index in the history, the seat the card
    goes to, or -1-seat for a replacement card)."""
    probe = game.new_initial_state()
    out = []
    for i, a in enumerate(history):
        if probe.is_chance_node():
            seat = probe._next_card_seat()
            out.append((i, seat if probe.hand is None else -1 - seat))
        probe.apply_action(a)
    return out


def reorder_own_cards(game, history: list[int], seat: int, rng: random.Random) -> list[int]:
    """``history`` with ``seat``'s deal cards in another order, and the replacements of
    each of his draws too: the same cards, so the same hand for him."""
    new = list(history)
    slots = chance_slots(game, history)
    deal = [i for i, s in slots if s == seat]
    cards = [history[i] for i in deal]
    rng.shuffle(cards)
    for i, c in zip(deal, cards, strict=True):
        new[i] = c
    # replacements: runs of consecutive chance nodes for him after one discard
    run: list[int] = []
    for i, s in [*slots, (-1, None)]:
        if s == -1 - seat and (not run or i == run[-1] + 1):
            run.append(i)
            continue
        got = [history[j] for j in run]
        rng.shuffle(got)
        for j, c in zip(run, got, strict=True):
            new[j] = c
        run = [i] if s == -1 - seat else []
    return new


def redeal_others(game, history: list[int], seat: int, rng: random.Random) -> list[int]:
    """``history`` with the other seats dealt other cards (none that ``seat`` ever holds or
    throws) and the same decisions: the same hand for him, other hands at the showdown.
    Empty if his own cards cannot be dealt in the new deal (a reshuffle differs)."""
    mine = {history[i] for i, s in chance_slots(game, history) if s in (seat, -1 - seat)}
    state = game.new_initial_state()
    new = []
    for a in history:
        if state.is_chance_node():
            outcomes = [c for c, _p in state.chance_outcomes()]
            if state._next_card_seat() != seat:
                free = [c for c in outcomes if c not in mine]
                if not free:
                    return []
                a = rng.choice(free)
            elif a not in outcomes:
                return []
        state.apply_action(a)
        new.append(a)
    return new


def views(game) -> list[tuple[str, object]]:
    """The (string, tensor) pairs to compare, by name: OpenSpiel's defaults (the
    information state and the observation) and the public observers."""
    from open_spiel.python.observation import make_observation

    out: list[tuple[str, object]] = []
    for recall in (True, False):
        obs = make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=recall, private_info=pyspiel.PrivateInfoType.NONE
            ),
        )
        out.append((f"public perfect_recall={recall}", obs))
    return out


def node_kind(state) -> str:
    hand = state.hand
    if state.is_terminal():
        return "end"
    if not state.is_chance_node():
        return "decision"
    if hand is None:
        return "deal"
    if any(e.kind == "reshuffle" for e in hand.history):
        return "serve after a reshuffle"
    return "serve"


class Pairs:
    """For each seat and kind of view, the map string -> tensor and tensor -> string:
    any string or tensor seen with two different partners is a disagreement."""

    def __init__(self) -> None:
        self.by_string: dict[tuple, tuple[bytes, list[int]]] = {}
        self.by_tensor: dict[tuple, tuple[str, list[int]]] = {}
        #: by kind of node: how often a seat's information state was met before in
        #: another history (two states he cannot tell apart)
        self.shared: Counter[str] = Counter()

    def add(self, kind: str, p: int, text: str, tensor, history: list[int]) -> bool:
        t = np.asarray(tensor, dtype=np.float32).tobytes()
        key_s, key_t = (kind, p, text), (kind, p, t)
        seen_t = self.by_string.setdefault(key_s, (t, history))
        assert seen_t[0] == t, (
            f"{kind}, seat {p}: one string, two tensors\n  string: {text}\n"
            f"  histories: {seen_t[1]}\n             {history}"
        )
        seen_s = self.by_tensor.setdefault(key_t, (text, history))
        assert seen_s[0] == text, (
            f"{kind}, seat {p}: one tensor, two strings\n  {seen_s[0]}\n  {text}\n"
            f"  histories: {seen_s[1]}\n             {history}"
        )
        return seen_s[1] != history

    def add_state(self, state, observers) -> None:
        h = state.history()
        for p in range(state.num_players()):
            if self.add("information state", p, state.information_state_string(p),
                        state.information_state_tensor(p), h):  # fmt: skip
                self.shared[node_kind(state)] += 1
            self.add("observation", p, state.observation_string(p), state.observation_tensor(p), h)
            for name, obs in observers:
                obs.set_from(state, p)
                self.add(name, p, obs.string_from(state, p), obs.tensor, h)


def walk(game, history: list[int], pairs: Pairs, observers) -> None:
    """Add every prefix of ``history`` (each state it passes through) to ``pairs``;
    stop where a chance outcome cannot be dealt (a reordered replacement after a
    reshuffle may not be)."""
    if not history:
        return
    state = game.new_initial_state()
    pairs.add_state(state, observers)
    for a in history:
        try:
            state.apply_action(a)
        except TripleDrawError:
            return
        pairs.add_state(state, observers)


def collisions_for(game, rng: random.Random, hands: int, seats: int) -> Pairs:
    """``hands`` random hands, each also replayed for ``seats`` random seats with his own
    cards reordered and with the others' cards dealt anew, and resampled for random seats
    at random points."""
    pairs = Pairs()
    observers = views(game)
    n = game.num_players()
    for _ in range(hands):
        history = random_spiel_history(game, rng, big_discard=0.5, no_fold=0.9)
        walk(game, history, pairs, observers)
        for p in rng.sample(range(n), seats):
            walk(game, reorder_own_cards(game, history, p, rng), pairs, observers)
            walk(game, redeal_others(game, history, p, rng), pairs, observers)
        for _k in range(3):
            cut = rng.randrange(len(history) + 1)
            state = game.new_initial_state()
            for a in history[:cut]:
                state.apply_action(a)
            p = rng.randrange(n)
            try:
                other = state.resample_from_infostate(p, rng.random)
            except TripleDrawError:  # no completion fits (see resample_from_infostate)
                continue
            pairs.add_state(state, observers)
            pairs.add_state(other, observers)
    return pairs


@pytest.mark.parametrize(
    "params", CONFIGS, ids=lambda p: " ".join(f"{k}={v}" for k, v in p.items())
)
def test_strings_and_tensors_carry_the_same_information(params: dict) -> None:
    game = load(params)
    n = game.num_players()
    pairs = collisions_for(
        game, random.Random(str(params)), hands=6 if n < 6 else 2, seats=min(n, 2)
    )
    # states that a seat cannot tell apart were met at every kind of node
    for kind in ("deal", "serve", "decision", "end"):
        assert pairs.shared[kind] > 0, (kind, pairs.shared)
    if n >= 6:
        assert pairs.shared["serve after a reshuffle"] > 0, pairs.shared


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_own_hands_are_his_cards_after_the_deal_and_each_draw(procedure: str) -> None:
    """The information state's own hands: the five cards after the deal and after each
    of his draws, the replacements included even where, under declare-then-deal, the
    engine holds them back until the last player has declared."""
    from open_spiel.python.observation import make_observation

    game = load({"players": 3, "stacks": 100, "draw_procedure": procedure})
    obs = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    rng = random.Random(12)
    drew = 0
    for _ in range(10):
        state = game.new_initial_state()
        for a in random_spiel_history(game, rng, big_discard=0.5, no_fold=0.9):
            state.apply_action(a)
        cur: dict[int, set[int]] = {}
        snaps: dict[int, list[list[int]]] = {s: [] for s in range(3)}
        for e in state.hand.history:
            cards = {encoding._TEXT_ID[c] for c in e.cards or ()}
            if e.kind == "deal":
                cur[e.seat] = cards
            elif e.kind == "discard":
                snaps[e.seat].append(sorted(cur[e.seat]))
                cur[e.seat] -= cards
            elif e.kind == "draw":
                cur[e.seat] |= cards
        for s in range(3):
            rows = [*snaps[s], sorted(cur[s])] if snaps[s] else [sorted(cur[s])]
            drew += len(rows) - 1
            obs.set_from(state, s)
            got = [np.flatnonzero(r).tolist() for r in obs.dict["own_hands"] if r.any()]
            assert got == rows
    assert drew > 30
