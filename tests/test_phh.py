"""PHH hand histories (triple_draw.phh): writing, reading, round trips, unknown cards,
.phhs files, and the errors a malformed or illegal history raises."""

from __future__ import annotations

import io
import random
import sys

import pytest
import tomli_w

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

from conftest import play_randomly

from triple_draw import phh
from triple_draw.errors import HistoryError
from triple_draw.game import Action, Hand, Rules
from triple_draw.game.cards import CARD_TEXT

RULE_SETS = [
    Rules(),
    Rules.online(),
    Rules(muck_beaten_hands=True, ante=1),
    Rules.online(muck_beaten_hands=True, raise_cap=4),
]


def play(
    hand: Hand, rng: random.Random, *, steps: int | None = None, draw_heavy: float = 0.3
) -> Hand:
    """Random legal play (folds rare, draws sometimes of five cards) until the end or
    ``steps`` actions."""
    return play_randomly(hand, rng, draw_heavy=draw_heavy, weight=5, steps=steps)


def random_hand(
    seed: int, n: int | None = None, rules: Rules | None = None, stacks: list[int] | None = None
) -> Hand:
    rng = random.Random(seed)
    n = n or 2 + seed % 5
    rules = rules or RULE_SETS[seed % len(RULE_SETS)]
    stacks = stacks or [rng.choice([9, 40, 1000]) for _ in range(n)]
    return Hand(rules, stacks, button=rng.randrange(n), seed=seed)


def phh_order(hand: Hand) -> list[int]:
    n = hand.n_players
    return [(hand.button + 1 + k) % n for k in range(n)]


# -- writing -------------------------------------------------------------------------------------


def test_dumps_writes_the_phh_fields_in_phh_seat_order() -> None:
    # four players, button on seat 1: p1 = small blind = seat 2, p4 = button = seat 1
    h = Hand(Rules(ante=1), [100, 200, 300, 400], button=1, seed=3)
    d = tomllib.loads(phh.dumps(h, event="club game", players=["A", "B", "C", "D"]))
    assert d["variant"] == "F2L3D"
    assert d["antes"] == [1, 1, 1, 1]
    assert d["blinds_or_straddles"] == [1, 2, 0, 0]
    assert (d["small_bet"], d["big_bet"]) == (2, 4)
    assert d["starting_stacks"] == [300, 400, 100, 200]
    assert d["seats"] == [3, 4, 1, 2]
    assert d["players"] == ["C", "D", "A", "B"]
    assert d["event"] == "club game"
    assert d["_triple_draw_rules"]["raise_cap"] == 3
    assert "finishing_stacks" not in d  # the hand is not over
    deal = [a for a in d["actions"] if a.startswith("d dh")]
    assert deal == [f"d dh p{k + 1} {''.join(h.hole_text(s))}" for k, s in enumerate(phh_order(h))]


def test_heads_up_p1_is_the_big_blind_and_the_button_is_last() -> None:
    h = Hand(Rules(), [50, 70], button=0, seed=1)
    d = tomllib.loads(phh.dumps(h))
    assert d["starting_stacks"] == [70, 50]  # p1 = seat 1 (big blind), p2 = seat 0 (button)
    assert d["blinds_or_straddles"] == [1, 2]  # reverse-assigned heads-up, as PHH says
    assert d["actions"][-1] == "p2 cbr 4" or h.actor == 0


def test_action_notation() -> None:
    # three players, button seat 2: p1 = seat 0 (small blind), p2 = seat 1, p3 = button
    h = Hand(Rules(), [100, 100, 100], button=2, seed=11)
    h.apply(Action("raise"))  # p3 raises to 4
    h.apply(Action("call"))  # p1 calls
    h.apply(Action("fold"))  # p2 folds
    thrown = h.hole_ids(0)[:2]
    h.discard(thrown)  # p1 draws two
    h.discard(())  # p3 stands pat
    h.check_or_call()  # p1 checks
    got = next(e for e in h.history if e.kind == "draw").cards
    actions = tomllib.loads(phh.dumps(h))["actions"]
    assert actions[3:] == [
        "p3 cbr 4",
        "p1 cc",
        "p2 f",
        "p1 sd " + "".join(CARD_TEXT[c] for c in thrown),
        "p3 sd",
        "d dh p1 " + "".join(got),
        "p1 cc",
    ]
    assert list(phh.iter_actions(h)) == actions


def test_dump_rejects_unknown_fields_and_bad_viewers() -> None:
    h = Hand(Rules(), [100, 100], seed=1)
    with pytest.raises(ValueError, match="unknown PHH field"):
        phh.dumps(h, colour="red")
    with pytest.raises(ValueError, match="written by dumps"):
        phh.dumps(h, actions=[])
    with pytest.raises(ValueError, match="viewer"):
        phh.dumps(h, viewer=2)
    assert "_note = " in phh.dumps(h, _note='say "hi"')


# -- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize("block", range(4))
def test_finished_hands_round_trip(block: int) -> None:
    for seed in range(block * 60, block * 60 + 60):
        h = play(random_hand(seed), random.Random(seed))
        text = phh.dumps(h)
        h2 = phh.loads(text, seed=seed)
        assert h2.is_over
        assert h2.stacks == h.stacks, text
        assert h2.button == h.button and h2.rules == h.rules
        assert [h2.hole_ids(s) for s in range(h.n_players)] == [
            h.hole_ids(s) for s in range(h.n_players)
        ]
        assert phh.dumps(h2) == text


def test_hands_in_progress_round_trip_to_the_same_state() -> None:
    for seed in range(120):
        rng = random.Random(seed)
        h = play(random_hand(seed), rng, steps=rng.randrange(1, 25))
        h2 = phh.loads(phh.dumps(h), seed=seed)
        for attr in (
            "phase",
            "street",
            "actor",
            "stacks",
            "bets",
            "committed",
            "folded",
            "pot",
            "to_call",
        ):
            assert getattr(h2, attr) == getattr(h, attr), (seed, attr)
        assert [sorted(h2.hole_ids(s)) for s in range(h.n_players)] == [
            sorted(h.hole_ids(s)) for s in range(h.n_players)
        ]
        assert h2.legal_actions() == h.legal_actions() or h.in_draw
        assert h2.rules == h.rules
        # the replayed hand plays on
        play(h2, rng)
        assert sum(h2.stacks) == sum(h2.starting_stacks)


def test_a_draw_left_unfinished_keeps_its_declared_discards() -> None:
    h = Hand(Rules(), [100, 100, 100], button=0, seed=5)
    for _ in range(3):
        h.check_or_call()
    assert h.in_draw
    h.discard(h.hole_ids(h.actor)[:3])  # declared, not yet dealt (declare-then-deal)
    h2 = phh.loads(phh.dumps(h))
    assert h2.in_draw and h2.actor == h.actor
    assert h2.to_dict()["table_discards"] == h.to_dict()["table_discards"]


def test_seat_numbers_and_rules_survive_the_round_trip() -> None:
    rules = Rules.online(10, raise_cap=4, muck_beaten_hands=True, ante=2)
    h = play(Hand(rules, [500, 600, 700, 800, 900], button=3, seed=9), random.Random(9))
    h2 = phh.loads(phh.dumps(h))
    assert h2.rules == rules
    assert h2.button == 3 and h2.starting_stacks == h.starting_stacks


def test_loads_uses_given_rules_with_the_files_stakes() -> None:
    h = play(Hand(Rules(), [100] * 3, seed=2), random.Random(2))
    h2 = phh.loads(phh.dumps(h), rules=Rules(small_bet=20, big_bet=40, big_blind=10, raise_cap=5))
    assert (h2.rules.small_bet, h2.rules.big_bet, h2.rules.raise_cap) == (2, 4, 5)


@pytest.mark.parametrize(
    "rules",
    [
        Rules(max_players=8, draw_procedure=p, reshuffle=r)
        for p in ("declare-then-deal", "immediate")
        for r in ("served-discards", "pokerstars")
    ],
    ids=lambda r: f"{r.draw_procedure}/{r.reshuffle}",
)
def test_loaded_hands_replay_under_their_own_rules_to_the_same_history(rules: Rules) -> None:
    """A hand our engine played loads under its own rules with the same history - the
    reshuffle events where they happened, the replacements where they were dealt - and,
    given the original seed, the very same state (deck included). 2-6 players, and 6-8
    players drawing a lot, so that the stub runs out (once or more in a draw)."""
    reshuffled = 0
    for seed in range(60):
        rng = random.Random(seed)
        heavy = seed % 3 == 0
        n = 6 + seed % 3 if heavy else 2 + seed % 5
        stacks = [rng.choice([9, 40, 1000]) for _ in range(n)]
        h = Hand(rules, stacks, button=rng.randrange(n), seed=seed)
        steps = rng.randrange(1, 60) if seed % 5 == 0 else None  # some stop anywhere
        play(h, rng, steps=steps, draw_heavy=0.9 if heavy else 0.3)
        h2 = phh.loads(phh.dumps(h), seed=seed)
        assert h2.rules == h.rules
        assert h2.history == h.history, seed
        assert h2.to_dict() == h.to_dict(), seed
        reshuffled += any(e.kind == "reshuffle" for e in h.history)
    assert reshuffled >= 15


# -- unknown cards -------------------------------------------------------------------------------


def test_a_players_view_hides_the_other_cards_and_replays_to_the_same_stacks() -> None:
    for seed in range(150):
        h = play(random_hand(seed), random.Random(seed), draw_heavy=0.5)
        for v in range(h.n_players):
            text = phh.dumps(h, viewer=v)
            hidden = [
                a
                for a in tomllib.loads(text)["actions"]
                if a.startswith(("d dh", "p")) and "?" in a
            ]
            assert all(not a.startswith(f"p{phh_order(h).index(v) + 1} ") for a in hidden)
            h2 = phh.loads(text, seed=seed)
            assert h2.stacks == h.stacks, (seed, v)
            assert h2.hole_ids(v) == h.hole_ids(v) or h.folded[v]


def test_unknown_cards_are_resolved_from_the_showdown() -> None:
    text = """
variant = "F2L3D"
antes = [0, 0]
blinds_or_straddles = [1, 2]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100]
actions = [
  "d dh p1 ??????????",
  "d dh p2 ??????????",
  "p2 cc", "p1 cc",
  "p1 sd ????", "p2 sd ??",
  "d dh p1 ????", "d dh p2 ??",
  "p1 cc", "p2 cc",
  "p1 sd 9h", "p2 sd",
  "d dh p1 ??",
  "p1 cc", "p2 cc",
  "p1 sd", "p2 sd ??????",
  "d dh p2 Kd??Qs",
  "p1 cbr 4", "p2 cc",
  "p1 sm 7h5d4c3s2h",
  "p2 sm KdQsJh9s8c",
]
"""
    h = phh.loads(text, seed=1)
    assert h.is_over
    assert sorted(h.hole_text(0)) == sorted("7h 5d 4c 3s 2h".split())
    assert sorted(h.hole_text(1)) == sorted("Kd Qs Jh 9s 8c".split())
    assert h.stacks == (106, 94)  # p1 is seat 0 (big blind), p2 the button
    assert "9h" not in h.hole_text(0)


def test_replacements_missing_from_the_history_are_unknown_cards() -> None:
    """PokerKit's HandHistory deals '??' when a record leaves the replacements out; so do
    we, choosing cards no one holds."""
    text = history(
        "p3 cc", "p1 cc", "p2 cc", "p1 sd 7h", "p2 sd KdQs", "p3 sd AsAd", "p1 cc", "p2 cc", "p3 f"
    )
    for seed in range(10):
        h = phh.loads(text, seed=seed)
        assert h.stacks == (98, 98, 98) and h.actor == 0 and h.street == 1
        cards = [c for s in range(3) for c in h.hole_ids(s)]
        assert len(set(cards)) == 15
        assert {"Ks", "Kh", "Tc"} <= set(h.hole_text(2)) and not {"As", "Ad"} & set(h.hole_text(2))
        assert len(h.hole_ids(0)) == len(h.hole_ids(1)) == 5


def test_a_hand_mucked_unseen_loses() -> None:
    text = """
variant = "F2L3D"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = ["d dh p3 9c8c6d4h3s", "p3 cc", "p1 cc", "p2 cc",
  "p1 sd", "p2 sd", "p3 sd", "p1 cc", "p2 cc", "p3 cc",
  "p1 sd", "p2 sd", "p3 sd", "p1 cc", "p2 cc", "p3 cc",
  "p1 sd", "p2 sd", "p3 sd", "p1 cc", "p2 cc", "p3 cc",
  "p3 sm 9c8c6d4h3s", "p1 sm", "p2 sm"]
_triple_draw_rules = {muck_beaten_hands = true}
"""
    for seed in range(20):
        h = phh.loads(text, seed=seed)
        assert h.stacks == (98, 98, 104)


def test_the_pokerkit_paper_example_hand() -> None:
    """Yockey-Arieh, 2019 WSOP Event #58 (the F2L3D example of the PHH specification):
    three players' cards partly unknown, a short all-in bet on the last round."""
    text = """
variant = "F2L3D"
ante_trimming_status = true
antes = [0, 0, 0, 0]
blinds_or_straddles = [75000, 150000, 0, 0]
small_bet = 150000
big_bet = 300000
starting_stacks = [1180000, 4340000, 5910000, 10765000]
actions = [
  "d dh p1 7h6c4c3d2c", "d dh p2 ??????????", "d dh p3 ??????????", "d dh p4 AsQs6s5c3c",
  "p3 f", "p4 cbr 300000", "p1 cbr 450000", "p2 f", "p4 cc",
  "p1 sd", "p4 sd AsQs", "d dh p4 2hQh", "p1 cbr 150000", "p4 cc",
  "p1 sd", "p4 sd Qh", "d dh p4 4d", "p1 cbr 300000", "p4 cc",
  "p1 sd", "p4 sd 6s", "d dh p4 7c", "p1 cbr 280000", "p4 cc",
  "p1 sm 7h6c4c3d2c", "p4 sm 2h4d7c5c3c",
]
players = ["Bryce Yockey", "Phil Hui", "John Esposito", "Josh Arieh"]
"""
    h = phh.loads(text)
    assert h.stacks == (0, 4190000, 5910000, 12095000)
    assert [e.name for e in h.result.showdown] == ["7-6 low", "7-5 low"]


# -- files ---------------------------------------------------------------------------------------


def test_phhs_files_of_many_hands(tmp_path) -> None:
    hands = [play(random_hand(s), random.Random(s)) for s in range(12)]
    path = tmp_path / "session.phhs"
    phh.dump_all(hands, path, event="test session")
    text = path.read_text()
    assert text.startswith("[1]\n") and "\n[12]\n" in text
    loaded = phh.load_all(path)
    assert [h.stacks for h in loaded] == [h.stacks for h in hands]
    assert phh.loads_all(phh.dumps(hands[0]))[0].stacks == hands[0].stacks
    with pytest.raises(HistoryError, match="use loads_all"):
        phh.loads(text)
    buf = io.BytesIO()
    phh.dump(hands[3], buf)
    buf.seek(0)
    assert phh.load(buf).stacks == hands[3].stacks
    sbuf = io.StringIO()
    phh.dump(hands[4], sbuf)
    assert phh.load(io.StringIO(sbuf.getvalue())).stacks == hands[4].stacks


def test_errors_in_a_phhs_file_name_the_hand() -> None:
    text = phh.dumps_all([play(random_hand(s), random.Random(s)) for s in range(3)])
    bad = text.replace("[3]\nvariant", "[3]\nbad_line = 1\nvariant").replace(
        '"p1 cc"', '"p1 xx"', 1
    )
    with pytest.raises(HistoryError, match=r"hand \[\d\]"):
        phh.loads_all(bad)


# -- malformed and illegal histories --------------------------------------------------------------

BASE = """
variant = "F2L3D"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 7h5d4c3s2h",
  "d dh p2 KdQsJh9s8c",
  "d dh p3 AsAdKsKhTc",
{actions}
]
"""


def history(*actions: str, base: str = BASE) -> str:
    return base.replace("{actions}", "".join(f'  "{a}",\n' for a in actions))


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        (
            ["p1 cc"],
            r"line 12, action 4 'p1 cc': p1 acts out of turn: p3 is to act \(betting round 1\)",
        ),
        (
            ["p3 cbr 5"],
            r"action 4 'p3 cbr 5': p3 can only raise to exactly 4 \(fixed limit\), not 5",
        ),
        (["p3 cbr 4", "p1 cbr 6", "p2 cbr 8", "p3 cbr 10"], r"'p3 cbr 10': .*capped"),
        (["p3 cc", "p1 cc", "p2 cc", "p1 sd 9h"], r"p1 discards 9h, which he does not hold"),
        (
            ["p3 cc", "p1 cc", "p2 cc", "p1 sd 7h", "d dh p1 6h6d"],
            r"p1 discarded 1 cards but is dealt 2",
        ),
        (
            ["p3 cc", "p1 cc", "p2 cc", "p1 sd 7h", "p2 sd", "p3 sd", "d dh p1 8c"],
            r"'p1 sd 7h': p1 cannot receive 8c: p2 holds it",
        ),
        (
            ["p3 cc", "p1 cc", "p2 cc", "p1 sd 7h", "p2 sd", "p3 sd", "d dh p1 7h"],
            r"'p1 sd 7h': p1 cannot receive 7h: he discarded it in this draw",
        ),
        (
            ["p3 f", "p1 cc", "p2 cc", "p1 sd 7h", "p2 sd", "d dh p1 As"],
            r"p1 cannot receive As: it is out of play and the stub still holds 37 cards",
        ),
        (["p3 cc", "p1 cc", "p2 cc", "p1 cc"], r"p1 cannot .*draw|must draw now"),
        (["p3 cc", "p1 cc", "p2 cc", "p2 sd"], r"p2 acts out of turn: p1 is to draw"),
        (["p3 cc", "p1 sd"], r"p1 cannot draw"),
        (["p3 f", "p1 f", "p2 cc"], r"the hand is already over"),
        (["p3 cc", "p1 sm 7h5d4c3s2h"], r"shows or mucks before the showdown"),
        (["d db 7h"], r"no board cards"),
        (["p3 pb"], r"no bring-in"),
        (["p3 xx"], r"unknown action 'xx'"),
        (["q3 f"], r"'q3' is not a player"),
        (["p4 f"], r"there is no player p4"),
        (["p3 cbr lots"], r"not a positive whole number"),
        (["p3 cbr 4.5"], r"not a positive whole number"),
        (["p3 sd 7h7h"], r"listed twice"),
        (["d dh p1 2c"], r"no discard waiting"),
        (["p3 cc", "p1 cc", "p2 cc", "p1 sd 7x"], r"bad cards"),
    ],
)
def test_illegal_or_malformed_actions_name_the_action_and_the_reason(
    actions: list[str], message: str
) -> None:
    with pytest.raises(HistoryError, match=message):
        phh.loads(history(*actions))


def test_the_history_ends_at_any_point_before_an_error() -> None:
    h = phh.loads(history("p3 cbr 4", "p1 cbr 6", "p2 cbr 8"))
    assert h.actor == 2 and h.bet_level == 8


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda t: t.replace('variant = "F2L3D"', 'variant = "NT"'), r"variant 'NT' is not"),
        (lambda t: t.replace("small_bet = 2\n", ""), r"missing required field 'small_bet'"),
        (lambda t: t.replace("antes = [0, 0, 0]", "antes = [0, 1, 0]"), r"antes must be the same"),
        (lambda t: t.replace("[1, 2, 0]", "[1, 2, 4]"), r"straddles are not supported"),
        (
            lambda t: t.replace("[1, 2, 0]", "[1, 2]"),
            r"blinds_or_straddles must have one entry per player",
        ),
        (lambda t: t.replace("[100, 100, 100]", "[100, 100.5, 100]"), r"whole number of chips"),
        (
            lambda t: t.replace("[100, 100, 100]", "[100, 0, 100]"),
            r"starting_stacks\[1\] must be >= 1",
        ),
        (lambda t: t.replace("[100, 100, 100]", "[100]"), r"starting_stacks must list 2 to 8"),
        (lambda t: t.replace("small_bet = 2", "small_bet = 1"), r"not valid rules.*small_bet"),
        (lambda t: t + "min_bet = 2\n", r"'min_bet' does not belong"),
        (lambda t: t + "_triple_draw_rules = {raise_cap = 0}\n", r"raise_cap"),
        (lambda t: t + "_triple_draw_rules = {colour = 1}\n", r"unknown rule option 'colour'"),
        (lambda t: t + "_triple_draw_rules = {big_bet = 8}\n", r"disagrees"),
        (lambda t: t.replace("actions = [", "actions = ["), r"."),
        (lambda t: t.replace("actions = [", "actions = [["), r"not valid TOML"),
        (lambda t: t.replace('"d dh p1 7h5d4c3s2h"', '"d dh p1 7h5d4c"'), r"dealt 3 hole cards"),
        (
            lambda t: t.replace('"d dh p1 7h5d4c3s2h"', '"d dh p1 7h5d4c3s2hAh"'),
            r"dealt 6 hole cards",
        ),
        (lambda t: t.replace('"d dh p1 7h5d4c3s2h"', '"d dh p1 7h5d4c3sKd"'), r"impossible.*Kd"),
    ],
)
def test_malformed_fields_are_history_errors(change, message: str) -> None:
    text = change(history("p3 cc"))
    if message == ".":
        phh.loads(text)
        return
    with pytest.raises(HistoryError, match=message):
        phh.loads(text)


def test_finishing_stacks_are_checked() -> None:
    h = play(Hand(Rules(), [100, 100, 100], seed=4), random.Random(4))
    text = phh.dumps(h)
    wrong = [
        x + (1 if i == 0 else -1 if i == 1 else 0)
        for i, x in enumerate(h.stacks[s] for s in phh_order(h))
    ]
    doc = tomllib.loads(text)
    assert doc["finishing_stacks"] == [h.stacks[s] for s in phh_order(h)]
    doc["finishing_stacks"] = wrong
    bad = tomli_w.dumps(doc)
    with pytest.raises(HistoryError, match=r"finishing_stacks .* disagree"):
        phh.loads(bad)
    assert phh.loads(bad, check_finishing_stacks=False).stacks == h.stacks


def test_showdown_lines_are_checked() -> None:
    acts = ["p3 cc", "p1 cc", "p2 cc"] + ["p1 sd", "p2 sd", "p3 sd", "p1 cc", "p2 cc", "p3 cc"] * 3
    assert phh.loads(history(*acts, "p1 sm 7h5d4c3s2h", "p2 sm -")).stacks == (104, 98, 98)
    with pytest.raises(HistoryError, match="p2 shows 7c, which he does not hold"):
        phh.loads(history(*acts, "p2 sm 7cQsJh9s8c"))
    with pytest.raises(HistoryError, match="already showed"):
        phh.loads(history(*acts, "p1 sm -", "p1 sm -"))
    with pytest.raises(HistoryError, match="p1 mucks, but his hand wins"):
        phh.loads(history(*acts, "p2 sm -", "p1 sm"))
    with pytest.raises(HistoryError, match="not in a showdown"):
        phh.loads(history("p3 f", "p1 f", "p2 sm -"))


def test_commentary_and_noops_are_ignored() -> None:
    h = phh.loads(history("p3 cc # limps", "# the small blind thinks", "", "p1 f"))
    assert h.folded == (True, False, False)


def test_unknown_plain_fields_warn_and_user_fields_are_ignored() -> None:
    with pytest.warns(UserWarning, match="unknown PHH field 'colour'"):
        phh.loads(history("p3 cc") + 'colour = "red"\n')
    phh.loads(history("p3 cc") + '_colour = "red"\n')
