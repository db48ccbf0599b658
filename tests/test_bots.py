"""Bots (triple_draw.bots): legal actions over many random hands, seeding, pickling, the
standard draw rule, and that the heuristic bot beats the baselines."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from triple_draw import HandRank, evaluate
from triple_draw.bots import (
    BOTS,
    CallingStationBot,
    HeuristicBot,
    RandomBot,
    make_bot,
    standard_discard,
    worst_low,
)
from triple_draw.errors import IllegalActionError
from triple_draw.game import Action, Hand, Rules
from triple_draw.game.cards import cards_text, to_ids
from triple_draw.simulation import simulate

RULE_SETS = [
    Rules(),
    Rules.online(2),
    Rules(short_all_in="full-raise", raise_cap=4, ante=1),
    Rules(heads_up_uncapped=True, draw_procedure="immediate", max_players=8),
]


def _assert_legal(hand: Hand, action: Action) -> None:
    if hand.phase == "draw":
        assert action.kind == "discard"
        assert set(action.cards or ()) <= set(hand.hole_ids(hand.actor))
    else:
        assert action in hand.legal_actions(), (action, hand.legal_actions())


@pytest.mark.parametrize("bot_cls", [RandomBot, HeuristicBot, CallingStationBot])
def test_bots_always_choose_legal_actions_over_random_hands(bot_cls: type) -> None:
    rng = random.Random(7)
    decisions = 0
    for i in range(150):
        rules = RULE_SETS[i % len(RULE_SETS)]
        n = rng.randint(2, min(6, rules.max_players) if i % 4 != 3 else 8)
        # short stacks too, so that all-ins, short raises and side pots occur
        stacks = [rng.choice([1, 3, 5, 9, 25, 200]) for _ in range(n)]
        hand = Hand(rules, stacks, button=rng.randrange(n), seed=rng.getrandbits(64))
        bots = [bot_cls(seed=i * 10 + s) for s in range(n)]
        while hand.actor is not None:
            a = hand.actor
            action = bots[a].act(hand.view(a))
            _assert_legal(hand, action)
            hand.apply(action)
            decisions += 1
        assert hand.result is not None
        assert sum(hand.result.net) == 0
    assert decisions > 500


def test_random_bot_does_not_fold_when_it_can_check() -> None:
    bot = RandomBot(seed=1)
    hand = Hand(Rules(), [100, 100], seed=2)
    hand.apply(Action("call"))  # the button completes; the big blind may check
    for _ in range(50):
        assert bot.act(hand.view(hand.actor)).kind != "fold"


def test_bots_are_seeded_and_reseedable() -> None:
    hand = Hand(Rules(), [100] * 4, seed=11)
    view = hand.view(hand.actor)
    a = RandomBot(seed=5)
    b = RandomBot(seed=5)
    assert [a.act(view) for _ in range(30)] == [b.act(view) for _ in range(30)]
    first = [a.act(view) for _ in range(30)]
    a.reseed(99)
    b.reseed(99)
    assert [a.act(view) for _ in range(30)] == [b.act(view) for _ in range(30)]
    assert len(set(map(repr, first))) > 1  # it does vary


@pytest.mark.parametrize(
    "bot", [RandomBot(seed=3), HeuristicBot(seed=3, bluff=0.3), CallingStationBot()]
)
def test_bots_pickle_with_their_random_state(bot: object) -> None:
    plays_the_same(bot, pickle.loads(pickle.dumps(bot)), seed=4, hands=40)


def plays_the_same(bot: object, twin: object, seed: int, hands: int) -> None:
    """``twin`` chooses what ``bot`` does at every decision of ``hands`` 3-handed hands."""
    rng = random.Random(seed)
    for _ in range(hands):
        hand = Hand(Rules(), [60] * 3, seed=rng.getrandbits(32))
        while hand.actor is not None:
            view = hand.view(hand.actor)
            x = bot.act(view)  # type: ignore[attr-defined]
            assert twin.act(view) == x  # type: ignore[attr-defined]
            hand.apply(x)


@pytest.mark.parametrize(
    "bot", [RandomBot(seed=3), HeuristicBot(seed=3, bluff=0.3), CallingStationBot()]
)
def test_a_deep_copy_of_a_bot_is_independent_and_plays_the_same(bot: object) -> None:
    """simulate deep-copies its bots for every chunk (Bot.__deepcopy__ copies the random
    stream through its state and shares the core)."""
    twin = copy.deepcopy(bot)
    assert twin is not bot and twin.rng is not bot.rng  # type: ignore[attr-defined]
    mine, theirs = twin.__getstate__(), bot.__getstate__()  # type: ignore[attr-defined]
    assert mine.pop("rng").getstate() == theirs.pop("rng").getstate()
    assert mine == theirs
    plays_the_same(bot, twin, seed=5, hands=30)
    twin.rng.random()  # type: ignore[attr-defined]
    assert twin.rng.getstate() != bot.rng.getstate()  # type: ignore[attr-defined]


def test_a_deep_copy_of_a_user_bot_copies_its_own_state() -> None:
    class Counting(RandomBot):
        def __init__(self) -> None:
            super().__init__(seed=1)
            self.seen: list[int] = []

    bot = Counting()
    twin = copy.deepcopy(bot)
    twin.seen.append(1)
    assert bot.seen == [] and type(twin) is Counting and twin.core is bot.core


def test_standard_rule_keeps_low_distinct_cards_and_breaks_pairs_straights_flushes() -> None:
    assert cards_text(standard_discard("7c 5d 4h 3s Kd")) == ["Kd"]
    assert cards_text(standard_discard("7c 7d 4h 3s 2c")) == ["7c"]  # 7d: its suit is unused
    assert cards_text(standard_discard("8c 7d 6h 5s 4c")) == ["8c"]  # straight
    assert cards_text(standard_discard("8h 6h 4h 3h 2h")) == ["8h"]  # flush
    assert cards_text(standard_discard("Kc Qd Jh 9s 9c")) == ["9c", "9s", "Jh", "Qd", "Kc"]
    assert standard_discard("8c 6d 4h 3s 2c") == ()  # an eight-low: pat
    # a nine-low is broken when only eights stand pat, kept with pat_max = a nine-low
    assert cards_text(standard_discard("9c 6d 4h 3s 2c")) == ["9c"]
    assert standard_discard("9c 6d 4h 3s 2c", pat_max=worst_low("9")) == ()
    assert cards_text(standard_discard("Tc 9d 4h 3s 2c", keep_max="T", pat_max=1)) == ["Tc"]


def test_standard_rule_throws_only_cards_of_the_hand() -> None:
    rng = random.Random(3)
    for _ in range(500):
        ids = rng.sample(range(52), 5)
        throw = standard_discard(ids)
        assert set(throw) <= set(ids)
        kept = [c for c in ids if c not in throw]
        assert len(kept) <= 4 or evaluate(ids).rank <= worst_low("8")
        assert len({c >> 2 for c in kept}) == len(kept)  # no pair is kept
        assert all(c >> 2 <= 6 for c in kept) or not throw


def test_worst_low_matches_the_evaluator() -> None:
    for top in "789TJQKA":
        r = worst_low(top)
        assert HandRank(r).category == "no pair"
        assert HandRank(r).name.startswith(f"{top}-") or HandRank(r).name == f"nut {top}"
        nxt = HandRank(r + 1)
        assert nxt.category != "no pair" or not nxt.name.startswith(f"{top}-")
    assert worst_low("8") == 18 and worst_low(6) == 18
    with pytest.raises(ValueError):
        worst_low("6")
    with pytest.raises(ValueError):
        worst_low("X")


def test_heuristic_bot_draws_by_the_standard_rule() -> None:
    bot = HeuristicBot(seed=1)
    ids = to_ids("7c 5d 4h 3s Kd")
    assert bot.discard(ids, 3, []) == tuple(to_ids("Kd"))
    # on the last draw a ten-low stands pat when every opponent drew two or more
    ten = to_ids("Tc 8d 5h 3s 2c")
    assert bot.discard(ten, 1, [2, 3]) == ()
    assert bot.discard(ten, 1, [0]) == tuple(to_ids("Tc"))
    # the unused ``rank`` argument is gone (CHANGELOG): the old four-argument call is refused
    with pytest.raises(TypeError):
        bot.discard(ten, evaluate(ten).rank, 1, [0])  # type: ignore[call-arg]


def test_heuristic_bot_beats_random_and_calling_station() -> None:
    r = simulate([HeuristicBot(), RandomBot()], hands=800, seed=2, chunk_size=400)
    assert r.seats[0].ci95_per_100[0] > 0
    r = simulate([HeuristicBot(), CallingStationBot()], hands=1200, seed=3, chunk_size=400)
    assert r.seats[0].chips_per_100 > 0


def test_heuristic_bot_folds_junk_to_a_raise_and_raises_a_pat_seven() -> None:
    # seat 0 is the button of 3; seat 0 raises first in, then the small blind decides
    hand = Hand(
        Rules(),
        [100, 100, 100],
        seed=1,
        hole_cards=["Ac Kd Qh Js 9c", "Kc Kh Qd Qs Jd", "7c 5d 4h 3s 2c"],
    )
    hand.apply(Action("raise"))
    junk = HeuristicBot(seed=0).act(hand.view(1))
    assert junk.kind == "fold"
    hand.apply(junk)
    assert HeuristicBot(seed=0).act(hand.view(2)).kind == "raise"


def test_user_bot_may_return_dicts_and_strings() -> None:
    class Passive:
        def act(self, view: dict) -> object:
            if view["phase"] == "draw":
                return {"kind": "discard", "cards": []}
            kinds = {a["kind"] for a in view["legal_actions"]}
            return "check" if "check" in kinds else {"kind": "call"}

    r = simulate([Passive(), HeuristicBot()], hands=50, seed=1)
    assert sum(s.net for s in r.seats) == 0
    assert r.seats[0].bot == "Passive"


def test_illegal_bot_action_names_the_bot_and_seat() -> None:
    class Cheater:
        def act(self, view: dict) -> Action:
            return Action("raise", 1000)

    with pytest.raises(IllegalActionError, match="seat 1"):
        simulate([HeuristicBot(), Cheater()], hands=5, seed=1)


def test_make_bot_names_and_import_paths() -> None:
    assert set(BOTS) == {"heuristic", "random", "call", "equity"}
    assert isinstance(make_bot("Heuristic"), HeuristicBot)
    assert isinstance(make_bot("triple_draw.bots:RandomBot", seed=3), RandomBot)
    bot = RandomBot()
    assert make_bot(bot) is bot
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("nope")
    with pytest.raises(ValueError, match="cannot load"):
        make_bot("triple_draw.bots:Nope")
    with pytest.raises(TypeError):
        make_bot(42)


def test_heuristic_bot_rejects_bad_parameters() -> None:
    with pytest.raises(ValueError):
        HeuristicBot(keep_max="Z")
    with pytest.raises(ValueError):
        HeuristicBot(bluff=2.0)
    with pytest.raises(ValueError):
        HeuristicBot(pat={4: "9"})


def test_one_set_of_decision_codes_in_the_core_the_bots_and_the_reference() -> None:
    """The bots' decision codes are one enum (``bots.Decision``): the compiled core names
    the same codes in the same order, and the reference's constants are the same numbers."""
    from triple_draw import _core
    from triple_draw.bots import Decision
    from triple_draw.reference import bots as ref

    assert [d.name.lower() for d in Decision] == list(_core.DECISION_NAMES)
    assert [int(d) for d in Decision] == list(range(len(Decision)))
    assert (ref.FOLD, ref.CHECK, ref.CALL, ref.BET_OR_RAISE, ref.BLUFF_OR_CHECK, ref.DISCARD) == (
        tuple(Decision)
    )
