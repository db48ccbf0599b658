"""``triple_draw.review`` and ``triple-draw review``: the hero's draws judged against
best_discard (checked by brute force), his showdown equities, the summaries, the JSON
schema, the HTML report, the errors of the command line."""

from __future__ import annotations

import importlib.util
import itertools
import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from triple_draw import Hand, Rules, _core, histories
from triple_draw.analysis import as_rank, best_discard, draw_odds
from triple_draw.cli import main
from triple_draw.errors import SchemaError
from triple_draw.game.cards import to_ids
from triple_draw.review import (
    ReviewError,
    _canonical,
    _one_draw,
    _Record,
    load_hands,
    position_name,
    reference_frequencies,
    review,
    review_hands,
    validate_review,
)
from conftest import bot_hands, bot_hands_as_pokerstars

DATA = Path(__file__).resolve().parent / "data" / "histories"
EIGHT = as_rank("8")


@cache
def six_max_file(n: int = 60) -> str:
    """``n`` 6-max hands of the reference bots, as PokerStars writes them for 'hero'."""
    return bot_hands_as_pokerstars(bot_hands(n))


@pytest.fixture(scope="module")
def six_max(tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("review") / "stars.txt"
    p.write_text(six_max_file(), encoding="utf-8")
    return p


@pytest.fixture(scope="module")
def reviewed(six_max: Path):  # type: ignore[no-untyped-def]
    return review([six_max], "hero", trials=1000)


def brute_p(hand: list[int], discard: list[int], dead: list[int]) -> float:
    """P(8-low or better) after one draw, every replacement set enumerated in Python."""
    kept = [c for c in hand if c not in discard]
    unseen = [c for c in range(52) if c not in hand and c not in dead]
    good = total = 0
    for new in itertools.combinations(unseen, len(discard)):
        total += 1
        good += _core.rank_ids([*kept, *new]) <= EIGHT
    return good / total


# ----------------------------------------------------------------------------- decisions


def test_one_draw_decisions_match_brute_force(reviewed) -> None:  # type: ignore[no-untyped-def]
    last = [d for d in reviewed.decisions if d.draws_left == 1 and len(d.discarded) <= 2]
    assert len(last) >= 5
    for d in last[:8]:
        hand, thrown, dead = to_ids(d.cards), to_ids(d.discarded), to_ids(d.dead)
        assert d.exact and d.stderr == 0
        assert d.score == pytest.approx(brute_p(hand, thrown, dead), abs=1e-12)
        if len(d.best) <= 2:
            assert d.best_score == pytest.approx(brute_p(hand, to_ids(d.best), dead), abs=1e-12)
        # no choice of three cards or fewer does better than the best (brute force)
        for k in range(4):
            for t in itertools.combinations(hand, k):
                assert brute_p(hand, list(t), dead) <= d.best_score + 1e-12
        # and best_discard itself agrees on the best score
        rows = best_discard(hand, draws_left=1, target="8", dead=dead, threads=1)
        assert rows[0].score == pytest.approx(d.best_score, abs=1e-12)
        assert d.cost == pytest.approx(d.best_score - d.score, abs=1e-12)


def test_one_draw_pruning_finds_best_discards_choice() -> None:
    rng = random.Random(5)
    for _ in range(25):
        cards = rng.sample(range(52), 9)
        hand, dead = cards[:5], cards[5 : 5 + rng.randint(0, 4)]
        rows = best_discard(hand, draws_left=1, target="8", dead=dead, threads=1)
        mine = list(rows[rng.randrange(32)].discard)
        table, best, best_score, exact, _ = _one_draw(hand, dead, [c.id for c in mine], "8")
        assert exact and best_score == pytest.approx(rows[0].score, abs=1e-12)
        assert sorted(best) == sorted(c.id for c in rows[0].discard)
        got = table[frozenset(c.id for c in mine)][0]
        want = next(r.score for r in rows if set(r.discard) == set(mine))
        assert got == pytest.approx(want, abs=1e-12)


def test_sampled_decision_is_within_its_error_of_the_exact_figure(reviewed) -> None:  # type: ignore[no-untyped-def]
    d = next(x for x in reviewed.decisions if x.draws_left == 2 and x.discarded)
    assert not d.exact and d.outcomes == 1000 and d.stderr > 0
    exact = draw_odds(d.cards, d.discarded, draws=2, dead=d.dead, method="exact", threads=1)
    assert abs(exact.p_at_most("8") - d.score) < 5 * d.stderr + 1e-9


def test_equivalent_holdings_share_one_key() -> None:
    a, ma = _canonical(to_ids("7c 5d 4h 2s Kd"), to_ids("Qc 3c"), 6)
    # the suits relabelled, and another high card in place of each high card
    b, mb = _canonical(to_ids("7h 5s 4d 2c Jc"), to_ids("Ah 3h"), 6)
    c, _ = _canonical(to_ids("7c 5d 4h 2s Kd"), to_ids("Qc 3d"), 6)
    assert a == b and a != c
    assert sorted(ma.values()) == sorted(mb.values())
    assert len(set(ma.values())) == len(ma)  # a one-to-one map of the cards


def test_the_cache_analyses_a_holding_once(six_max: Path) -> None:
    records, _ = load_hands([six_max])
    once = review_hands(records, "hero", trials=200, reference=False)
    twice = review_hands(records * 2, "hero", trials=200, reference=False)
    assert 0 < once.analyses <= len(once.decisions)
    assert twice.analyses == once.analyses and len(twice.decisions) == 2 * len(once.decisions)
    bare = [replace(d, finishes=None) for d in twice.decisions[: len(once.decisions)]]
    assert bare == [replace(d, finishes=None) for d in once.decisions]


def test_earlier_discards_are_dead_under_pokerstars(reviewed) -> None:  # type: ignore[no-untyped-def]
    seen = 0
    for d in reviewed.decisions:
        earlier = [x for x in reviewed.decisions if x.hand_id == d.hand_id and x.draw < d.draw]
        thrown = {c for x in earlier for c in x.discarded}
        assert set(d.dead) == thrown - set(d.cards)
        seen += bool(thrown)
    assert seen > 0


def test_discards_come_back_after_a_served_discards_reshuffle() -> None:
    """Under the live rule, a reshuffle before the hero is served returns his earlier
    discards to the stub: they are no longer dead. Under PokerStars' they stay dead."""

    def deal(reshuffle: str) -> Hand:
        rules = Rules(reshuffle=reshuffle, max_players=8)
        h = Hand(rules, [10_000] * 8, 0, seed=3)
        while not h.is_over:
            if h.phase == "draw":
                h.discard(list(h.hole_cards(h.actor)))  # everybody throws five
            else:
                h.check_or_call()
        return h

    for reshuffle, returns in (("served-discards", True), ("pokerstars", False)):
        h = deal(reshuffle)
        names = tuple(f"p{i}" for i in range(8))
        rec = _Record("phh", "1", names, h)
        r = review_hands([rec], "p7", trials=50, reference=False)
        third = next(d for d in r.decisions if d.draw == 3)
        if returns:
            assert len(third.dead) < 10
        else:
            assert len(third.dead) == 10


# ----------------------------------------------------------------------------- showdowns


def test_showdown_equities_by_brute_force(reviewed) -> None:  # type: ignore[no-untyped-def]
    assert reviewed.showdowns
    checked = 0
    for s in reviewed.showdowns:
        theirs = [to_ids(h) for h in s.against]
        end = s.streets[-1]
        mine = _core.rank_ids(to_ids(end.cards))
        best = min(_core.rank_ids(h) for h in theirs)
        share = 0.0 if best < mine else (1.0 if mine < best else None)
        if share is not None:
            assert end.equity == share and end.exact
        last = [x for x in s.streets if x.draws_left == 1]
        if not last or len(theirs) != 1 or last[0].equity is None:
            continue
        d = next(x for x in reviewed.decisions if x.hand_id == s.hand_id and x.draws_left == 1)
        hand, thrown = to_ids(d.cards), to_ids(d.discarded)
        kept = [c for c in hand if c not in thrown]
        unseen = [
            c for c in range(52) if c not in hand and c not in theirs[0] and c not in to_ids(d.dead)
        ]
        opp = _core.rank_ids(theirs[0])
        total, won = 0, 0.0
        for new in itertools.combinations(unseen, len(thrown)):
            total += 1
            r = _core.rank_ids([*kept, *new])
            won += 1.0 if r < opp else (0.5 if r == opp else 0.0)
        assert last[0].equity == pytest.approx(won / total, abs=1e-12)
        checked += 1
    assert checked >= 1


# ----------------------------------------------------------------------------- summaries


def test_positions() -> None:
    six = [position_name(s, 6, 0, 1, 2) for s in range(6)]
    assert six == ["BTN", "SB", "BB", "UTG", "HJ", "CO"]
    assert [position_name(s, 2, 0, 0, 1) for s in range(2)] == ["BTN", "BB"]


def test_summaries_add_up(reviewed) -> None:  # type: ignore[no-untyped-def]
    doc = reviewed.to_dict()
    total = doc["totals"]["net_big_bets"]
    assert sum(r["net_big_bets"] for r in doc["net_by_position"]) == pytest.approx(total)
    assert sum(r["net_big_bets"] for r in doc["net_by_opponents"]) == pytest.approx(total)
    assert doc["net_over_hands"][-1] == pytest.approx(total)
    assert sum(r["hands"] for r in doc["net_by_position"]) == len(reviewed.hands) == 60
    for r in doc["frequencies"]:
        assert sum(r["hero"]) == pytest.approx(1, abs=1e-3)
    costly = doc["costliest"]
    assert [c["cost"] for c in costly] == sorted((c["cost"] for c in costly), reverse=True)
    assert all(c["cost"] > 0 and c["best"] != c["discarded"] for c in costly)
    # the costliest carry how both choices finish; with one draw left, exactly the scores
    assert costly and all(c["finishes"] is not None for c in costly)
    for c in costly:
        if c["draws_left"] == 1:
            assert c["finishes"]["choice"]["8-low or better"] == pytest.approx(c["score"], abs=1e-6)
            assert c["finishes"]["best"]["8-low or better"] == pytest.approx(
                c["best_score"], abs=1e-6
            )
    assert sum(d["finishes"] is not None for d in doc["decisions"]) == len(costly)


def test_reference_frequencies_are_shares() -> None:
    ref = reference_frequencies()
    assert ref["hands"] == 1000 and "1:BTN" in ref["frequencies"]
    for shares in ref["frequencies"].values():
        assert len(shares) == 6 and sum(shares) == pytest.approx(1, abs=1e-3)


def test_threads_give_the_same_review(six_max: Path) -> None:
    one = review([six_max], "hero", trials=300, threads=1, reference=False).to_dict()
    two = review([six_max], "hero", trials=300, threads=2, reference=False).to_dict()
    assert one == two


# ----------------------------------------------------------------------------- schema


def test_the_document_follows_its_schema(reviewed) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("jsonschema")
    doc = reviewed.to_dict()
    validate_review(json.loads(json.dumps(doc)))
    bad = json.loads(json.dumps(doc))
    bad["decisions"][0]["cost"] = -0.5
    with pytest.raises(SchemaError, match="cost"):
        validate_review(bad)
    del bad["decisions"]
    with pytest.raises(SchemaError, match="decisions"):
        validate_review(bad)


# ----------------------------------------------------------------------------- command line


def test_cli_json(six_max: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("jsonschema")
    code = main(
        ["review", str(six_max), "--hero", "hero", "--json", "--trials", "300", "--no-progress"]
    )
    out = capsys.readouterr().out
    assert code == 0
    doc = json.loads(out)
    assert doc["schema_version"] == 1 and doc["totals"]["hands"] == 60
    validate_review(doc)


def test_cli_text_names_the_measure(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["review", str(DATA / "pokerstars" / "cash.txt"), "--hero", "hero", "--no-progress"]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "8-low or better" in out and "ignores the betting" in out
    assert "Net by position" in out and "Costliest draws" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--hero", "nobody"], "no hand of 'nobody'"),
        (["--hero", "hero", "--threads", "0"], "--threads"),
        (["--hero", "hero", "--threads", "many"], "--threads"),
        (["--hero", " "], "--hero"),
        (["--hero", "hero", "--target", "K9"], "target"),
        (["--hero", "hero", "--html", "/nonexistent/dir/r.html"], "--html"),
    ],
)
def test_cli_errors_are_one_line_and_status_2(
    args: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["review", str(DATA / "pokerstars" / "cash.txt"), *args, "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and len(err.strip().splitlines()) == 1 and words in err, err


def test_a_file_without_hands_of_the_hero(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = DATA / "winamax" / "cash.txt"
    code = main(["review", str(other), "--hero", "hero", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and "no hand of 'hero'" in err and "winamax" in err
    with pytest.raises(ReviewError, match="no hand of 'hero'"):
        review([other], "hero")
    # among many players, the names closest to the one given
    records, _ = load_hands([DATA / "pokerstars" / "cash.txt"])
    many = [
        _Record(r.site, r.hand_id, (*r.players[:-1], f"x{i}"), r.hand)
        for i, r in enumerate(records * 7)
    ]
    with pytest.raises(ReviewError, match="did you mean 'hero'"):
        review_hands(many, "herro", reference=False)
    missing = tmp_path / "missing.txt"
    code = main(["review", str(missing), "--hero", "hero", "--no-progress"])
    assert code == 2 and "missing.txt" in capsys.readouterr().err


def test_html_report_is_one_self_contained_file(
    six_max: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "review.html"
    code = main(
        [
            "review",
            str(six_max),
            "--hero",
            "hero",
            "--html",
            str(out),
            "--trials",
            "300",
            "--no-progress",
        ]
    )
    assert code == 0, capsys.readouterr().err
    text = out.read_text(encoding="utf-8")
    assert text.count("<svg") == 3
    for plot in ("plot-net", "plot-cost", "plot-frequencies"):
        assert f'id="{plot}"' in text
    assert "<script" not in text and "<link" not in text and 'src="' not in text
    assert "ignores the betting" in text and "Review of hero" in text
    assert "draw 1" in text


def test_progress_bar_on_stderr(six_max: Path, capsys: pytest.CaptureFixture[str]) -> None:
    review([six_max], "hero", trials=100, progress=True, reference=False)
    err = capsys.readouterr().err
    assert "review: reading" in err and "review: draws" in err and "review: showdowns" in err
    review([six_max], "hero", trials=100, progress=False, reference=False)
    assert capsys.readouterr().err == ""


def test_phh_files_review_as_the_site_files(tmp_path: Path) -> None:
    """The same hands as PHH (a .phh of one, a .phhs of all: the names from the
    ``players`` field, in the PHH order) give the same decisions as the site's file."""
    from triple_draw import phh

    path = DATA / "pokerstars" / "cash.txt"
    site = review([path], "hero", trials=200, reference=False)
    hands = histories.load(path).hands
    one = tmp_path / "one.phh"
    one.write_text(hands[0].to_phh(), encoding="utf-8")
    many = tmp_path / "all.phhs"
    many.write_text(
        "".join(phh.iter_dumps_all((h.hand, h.phh_fields()) for h in hands)), encoding="utf-8"
    )
    for files, n in (([one], 1), ([many], len(hands))):
        r = review(files, "hero", trials=200, reference=False)
        assert len(r.hands) == n
        key = [(d.draw, d.cards, d.discarded, d.best, d.cost) for d in r.decisions]
        want = [(d.draw, d.cards, d.discarded, d.best, d.cost) for d in site.decisions]
        assert key == want[: len(key)] and key
        assert [h.position for h in r.hands] == [h.position for h in site.hands[:n]]
        assert [h.net_big_bets for h in r.hands] == [h.net_big_bets for h in site.hands[:n]]


@pytest.mark.parametrize(
    "path", sorted(DATA.glob("*/*.txt")), ids=lambda p: f"{p.parent.name}/{p.name}"
)
def test_every_site_record_reviews_for_its_viewer(path: Path) -> None:
    """Each test record of the three sites reviews for the player whose cards it shows:
    one reviewed hand per hand of his, each of his draws judged, the schema followed."""
    hands = [h for h in histories.load(path).hands if h.hero]
    hero = hands[0].hero
    assert hero is not None
    r = review([path], hero, trials=200, reference=False)
    mine = [h for h in hands if h.hero == hero]
    assert len(r.hands) == len(mine)
    assert len(r.decisions) == sum(len(h.hand.draws(h.hero_seat)) for h in mine)
    for d in r.decisions:
        assert 0 <= d.score <= d.best_score <= 1 and d.cost >= 0
    if importlib.util.find_spec("jsonschema"):
        validate_review(r.to_dict())
