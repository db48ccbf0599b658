"""PHH from an untrusted source, and PHH written for one player: every number is bounded
before it is converted, bad arguments to the writer are the package's errors, and a
player's view of a hand with many reshuffles loads back (docs: PHH, untrusted input)."""

from __future__ import annotations

import datetime
import io
import re
import sys

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

from conftest import count_replays, draw_heavy_hand, reshuffling_seeds, spy_on_search

from triple_draw import phh
from triple_draw.errors import ArgumentError, HistoryError, TripleDrawError
from triple_draw.game import Hand, Rules
from triple_draw.phh.base import MAX_DIGITS, MAX_NUMBER_CHARS

BASE = """
variant = "F2L3D"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
small_bet = 2
big_bet = 4
starting_stacks = {stacks}
actions = [
  "d dh p1 7h5d4c3s2h",
  "d dh p2 KdQsJh9s8c",
  "d dh p3 AsAdKsKhTc",
  "{action}",
]
{extra}
"""


def history(action: str = "p3 cc", stacks: str = "[100, 100, 100]", extra: str = "") -> str:
    return BASE.format(action=action, stacks=stacks, extra=extra)


def test_the_base_history_loads() -> None:
    assert phh.loads(history()).stacks == (99, 98, 98)


# -- numbers are bounded before they are converted ---------------------------------------------

BOUNDED = r"below 10\*\*40|characters|digits"


@pytest.mark.parametrize(
    "amount",
    [
        "1e1000000",
        "1E+999999999",
        "1" + "0" * 100_000,
        "9" * (MAX_DIGITS + 1),
        "1e40",
        "1" + "0" * (MAX_NUMBER_CHARS - 1) + ".0",
    ],
    ids=["exp-1e6", "exp-1e9", "digits-1e5", "digits-41", "exp-40", "long-literal"],
)
def test_a_huge_bet_amount_is_refused_by_its_bound(amount: str) -> None:
    with pytest.raises(HistoryError, match=BOUNDED + "|not a positive whole number"):
        phh.loads(history(f"p3 cbr {amount}"))


@pytest.mark.parametrize(
    "value",
    ["1e1000000", "1.0e999999999", "1e-1000000", "9" * 5000, "1" + "_0" * 3000, "0x" + "f" * 5000],
    ids=["exp", "exp-float", "tiny", "digits-5000", "underscored", "hex"],
)
def test_a_huge_rules_option_is_refused_by_its_bound(value: str) -> None:
    text = history(extra=f"[_triple_draw_rules]\nraise_cap = {value}\n")
    with pytest.raises(HistoryError, match=BOUNDED + "|too long|whole number"):
        phh.loads(text)


@pytest.mark.parametrize(
    "stacks",
    ["[1e1000000, 100, 100]", "[100, " + "9" * 4000 + ", 100]", "[100, 1e-999999, 100]"],
    ids=["exp", "digits", "fraction"],
)
def test_huge_chip_counts_are_refused_by_their_bound(stacks: str) -> None:
    with pytest.raises(HistoryError, match=BOUNDED + "|whole number"):
        phh.loads(history(stacks=stacks))


def test_an_integer_beyond_the_interpreters_digit_limit_is_a_history_error() -> None:
    with pytest.raises(HistoryError, match=r"too long|more than 4300 digits"):
        phh.loads(history(stacks="[100, " + "9" * 10_000 + ", 100]"))


def test_deep_nesting_is_a_history_error() -> None:
    with pytest.raises(HistoryError, match="nested too deeply"):
        phh.loads(history(extra="_deep = " + "[" * 100_000 + "]" * 100_000))


def test_many_huge_amounts_are_each_refused_at_the_first() -> None:
    # a long text of hostile numbers is read once, in one pass, and the first is refused
    actions = "\n".join(f'  "p3 cbr 1e{10**8 + i}",' for i in range(9_000))
    text = history().replace('  "p3 cc",', actions)
    with pytest.raises(HistoryError, match=r"action 4 .*not a positive whole number"):
        phh.loads(text)


def test_a_history_longer_than_any_hand_is_refused_before_it_is_solved() -> None:
    calls = ", ".join(['"p3 cc # limp"'] * 20_000)
    with pytest.raises(HistoryError, match="20003 actions: a history has at most 10000"):
        phh.loads(history().replace('"p3 cc"', calls))


def test_draws_without_their_betting_rounds_are_refused() -> None:
    draws = ['"p3 cc"', '"p1 cc"', '"p2 cc"'] + ['"p1 sd ??"', '"p2 sd"', '"p3 sd"'] * 4
    text = history().replace('"p3 cc"', ", ".join(draws))
    text = "\n".join(line for line in text.splitlines() if "d dh" not in line)
    with pytest.raises(HistoryError, match="action 7 'p1 sd \\?\\?': p1 cannot draw during a"):
        phh.loads(text)
    # (phh.complete, which deals the unknown cards, counts the draws first)
    with pytest.raises(HistoryError, match="fourth time"):
        phh.complete(text)


def test_text_that_is_not_a_str_is_a_history_error() -> None:
    with pytest.raises(HistoryError, match="must be a str"):
        phh.loads(b"variant = 1")  # type: ignore[arg-type]


# -- the writer's arguments ---------------------------------------------------------------------


@pytest.fixture
def hand() -> Hand:
    h = Hand(Rules(), [100, 100, 100], button=2, seed=3)
    h.fold()
    h.fold()
    return h


@pytest.mark.parametrize("viewer", [5, -1, 3, True, "1", 1.0])
def test_a_bad_viewer_is_the_packages_error(hand: Hand, viewer: object) -> None:
    with pytest.raises(ArgumentError, match="viewer"):
        phh.dumps(hand, viewer=viewer)  # type: ignore[arg-type]


def test_dumps_of_something_else_than_a_hand_is_the_packages_error() -> None:
    with pytest.raises(ArgumentError, match="expects a Hand"):
        phh.dumps(42)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "fields",
    [
        {"_nan": float("nan")},
        {"_obj": object()},
        {"_t": datetime.time(1, 2, tzinfo=datetime.timezone.utc)},
        {"_\ud800": 1},
        {"_s": "a\ud800"},
        {"_none": [1, None]},
        {"_keys": {1: 2}},
        {"bad name": 1},
        {"": 1},
        {"players": 3},
        {"players": ["a", "b"]},
    ],
    ids=[
        "nan",
        "object",
        "tz-time",
        "surrogate-name",
        "surrogate-value",
        "none-in-list",
        "int-key",
        "spaced-name",
        "empty-name",
        "players-not-list",
        "players-short",
    ],
)
def test_fields_that_would_not_read_back_are_refused(hand: Hand, fields: dict[str, object]) -> None:
    with pytest.raises(ArgumentError):
        phh.dumps(hand, **fields)


@pytest.mark.parametrize(
    "fields",
    [
        {"_a b": 1, "_ü": "é", "_when": datetime.datetime(2026, 1, 2, 3, 4, 5)},
        {"_nested": {"x": [1, 2, {"y": "z"}]}, "_tuple": (1, 2)},
        {"event": 'A "quoted"\nline', "time_zone": "UTC", "day": 3},
    ],
    ids=["odd-names", "nested", "strings"],
)
def test_fields_that_read_back_are_written(hand: Hand, fields: dict[str, object]) -> None:
    doc = tomllib.loads(phh.dumps(hand, **fields))
    for name, value in fields.items():
        want = list(value) if isinstance(value, tuple) else value
        assert doc[name] == want
    assert phh.loads(phh.dumps(hand, **fields)).stacks == hand.stacks


def test_every_phh_field_name_can_be_passed_to_every_writer(hand: Hand, tmp_path) -> None:
    fields = {"event": "Club night", "hand": 12, "players": ["Ann", "Bob", "Cy"], "table": 3}
    text = phh.dumps(hand, **fields)
    assert "hand = 12" in text and 'players = [\n  "Ann",' in text
    assert "hand = 12" in phh.dumps_all([hand, hand], **fields)
    out = io.StringIO()
    phh.dump(hand, out, **fields)
    assert out.getvalue() == text
    phh.dump_all([hand], tmp_path / "s.phhs", **fields)
    assert phh.load_all(tmp_path / "s.phhs")[0].stacks == hand.stacks
    assert phh.dumps(hand, viewer=0, hand=1) != phh.dumps(hand, hand=1)


def test_every_error_of_the_writer_is_a_triple_draw_error(hand: Hand) -> None:
    for bad in ({"viewer": 9}, {"colour": 1}, {"actions": []}, {"_x": object()}):
        with pytest.raises(TripleDrawError):
            phh.dumps(hand, **bad)


# -- a player's view of a hand with many reshuffles loads back -----------------------------------


VIEW_CASES = [
    (reshuffle, procedure, n, seed)
    for reshuffle in ("served-discards", "pokerstars")
    for procedure in ("declare-then-deal", "immediate")
    for n in (6, 7, 8)
    for seed in reshuffling_seeds(
        Rules(max_players=8, reshuffle=reshuffle, draw_procedure=procedure), n
    )
]


@pytest.mark.parametrize(("reshuffle", "procedure", "n", "seed"), VIEW_CASES)
def test_every_players_view_of_many_reshuffles_loads_back(
    reshuffle: str, procedure: str, n: int, seed: int
) -> None:
    rules = Rules(max_players=8, reshuffle=reshuffle, draw_procedure=procedure)
    h = draw_heavy_hand(rules, n, seed)
    assert sum(e.kind == "reshuffle" for e in h.history) >= 2
    for viewer in range(n):
        back = phh.loads(phh.dumps(h, viewer=viewer), seed=seed)
        assert back.stacks == h.stacks, viewer
        assert back.hole_ids(viewer) == h.hole_ids(viewer) or h.folded[viewer]


def test_an_action_out_of_turn_is_refused_without_trying_other_cards(monkeypatch) -> None:

    rules = Rules(max_players=8)
    h = draw_heavy_hand(rules, 8, 2)
    text = phh.dumps(h, viewer=0)
    last_bet = text.rindex('  "p')
    bad = text[:last_bet] + '  "p1 cbr 999",\n' + text[last_bet:]
    with pytest.raises(HistoryError, match="p1 cbr 999"):
        phh.loads(bad, seed=1)  # replayed as it is: no cards to try
    calls = count_replays(monkeypatch)
    with pytest.raises(HistoryError, match="p1 cbr 999"):
        phh.complete(bad, seed=1)
    assert len(calls) == 1


def test_an_impossible_view_is_refused_within_the_bound_of_attempts(monkeypatch) -> None:
    # under "pokerstars" a player never gets back a card he threw: a view where the viewer
    # is dealt his own first discard in the third draw has no choice of unknown cards; the
    # search gives up at its bound and the random choices after it are bounded too (a
    # history is untrusted input)
    from triple_draw.phh import read

    h = draw_heavy_hand(Rules(max_players=8, reshuffle="pokerstars"), 8, 2)
    text = phh.dumps(h, viewer=0)
    card = "[2-9TJQKA][cdhs]"
    # the viewer's own discards and replacements are the only named ones
    discards = re.findall(rf'"(p\d) sd ((?:{card})+)"', text)
    assert discards, "the viewer throws cards in this hand"
    who, thrown = discards[0]
    first = thrown[:2]
    deals = re.findall(rf'"d dh {who} ((?:{card})+)"', text)
    last = deals[-1]
    assert len(deals) >= 2 and text.index(f'"d dh {who} {last}"') > text.index(
        f'"{who} sd {thrown}"'
    )
    bad = text.replace(f"{who} {last}", f"{who} {first}{last[2:]}").replace(
        f"{who} sm {last}", f"{who} sm {first}{last[2:]}"
    )
    with pytest.raises(HistoryError, match="pokerstars"):
        phh.loads(bad, seed=1)  # replayed as it is: the engine sees his own discard at once
    calls = count_replays(monkeypatch)
    searched = spy_on_search(monkeypatch)
    with pytest.raises(HistoryError, match="cannot"):
        phh.complete(bad, seed=1)
    assert searched == [None]  # the search ran, and gave up at its bound
    assert 0 < len(calls) <= read.MAX_ATTEMPTS
