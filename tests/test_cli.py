"""The ``triple-draw`` command line: every subcommand, its JSON output, bad input (exit
status 2 with a one-line reason, no traceback) and the interactive game driven via stdin."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from triple_draw.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_usage_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "error" in lines[0] and "Traceback" not in err
    for w in words:
        assert w in lines[0], (w, lines[0])


# -- general -----------------------------------------------------------------------------


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for cmd in ("simulate", "equity", "discard", "eval", "play"):
        assert cmd in out
    code, out, _ = run(capsys, "--version")
    assert code == 0 and out.startswith("triple-draw ")


def test_no_command_or_unknown_option_is_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert_usage_error(*run(capsys))
    assert_usage_error(*run(capsys, "simulate", "--frobnicate"), "--frobnicate")
    assert_usage_error(*run(capsys, "dance"), "dance")


# -- eval --------------------------------------------------------------------------------


def test_eval_prints_rank_category_and_name(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "eval", "7c5d4h3s2c", "8c 5d 4h 3s 2c", "2c2d5h4s3c")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 3
    assert (
        "rank    1" in lines[0]
        and "no pair" in lines[0]
        and "7-5 low" in lines[0]
        and "best" in lines[0]
    )
    assert "nut 8" in lines[1] and "best" not in lines[1]
    assert "one pair" in lines[2] and "pair of deuces" in lines[2]


def test_eval_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "eval", "--json", "Ac5d4h3s2c", "6c5d4h3s2c")
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == ["schema_version", "hands"] and doc["schema_version"] == 1
    data = doc["hands"]
    assert data[0] == {
        "cards": ["Ac", "5d", "4h", "3s", "2c"],
        "rank": data[0]["rank"],
        "category": "no pair",
        "name": "nut A",
        "best": True,
    }
    assert data[1]["category"] == "straight" and data[1]["best"] is False


@pytest.mark.parametrize(
    "hand, word",
    [
        ("7c5d4h3sXx", "Xx"),
        ("7c5d4h3s", "4 cards"),
        ("7c5d4h3s2c9d", "6 cards"),
        ("7c7c4h3s2c", "7c"),
    ],
)
def test_eval_bad_cards_exit_2(capsys: pytest.CaptureFixture[str], hand: str, word: str) -> None:
    assert_usage_error(*run(capsys, "eval", hand), word)


# -- simulate ----------------------------------------------------------------------------


def test_simulate_prints_a_summary_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "simulate", "--players", "3", "--hands", "120", "--seed", "1", "--no-progress"
    )
    assert code == 0
    assert "120 hands, 3 players, seed 1" in out
    assert "chips/100" in out and "95% CI" in out and "hands/s" in out
    assert out.count("heuristic") == 3
    assert err == ""  # no progress bar when not a terminal


def test_simulate_json_is_parseable_and_conserves_chips(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "simulate",
        "--bots",
        "heuristic,random*2",
        "--hands",
        "150",
        "--seed",
        "7",
        "--json",
        "--chunk-size",
        "50",
    ]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    data = json.loads(out)
    assert data["players"] == 3 and data["hands"] == 150 and data["seed"] == 7
    assert [s["bot"] for s in data["seats"]] == ["heuristic", "random", "random"]
    assert sum(s["net"] for s in data["seats"]) == 0
    lo, hi = data["seats"][0]["ci95_per_100"]
    assert lo <= data["seats"][0]["chips_per_100"] <= hi

    code, out2, _ = run(capsys, *argv, "--workers", "2")
    assert code == 0
    again = json.loads(out2)
    assert again["seats"] == data["seats"]  # the same for any number of workers


def test_simulate_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "simulate",
        "--players",
        "2",
        "--hands",
        "40",
        "--seed",
        "3",
        "--rules",
        "online",
        "--small-bet",
        "10",
        "--stack",
        "150",
        "--mode",
        "table",
        "--executor",
        "threads",
        "--workers",
        "2",
        "--json",
        "--chunk-size",
        "20",
    )
    assert code == 0
    data = json.loads(out)
    assert data["rules"]["reshuffle"] == "pokerstars" and data["rules"]["big_bet"] == 20
    assert data["stack"] == 150 and data["mode"] == "table"


@pytest.mark.parametrize(
    "preset, field, value",
    [("wsop", "raise_cap", 4), ("pokerkit", "big_blind_is_bet", False), ("live", "raise_cap", 3)],
)
def test_simulate_rules_presets(
    capsys: pytest.CaptureFixture[str], preset: str, field: str, value: object
) -> None:
    code, out, _ = run(
        capsys, "simulate", "--hands", "20", "--seed", "1", "--rules", preset, "--json"
    )
    assert code == 0 and json.loads(out)["rules"][field] == value


@pytest.mark.parametrize(
    "argv, word",
    [
        (["--players", "9"], "--players"),
        (["--players", "1"], "--players"),
        (["--hands", "0"], "--hands"),
        (["--hands", "many"], "--hands"),
        (["--seed", "-4"], "--seed"),
        (["--bots", "shark"], "shark"),
        (["--bots", "random,random,random", "--players", "2"], "3 bots for 2 players"),
        (["--bots", "random*x"], "repeat"),
        (["--workers", "0"], "--workers"),
        (["--mode", "cash"], "--mode"),
    ],
)
def test_simulate_bad_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    assert_usage_error(*run(capsys, "simulate", "--hands", "10", *argv), word)


# -- equity and discard ------------------------------------------------------------------


def test_equity_exact_one_draw(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "equity",
        "7c5d4h3sKd",
        "8c6d5h4s2c",
        "--draws",
        "1",
        "--strategy",
        "discard:Kd",
        "--strategy",
        "pat",
    )
    assert code == 0
    # 42 unseen cards; only the three deuces left win (a six makes a straight)
    assert "exact: 42 outcomes" in out and "7.14%" in out and "92.86%" in out


def test_equity_json_sampled_and_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "equity",
        "7c5d4h3sKd",
        "?",
        "--draws",
        "2",
        "--trials",
        "20000",
        "--seed",
        "5",
        "--json",
    ]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    data = json.loads(out)
    assert data["exact"] is False and data["seed"] == 5
    eq = [h["equity"] for h in data["hands"]]
    assert abs(sum(eq) - 1.0) < 1e-9
    assert data["hands"][0]["stderr"] > 0
    assert json.loads(run(capsys, *argv)[1])["hands"] == data["hands"]


def test_equity_no_draws_left_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "equity", "7c5d4h3s2c", "8c6d5h4s2d", "--draws", "0", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["exact"] is True and data["hands"][0]["win"] == 1.0


@pytest.mark.parametrize(
    "argv, word",
    [
        (["7c5d4h3sKd"], "2 to 6"),
        (["7c5d4h3sKd", "7c6d5h4s2c"], "7c"),  # the same card in two hands
        (["7c5d4h3sKd", "8c6d5h4s2x"], "2x"),
        (["7c5d4h3sKd", "8c6d5h4s"], "4"),
        (["7c5d4h3sKd", "8c6d5h4s2c", "--draws", "4"], "--draws"),
        (["7c5d4h3sKd", "8c6d5h4s2c", "--strategy", "magic"], "magic"),
        (
            [
                "7c5d4h3sKd",
                "8c6d5h4s2c",
                "--strategy",
                "pat",
                "--strategy",
                "pat",
                "--strategy",
                "pat",
            ],
            "3 times",
        ),
        (["7c5d4h3sKd", "8c6d5h4s2c", "--dead", "7c"], "7c"),
        (["7c5d4h3sKd", "8c6d5h4s2c", "--strategy", "discard:As"], "As"),
    ],
)
def test_equity_impossible_requests_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    assert_usage_error(*run(capsys, "equity", *argv), word)


def test_discard_lists_all_32_choices_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "7c5d4h3sKd", "--draws", "1", "--target", "7", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["exact"] is True and len(data["choices"]) == 32
    assert data["choices"][0]["discard"] == ["Kd"]
    assert abs(data["choices"][0]["score"] - 4 / 47) < 1e-12
    scores = [c["score"] for c in data["choices"]]
    assert scores == sorted(scores, reverse=True)
    assert len({tuple(c["discard"]) for c in data["choices"]}) == 32


def test_discard_table_three_draws(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "discard",
        "7c5d4h3sKd",
        "--draws",
        "3",
        "--trials",
        "3000",
        "--seed",
        "1",
        "--top",
        "5",
    )
    assert code == 0
    lines = out.splitlines()
    assert "discard" in lines[0] and "or better" in lines[0]
    assert lines[2].split()[1] == "Kd"
    assert len(lines) == 2 + 5 + 1


def test_discard_against_an_opponent(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "9c8d6h4s2c", "--opponent", "7c5d4h3sKd", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["objective"] == "equity" and data["choices"][0]["discard"] == []


@pytest.mark.parametrize(
    "argv, word",
    [
        (["7c5d4h3s"], "5 cards"),
        (["7c5d4h3sKd", "--draws", "0"], "--draws"),
        (["7c5d4h3sKd", "--target", "5"], "5"),
        (["7c5d4h3sKd", "--target", "rank:99999"], "7462"),
        (["7c5d4h3sKd", "--target", "8", "--opponent", "?"], "either"),
        (["7c5d4h3sKd", "--opponent", "7c6d5h4s2c"], "7c"),
    ],
)
def test_discard_impossible_requests_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    assert_usage_error(*run(capsys, "discard", *argv), word)


# -- play --------------------------------------------------------------------------------


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    lines: list[str],
    *argv: str,
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code = main(["play", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out


def test_play_reprompts_invalid_input_with_a_reason(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # seed 1, 3 players: the human (seat 0) posts the small blind and acts after the button folds
    lines = ["", "dance", "help", "check", "c", "Kd", "9z", "1 1", "7", "hint", "t", "pat"] + [
        "c",
        "pat",
    ] * 10
    code, out = play(monkeypatch, capsys, lines, "--players", "3", "--seed", "1", "--hands", "1")
    assert code == 0
    assert "Please choose" in out  # empty input
    assert "Not understood: 'dance'" in out
    assert "Betting: f = fold" in out  # help
    assert "you cannot check: there is a bet to you" in out
    assert "you do not hold Kd" in out
    assert "malformed card '9z'" in out
    assert "position 1 is given twice" in out
    assert "position 7 is not between 1 and 5" in out
    assert "The heuristic bot would" in out
    assert "You stand pat." in out
    assert "Hand over" in out and "Goodbye" in out


def test_play_shows_the_table_and_only_the_humans_cards(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(
        monkeypatch, capsys, ["c"] * 40, "--players", "2", "--seed", "3", "--hands", "1"
    )
    assert code == 0
    assert "Your cards: [1]" in out and "Pot:" in out and "Seat 1 (heuristic)" in out
    assert "You are dealt" in out


def test_play_discard_by_card_and_position(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # call, then throw the first two cards by position; later draws stand pat
    lines = ["c", "1 2"] + ["c", "pat"] * 10
    code, out = play(monkeypatch, capsys, lines, "--players", "2", "--seed", "5", "--hands", "1")
    assert code == 0
    assert "You throw" in out and "and draw 2" in out and "You receive" in out
    # the table screen lists his own draws (from his view): what he threw and received
    assert "Draw 1: you threw " in out and ", received " in out


def test_play_end_of_input_and_quit_exit_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(monkeypatch, capsys, [], "--players", "3", "--seed", "1")
    assert code == 0 and "(end of input)" in out and "Goodbye" in out
    code, out = play(monkeypatch, capsys, ["q"], "--players", "3", "--seed", "1")
    assert code == 0 and "Goodbye" in out


def test_play_ctrl_c_exits_cleanly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def interrupt(*_: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    code = main(["play", "--players", "2", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 130 and "(interrupted)" in out and "Traceback" not in out + err


def test_play_many_hands_until_the_limit(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(
        monkeypatch, capsys, ["c", "pat", ""] * 80, "--players", "4", "--seed", "9", "--hands", "3"
    )
    assert code == 0
    assert "Hand 3" in out and "Hand 4" not in out


@pytest.mark.parametrize(
    "argv, word",
    [
        (["--players", "7"], "--players"),
        (["--bots", "nobody"], "nobody"),
        (["--bots", "random,random", "--players", "2"], "2 bots for 1"),
    ],
)
def test_play_bad_arguments_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], word: str
) -> None:
    assert_usage_error(*run(capsys, "play", *argv), word)


def test_python_dash_m_runs_the_cli_in_a_subprocess() -> None:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "triple_draw",
            "play",
            "--players",
            "2",
            "--seed",
            "4",
            "--hands",
            "1",
        ],
        input="zz\n" + "c\npat\n" * 10,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert p.returncode == 0, p.stderr
    assert "Not understood: 'zz'" in p.stdout and "Traceback" not in p.stderr
    p = subprocess.run(
        [sys.executable, "-m", "triple_draw", "eval", "7c5d4h3s2x"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and "2x" in p.stderr


def test_simulate_progress_bar_on_a_terminal_only(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--players", "2", "--hands", "60", "--seed", "1", "--chunk-size", "20"]
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(capsys, *argv)
    assert code == 0 and "simulate" in err and "hand" in err  # the tqdm bar
    code, _, err = run(capsys, *argv, "--no-progress")
    assert code == 0 and err == ""


def test_play_until_somebody_is_out_of_chips() -> None:
    from triple_draw._play import TerminalGame

    out = io.StringIO()

    def answer() -> str:  # call everything, stand pat, next hand
        prompt = out.getvalue().rsplit("\n", 1)[-1]
        return "pat" if "Discard" in prompt else "c"

    game = TerminalGame(players=2, seed=3, stack=6, input_fn=answer, out=out)
    assert game.run() == 0
    text = out.getvalue()
    assert "Game over" in text or "won every chip" in text
    assert "Goodbye" in text and game.hands_played >= 1


# -- the core switch ---------------------------------------------------------------------


def test_simulate_on_the_reference_core_gives_the_same_result(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["simulate", "--bots", "heuristic,call,random", "--hands", "40", "--seed", "3"]
    argv += ["--chunk-size", "20", "--json"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    code, ref, _ = run(capsys, *argv, "--core", "reference")
    assert code == 0
    assert json.loads(ref)["seats"] == json.loads(out)["seats"]
    assert_usage_error(*run(capsys, *argv, "--core", "rusty"), "--core")


def test_play_on_the_reference_core_deals_the_same_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["c", "pat"] * 30
    argv = ("--players", "3", "--seed", "4", "--hands", "2")
    code, compiled = play(monkeypatch, capsys, lines, *argv)
    assert code == 0
    code, ref = play(monkeypatch, capsys, lines, *argv, "--core", "reference")
    assert code == 0
    assert ref == compiled and "You are dealt" in ref
