"""PHH round trips with PokerKit, and the rules where the two engines differ.

Both directions: our hands (deep stacks, 2-6 players, many seeds) written as PHH replay in
PokerKit to the same final stacks; hands played by PokerKit's fixed-limit deuce-to-seven
triple draw load in ours to the same stacks - hands that run the deck out and reshuffle
included, in both directions (Rules.pokerkit() burns and reshuffles as PokerKit does).
Each documented difference (docs/interop-phh.md: *Where PokerKit's rules differ from
ours*) is pinned down from both sides: raise cap counting, short all-in reopening and
raise size, a raise nobody can call, the reshuffle pool of the other rules, odd chips of
a three-way split, a short big blind.
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import Automation, HandHistory, Mode  # noqa: E402
from pokerkit import FixedLimitDeuceToSevenLowballTripleDraw as PkTripleDraw  # noqa: E402
from pokerkit.state import CardBurning, HoleDealing  # noqa: E402

from conftest import play_randomly  # noqa: E402

from triple_draw import phh  # noqa: E402
from triple_draw.errors import HistoryError  # noqa: E402
from triple_draw.game import Hand, Rules  # noqa: E402

#: Our rules closest to PokerKit's: 4 raises before the draw (PokerKit does not count the
#: big blind), only a full raise reopens the betting, a burn card before each draw's
#: replacements and PokerKit's reshuffle (so the deck runs out where PokerKit's does).
POKERKIT_LIKE = Rules.pokerkit()

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)


@contextmanager
def quiet() -> Iterator[None]:
    # PokerKit warns when a history deals a card its own deck would not have dealt next
    # (ours has no burn cards); that is expected here
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def pokerkit_replay(text: str) -> list[int]:
    """Final stacks of PokerKit's replay of a PHH text (ValueError if it rejects it)."""
    with quiet():
        *_, state = HandHistory.loads(text)
    assert state is not None and not state.status, "PokerKit did not finish the hand"
    return list(state.stacks)


def phh_stacks(hand: Hand) -> list[int]:
    n = hand.n_players
    return [hand.stacks[(hand.button + 1 + k) % n] for k in range(n)]


def play_ours(seed: int, n: int, rules: Rules, draw_heavy: float = 0.3) -> Hand:
    rng = random.Random(seed)
    h = Hand(rules, [100_000] * n, button=rng.randrange(n), seed=seed)
    return play_randomly(h, rng, draw_heavy=draw_heavy, weight=6)


def play_pokerkit(seed: int, n: int, draw_heavy: float = 0.3) -> tuple[object, object]:
    """A hand played by PokerKit itself (its own deck, burns and reshuffles)."""
    random.seed(seed)  # PokerKit shuffles with the random module
    rng = random.Random(seed)
    game = PkTripleDraw(AUTOMATIONS, True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME)
    with quiet():
        state = game([100_000] * n, n)
        while state.status:
            if state.stand_patter_or_discarder_index is not None:
                cards = list(state.hole_cards[state.stand_patter_or_discarder_index])
                k = 5 if rng.random() < draw_heavy else rng.randrange(6)
                state.stand_pat_or_discard(rng.sample(cards, k))
            elif state.actor_index is not None:
                options = ["cc"] * 4
                if state.checking_or_calling_amount:
                    options.append("f")
                if state.can_complete_bet_or_raise_to():
                    options += ["cbr"] * 3
                choice = rng.choice(options)
                if choice == "f":
                    state.fold()
                elif choice == "cc":
                    state.check_or_call()
                else:
                    state.complete_bet_or_raise_to()
            else:  # pragma: no cover
                raise AssertionError("PokerKit hand stuck")
    return game, state


def deals_a_card_again(state) -> bool:
    """Whether PokerKit dealt some card a second time (a card it had dealt or burned): its
    deck ran out and was refilled."""
    seen: set[str] = set()
    for op in state.operations:
        if isinstance(op, (HoleDealing, CardBurning)):
            for card in op.cards if isinstance(op, HoleDealing) else (op.card,):
                if repr(card) in seen:
                    return True
                seen.add(repr(card))
    return False


# -- ours -> PokerKit ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "rules",
    [Rules(), Rules.online(), Rules(muck_beaten_hands=True), Rules.pokerkit()],
    ids=["live", "online", "muck", "pokerkit"],
)
def test_our_hands_replay_in_pokerkit_to_the_same_stacks(rules: Rules) -> None:
    for seed in range(150):
        n = 2 + seed % 5
        h = play_ours(seed, n, rules)
        assert pokerkit_replay(phh.dumps(h)) == phh_stacks(h), seed


@pytest.mark.parametrize(
    "rules",
    [
        Rules(),
        Rules.online(),
        Rules.pokerkit(),
        Rules.pokerkit(draw_procedure="immediate"),
        Rules(burn_cards=True),
    ],
    ids=["live", "online", "pokerkit", "pokerkit-immediate", "live-burns"],
)
def test_our_reshuffles_replay_in_pokerkit_and_in_ours(rules: Rules) -> None:
    """Six players drawing a lot run the stub out: our pools are subsets of PokerKit's
    (every card out of play), so every such deal is legal there too. The same text loads
    back in ours (burn cards, never written, are re-created by the rules)."""
    reshuffled = 0
    for seed in range(40):
        h = play_ours(seed, 6, rules, draw_heavy=0.8)
        reshuffled += any(e.kind == "reshuffle" for e in h.history)
        text = phh.dumps(h)
        assert "burn" not in text.split("[_triple_draw_rules]")[0]
        assert pokerkit_replay(text) == phh_stacks(h), seed
        back = phh.loads(text, seed=seed)
        assert phh_stacks(back) == phh_stacks(h), seed
        burns = sum(e.kind == "burn" for e in back.history)
        assert burns == (sum(e.kind == "begin_draw" for e in h.history) if rules.burn_cards else 0)
    assert reshuffled > 20


# -- PokerKit -> ours ----------------------------------------------------------------------------


def test_pokerkit_hands_load_in_ours_to_the_same_stacks() -> None:
    """Every hand PokerKit plays loads under Rules.pokerkit() to PokerKit's final stacks,
    those that ran its deck out too: our burn cards make the stub run out exactly where
    PokerKit's does (a reshuffle in ours exactly when PokerKit deals a card again), and
    the "pokerkit" reshuffle takes what PokerKit's refill takes."""
    reshuffled = 0
    for seed in range(250):
        n = 2 + seed % 5
        game, state = play_pokerkit(seed, n, draw_heavy=0.5 if seed % 2 else 0.3)
        text = HandHistory.from_game_state(game, state).dumps()
        h = phh.loads(text, rules=POKERKIT_LIKE, seed=seed)
        assert h.is_over and phh_stacks(h) == list(state.stacks), seed
        ran_out = any(e.kind == "reshuffle" for e in h.history)
        assert ran_out == deals_a_card_again(state), seed
        reshuffled += ran_out
        # one burn per draw the hand reached, as PokerKit
        burns = sum(isinstance(op, CardBurning) for op in state.operations)
        assert sum(e.kind == "burn" for e in h.history) == burns, seed
    assert reshuffled > 80


def test_pokerkit_reshuffling_hands_are_refused_without_its_deck_rules() -> None:
    """Without the burn cards the stub runs out later than PokerKit's: a card PokerKit
    dealt from its refill is refused (it is out of play while our stub still holds
    cards)."""
    refused = 0
    for seed in range(60):
        game, state = play_pokerkit(seed, 6, draw_heavy=0.6)
        if not deals_a_card_again(state):
            continue
        text = HandHistory.from_game_state(game, state).dumps()
        try:
            phh.loads(text, rules=POKERKIT_LIKE.replace(burn_cards=False), seed=seed)
        except HistoryError as e:
            assert "cannot receive" in str(e), (seed, str(e))
            refused += 1
    assert refused > 10


# -- the differences, pinned ---------------------------------------------------------------------


def history(n: int, stacks: list[int], *actions: str, cards: list[str] | None = None) -> str:
    cards = (
        cards
        or ["7c5d4h3s2c", "8d6h4s3c2d", "KsKdQcJsTc", "9h8h6d6c2h", "AhAdJdTdTh", "QhJh9s8s6s"][:n]
    )
    lines = [f"d dh p{k + 1} {c}" for k, c in enumerate(cards)] + list(actions)
    return (
        'variant = "F2L3D"\n'
        f"antes = {[0] * n}\n"
        f"blinds_or_straddles = {[1, 2] + [0] * (n - 2)}\n"
        "small_bet = 2\nbig_bet = 4\n"
        f"starting_stacks = {stacks}\n"
        "actions = [\n" + "".join(f'  "{a}",\n' for a in lines) + "]\n"
    )


PATS = ["p1 sd", "p2 sd", "p3 sd"]


def test_cap_pokerkit_allows_four_raises_over_the_big_blind() -> None:
    # PokerKit counts completions, bets and raises, not the big blind: 4 before the draw
    preflop = ["p3 cbr 4", "p4 cbr 6", "p5 cbr 8", "p1 cbr 10", "p2 cc", "p3 f", "p4 f", "p5 f"]
    rest = ["p1 sd", "p2 sd", "p1 cc", "p2 cc"] * 3 + ["p1 sm -", "p2 sm -"]
    text = history(5, [100] * 5, *preflop, *rest)
    assert pokerkit_replay(text) == [128, 90, 96, 94, 92]
    with pytest.raises(HistoryError, match=r"'p1 cbr 10'.*capped \(3 raises over the bet\)"):
        phh.loads(text)  # our default: the big blind is the bet, then 3 raises
    for rules in (Rules(raise_cap=4), Rules.pokerkit()):
        h = phh.loads(text, rules=rules)
        assert phh_stacks(h) == [128, 90, 96, 94, 92]


def test_cap_after_the_draw_pokerkit_stops_at_four_bets() -> None:
    ours = Hand(Rules(raise_cap=4), [100, 100, 100], button=2, seed=1)
    for _ in range(3):
        ours.check_or_call()
    for _ in range(3):
        ours.discard(())
    for _ in range(5):  # bet and four raises: legal with raise_cap=4
        ours.bet_or_raise()
    text = phh.dumps(ours)
    assert "p2 cbr 10" in text
    with pytest.raises(ValueError):
        pokerkit_replay(text)
    # with our default cap (3 raises after the bet) both agree: 4 bets
    ours3 = Hand(Rules(), [100, 100, 100], button=2, seed=1)
    for _ in range(3):
        ours3.check_or_call()
    for _ in range(3):
        ours3.discard(())
    for _ in range(4):
        ours3.bet_or_raise()
    assert not ours3.can_bet_or_raise()
    while ours3.actor is not None:
        ours3.apply(ours3.legal_actions()[1] if not ours3.in_draw else ours3.legal_actions()[0])
    assert pokerkit_replay(phh.dumps(ours3)) == phh_stacks(ours3)
    # Rules.pokerkit() counts like PokerKit in every round: 4 raises over the blind before
    # the draw (above), a bet and 3 raises after it
    pk = Hand(Rules.pokerkit(), [100, 100, 100], button=2, seed=1)
    for _ in range(3):
        pk.check_or_call()
    for _ in range(3):
        pk.discard(())
    for _ in range(4):
        pk.bet_or_raise()
    assert not pk.can_bet_or_raise()


ROUND3 = ["p3 cc", "p1 cc", "p2 cc", *PATS, "p1 cc", "p2 cc", "p3 cc", *PATS]


def test_short_all_in_of_half_a_bet_reopens_in_ours_not_in_pokerkit() -> None:
    """The example of docs/rules.md, *All-in for less*: round 3, A bets 4, B is all-in for
    6, C calls; A raises to 10."""
    acts = [
        *ROUND3,
        "p1 cbr 4",
        "p2 cbr 6",
        "p3 cc",
        "p1 cbr 10",
        "p3 cc",
        "p1 sd",
        "p2 sd",
        "p3 sd",
        "p1 cc",
        "p3 cc",
    ]
    text = history(3, [100, 8, 100], *acts)
    h = phh.loads(text)  # default "half-bet": a full raise, A may raise again
    assert h.is_over and h.committed[0] == 12
    with pytest.raises(HistoryError, match=r"'p1 cbr 10'.*not reopened"):
        phh.loads(text, rules=Rules(short_all_in="full-raise"))
    with pytest.raises(ValueError):
        pokerkit_replay(text)
    # without the re-raise both engines agree
    agreed = [
        *ROUND3,
        "p1 cbr 4",
        "p2 cbr 6",
        "p3 cc",
        "p1 cc",
        *PATS,
        "p1 cc",
        "p3 cc",
        "p1 sm -",
        "p2 sm -",
        "p3 sm -",
    ]
    text = history(3, [100, 8, 100], *agreed)
    assert pokerkit_replay(text) == phh_stacks(phh.loads(text)) == [116, 0, 92]


@pytest.mark.parametrize(
    ("b_stack", "b_action", "ours", "theirs"),
    [
        (7, "p2 cbr 5", 8, 9),  # B all-in for 5 over A's 4 (under half a unit); C raises
        (3, "p2 cbr 1", 4, 5),  # B opens all-in for 1 (under half a unit); C completes
    ],
)
def test_raise_size_after_a_short_all_in(
    b_stack: int, b_action: str, ours: int, theirs: int
) -> None:
    """We raise one unit above the last full bet or raise; PokerKit one unit above the
    all-in amount."""
    opener = ["p1 cbr 4"] if b_action == "p2 cbr 5" else ["p1 cc"]
    first = [*ROUND3, *opener, b_action]
    mine = history(3, [100, b_stack, 100], *first, f"p3 cbr {ours}")
    theirs_text = history(3, [100, b_stack, 100], *first, f"p3 cbr {theirs}")
    assert phh.loads(mine).bet_level == ours
    with pytest.raises(
        HistoryError, match=rf"p3 can only raise to exactly {ours} \(fixed limit\), not {theirs}"
    ):
        phh.loads(theirs_text, rules=POKERKIT_LIKE)
    with pytest.raises(ValueError):
        pokerkit_replay(mine + "")
    # PokerKit takes its own size (the hand stays unfinished, so finish it: everyone calls)
    finish = ["p1 cc", "p1 sd", "p2 sd", "p3 sd", "p1 cc", "p3 cc", "p1 sm -", "p2 sm -", "p3 sm -"]
    assert (
        len(pokerkit_replay(history(3, [100, b_stack, 100], *first, f"p3 cbr {theirs}", *finish)))
        == 3
    )


def test_reshuffle_pokerkit_may_deal_a_player_his_own_discard_back() -> None:
    """Six players all draw five: the stub runs out in the first draw. PokerKit's pool is
    every discard of the draw (and the burn card), so the player served when it runs out
    may get his own discards back - without any warning from PokerKit. No card room does
    that: our "served-discards" rule refuses the history; the "pokerkit" reshuffle of
    Rules.pokerkit() models PokerKit and accepts it."""
    random.seed(5)
    game = PkTripleDraw(
        AUTOMATIONS[:4] + AUTOMATIONS[5:], True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Returning reserved ... cards as dealable": informational
        warnings.filterwarnings("error", message=".*not recommended")  # PokerKit finds no fault
        state = game([100] * 6, 6)
        for _ in range(6):
            state.deal_hole(5)
        for _ in range(6):
            state.check_or_call()
        thrown = {}
        for _ in range(6):
            i = state.stand_patter_or_discarder_index
            thrown[i] = list(state.hole_cards[i])
            state.stand_pat_or_discard(thrown[i])
        got_back = None
        while state.hole_dealee_index is not None:
            i = state.hole_dealee_index
            deck = list(state.deck_cards)
            if len(deck) >= 5:
                state.deal_hole(deck[:5])
            else:  # the rest of the deck, then his own discards (in PokerKit's pool)
                state.deal_hole(deck + thrown[i][: 5 - len(deck)])
                got_back = i
        assert got_back is not None
        text = HandHistory.from_game_state(game, state).dumps()
    with pytest.raises(
        HistoryError, match=rf"p{got_back + 1} cannot receive \w\w: he discarded it"
    ):
        phh.loads(text, rules=POKERKIT_LIKE.replace(reshuffle="served-discards"))
    h = phh.loads(text, rules=POKERKIT_LIKE, seed=1)
    seat = (h.button + 1 + got_back) % 6
    assert set(h.hole_ids(seat)) & set(h.discards(seat))  # his own discard, back to him
    assert [e.kind for e in h.history].count("burn") == 1


def test_odd_chips_of_a_three_way_split() -> None:
    """A pot of 14 split three ways: we give the 2 odd chips one at a time from the first
    seat left of the button (5, 5, 4); PokerKit gives them all to the first winner (6, 4, 4)."""
    acts = ["p3 cc", "p4 cc", "p1 cc", "p2 cc", "p1 sd", "p2 sd", "p3 sd", "p4 sd"]
    acts += ["p1 cbr 2", "p2 cc", "p3 cc", "p4 f", *PATS] + ["p1 cc", "p2 cc", "p3 cc", *PATS] * 1
    acts += ["p1 cc", "p2 cc", "p3 cc", "p1 sm -", "p2 sm -", "p3 sm -"]
    text = history(
        4, [100] * 4, *acts, cards=["7c5d4h3s2c", "7d5h4s3c2d", "7h5s4c3d2h", "KsKdQcJsTc"]
    )
    h = phh.loads(text)
    assert [s for p in h.result.pots for _, s in p.shares] == [5, 5, 4]
    assert phh_stacks(h) == [101, 101, 100, 98]
    assert pokerkit_replay(text) == [102, 100, 100, 98]


def test_a_short_big_blind_keeps_the_full_price_in_ours_only() -> None:
    """A big blind posted short (all-in for 1) does not lower the price: the
    others call 2. PokerKit's price is the largest bet posted, 1."""
    rounds = [*PATS, "p1 cc", "p3 cc"] * 3
    text = history(3, [100, 1, 100], "p3 cc", "p1 cc", *rounds, "p1 sm -", "p2 sm -", "p3 sm -")
    h = phh.loads(text)
    assert h.committed == (2, 1, 2)
    with quiet():
        *_, state = HandHistory.loads(text)
    calls = [op.amount for op in state.operations if type(op).__name__ == "CheckingOrCalling"]
    assert calls[:2] == [1, 0]  # p3 calls 1, the small blind has nothing more to put in
    assert phh_stacks(h) != list(state.stacks)


def test_a_raise_nobody_can_call_is_ours_and_comes_back_uncalled() -> None:
    """p3 raises all-in to 4; the big blind (p2) has 3 chips in all, so nobody left can
    match a raise by the small blind (p1), though p2 is not all-in yet. We allow p1's
    raise to 6 (docs/rules.md refuses a raise only when every other player *is* all-in):
    p2 calls all-in for 3 and the 2 chips nobody matched come back to p1 uncalled.
    PokerKit refuses the raise ("every other player has either folded or gone all-in": it
    compares what each can still put in). Without the raise both agree."""
    showdown = [*PATS * 3, "p1 sm -", "p2 sm -", "p3 sm -"]
    text = history(3, [100, 3, 4], "p3 cbr 4", "p1 cbr 6", "p2 cc", *showdown)
    h = phh.loads(text)
    sb = (h.button + 1) % 3
    assert h.result.returned == (sb, 2)
    assert h.committed[sb] == 4 and phh_stacks(h) == [107, 0, 0]  # 6, less 2 returned
    with pytest.raises(ValueError):
        pokerkit_replay(text)
    game = PkTripleDraw(AUTOMATIONS, True, 0, (1, 2), 2, 4, mode=Mode.CASH_GAME)
    state = game([100, 3, 4], 3)
    state.complete_bet_or_raise_to(4)
    assert not state.can_complete_bet_or_raise_to()
    with pytest.raises(ValueError, match="every other player has either folded or gone all-in"):
        state.complete_bet_or_raise_to(6)
    # the same spot in ours, played directly: the raise is offered
    ours = Hand(Rules(), [4, 100, 3], button=0, seed=1)
    ours.bet_or_raise()
    assert ours.actor == 1 and ours.can_bet_or_raise()
    # p1 calls instead: PokerKit and we give the same stacks
    called = history(3, [100, 3, 4], "p3 cbr 4", "p1 cc", "p2 cc", *showdown)
    assert pokerkit_replay(called) == phh_stacks(phh.loads(called)) == [107, 0, 0]


def test_the_lone_big_blind_pokerkit_asks_to_check_is_not_asked_in_ours() -> None:
    """The button calls all-in, the small blind folds: the big blind is the one player who
    can still bet. PokerKit asks him to check before the draw; ours ends the round (nothing
    is left to bet) and passes over the check a PokerKit history holds. Both orders load
    to the same stacks in both engines. Found by PokerKit hands of short stacks."""
    draws = ["p2 sd", "p3 sd"] * 3
    showdown = ["p2 sm -", "p3 sm -"]
    with_check = history(3, [13, 13, 2], "p3 cc", "p1 f", "p2 cc", *draws, *showdown)
    without = history(3, [13, 13, 2], "p3 cc", "p1 f", *draws, *showdown)
    final = pokerkit_replay(with_check)
    assert pokerkit_replay(without) == final  # PokerKit fills in the missing check
    for text in (with_check, without):
        for rules in (Rules(), Rules.pokerkit()):
            h = phh.loads(text, rules=rules)
            assert h.is_over and phh_stacks(h) == final
            assert "check" not in [e.kind for e in h.history]
    # and from one player's view (a record: the others' cards unknown)
    view = history(
        3, [13, 13, 2], "p3 cc", "p1 f", "p2 cc", *draws, cards=["7c5d4h3s2c", "?" * 10, "?" * 10]
    )
    h = phh.loads(view)
    assert h.is_record and h.is_over and sum(h.stacks) == 28
    # the check is passed over only where a draw begins and nobody else can bet
    late = history(3, [13, 13, 2], "p3 cc", "p1 f", "p2 sd", "p2 cc", *draws[1:], *showdown)
    with pytest.raises(HistoryError, match="p2 acts out of turn: p3 is to draw"):
        phh.loads(late)
