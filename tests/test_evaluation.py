"""The scoreboard (triple_draw.evaluation, ``triple-draw match``): duplicate deals, the
confidence interval's arithmetic on cases whose outcome is known, reproducibility, user
policies, and the equity bot built on the analysis kernels."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from triple_draw.analysis import best_discard
from triple_draw.bots import BOTS, EquityBot, _target_discard
from triple_draw.cli import main
from triple_draw.errors import ArgumentError, TripleDrawError
from triple_draw.evaluation import Z95, MatchResult, PolicyBot, match, round_robin
from triple_draw.game import Hand, Rules
from triple_draw.game.cards import to_ids


class FoldBot:
    """A user policy (not a Bot subclass, only ``act(view)``): folds at every decision,
    stands pat at the draws (it never reaches one)."""

    def act(self, view: dict[str, Any]) -> str:
        return "fold"


class AlwaysRaise:
    """A user policy: bets or raises whenever it may, else calls; stands pat."""

    def act(self, view: dict[str, Any]) -> dict[str, Any]:
        kinds = {a["kind"]: a for a in view["legal_actions"]}
        if view["phase"] == "draw":
            return {"kind": "discard", "cards": []}
        for k in ("raise", "bet", "call", "check"):
            if k in kinds:
                return {"kind": k}
        raise AssertionError(view["legal_actions"])  # pragma: no cover


def test_a_bot_that_always_folds_loses_its_blinds_exactly() -> None:
    # against a calling station the folder loses its small blind (1) in one seating and its
    # big blind (2) in the other: 3 chips a deal, 1.5 a hand, -75 bb/100, with no variance
    r = match([FoldBot(), "call"], hands=200, seed=5)
    fold, call = r.entries
    assert (r.deals, r.rotations, r.hands) == (100, 2, 200)
    assert fold.net == -300 and call.net == 300
    assert fold.bb_per_100 == pytest.approx(-75.0)
    assert fold.deal_sq == 100 * 9 and fold.deal_std == 0.0
    assert fold.ci95 == pytest.approx((-75.0, -75.0))


def test_confidence_interval_arithmetic_on_a_known_distribution() -> None:
    # FoldBot against RandomBot: in the seating where the folder is the small blind it
    # loses 1; where it is the big blind, the random bot (first to act) folds with
    # probability 1/3 (the folder wins 1) or calls/raises (the folder folds: -2). So a
    # deal is worth 0 or -3 to the folder: mean -2 (-50 bb/100), variance 2 a deal.
    deals = 600
    r = match([FoldBot(), "random"], hands=2 * deals, seed=11)
    e = r[0]
    assert e.net % 3 == 0
    k = -e.net // 3  # deals worth -3
    assert 0 < k < deals
    assert e.deal_sq == 9 * k  # every deal was 0 or -3
    var = (9 * k - (3 * k) ** 2 / deals) / (deals - 1)
    half = 100 * Z95 * math.sqrt(var / deals) / 2 / 2  # per hand (2 a deal), per big blind
    assert e.ci95_half_width == pytest.approx(half, rel=1e-12)
    assert e.ci95 == pytest.approx((e.bb_per_100 - half, e.bb_per_100 + half))
    # and the estimate is where it must be: 4 true standard errors around -50 bb/100
    true_se = 100 * math.sqrt(2 / deals) / 2 / 2
    assert abs(e.bb_per_100 + 50) < 4 * true_se
    assert r[1].net == -e.net


@pytest.mark.parametrize("bots", [["heuristic", "heuristic"], ["heuristic"] * 3, ["call"] * 4])
def test_a_bot_against_copies_of_itself_scores_exactly_zero_every_deal(bots: list[str]) -> None:
    # each seat's bot is seeded by seat, and every player holds every seat once per
    # deal: identical players break even on every deal, not just on average
    r = match(bots, hands=60 * len(bots), seed=2)
    for e in r.entries:
        assert e.net == 0 and e.deal_sq == 0
        assert e.ci95 == (0.0, 0.0)
    assert [e.bot for e in r.entries][:2] == [bots[0], f"{bots[0]}#2"]


def test_without_duplicate_deals_self_play_is_not_exactly_zero() -> None:
    r = match(["heuristic", "heuristic"], hands=200, seed=2, duplicate=False)
    assert r[0].net != 0 and r[0].net == -r[1].net


def test_duplicate_deals_narrow_the_interval() -> None:
    kw: dict[str, Any] = {"hands": 4000, "seed": 1}
    dup = match(["heuristic", "call"], **kw)
    fresh = match(["heuristic", "call"], duplicate=False, **kw)
    assert dup[0].ci95_half_width < 0.75 * fresh[0].ci95_half_width
    assert dup[0].ci95[0] > 0  # the heuristic bot beats the calling station


def test_ring_game_is_zero_sum_and_reproducible_by_seed() -> None:
    bots = ["heuristic", "call", "random"]
    a = match(bots, hands=301, seed=9)
    assert (a.deals, a.hands) == (101, 303)  # rounded up to whole deals
    assert sum(e.net for e in a.entries) == 0
    assert a == match(bots, hands=301, seed=9)
    assert a != match(bots, hands=301, seed=10)
    d = a.to_dict()
    assert json.loads(json.dumps(d))["entries"][0]["bot"] == "heuristic"
    assert "heuristic" in a.summary() and a.entry("random").player == 2
    with pytest.raises(ArgumentError, match="no player"):
        a.entry("nobody")


def test_rake_is_reported_and_taken_from_the_players() -> None:
    r = match(["heuristic", "call"], hands=200, seed=1, rules=Rules(rake_percent=5))
    assert r.rake > 0 and sum(e.net for e in r.entries) + r.rake == 0


def test_a_user_policy_that_always_raises_beats_the_random_bot() -> None:
    r = match([AlwaysRaise(), "random"], hands=600, seed=4)
    assert r[0].ci95[0] > 50


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"bots": ["call"]}, "2..8 players"),
        ({"bots": ["call"] * 9}, "2..8 players"),
        ({"bots": "call,random"}, "list"),
        ({"bots": ["call", "nobody"]}, "unknown bot"),
        ({"bots": ["call", object()]}, "act"),
        ({"bots": ["call", "random"], "hands": 0}, "hands"),
        ({"bots": ["call", "random"], "seed": -1}, "seed"),
        ({"bots": ["call", "random"], "duplicate": 1}, "duplicate"),
        ({"bots": ["call", "random"], "rules": {}}, "Rules"),
        ({"bots": ["call", "random"], "stack": 0}, "stack"),
    ],
)
def test_bad_arguments_are_argument_errors(kwargs: dict[str, Any], word: str) -> None:
    with pytest.raises(ArgumentError, match=word):
        match(**kwargs)


def test_round_robin_reads_each_match_from_both_sides() -> None:
    rr = round_robin([FoldBot(), "call", "random"], hands=100, seed=3)
    assert rr.bots == ("FoldBot", "call", "random")
    assert rr.score(0, 1).bb_per_100 == pytest.approx(-75.0)
    assert rr.score(1, 0).bb_per_100 == pytest.approx(75.0)
    assert rr.score(2, 1).net == -rr.score(1, 2).net
    table = rr.table().splitlines()
    assert len(table) == 5 and "-75.0 ± 0.0" in table[2]
    with pytest.raises(ArgumentError):
        rr.score(1, 1)


# -- the command line ----------------------------------------------------------------------


def test_cli_match_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "call", "random", "--hands", "40", "--seed", "1", "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    doc = json.loads(out)
    assert doc["schema_version"] == 1 and doc["hands"] == 40 and doc["duplicate"] is True
    expected = match(["call", "random"], hands=40, seed=1)
    assert [e["net"] for e in doc["entries"]] == [e.net for e in expected.entries]


def test_cli_match_table_and_no_duplicate(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "heuristic", "call", "--hands", "20", "--seed", "3", "--no-duplicate"])
    out, _ = capsys.readouterr()
    assert code == 0 and "bb/100" in out and "no duplicate" in out and "--seed 3" in out


@pytest.mark.parametrize(
    ("argv", "word"),
    [
        (["match", "call"], "2 to 8 bots"),
        (["match", "call", "nobody"], "unknown bot"),
        (["match", "call", "random", "--hands", "0"], "--hands"),
        (["match", "call", "random", "--seed", "x"], "--seed"),
        (["match", "call", "os:getcwd"], "not a bot class"),
    ],
)
def test_cli_match_errors_are_one_line_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    code = main(argv)
    _, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and word in err and "Traceback" not in err


# -- the equity bot ------------------------------------------------------------------------


def test_equity_bot_is_a_package_bot_and_plays_legally_in_a_ring() -> None:
    assert BOTS["equity"] is EquityBot
    r = match(["equity", "heuristic", "random"], hands=60, seed=1)
    assert sum(e.net for e in r.entries) == 0
    assert r == match(["equity", "heuristic", "random"], hands=60, seed=1)


def test_equity_bot_acts_on_a_view_and_is_reproducible() -> None:
    import copy
    import pickle

    h = Hand(Rules(), [100, 100, 100], seed=3)
    a = EquityBot(seed=1).act(h.view(h.actor))
    assert a == EquityBot(seed=1).act(h.view(h.actor))
    assert a in h.legal_actions()
    for clone in (pickle.loads(pickle.dumps(EquityBot(seed=1))), copy.deepcopy(EquityBot(seed=1))):
        assert clone.act(h.view(h.actor)) == a


def test_equity_bot_beats_the_calling_station() -> None:
    r = match(["equity", "call"], hands=400, seed=2)
    assert r[0].ci95[0] > 30


def test_target_discard_answers_for_the_hand_given_whatever_its_suits() -> None:
    for text in ("7c 5d 4h 3s Kd", "7h 5s 4c 3d Ks", "9c 9d 4h 3s 2c", "Ac Kc 4c 3c 2d"):
        ids = tuple(to_ids(text))
        thrown = _target_discard(ids, 2, 300)
        assert set(thrown) <= set(ids)
        best = best_discard(list(ids), draws_left=2, target="8", trials=3000, seed=1)
        scores = {tuple(sorted(to_ids([str(c) for c in b.discard]))): b.score for b in best}
        # as good as the best choice of a long run, within its sampling error
        assert scores[thrown] >= best[0].score - 4 * best[0].stderr - 0.02
    assert _target_discard(tuple(to_ids("7c 5d 4h 3s Kd")), 3, 300) == tuple(to_ids("Kd"))
    assert _target_discard(tuple(to_ids("7h 5s 4c 3d Ks")), 3, 300) == tuple(to_ids("Ks"))


@pytest.mark.parametrize(
    ("kwargs", "word"),
    [
        ({"trials": 5}, "trials"),
        ({"samples": 0}, "samples"),
        ({"bet_at": -1}, "bet_at"),
        ({"bluff": 2}, "bluff"),
        ({"position": True}, "position"),
    ],
)
def test_equity_bot_refuses_bad_parameters(kwargs: dict[str, Any], word: str) -> None:
    with pytest.raises(TripleDrawError, match=word):
        EquityBot(**kwargs)


def test_match_result_is_frozen() -> None:
    r = match(["call", "random"], hands=20, seed=1)
    assert isinstance(r, MatchResult)
    with pytest.raises(AttributeError):
        r.hands = 3  # type: ignore[misc]


def test_one_deal_has_no_interval_and_its_json_stays_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    r = match(["call", "random"], hands=2, seed=1)
    assert r.deals == 1 and math.isinf(r[0].ci95_half_width)
    assert r[0].to_dict()["ci95"] is None
    assert main(["match", "call", "random", "--hands", "1", "--seed", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)  # no Infinity: strict JSON
    assert doc["entries"][0]["ci95"] is None and doc["hands"] == 2


def test_equity_bot_is_not_bluffed_off_by_a_constant_raiser() -> None:
    # a policy that always raises and never draws looks "pat" at every draw; the equity
    # bot keeps a share of its models with the opponent's hand unknown (trust), so it
    # calls it down. With trust=1 it is bluffed off (about break-even in a longer run).
    r = match([EquityBot(), PolicyBot(_always_raise, name="always-raise")], hands=300, seed=2)
    assert r[0].ci95[0] > 100
    assert EquityBot(trust=1.0).trust == 1.0
    with pytest.raises(ArgumentError, match="trust"):
        EquityBot(trust=1.5)
    with pytest.raises(ArgumentError, match="draw_for"):
        EquityBot(draw_for="seven")


def _always_raise(obs: Any, mask: Any) -> int:
    return 2 if mask[2] else (3 if mask[3] else 1)


@pytest.mark.parametrize(
    ("policy", "word"),
    [
        (lambda obs, mask: 3, "not legal now"),  # a discard while betting
        (lambda obs, mask: True, "not an action number"),
        (lambda obs, mask: 1.5, "not an action number"),
        (lambda obs, mask: 35, "not an action number"),
    ],
)
def test_policy_bot_refuses_what_is_not_a_legal_action_number(policy: Any, word: str) -> None:
    h = Hand(Rules(), [100, 100], seed=1)
    with pytest.raises(TripleDrawError, match=word):
        PolicyBot(policy, name="p").act(h.view(h.actor))
    with pytest.raises(ArgumentError):
        PolicyBot("not callable")  # type: ignore[arg-type]


def test_policy_bot_sees_the_environments_encoding() -> None:
    from triple_draw.envs import encoding

    h = Hand(Rules(), [100, 100], seed=1)
    seen = []

    def policy(obs: Any, mask: Any) -> int:
        seen.append((obs, mask))
        return 2

    a = PolicyBot(policy).act(h.view(h.actor))
    assert a.kind == "raise"
    obs, mask = seen[0]
    assert (obs == encoding.encode(h, h.actor)).all()
    assert (mask == encoding.action_mask(h)).all()


def test_each_seating_is_simulates_play_on_the_same_seeds() -> None:
    # duplicate deals: seating 0 is simulate([a, b]) and seating 1 simulate([b, a]), both
    # with the match's seed and chunk size, so a player's net is the sum of its two seats
    from triple_draw.simulation import simulate

    kw: dict[str, Any] = {"seed": 8, "chunk_size": 70}
    r = match(["heuristic", "random"], hands=300, **kw)
    ab = simulate(["heuristic", "random"], hands=150, **kw)
    ba = simulate(["random", "heuristic"], hands=150, **kw)
    assert r[0].net == ab.seats[0].net + ba.seats[1].net
    assert r[1].net == ab.seats[1].net + ba.seats[0].net
    assert r[0].net != ab.seats[0].net * 2  # the seatings did differ
