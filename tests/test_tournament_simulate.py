"""Many tournaments between bots (``simulate_tournaments``, ``triple-draw simulate
--tournament``): finishing places and ROI per bot, reproducible from the seed whatever
the workers and work items, prizes adding up to the pools; bad arguments are one line and
exit status 2."""

from __future__ import annotations

import json

import pytest

from triple_draw import Structure
from triple_draw.bots import HeuristicBot, RandomBot
from triple_draw.cli import main
from triple_draw.errors import ArgumentError
from triple_draw.tournament_sim import (
    TournamentSimulationResult,
    default_entrants,
    play_tournament,
    simulate_tournaments,
)


def test_a_run_adds_up_and_its_places_are_a_permutation() -> None:
    r = simulate_tournaments("sng6", tournaments=6, seed=5)
    assert isinstance(r, TournamentSimulationResult)
    assert r.entrants == 6 and r.prizes == (390, 210) and r.prize_pool == 600
    for b in r.bots:
        assert sum(b.places) == 6  # every tournament ends with a place for every bot
    for p in range(6):
        assert sum(b.places[p] for b in r.bots) == 6  # each place taken once a tournament
    assert sum(b.prizes for b in r.bots) == 6 * 600
    assert sum(b.profit for b in r.bots) == 0  # no fee: the field's ROI is zero
    assert sum(b.in_the_money for b in r.bots) == 12
    assert r.hands > 6 * 10


def test_same_seed_same_result_on_any_executor_and_chunking() -> None:
    bots = [HeuristicBot(), RandomBot(), HeuristicBot(bluff=0.3)] * 2
    a = simulate_tournaments("sng6", bots, tournaments=6, seed=11, chunk_size=6)
    b = simulate_tournaments("sng6", bots, tournaments=6, seed=11, chunk_size=1)
    c = simulate_tournaments(
        "sng6", bots, tournaments=6, seed=11, chunk_size=2, executor="processes", workers=2
    )
    d = simulate_tournaments(
        "sng6", bots, tournaments=6, seed=11, chunk_size=3, executor="threads", workers=2
    )
    assert a == b == c == d
    assert a.bots[1].bot == "random"
    assert simulate_tournaments("sng6", bots, tournaments=6, seed=12) != a


def test_a_stronger_bot_has_the_better_roi() -> None:
    """The heuristic bot against the random one, heads-up: it wins most sit & gos."""
    r = simulate_tournaments("sng2", ["heuristic", "random"], tournaments=40, seed=3)
    h, rnd = r.bots
    assert h.roi > 0 > rnd.roi and h.roi == -rnd.roi
    lo, hi = h.roi_ci95
    assert lo <= h.roi <= hi
    assert h.place_rate(1) > 0.8
    assert h.place_rate(1) + rnd.place_rate(1) == 1


def test_a_multi_table_event_plays_to_the_end() -> None:
    st = Structure.preset("mtt")
    assert default_entrants(st) == 18
    r = simulate_tournaments(st, tournaments=1, seed=2, entrants=14)
    assert r.entrants == 14 and r.prizes == (630, 378, 238, 154)  # 1400 by 45:27:17:11
    assert sorted(p for b in r.bots for p, k in enumerate(b.places, 1) if k) == list(range(1, 15))


def test_one_tournament_is_deterministic_from_its_seed() -> None:
    bots = [HeuristicBot(seed=k) for k in range(6)]
    a = play_tournament(Structure.preset("sng6"), bots, seed=9)
    bots = [HeuristicBot(seed=k) for k in range(6)]
    assert play_tournament(Structure.preset("sng6"), bots, seed=9) == a
    assert sorted(p for p, _ in a[0]) == [1, 2, 3, 4, 5, 6]


def test_bad_arguments() -> None:
    with pytest.raises(ArgumentError, match="tournaments"):
        simulate_tournaments("sng6", tournaments=0)
    with pytest.raises(ArgumentError, match="entrants"):
        simulate_tournaments("sng6", entrants=7)
    with pytest.raises(ArgumentError, match="3 bots for 6 entrants"):
        simulate_tournaments("sng6", ["random"] * 3, entrants=6)
    with pytest.raises(ArgumentError, match="preset"):
        simulate_tournaments("sng9")
    timed = Structure.from_dict({**Structure.preset("sng2").to_dict(), "level_by": "time"})
    with pytest.raises(ArgumentError, match="levels by time"):
        simulate_tournaments(timed)


# -- the command line ------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prints_places_and_roi(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "simulate", "--tournament", "sng2", "--tournaments", "4", "--seed", "1",
        "--bots", "heuristic,random",
    )  # fmt: skip
    assert code == 0, err
    assert "4 tournaments 'sng2', 2 entrants, seed 1" in out
    assert "ROI%" in out and "random" in out and "tournaments/s" in out
    assert "repeat with --seed 1" in out


def test_cli_json_is_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "simulate", "--tournament", "sng6", "--tournaments", "3", "--seed", "4",
        "--json", "--workers", "1",
    )  # fmt: skip
    assert code == 0
    d = json.loads(out)
    assert d["schema_version"] == 1 and d["tournament"] == "sng6"
    assert d["tournaments"] == 3 and d["entrants"] == 6 and d["prizes"] == [390, 210]
    assert len(d["bots"]) == 6
    assert {"places", "roi", "roi_ci95", "itm_rate", "average_place"} <= set(d["bots"][0])
    again = simulate_tournaments("sng6", tournaments=3, seed=4)
    assert [b["places"] for b in d["bots"]] == [list(b.places) for b in again.bots]


def test_cli_reads_a_structure_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "hu.toml"
    f.write_text(
        'name = "hu-turbo"\nstarting_stack = 200\nmax_entries = 2\nstart_when_full = true\n'
        "payouts = [{min_entries = 2, shares = [100]}]\n"
        "[[levels]]\nsmall_blind = 5\nbig_blind = 10\nsmall_bet = 10\nbig_bet = 20\n"
        "duration = 5\n"
        "[[levels]]\nsmall_blind = 10\nbig_blind = 20\nsmall_bet = 20\nbig_bet = 40\n"
    )
    code, out, err = run(
        capsys, "simulate", "--tournament", str(f), "--tournaments", "3", "--seed", "2", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["tournament"] == "hu-turbo"


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--tournament", "sng9"], ["sng9", "preset"]),
        (["--tournament", "sng6", "--hands", "10"], ["--hands", "does not apply"]),
        (["--tournament", "sng6", "--players", "6"], ["--players"]),
        (["--tournaments", "5"], ["--tournament PRESET_OR_FILE"]),
        (["--entrants", "5"], ["--tournament"]),
        (["--tournament", "sng6", "--tournaments", "0"], ["--tournaments"]),
        (["--tournament", "mtt", "--entrants", "3"], ["entrants", "7..10000"]),
        (["--tournament", "sng6", "--bots", "random,random"], ["--bots", "2 bots for 6"]),
        (["--tournament", "sng6", "--tournaments", "2", "--workers", "3"], ["--workers 3"]),
        (["--tournament", "/nonexistent/x.json"], ["cannot read"]),
    ],
)
def test_cli_bad_arguments_are_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: list[str]
) -> None:
    code, _out, err = run(capsys, "simulate", *argv)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "error" in lines[0] and "Traceback" not in err, err
    for w in words:
        assert w in lines[0], (w, lines[0])


def test_the_observation_built_from_the_hand_is_the_views() -> None:
    """``play_hand`` builds each ``decide`` bot's Observation from the hand's public state;
    it is exactly ``Observation.from_view`` of the seat's view, at every decision."""
    from triple_draw import Tournament
    from triple_draw.bots import Observation, decide_method
    from triple_draw.tournament_sim import play_hand

    t = Tournament("sng6", seed=4)
    bots = [HeuristicBot(seed=k) if k % 2 else RandomBot(seed=k) for k in range(6)]
    for k in range(6):
        t.register(str(k))
    seen = [0]
    while not t.is_over:
        hand = t.deal(1)

        def checked(k: int, hand=hand):  # type: ignore[no-untyped-def]
            inner = decide_method(bots[k])

            def decide(obs):  # type: ignore[no-untyped-def]
                assert obs == Observation.from_view(hand.view(obs.seat))
                seen[0] += 1
                return inner(obs)

            return decide

        seats = [int(t.player_at(1, i)) for i in range(hand.n_players)]
        play_hand(t, 1, hand, [bots[k].act for k in seats], [checked(k) for k in seats])
    assert seen[0] > 200
