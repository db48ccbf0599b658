"""Rules values: validation naming the field, the live and online presets, repr/pickle/dict."""

from __future__ import annotations

import pickle

import pytest

from triple_draw import RulesError
from triple_draw.game import Rules


def test_defaults_are_the_live_rules_of_the_seeds():
    r = Rules()
    assert (r.small_blind, r.big_blind, r.small_bet, r.big_bet, r.ante) == (1, 2, 2, 4, 0)
    assert r.raise_cap == 3 and not r.heads_up_uncapped
    assert r.short_all_in == "half-bet"
    assert r.draw_procedure == "declare-then-deal" and r.reshuffle == "served-discards"
    assert r.max_players == 6 and not r.muck_beaten_hands
    assert Rules.live() == r


def test_presets():
    assert Rules.live(10) == Rules(small_blind=5, big_blind=10, small_bet=10, big_bet=20)
    assert Rules.wsop(10).raise_cap == 4
    online = Rules.online(10)
    assert online.draw_procedure == "immediate" and online.reshuffle == "pokerstars"
    assert Rules.pokerstars(10) == online
    assert Rules.online(10, raise_cap=5).raise_cap == 5


@pytest.mark.parametrize(
    "kwargs,field",
    [
        ({"small_blind": -1}, "small_blind"),
        ({"big_blind": 0, "small_blind": 0}, "big_blind"),
        ({"small_blind": 3}, "small_blind"),
        ({"big_bet": 1}, "big_bet"),
        ({"small_bet": 1}, "small_bet"),
        ({"ante": -1}, "ante"),
        ({"raise_cap": 0}, "raise_cap"),
        ({"short_all_in": "half"}, "short_all_in"),
        ({"draw_procedure": "deal"}, "draw_procedure"),
        ({"reshuffle": "random"}, "reshuffle"),
        ({"max_players": 9}, "max_players"),
        ({"max_players": 1}, "max_players"),
        ({"big_blind": 2.0}, "big_blind"),
        ({"ante": True}, "ante"),
        ({"muck_beaten_hands": 1}, "muck_beaten_hands"),
    ],
)
def test_validation_names_the_field(kwargs, field):
    with pytest.raises(RulesError, match=field):
        Rules(**kwargs)
    assert issubclass(RulesError, ValueError)


def test_frozen_hashable_repr_round_trips_and_pickles():
    r = Rules.online(4, ante=1, muck_beaten_hands=True, max_players=8)
    with pytest.raises(AttributeError):
        r.ante = 2  # type: ignore[misc]
    assert eval(repr(r)) == r and hash(eval(repr(r))) == hash(r)
    assert pickle.loads(pickle.dumps(r)) == r
    assert Rules.from_dict(r.to_dict()) == r
    assert r.replace(ante=0) == Rules.online(4, muck_beaten_hands=True, max_players=8)
    with pytest.raises(RulesError, match="unknown"):
        Rules.from_dict({**r.to_dict(), "speed": 1})


def test_big_blind_smaller_than_small_bet_is_an_incomplete_bet():
    """A big blind under half the small bet does not count as the bet: the first raise
    completes to the small bet (the rule for an all-in opening bet)."""
    from triple_draw.game import Hand

    h = Hand(Rules(small_blind=1, big_blind=1, small_bet=4, big_bet=8), [100] * 3, seed=1)
    assert h.raises == 0 and h.bet_or_raise_amount() == 4
    h.bet_or_raise()
    assert h.raises == 1 and h.bet_or_raise_amount() == 8


@pytest.mark.parametrize(
    "make",
    [
        lambda: Rules.from_dict({"raise_cap": 3, "bogus": 1}),
        lambda: Rules.live(4, bogus=1),
        lambda: Rules.pokerkit(bogus=1),
        lambda: Rules.variant("tiny", bogus=1),
        lambda: Rules().replace(bogus=1),
    ],
)
def test_an_unknown_field_is_a_rules_error_wherever_it_is_given(make) -> None:  # type: ignore[no-untyped-def]
    """A document's unknown key, and a preset's or ``replace``'s unknown keyword argument
    (a bare ``TypeError`` of the dataclass before), name the field."""
    with pytest.raises(RulesError, match=r"unknown Rules field\(s\): \['bogus'\]"):
        make()


def _nested(depth: int) -> list:  # type: ignore[type-arg]
    out: list = []  # type: ignore[type-arg]
    inner = out
    for _ in range(depth):
        inner.append([])
        inner = inner[0]
    return out


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("raise_cap", _nested(100_000)),
        ("reshuffle", _nested(100_000)),
        ("big_blind_is_bet", _nested(100_000)),
        ("rake_percent", _nested(100_000)),
        ("raise_cap", "x" * 1_000_000),
    ],
)
def test_a_wild_value_is_named_in_a_few_characters(field: str, value: object) -> None:
    """A value nested far past the interpreter's recursion, or a huge one, is refused
    with a RulesError whose message shows it cut short (its full repr would exhaust the
    recursion or fill the screen)."""
    with pytest.raises(RulesError, match=f"Rules.{field}") as e:
        Rules(**{field: value})
    assert len(str(e.value)) < 200
