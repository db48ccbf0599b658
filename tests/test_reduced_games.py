"""The reduced games (issue #24 §1; docs/rules.md, *Reduced games*): ``Rules`` with fewer
ranks and suits, fewer cards in hand and fewer draws, played by the same ``Hand``.

- the short hands' ranking (``short_hands.py``) against a brute-force reference written
  here independently, and its rule of five cards against the real game's evaluator;
- random play of many members: chips conserved, every card in exactly one place, the
  rounds, units and hand sizes of the member, the showdown paid to the best short hand;
- seeds reproducible, documents (``to_dict``/``from_dict``, pickling, ``copy``) round-trip,
  views follow their schema; the compiled core and the reference core play alike;
- the real game unchanged: its rules' documents, repr and hash, and a member with the
  full deck deals the real game's cards;
- bad parameters refused with errors naming them, and the parts built for the real game
  refuse a member (``ReducedGameError``).
"""

from __future__ import annotations

import functools
import itertools
import json
import pickle
import random
from collections import Counter

import pytest

from triple_draw import Deck, phh
from triple_draw.errors import ArgumentError, CardError, IllegalActionError, ReducedGameError
from triple_draw.errors import RulesError
from triple_draw.game import Hand, Rules, Table
from triple_draw.game import short_hands
from triple_draw.game.cards import to_ids
from triple_draw.game.core import resolve_core
from conftest import also_on, partition_ok, play_randomly

TINY = Rules(deck_ranks=3, deck_suits=2, hand_size=1, draws=1, raise_cap=1, max_players=2)

#: members of the family (and, for each, how many players to seat)
MEMBERS = [
    (TINY, 2),
    (Rules(deck_ranks=4, deck_suits=2, hand_size=1, draws=2, raise_cap=2, max_players=3), 3),
    (Rules(deck_ranks=5, deck_suits=2, hand_size=2, draws=1, reshuffle="pokerstars"), 2),
    (Rules(deck_ranks=6, deck_suits=3, hand_size=3, draws=2, burn_cards=True), 3),
    (Rules(deck_ranks=8, deck_suits=2, hand_size=2, draws=3, reshuffle="pokerkit"), 4),
    (Rules(deck_ranks=7, deck_suits=4, hand_size=4, draw_procedure="immediate"), 4),
    (Rules(deck_ranks=4, deck_suits=4, hand_size=5, draws=2, reshuffle="pokerstars"), 2),
    (Rules(hand_size=3, draws=1, heads_up_uncapped=True, raise_cap=1), 2),
    (Rules(draws=2, muck_beaten_hands=True, ante=1), 6),
    (Rules.online(deck_suits=3, hand_size=4, max_players=8), 8),
]
IDS = [
    f"r{r.deck_ranks}s{r.deck_suits}k{r.hand_size}d{r.draws}n{n}" for r, n in MEMBERS
]


# -- the ranking of short hands ------------------------------------------------------------


def _badness(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """How bad a hand of these ranks (0 = deuce .. 12 = ace) is, written out from the rule
    without the module: the more matched cards the worse (pairs, then two pairs, trips,
    quads), then the ranks from the biggest group down, higher worse."""
    count = Counter(ranks)
    matched = sorted(count.values(), reverse=True)
    if matched[0] == 4:
        category = 4
    elif matched[0] == 3:
        category = 3
    elif matched.count(2) == 2:
        category = 2
    elif matched[0] == 2:
        category = 1
    else:
        category = 0
    order: list[int] = []
    for size in (4, 3, 2, 1):
        order += sorted((r for r in count if count[r] == size), reverse=True)
    return (category, *order)


def _better(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    """-1 if the hand of ranks ``a`` beats ``b``, 1 if ``b`` beats ``a``, 0 on a tie."""
    x, y = _badness(a), _badness(b)
    return (x > y) - (x < y)


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_short_hand_ranks_agree_with_brute_force(k):
    rank = short_hands.ranker(k)
    classes = list(itertools.combinations_with_replacement(range(13), k))
    assert len(classes) == short_hands.NUM_RANKS[k]
    # every class: one hand of it (the j-th card of a rank in suit j)
    hand = {}
    for m in classes:
        seen: Counter[int] = Counter()
        ids = []
        for r in m:
            ids.append(r * 4 + seen[r])
            seen[r] += 1
        hand[m] = ids
    ranked = sorted(classes, key=functools.cmp_to_key(_better))
    got = [rank(hand[m]) for m in ranked]
    assert got == list(range(1, len(classes) + 1))  # the brute-force order, one rank a class
    rng = random.Random(k)
    for _ in range(3000):  # any two hands of k cards: the lower rank is the better hand
        a, b = rng.sample(range(52), k), rng.sample(range(52), k)
        ra, rb = rank(a), rank(b)
        want = _better(tuple(c >> 2 for c in a), tuple(c >> 2 for c in b))
        assert (ra > rb) - (ra < rb) == want, (a, b)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_every_short_hand_ranked_as_its_class(k):
    """Every hand of k cards out of the 52: its rank is its rank multiset's (suits never
    matter), and the public functions check their input."""
    rank = short_hands.ranker(k)
    by_class: dict[tuple[int, ...], int] = {}
    for ids in itertools.combinations(range(52), k):
        m = tuple(sorted(c >> 2 for c in ids))
        assert by_class.setdefault(m, rank(ids)) == rank(ids)
    assert sorted(by_class.values()) == list(range(1, short_hands.NUM_RANKS[k] + 1))


def test_short_hand_names_and_examples():
    ev = short_hands.evaluate
    assert ev([0, 4, 8]).rank == 1 and ev([0, 4, 8]).name == "4-3 low"  # 4-3-2
    assert ev([48]).name == "A low" and ev([0]).rank == 1
    assert ev([0, 1, 48]) > ev([48, 44, 40])  # a pair of deuces loses to A-K-Q
    assert ev([0, 1, 48]) < ev([4, 5, 0])  # 2-2-A beats 3-3-2: the pair decides first
    assert ev([48, 49, 44]) < ev([48, 49, 50])  # A-A-K beats A-A-A
    assert ev([0, 1, 4, 5]).name == "two pair, treys and deuces"
    assert ev([0, 1, 2, 4]).category == "three of a kind"
    assert ev([12, 13, 14, 15]).name == "four fives"
    assert ev([20, 12, 0]).name == "7-5 low" and ev([12, 13]).name == "pair of fives"
    for bad in ([], [0, 1, 2, 3, 4], [0, 0], [52], ["2c"]):
        with pytest.raises(CardError):
            short_hands.rank_ids(bad)  # type: ignore[arg-type]


def test_short_hand_rule_of_five_cards_is_the_real_games():
    """class_key read on five cards that make neither a straight nor a flush orders them
    as the real game's evaluator does: the short hands' rule is the real game's."""
    core = resolve_core("compiled")
    keyed = []
    for m in itertools.combinations_with_replacement(range(13), 5):
        if max(Counter(m).values()) > 4:
            continue
        if len(set(m)) == 5 and m[4] - m[0] == 4:
            continue  # a straight
        seen: Counter[int] = Counter()
        ids = []
        for r in m:
            ids.append(r * 4 + seen[r])
            seen[r] += 1
        if len(set(m)) == 5:
            ids[0] += 1  # not a flush
        keyed.append((short_hands.class_key(m), core.rank_ids(ids)))
    keyed.sort()
    ranks = [r for _, r in keyed]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks)


# -- the rules ------------------------------------------------------------------------------


def test_betting_units_small_in_the_first_half_big_in_the_second():
    assert Rules().compiled.units == (2, 2, 4, 4)
    assert Rules(draws=2).compiled.units == (2, 2, 4)
    assert Rules(draws=1).compiled.units == (2, 4)
    assert Rules.live(10, draws=2).compiled.units == (10, 10, 20)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"deck_ranks": 1}, "deck_ranks must be 2..13"),
        ({"deck_ranks": 14}, "deck_ranks must be 2..13"),
        ({"deck_suits": 0}, "deck_suits must be 1..4"),
        ({"deck_suits": 5}, "deck_suits must be 1..4"),
        ({"hand_size": 0}, "hand_size must be 1..5"),
        ({"hand_size": 6}, "hand_size must be 1..5"),
        ({"draws": 0}, "draws must be 1..3"),
        ({"draws": 4}, "draws must be 1..3"),
        ({"deck_ranks": 10**40}, "deck_ranks must be 2..13"),
        ({"draws": -(10**30)}, "draws must be 1..3"),
        ({"draws": 2.0}, "draws must be an int"),
        ({"hand_size": True}, "hand_size must be an int"),
        ({"deck_ranks": 2, "deck_suits": 2}, "hand_size: a deck of 4 cards"),
        ({"deck_ranks": 3, "deck_suits": 2, "hand_size": 3}, "needs at least 9"),
    ],
)
def test_bad_parameters_name_the_field(kwargs, field):
    with pytest.raises(RulesError, match=field):
        Rules(**kwargs)


def test_the_real_games_rules_are_unchanged():
    r = Rules()
    assert set(r.to_dict()) & {"deck_ranks", "deck_suits", "hand_size", "draws"} == set()
    assert "deck_ranks" not in repr(r) and not r.reduced
    old_fields = [
        "small_blind", "big_blind", "small_bet", "big_bet", "ante", "raise_cap",
        "big_blind_is_bet", "heads_up_uncapped", "short_all_in", "draw_procedure",
        "reshuffle", "max_players", "muck_beaten_hands", "burn_cards", "rake_percent",
        "rake_cap", "rake_no_draw_no_drop", "rake_rounding",
    ]  # fmt: skip
    for rules in (r, Rules.online(4, ante=1), Rules.pokerkit(rake_percent="5")):
        assert hash(rules) == hash(tuple(getattr(rules, f) for f in old_fields))
    assert Rules(deck_ranks=13, deck_suits=4, hand_size=5, draws=3) == r
    t = TINY
    assert t.reduced and eval(repr(t), {"Rules": Rules}) == t
    assert hash(eval(repr(t), {"Rules": Rules})) == hash(t) and hash(t) != hash(r)
    assert Rules.from_dict(json.loads(json.dumps(t.to_dict()))) == t
    assert pickle.loads(pickle.dumps(t)) == t
    assert t.to_dict()["hand_size"] == 1


@pytest.mark.parametrize("rules", [Rules(draws=2), Rules(hand_size=3), Rules(draws=1, hand_size=4)])
def test_a_member_with_the_full_deck_deals_the_real_games_cards(rules):
    """A member with all 52 cards deals from the real game's seeded deck: the first
    ``hand_size * n`` cards of ``Deck(seed)``, one at a time from the small blind."""
    k = rules.hand_size
    for seed in range(5):
        member = Hand(rules, [100] * 3, seed=seed)
        top = Deck(seed).deal_ids(3 * k)
        for p, s in enumerate((1, 2, 0)):  # the small blind (seat 1) is dealt first
            assert list(member.hole_ids(s)) == top[p::3]
        if rules.hand_size == 5:
            assert member.to_dict()["deck"] == Hand(Rules(), [100] * 3, seed=seed).to_dict()["deck"]


# -- random play ----------------------------------------------------------------------------


def _check_member(h: Hand, rules: Rules) -> None:
    """Every card in exactly one place, all of them the member's; chips conserved; the
    member's hand size (but in a draw, before the replacements are dealt)."""
    k = rules.hand_size
    deck = set(rules.compiled.deck)
    assert partition_ok(h)
    part = h._card_partition()
    assert part["outside"] == sorted(set(range(52)) - deck)
    assert set(part["hands"]) | set(part["stub"]) | set(part["out_of_play"]) <= deck
    if not h.is_over:
        assert sum(h.stacks) + sum(h.committed) == sum(h.starting_stacks)
    if not h.in_draw:
        assert all(len(h.hole_ids(s)) == k for s in h.in_hand)
    elif h.actor is not None:
        assert len(h.hole_ids(h.actor)) == k
        assert len(h.legal_actions()) == 2**k


@pytest.mark.parametrize("rules, n", MEMBERS, ids=IDS)
def test_random_play_of_members(rules, n):
    """Many random hands of each member: the cards stay in the deck and partitioned,
    chips are conserved, the hand has draws + 1 rounds at the member's units, and the
    showdown pays the best hand of the member's size."""
    rank = rules.compiled.rank or resolve_core(None).rank_ids
    units = rules.compiled.units
    for seed in range(40):
        rng = random.Random(seed)
        stacks = [rng.randint(3, 60) for _ in range(n)]
        h = Hand(rules, stacks, seed % n, seed)
        _check_member(h, rules)
        play_randomly(
            h,
            rng,
            draw_heavy=0.5 if seed % 2 else None,
            each=lambda hand, _a: _check_member(hand, rules),
        )
        assert h.is_over
        res = h.result
        assert sum(res.stacks) + res.rake == sum(stacks)
        rounds = [e.amount for e in h.history if e.kind == "begin_round"]
        draws = [e.amount for e in h.history if e.kind == "begin_draw"]
        assert rounds == list(range(len(rounds))) and len(rounds) <= rules.draws + 1
        assert draws == list(range(len(draws))) and len(draws) <= rules.draws
        r = -1
        for e in h.history:
            if e.kind == "begin_round":
                r = e.amount
            elif e.kind in ("deal", "draw", "show"):
                assert set(to_ids(e.cards)) <= set(rules.compiled.deck)
            if e.kind == "deal":
                assert len(e.cards) == rules.hand_size
            if e.kind == "discard":
                assert len(e.cards) <= rules.hand_size
            if e.kind == "bet" and r > 0:  # the round's unit (or all-in for less)
                assert e.amount <= units[r]
        shown = {x.seat: x for x in res.showdown if x.shown}
        for seat, entry in shown.items():
            assert len(entry.cards) == rules.hand_size
            assert entry.rank == rank(list(h.hole_ids(seat)))
        for pot in res.pots if len(shown) > 1 else ():
            best = min(shown[s].rank for s in pot.eligible if s in shown)
            assert all(shown[w].rank == best for w in pot.winners)


@pytest.mark.parametrize("rules, n", MEMBERS[:6], ids=IDS[:6])
def test_members_are_reproducible_and_round_trip(rules, n):
    """Same seed and rules: the same hand; every state's document restores the same hand
    (from_dict, pickling, copy), and a restored hand plays on identically."""
    for seed in range(6):
        a = Hand(rules, [40] * n, seed % n, seed)
        b = Hand(rules, [40] * n, seed % n, seed)
        assert a.to_dict() == b.to_dict()
        rng = random.Random(seed)
        while a.actor is not None:
            d = a.to_dict()
            assert Hand.from_dict(json.loads(json.dumps(d))).to_dict() == d
            assert pickle.loads(pickle.dumps(a)).to_dict() == d
            c = a.copy()
            act = rng.choice(list(a.legal_actions()))
            for h in (a, b, c):
                h.apply(act)
            assert a.to_dict() == b.to_dict() == c.to_dict()
    other = [Hand(rules, [40] * n, 0, seed).to_dict()["hands"] for seed in range(8)]
    assert len({json.dumps(x) for x in other}) > 1  # seeds deal different hands


@pytest.mark.parametrize("rules, n", MEMBERS, ids=IDS)
def test_compiled_core_and_reference_play_members_alike(rules, n):
    for seed in range(8):
        a = Hand(rules, [30] * n, seed % n, seed)
        b = Hand(rules, [30] * n, seed % n, seed, core="reference")
        play_randomly(a, random.Random(seed), draw_heavy=0.6, each=also_on(b))
        assert a.to_dict() == b.to_dict()
        assert a.result == b.result


def test_views_of_members_follow_the_schema():
    pytest.importorskip("jsonschema")
    from triple_draw.schema import validate_hand_state, validate_view

    def check(hand: Hand, _a: object) -> None:
        k = hand.rules.hand_size
        for s in range(hand.n_players):
            v = hand.view(s)
            validate_view(json.loads(json.dumps(v)))
            if hand.actor == s and hand.in_draw:
                assert v["legal_actions"] == [{"kind": "discard", "max_cards": k}]
            if not hand.in_draw:
                assert all(p["cards"] in (0, k) for p in v["players"])
        validate_hand_state(hand.to_dict())

    for rules, n in MEMBERS[:5]:
        h = Hand(rules, [30] * n, 0, 3)
        validate_hand_state(h.to_dict())
        play_randomly(h, random.Random(1), each=check)
        assert h.view(0)["result"] is not None


def test_the_tiny_game_by_hand():
    """Heads-up, ranks 2-4 in clubs and diamonds, one card each, one draw, one raise."""
    order = [0, 4, 8, 1, 5, 9]  # 2c 3c 4c 2d 3d 4d: the small blind gets 2c, the big 3c
    h = Hand(TINY, [10, 10], button=0, deck=Deck.stacked(order, seed=1))
    assert h.hole_text(0) == ("2c",) and h.hole_text(1) == ("3c",)
    assert [a.kind for a in h.legal_actions()] == ["fold", "call", "raise"]
    h.bet_or_raise()  # the small blind raises to 4: the cap (a bet and one raise)
    assert not h.can_bet_or_raise()
    h.check_or_call()
    assert h.in_draw and h.actor == 1 and len(h.legal_actions()) == 2
    with pytest.raises(IllegalActionError, match="2 cards: at most one"):
        h.discard(["3c", "3c"])
    h.discard(["3c"])  # the big blind throws his 3c, and gets the 4c once the button declares
    h.discard([])
    assert h.hole_text(1) == ("4c",)
    assert h.street == 1 and h.to_call == 0
    h.bet_or_raise()  # the big bet: 4 more
    assert h.bet_level == 4
    h.check_or_call()
    assert h.is_over
    res = h.result
    assert res.net == (8, -8)  # the 2c beats the 4c
    assert [(e.seat, e.rank, e.name) for e in res.showdown] == [(1, 3, "4 low"), (0, 1, "2 low")]


def test_a_record_of_a_member():
    h = Hand(TINY, [20, 20], record=True, hole_cards=["3d", None])
    h.check_or_call()
    h.check_or_call()
    h.discard(["??"], receive=["4c"])
    with pytest.raises(IllegalActionError, match="not in this game's deck"):
        h.discard(["3d"], receive=["As"])
    h.discard(["3d"], receive=["2c"])
    h.check_or_call()
    h.check_or_call()
    with pytest.raises(IllegalActionError, match="must show one card"):
        h.show("2c 3c")
    h.show()
    h.show()
    assert h.result.net == (2, -2)


def test_a_table_deals_a_member():
    rules = Rules(deck_ranks=4, deck_suits=2, hand_size=2, draws=2, max_players=3)
    t = Table(rules, [30] * 3, seed=3)
    rng = random.Random(1)
    for _ in range(20):
        h = t.new_hand()
        if h is None:
            break
        play_randomly(h, rng)
    assert sum(t.seats[s] or 0 for s in range(3)) == 90
    d = t.to_dict()
    assert Table.from_dict(json.loads(json.dumps(d))).to_dict() == d


# -- refusals ------------------------------------------------------------------------------


def test_hand_refuses_what_the_deck_cannot_hold():
    with pytest.raises(ArgumentError, match="holds 1-card hands for at most 5 players"):
        Hand(TINY.replace(max_players=6), [20] * 6)
    Hand(TINY.replace(max_players=5), [20] * 5)  # five hands and one more: six cards
    with pytest.raises(CardError, match="As is not in this game's deck"):
        Hand(TINY, [20, 20], hole_cards=["As", None])
    with pytest.raises(CardError, match="not in this game's deck"):
        Hand(TINY, [20, 20], deck=Deck.stacked([0, 1, 4, 51], seed=1))
    with pytest.raises(CardError, match="expected 1 cards, got 2"):
        Hand(TINY, [20, 20], hole_cards=["2c 3c", None])
    with pytest.raises(CardError, match="not in this game's deck"):
        Hand(TINY, [20, 20], record=True, hole_cards=["Kh", None])


def test_a_stacked_deck_of_a_member_keeps_its_missing_cards_out_of_play():
    h = Hand(TINY, [20, 20], deck=Deck.stacked([0, 1, 4, 5], seed=1))
    part = h._card_partition()
    assert part["stub"] == [4, 5] and part["out_of_play"] == [8, 9]
    assert partition_ok(h)


def test_the_parts_for_the_real_game_refuse_a_member():
    from triple_draw import histories, simulate
    from triple_draw.evaluation import match
    from triple_draw.server.engine import new_table

    h = Hand(TINY, [20, 20], seed=1)
    h.fold()
    real = Hand(Rules(), [20, 20], seed=1)
    real.fold()
    calls = [
        lambda: simulate(["random", "random"], 10, rules=TINY),
        lambda: match(["random", "call"], hands=10, rules=TINY),
        lambda: phh.dumps(h),
        lambda: phh.loads(phh.dumps(real), rules=TINY),
        lambda: histories.dumps(h),
        lambda: histories.load("no such file", rules=TINY),
        lambda: new_table(TINY),
    ]
    for call in calls:
        with pytest.raises(ReducedGameError, match="for the real game only"):
            call()
    assert issubclass(ReducedGameError, ArgumentError)


def test_the_environments_take_a_member_and_refuse_a_bot_that_cannot_play_it():
    # (they refused every member before issue #24 §1's environments: see
    # tests/test_env_reduced_games.py for how they play them)
    pytest.importorskip("gymnasium")
    pytest.importorskip("pettingzoo")
    from triple_draw.envs.gym_env import TripleDrawEnv
    from triple_draw.envs.triple_draw_v0 import raw_env
    from triple_draw.envs.vector import TripleDrawVectorEnv

    assert TripleDrawEnv(num_players=2, rules=TINY).rules == TINY
    assert raw_env(num_players=2, rules=TINY).rules == TINY
    assert TripleDrawVectorEnv(num_envs=2, num_players=2, rules=TINY).rules == TINY
    assert TripleDrawVectorEnv(num_envs=2, rules=TINY, learner=0).rules == TINY
    for make in (
        lambda: TripleDrawEnv(num_players=2, rules=TINY, opponents="heuristic"),
        lambda: TripleDrawVectorEnv(num_envs=2, rules=TINY, learner=0, opponents="heuristic"),
    ):
        with pytest.raises(ReducedGameError, match="HeuristicBot reads five-card hands"):
            make()


def test_bots_that_read_five_cards_refuse_a_short_hand_and_random_and_call_play():
    from triple_draw.bots import CallingStationBot, EquityBot, HeuristicBot, RandomBot

    rules = Rules(deck_ranks=5, deck_suits=2, hand_size=2, draws=2, max_players=2)
    for bot in (RandomBot(seed=1), CallingStationBot(seed=1)):
        for seed in range(10):
            h = Hand(rules, [20, 20], seed=seed)
            while h.actor is not None:
                h.apply(bot.act(h.view(h.actor)))
    for cls in (HeuristicBot, EquityBot):
        h = Hand(rules, [20, 20], seed=1)
        with pytest.raises(ReducedGameError, match="hand of 2 cards"):
            while h.actor is not None:
                h.apply(cls(seed=1).act(h.view(h.actor)))
