"""The OpenSpiel state's fast paths give what the plain ones gave: clones are independent
of their originals, and the tensors (``state.information_state_tensor``,
``state.observation_tensor`` and the observers' numpy tensors) hold exactly the values
of a reference that recomputes them from the history alone, as the implementation
before the incremental one did (``Reference`` below: the same bookkeeping and the same
fill of a zeroed tensor, kept here as the test's oracle)."""

from __future__ import annotations

import copy
import random

import numpy as np
import pytest
from conftest import random_spiel_history

pyspiel = pytest.importorskip("pyspiel")

from triple_draw.envs import encoding as enc  # noqa: E402
from triple_draw.envs import openspiel as tos  # noqa: E402

CONFIGS = [
    {"players": 2},
    {"players": 2, "stacks": 4, "num_draws": 1},
    {"players": 3, "seat_stacks": "4 10 40", "ante": 1, "num_draws": 2},
    {"players": 6, "stacks": 60, "reshuffle": "pokerstars", "draw_procedure": "immediate"},
    {"players": 8, "stacks": 40, "reshuffle": "pokerkit"},
    {"players": 2, "stacks": 6, "heads_up_uncapped": True},
]
_BET_WORDS = ("f", "c", "r")


def load(params: dict) -> tos.TripleDrawGame:
    return pyspiel.load_game("python_triple_draw", params)


class _DealPublic:
    """The table while the cards are dealt: the template hand's public state."""

    def __init__(self, template) -> None:
        for name in ("n_players", "street", "button", "folded", "stacks", "committed", "bets"):
            setattr(self, name, getattr(template, name))
        self.phase, self.actor = "bet", None
        self.bet_level, self.raises = template.bet_level, template.raises


class Reference:
    """The tensors of every seat along a history, recomputed from the actions alone with
    the bookkeeping and the fill loop of the first implementation."""

    def __init__(self, game) -> None:
        n = game.n
        self.game = game
        self.state = game.new_initial_state()  # only its hand and chance nodes are read
        self.dealt: list[int] = []
        self.pending: tuple[int, tuple[int, ...], list[int]] | None = None
        self.events: list[tuple[int, str]] = []
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.held: list[list[tuple[int, ...]]] = [[] for _ in range(n)]

    def apply(self, a: int) -> None:
        st, n = self.state, self.game.n
        h = st.hand
        if h is None:
            self.dealt.append(a)
            st.apply_action(a)
            if st.hand is not None:
                for s in range(n):
                    self.held[s].append(tuple(sorted(st.hand.hole_ids(s))))
            return
        if self.pending is not None:
            seat, cards, got = self.pending
            kept = [c for c in h.hole_ids(seat) if c not in cards]
            got.append(a)
            st.apply_action(a)
            if len(got) == len(cards):
                self.pending = None
                self.held[seat].append(tuple(sorted(kept + got)))
            return
        seat = h.actor
        if a >= enc.DISCARD_OFFSET:
            cards = enc.discard_cards(h.hole_ids(seat), a - enc.DISCARD_OFFSET)
            self.discards[seat].extend(cards)
            self.events.append((seat, f"x{len(cards)}"))
            st.apply_action(a)
            if cards:
                self.pending = (seat, cards, [])
            else:
                self.held[seat].append(tuple(sorted(st.hand.hole_ids(seat))))
            return
        self.events.append((seat, _BET_WORDS[a]))
        st.apply_action(a)

    def own_cards(self, seat: int) -> list[int]:
        h, g = self.state.hand, self.game
        if h is None:
            return [c for i, c in enumerate(self.dealt) if g.deal_order[i % g.n] == seat]
        if h.folded[seat]:
            return []
        if self.pending is not None and self.pending[0] == seat:
            _s, cards, got = self.pending
            return [c for c in h.hole_ids(seat) if c not in cards] + got
        return list(h.hole_ids(seat))

    def draws(self) -> list[list[int]]:
        h, n = self.state.hand, self.game.n
        if h is None:
            return [[] for _ in range(n)]
        out = [list(h.draws(j)) for j in range(n)]
        if self.pending is not None:  # declared, not dealt yet
            out[self.pending[0]].append(len(self.pending[1]))
        return out

    def tensor(self, seat: int, private: bool, recall: bool) -> np.ndarray:
        g, n = self.game, self.game.n
        h = self.state.hand
        pub = h if h is not None else _DealPublic(g._template())
        ones: list[int] = []
        vi: list[int] = []
        vv: list[float] = []
        cards = self.own_cards(seat) if private else []
        discards = self.discards[seat] if private else []
        enc.features(ones, vi, vv, pub, seat, discards, self.draws(), 1.0 / sum(g.stacks), cards)
        size = enc.observation_size(n)
        width = n + 3 + 6
        total = size + (4 * 52 + g.max_decisions * width if recall else 0)
        out = np.zeros(total, np.float32)
        out[ones] = 1.0
        out[vi] = vv
        if not recall:
            return out
        if private:
            hands = out[size : size + 4 * 52].reshape(4, 52)
            for k, held in enumerate(self.held[seat][:4]):
                hands[k, list(held)] = 1.0
        rows = out[size + 4 * 52 :].reshape(g.max_decisions, width)
        for t, (j, kind) in enumerate(self.events):
            rows[t, (j - seat) % n] = 1.0
            if kind[0] == "x":
                rows[t, n + 3 + int(kind[1:])] = 1.0
            else:
                rows[t, n + _BET_WORDS.index(kind)] = 1.0
        return out


def observers(game) -> dict[tuple[bool, bool], object]:
    from open_spiel.python.observation import make_observation

    out = {}
    info = pyspiel.PrivateInfoType
    for private in (True, False):
        for recall in (True, False):
            kind = info.SINGLE_PLAYER if private else info.NONE
            out[private, recall] = make_observation(
                game, pyspiel.IIGObservationType(perfect_recall=recall, private_info=kind)
            )
    return out


@pytest.mark.parametrize("params", CONFIGS, ids=str)
def test_tensors_are_the_references_at_every_node(params: dict) -> None:
    game = load(params)
    obs = observers(game)
    rng = random.Random(str(params))
    checked = 0
    for _ in range(4 if game.n < 6 else 2):
        ref = Reference(game)
        state = game.new_initial_state()
        history = random_spiel_history(game, rng, big_discard=0.4, no_fold=0.8)
        for i in range(len(history) + 1):
            for p in range(game.n):
                want = ref.tensor(p, True, True)
                got = state.information_state_tensor(p)
                assert type(got) is list and len(got) == len(want)
                assert np.array_equal(np.array(got, np.float32), want), (history[:i], p)
                assert got == want.tolist()  # the same Python floats as pyspiel's path
                want_obs = ref.tensor(p, True, False)
                assert state.observation_tensor(p) == want_obs.tolist()
                for (private, recall), o in obs.items():
                    o.set_from(state, p)
                    assert np.array_equal(o.tensor, ref.tensor(p, private, recall))
                checked += 1
            if i < len(history):
                ref.apply(history[i])
                state.apply_action(history[i])
    assert checked > 100


def test_tensor_without_a_player_and_with_a_bad_one() -> None:
    game = load({"players": 3})
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
    p = state.current_player()
    assert state.information_state_tensor() == state.information_state_tensor(p)
    assert state.observation_tensor() == state.observation_tensor(p)
    for bad in (-1, 3):
        with pytest.raises(pyspiel.SpielError):
            state.information_state_tensor(bad)
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(bad)
    chance = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        chance.information_state_tensor()


def snapshot(state) -> tuple:
    """Everything observable of a state, for every seat."""
    n = state.num_players()
    hand = state.hand
    return (
        state.history(),
        str(state),
        state.is_chance_node() and state.chance_outcomes(),
        state.legal_actions() if not state.is_chance_node() else None,
        state.returns(),
        None if hand is None else hand.to_dict(),
        [state.information_state_string(p) for p in range(n)],
        [state.information_state_tensor(p) for p in range(n)],
        [state.observation_string(p) for p in range(n)],
        [state.observation_tensor(p) for p in range(n)],
    )


def play_on(state, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _p in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def replayed(game, history: list[int]):
    state = game.new_initial_state()
    for a in history:
        state.apply_action(a)
    return state


@pytest.mark.parametrize("params", CONFIGS, ids=str)
def test_clones_are_independent(params: dict) -> None:
    """A clone taken anywhere (the deal, a replacement being served, a decision, the end)
    and its original each play on in their own way: each is the state its own history
    replays to, and neither sees the other's actions."""
    game = load(params)
    rng = random.Random(str(params))
    for _ in range(6):
        history = random_spiel_history(game, rng, big_discard=0.4, no_fold=0.8)
        state = replayed(game, history[: rng.randrange(len(history) + 1)])
        before = snapshot(state)
        clone = state.clone()
        assert type(clone) is type(state) and snapshot(clone) == before
        if state.hand is not None:
            assert clone.hand is not state.hand
        play_on(clone, rng, rng.randrange(1, 40))
        assert snapshot(state) == before
        assert snapshot(clone) == snapshot(replayed(game, clone.history()))
        again = state.clone()
        play_on(state, rng, rng.randrange(1, 40))
        assert snapshot(again) == before
        assert snapshot(state) == snapshot(replayed(game, state.history()))
        # a clone of a clone, and Python's copy module
        for other in (clone.clone(), copy.deepcopy(clone), copy.copy(clone)):
            assert snapshot(other) == snapshot(clone)
            play_on(other, rng, 10)
            assert snapshot(clone) == snapshot(replayed(game, clone.history()))


def test_serialised_states_replay() -> None:
    game = load({"players": 3, "stacks": 40})
    rng = random.Random(4)
    for cut in (0, 7, 20, None):
        history = random_spiel_history(game, rng, big_discard=0.4, no_fold=0.8)
        state = replayed(game, history[:cut])
        text = pyspiel.serialize_game_and_state(game, state)
        _game, back = pyspiel.deserialize_game_and_state(text)
        assert snapshot(back) == snapshot(state)


def test_new_initial_states_are_independent() -> None:
    """New initial states share one core until their first action (a clone starts from
    one): applying an action to one changes no other."""
    game = load({"players": 2})
    fresh = snapshot(game.new_initial_state())
    a, b = game.new_initial_state(), game.new_initial_state()
    c = a.clone()
    a.apply_action(7)
    c.apply_action(9)
    assert snapshot(b) == fresh and snapshot(game.new_initial_state()) == fresh
    assert a.history() == [7] and c.history() == [9]
    with pytest.raises(tos.TripleDrawError):
        b.apply_action(52)
    assert snapshot(b) == fresh and snapshot(game.new_initial_state()) == fresh
