"""Helpers shared by the engine's tests (import them: ``from conftest import ...``), and
the benchmarks' smoke mode.

The suite's run (``testpaths``: ``tests`` and ``benches``) collects the benchmarks as smoke
tests: unless it asks for timing (``--benchmark-only`` or ``--benchmark-enable``), each
case runs once, untimed (``--benchmark-disable``), and ``TD_BENCH_SMOKE=1`` tells the
bench modules to use tiny sizes. ``pytest benches --benchmark-only`` (or ``python
benches/bench_X.py``) measures at full size."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from hypothesis import settings

from triple_draw import Deck
from triple_draw.game import Action, Hand, Rules

# The property tests draw new examples on every run; under HYPOTHESIS_PROFILE=ci (set by
# .ci/run) each test draws the same examples every run (derandomized: seeded from the
# test itself), so a landing's verdict does not depend on the draw. Searching for new
# failures is the other runs' job (docs/development.md: looping --hypothesis-seed).
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    # (before pytest-benchmark's own pytest_configure, which is trylast, reads the option,
    # and before any bench module is imported)
    timing = config.getoption("benchmark_only", default=False) or config.getoption(
        "benchmark_enable", default=False
    )
    if timing:
        os.environ.pop("TD_BENCH_SMOKE", None)
    else:
        config.option.benchmark_disable = True
        os.environ["TD_BENCH_SMOKE"] = "1"


@contextmanager
def emptied(cache: dict[Any, Any]) -> Iterator[dict[Any, Any]]:
    """A module's shared cache emptied (in place: whoever holds it sees the change) and
    restored after."""
    saved = dict(cache)
    cache.clear()
    try:
        yield cache
    finally:
        cache.clear()
        cache.update(saved)


@pytest.fixture
def empty_discard_cache() -> Iterator[dict[Any, Any]]:
    """The shared discard actions (``game.actions._DISCARDS``, the dict the compiled core
    shares too) emptied for the test and restored after it: a test that expects a discard
    to be shared needs the cache to have room, and earlier tests in the same process
    (random bots' simulations) may have filled it."""
    from triple_draw.game.actions import _DISCARDS

    with emptied(_DISCARDS) as cache:
        yield cache


def partition_ok(h: Hand) -> bool:
    """The hands, the stub, the cards out of play and those outside a reduced game's deck
    hold each of the 52 cards once."""
    p = h._card_partition()
    return sorted(p["hands"] + p["stub"] + p["out_of_play"] + p["outside"]) == list(range(52))


def to_draw(h: Hand) -> None:
    """Check or call until the hand reaches a draw."""
    while not h.in_draw:
        h.check_or_call()


#: a random driver's random number generator: a ``random.Random``, or a seed for a new one
Rng = random.Random | int


def random_action(
    hand: Hand,
    rng: random.Random,
    *,
    weight: float | None = None,
    fold_weight: float = 1,
    fold: bool = True,
    fold_chance: float | None = None,
    draw_heavy: float | None = None,
    discard_each: float | None = None,
    draw: Callable[[Sequence[Action]], Action] | None = None,
) -> Action:
    """One random legal action of ``hand``'s actor: the one choice of the tests' random
    play (:func:`play_randomly` plays a hand out with it; a loop whose body is a test's own
    - a generator of states, a hand swapped for its copy mid-way - calls it directly).

    Each option is one fixed sequence of calls on ``rng``, so that a seeded test plays the
    same hands whoever drives it. Betting (and a draw, unless a draw option is given),
    at most one of:

    - nothing: any listed action alike (``rng.choice``);
    - ``weight``: ``rng.choices``, each action ``weight`` against the fold's ``fold_weight``
      (in a draw: the 32 choices alike, through ``rng.choices``);
    - ``fold=False``: never fold, any other action alike (``rng.choice``);
    - ``fold_chance``: fold with that chance (``rng.random()``), else any other action alike.

    A draw, at most one of:

    - ``draw_heavy``: the biggest discard (all five cards: reshuffles) with that chance
      (``rng.random()``), else any of the 32 choices alike;
    - ``discard_each``: throw each held card with that chance (``rng.random()`` per card,
      in the order held), as a discard action (its cards sorted; :func:`play_randomly`
      throws them in the order held);
    - ``draw``: a function choosing among the 32 listed choices."""
    if (weight is not None) + (not fold) + (fold_chance is not None) > 1:
        raise TypeError("random_action: at most one of weight, fold=False, fold_chance")
    if (draw_heavy is not None) + (discard_each is not None) + (draw is not None) > 1:
        raise TypeError("random_action: at most one of draw_heavy, discard_each, draw")
    if hand.in_draw:
        if draw_heavy is not None:
            acts = hand.legal_actions()
            return acts[-1] if rng.random() < draw_heavy else rng.choice(acts)
        if discard_each is not None:
            held = hand.hole_ids(hand.actor)  # type: ignore[arg-type]
            return Action("discard", cards=tuple(c for c in held if rng.random() < discard_each))
        if draw is not None:
            return draw(hand.legal_actions())
    acts = hand.legal_actions()
    if weight is not None:
        return rng.choices(acts, [fold_weight if a.kind == "fold" else weight for a in acts])[0]
    if not fold:
        return rng.choice([a for a in acts if a.kind != "fold"])
    if fold_chance is not None and not hand.in_draw:
        if rng.random() < fold_chance:
            return next(a for a in acts if a.kind == "fold")
        return rng.choice([a for a in acts if a.kind != "fold"])
    return rng.choice(acts)


def play_randomly(
    hand: Hand,
    rng: Rng,
    *,
    steps: int | None = None,
    until: Callable[[Hand], bool] | None = None,
    each: Callable[[Hand, Action], object] | None = None,
    weight: float | None = None,
    fold_weight: float = 1,
    fold: bool = True,
    fold_chance: float | None = None,
    draw_heavy: float | None = None,
    discard_each: float | None = None,
    draw: Callable[[Sequence[Action]], Action] | None = None,
) -> Hand:
    """The tests' one random-play driver: seeded random legal play of ``hand`` through
    ``apply()``, each action chosen by :func:`random_action` (the options after ``each``;
    with none, every legal action alike). Returns ``hand``.

    It plays while the hand has an actor (and fails a hand left without one before its
    end), and stops before that earlier:

    - after ``steps`` actions;
    - when ``until(hand)`` is true (asked before each action, once the hand has an actor
      and ``steps`` allow one; it may draw on ``rng`` itself).

    ``each(hand, action)`` runs after each action, with the action applied: a check of
    every state the play reaches (the state it starts from is the caller's to check), or
    the same action applied to another hand.

    A draw chosen by ``discard_each`` is thrown through ``hand.discard`` in the order the
    cards are held, not sorted as its action lists them: the order reaches the muck, and
    so the stub a served-discards reshuffle forms (the engines' parity covers it)."""
    if isinstance(rng, int):
        rng = random.Random(rng)
    k = 0
    while hand.actor is not None and (steps is None or k < steps):
        if until is not None and until(hand):
            break
        a = random_action(
            hand,
            rng,
            weight=weight,
            fold_weight=fold_weight,
            fold=fold,
            fold_chance=fold_chance,
            draw_heavy=draw_heavy,
            discard_each=discard_each,
            draw=draw,
        )
        if discard_each is not None and hand.in_draw:
            # thrown in the order held: the muck (so a served-discards reshuffle) keeps it
            held = hand.hole_ids(hand.actor)  # type: ignore[arg-type]
            hand.discard([c for c in held if c in a.cards])  # type: ignore[operator]
        else:
            hand.apply(a)
        if each is not None:
            each(hand, a)
        k += 1
    if hand.actor is None:
        assert hand.is_over, "the hand has no actor and is not over"
    return hand


def also_on(*others: Hand) -> Callable[[Hand, Action], None]:
    """A hook for ``play_randomly(each=...)``: each action applied to ``others`` as well
    (copies, restored or reloaded hands, the hand on another core), in order. Not with
    ``discard_each``: its actions list the cards sorted, the driver's hand threw them in
    the order held, and the muck keeps the order."""

    def apply_too(_: Hand, action: Action) -> None:
        for other in others:
            other.apply(action)

    return apply_too


# -- a player's view of a hand with many reshuffles (the PHH tests) ----------------------


def draw_heavy_hand(rules: Rules, n: int, seed: int) -> Hand:
    rng = random.Random(seed)
    h = Hand(rules, [1000] * n, button=rng.randrange(n), seed=seed)
    return play_randomly(h, rng, draw_heavy=0.7, weight=8)


def count_replays(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that gets an item for every replay of a choice of cards the loader tries
    from now on."""
    from triple_draw.phh import read

    calls: list[int] = []
    real = read.replay

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(read, "replay", counting)
    return calls


def spy_on_search(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The results of every run of the loader's card search from now on (its plan, or
    ``None`` when it gave up at its bound)."""
    from triple_draw.phh import read

    searched: list[object] = []
    search = read._search

    def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        searched.append(search(*args, **kwargs))
        return searched[-1]

    monkeypatch.setattr(read, "_search", spy)
    return searched


def reshuffling_seeds(rules: Rules, n: int, count: int = 6) -> list[int]:
    """The first ``count`` seeds (from 1) whose heavy-drawing hand reshuffles twice or more."""
    seeds: list[int] = []
    seed = 1
    while len(seeds) < count:
        h = draw_heavy_hand(rules, n, seed)
        if sum(e.kind == "reshuffle" for e in h.history) >= 2:
            seeds.append(seed)
        seed += 1
    return seeds


# -- running out of cards: the reshuffle example of the draw rules ----------------------


def reshuffle_example(rules: Rules, seed: int = 99):
    """Eight seats (option: up to 8): A=0 SB, B=1 BB, C=2; seats 3-7 fold before the draw.
    Draw 1: A, B, C throw 3, 3, 2, leaving 4 cards in the stub. Draw 2: A, B, C throw
    3, 2, 1. Returns the hand before draw 2 and the stacked order."""
    order = list(range(52))
    random.Random(3).shuffle(order)
    h = Hand(rules.replace(max_players=8), [100] * 8, button=7, deck=Deck.stacked(order, seed=seed))
    h.check_or_call()  # C
    for _ in range(5):
        h.fold()
    h.check_or_call()  # A completes
    h.check_or_call()  # B checks
    for s, k in ((0, 3), (1, 3), (2, 2)):
        assert h.actor == s
        h.discard(h.hole_ids(s)[:k])
    while h.phase == "bet":
        h.check_or_call()
    assert h.in_draw and len(h._deck) == 4
    return h, order


# -- 6-max hands of the reference bots, as PokerStars writes them (histories, review) ----

#: the players' names of :func:`bot_hands_as_pokerstars` (names with spaces, brackets, a colon)
STARS_NAMES = ["jo smith", "Zed", "hero", "[Ace]High", "deuce:seven", "Marek P"]


def bot_hands(n: int, rules: Rules | None = None) -> list[Hand]:
    """``n`` 6-max hands of the reference bots (``HeuristicBot`` at every seat), seeded
    0..n-1, stacks of 400-2,500 chips, at $0.05/$0.10 online stakes unless ``rules``."""
    from triple_draw.bots import HeuristicBot

    bots = [HeuristicBot(seed=i) for i in range(6)]
    rules = rules or Rules.online(10, small_blind=5)
    out = []
    for seed in range(n):
        rng = random.Random(seed)
        h = Hand(rules, [rng.randint(400, 2500) for _ in range(6)], seed % 6, seed)
        while not h.is_over:
            s = h.actor
            h.apply(bots[s].act(h.view(s)))  # type: ignore[index]
        out.append(h)
    return out


def bot_hands_as_pokerstars(hands: list[Hand]) -> str:
    """The hands as one PokerStars file of a real-money table, as seat 2 ('hero') sees
    them (hand numbers from 230,000,000,000)."""
    from decimal import Decimal

    from triple_draw import histories

    return "\n\n\n".join(
        histories.dumps(
            h,
            viewer=2,
            players=STARS_NAMES,
            hand_id=230_000_000_000 + i,
            table="Aludra II",
            chip_unit=Decimal("0.01"),
            currency="USD",
        )
        for i, h in enumerate(hands)
    )


# -- random play of the OpenSpiel game (the test_openspiel*.py modules) ------------------


def deal_randomly(state: Any, rng: random.Random) -> None:
    """At a chance node of an OpenSpiel state: apply one of its outcomes, each alike
    (one ``rng.randrange``)."""
    outcomes = [a for a, _p in state.chance_outcomes()]
    state.apply_action(outcomes[rng.randrange(len(outcomes))])


def random_spiel_history(
    game: Any, rng: random.Random, *, big_discard: float, no_fold: float
) -> list[int]:
    """The actions of a random hand of an OpenSpiel game: the chance outcomes alike
    (:func:`deal_randomly`); at a draw, the biggest discard with chance ``big_discard``,
    else any choice alike; in betting, with chance ``no_fold`` any action but the fold
    (when there is another), else any action alike."""
    from triple_draw.envs import encoding

    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            deal_randomly(state, rng)
            continue
        legal = state.legal_actions()
        if legal[0] >= encoding.DISCARD_OFFSET:
            a = legal[-1] if rng.random() < big_discard else rng.choice(legal)
        elif legal[0] == encoding.FOLD and len(legal) > 1 and rng.random() < no_fold:
            a = rng.choice(legal[1:])
        else:
            a = rng.choice(legal)
        state.apply_action(a)
    return state.history()


# -- tournaments: scripted hands (the TDA scenario tests) ---------------------------------

#: the best hand (7-5-4-3-2) and two hands it beats, for scripted eliminations
NUTS = "7h5d4c3s2h"
LOSING = ("KcKdQhQsJc", "KhKsQcQdJd", "AcAdJhJs9c", "AhAsTcTd9d", "8c8d6h6s9h")


def tiny_structure(**fields):  # type: ignore[no-untyped-def]
    """A structure for scripted tournaments: 20 chips, blinds 1/2, limits 2/4 for 1000
    hands, five bets a round (so a player who calls everything is all in by the third
    round), no late registration, no hand for hand; ``fields`` override."""
    from triple_draw import Level, Structure

    base = dict(
        name="tiny",
        starting_stack=20,
        levels=(Level(1, 2, 2, 4, 0, 1000), Level(2, 4, 4, 8, 0, 1000)),
        table_size=6,
        min_entries=2,
        hand_for_hand=False,
        rules={"raise_cap": 4},
    )
    base.update(fields)
    return Structure(**base)


def rig_next_hand(t, table_id: int, cards: dict) -> None:  # type: ignore[no-untyped-def]
    """The next hand the tournament deals at ``table_id`` gives these hole cards
    (``{table seat: cards}``); the others are dealt at random."""
    table = t.table(table_id)
    real = type(table).new_hand

    def once(**kw):  # type: ignore[no-untyped-def]
        del table.new_hand
        return real(table, hole_cards=cards, **kw)

    table.new_hand = once


def scripted_hand(t, table_id: int, winner: str, losers, *, deal: bool = True):  # type: ignore[no-untyped-def]
    """Deal (unless ``deal=False``: the hand already dealt) and play a hand at
    ``table_id`` in which ``winner`` (holding 7-5-4-3-2) and ``losers`` (holding pairs)
    bet and raise to the cap every round - so the losers are all in by the second round
    (20 chips of a ``tiny_structure``), if the winner has at least their chips - and the
    others fold; everyone stands pat."""
    seats = {p: s for s, p in t.players_at(table_id).items()}
    if deal:
        cards = {seats[winner]: NUTS}
        for k, p in enumerate(losers):
            cards[seats[p]] = LOSING[k]
        rig_next_hand(t, table_id, cards)
        hand = t.deal(table_id)
    else:
        hand = t.hand(table_id)
    table = t.table(table_id)
    while not hand.is_over:
        a = hand.actor
        who = t.players_at(table_id)[table.seat_map[a]]
        if hand.in_draw:
            t.act(table_id, "discard")
        elif (who == winner or who in losers) and hand.can_bet_or_raise():
            t.act(table_id, hand.legal_actions()[2])
        elif who == winner or who in losers:
            t.act(table_id, hand.legal_actions()[1])
        else:
            t.act(table_id, "fold")
    return hand


def fold_around(t, table_id: int):  # type: ignore[no-untyped-def]
    """Deal a hand at ``table_id`` that everyone folds to the big blind."""
    hand = t.deal(table_id)
    while not hand.is_over:
        t.act(table_id, "fold")
    return hand


def tournament_step(t, rng: random.Random, *, late: float = 0.02, absent: float = 0.01) -> str:  # type: ignore[no-untyped-def]
    """One random step of a running tournament, the choice drawn from ``rng``: an action
    at a table whose hand is in progress (random legal play), a deal at a table that may
    deal, now and then a late entry or re-entry, or a player going absent or coming
    back. Returns what it did."""
    from triple_draw.errors import IllegalActionError

    live = [x for x in t.tables if (h := t.hand(x)) is not None and not h.is_over]
    ready = t.ready_tables()
    choices = ["act"] * (3 if live else 0) + ["deal"] * (1 if ready else 0)
    if not choices:
        raise AssertionError(f"stuck: {t!r}: {[t.why_not_deal(x) for x in t.tables]}")
    what = rng.choice(choices)
    if what == "deal":
        t.deal(rng.choice(ready))
    else:
        tid = rng.choice(live)
        hand = t.hand(tid)
        acts = hand.legal_actions()
        if hand.in_draw:
            a = acts[rng.randrange(len(acts))]
        else:
            a = rng.choices(acts, [1 if x.kind == "fold" else 4 for x in acts])[0]
        t.act(tid, a)
    if t.registration_open and t.status == "running" and rng.random() < late:
        busted = [e.player for e in t.entries() if e.status == "busted"]
        who = rng.choice(busted) if busted and rng.random() < 0.6 else f"late{rng.randrange(10**6)}"
        try:
            t.register(who)
            what += "+register"
        except IllegalActionError:
            pass
    if rng.random() < absent:
        inplay = [e.player for e in t.entries() if e.status in ("playing", "moving")]
        if inplay:
            p = rng.choice(inplay)
            t.set_absent(p, not t.is_absent(p))
            what += "+absent"
    return what
