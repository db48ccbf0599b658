"""The sites' hand histories read as they print them: hand-written records of PokerStars,
Full Tilt Poker and Winamax (``tests/data/histories/<site>/``) in every line kind and
quirk, each replayed to the cent, and every hand the engine cannot replay refused with
its line and reason - never an exception for the file."""

from __future__ import annotations

import codecs
import random
import warnings
from decimal import Decimal
from pathlib import Path

import pytest

from triple_draw import Hand, Rules, histories, phh
from triple_draw.errors import ArgumentError, ArgumentTypeError, HistoryError
from triple_draw.game.cards import UNKNOWN

DATA = Path(__file__).resolve().parent / "data" / "histories"


def load(site: str, name: str) -> histories.Imported:
    return histories.load(DATA / site / name)


def collected(h: histories.SiteHand) -> dict[str, Decimal]:
    """What each player took from the pots, in money."""
    out: dict[str, Decimal] = {}
    for pot in h.hand.result.pots:
        for s, x in pot.shares:
            out[h.players[s]] = out.get(h.players[s], Decimal(0)) + x * h.chip_unit
    return out


def test_pokerstars_cash_hands_replay_to_the_cent() -> None:
    imported = load("pokerstars", "cash.txt")
    assert not imported.refused and not imported.skipped
    a, b = imported.hands
    assert (a.site, a.hand_id, a.table, a.max_seats) == (
        "pokerstars",
        "228031563518",
        "Aludra II",
        6,
    )
    assert a.date == "2026/03/04 21:09:12 CET [2026/03/04 15:09:12 ET]"
    # names with spaces, brackets and colons; the player sitting out is not dealt in
    assert a.players == ("jo smith", "[Ace]High", "deuce:seven", "hero", "Zed")
    assert a.seat_numbers == (1, 2, 3, 4, 5)
    assert a.chip_unit == Decimal("0.01") and a.currency == "USD"
    assert (a.small_bet, a.big_bet, a.small_blind, a.big_blind) == tuple(
        map(Decimal, ("0.10", "0.20", "0.05", "0.10"))
    )
    assert a.hand.starting_stacks[4] == 100450  # "$1,004.50"
    assert a.hero == "hero" and a.hero_seat == 3
    assert collected(a) == {"hero": Decimal("2.66")} and a.rake == Decimal("0.14")
    assert a.net() == {
        "jo smith": 0,
        "[Ace]High": Decimal("-0.20"),
        "deuce:seven": Decimal("-1.00"),
        "hero": Decimal("1.66"),
        "Zed": Decimal("-0.60"),
    }
    # the hero's draws: thrown, kept and new cards known; the others' unknown
    assert a.hand.hole_text(3) == ("7s", "5c", "4h", "2d", "3s")
    assert a.hand.draws(3) == (1, 0, 0)
    for s in (0, 1, 2, 4):
        assert set(a.hand.hole_ids(s)) == {UNKNOWN}
    # a new player's big blind, the cap, a short all-in and a side pot
    assert b.players[5] == "newbie"
    assert [p.amount for p in b.hand.result.pots] == [145, 215]
    assert collected(b) == {"jo smith": Decimal("3.48")} and b.rake == Decimal("0.12")
    shown = {e.seat: e.cards for e in b.hand.result.showdown if e.shown}
    assert shown == {0: ("7c", "6d", "4s", "3h", "2c"), 5: ("8s", "7h", "5d", "4c", "2h")}
    assert sum(b.net().values()) + b.rake == 0


def test_pokerstars_tournament_and_play_money() -> None:
    (t,) = load("pokerstars", "tournament.txt").hands
    assert (t.tournament_id, t.level, t.buy_in, t.currency, t.chip_unit) == (
        "3500123456",
        "IV",
        "$3.19+$0.31 USD",
        "chips",
        Decimal(1),
    )
    assert t.players == ("hero", "Villain 77")
    assert t.hand.result.net == (-1420, 1420)
    # heads-up in a tournament the cap holds; the short all-in raise did not reopen
    assert t.hand.rules.heads_up_uncapped is False
    (p,) = load("pokerstars", "play_money.txt").hands
    assert p.currency == "play" and p.chip_unit == Decimal(1)
    # a returning player's small and big blinds and a new player's big blind: the
    # raise nobody called comes back down to the largest live bet
    assert p.hand.result.returned == (0, 20)
    assert p.hand.result.net == (60, 0, -10, -20, -30)


def test_heads_up_the_button_all_in_from_his_ante_posts_no_small_blind() -> None:
    """Heads-up the button is the small blind; when his ante takes all his chips he
    posts no small blind, and PokerStars prints none. The hand reads (it was refused:
    "heads-up, somebody must post the small blind"): he is the small blind who posted
    nothing, the big blind's uncalled 100 comes back, and the antes go to the best hand.
    Found by writing random hands as PokerStars histories and reading them back."""
    imported = load("pokerstars", "short_button.txt")
    assert not imported.refused, imported.refused[0].reason
    (t,) = imported.hands
    h = t.hand
    assert (h.button, h.small_blind_seat, h.big_blind_seat) == (0, 0, 1)
    assert h.rules.ante == 10 and h.rules.small_blind == 50
    assert h.result.returned == (1, 100)  # (seat, chips)
    assert h.result.net == (-10, 10)
    assert h.stacks == (0, 3000)


def test_a_mixed_game_file_takes_the_triple_draw_hands_and_names_every_refusal() -> None:
    imported = load("pokerstars", "mixed_8game.txt")
    assert [h.hand_id for h in imported.hands] == ["228200000002"]
    assert [s.hand_id for s in imported.skipped] == ["228200000001", "228200000005"]
    reasons = {r.hand_id: r.reason for r in imported.refused}
    assert set(reasons) == {"228200000003", "228200000004", "228200000006"}
    assert reasons["228200000003"].startswith("hand #228200000003, line 54 (")
    assert "can only raise to 20 chips (fixed limit), not 25" in reasons["228200000003"]
    assert "cancelled" in reasons["228200000004"]
    assert "line 116" in reasons["228200000006"] and "cannot be read" in reasons["228200000006"]
    for r in imported.refused:
        assert r.site == "pokerstars" and r.line >= 1


def test_full_tilt_utf16_with_a_truncated_last_byte_declare_then_deal() -> None:
    raw = (DATA / "fulltilt" / "cash.txt").read_bytes()
    assert raw.startswith(codecs.BOM_UTF16_LE) and len(raw) % 2 == 1 and b"\r\x00\n\x00" in raw
    imported = histories.load(raw)
    a, b = imported.hands
    assert a.site == "fulltilt" and a.table == "Carrick Roads" and a.max_seats == 6
    assert a.hand.rules.draw_procedure == "declare-then-deal"
    # "is sitting out" in the seat list; a dead small blind and a live post
    assert a.players == ("Marek P", "kid (3)", "Bjorn", "tiltless", "Hero")
    assert a.hand.result.net == (-25, -50, 0, -20, 90)
    assert a.rake == Decimal("0.05") and collected(a) == {"Hero": Decimal("1.40")}
    # a player the seats list but the summary says sat out is not dealt in
    assert b.players == ("Marek P", "kid (3)", "Bjorn", "tiltless") and b.hero is None
    assert b.hand.result.returned == (1, 10)
    reasons = [r.reason for r in imported.refused]
    assert "partial record" in reasons[0] and "dead hand" in reasons[1]


def test_full_tilt_tournament_thousands_separators() -> None:
    (t,) = load("fulltilt", "tournament.txt").hands
    assert (t.tournament_id, t.buy_in, t.table, t.currency) == (
        "250000111",
        "$20 Heads-Up Sit & Go",
        "1",
        "chips",
    )
    assert t.hand.starting_stacks == (1520, 1480) and t.hand.result.net == (600, -600)
    assert t.hand.hole_text(0) == ("6s", "3d", "2c", "7s", "4h")


def test_winamax_cash_tournament_and_play_money() -> None:
    imported = load("winamax", "cash.txt")
    assert (DATA / "winamax" / "cash.txt").read_bytes().startswith(codecs.BOM_UTF8)
    a, b = imported.hands
    assert a.hand_id == "9300111-12-1780000001" and a.currency == "EUR"
    assert a.players == ("Hero", "la_bête", "Yann K", "Pif")
    # a big blind posted out of position is a live post
    assert a.hand.result.net == (575, -150, -25, -450) and a.rake == Decimal("0.50")
    # Winamax's collected amount holds the uncalled bet
    assert b.hand.result.returned == (1, 50) and b.rake == Decimal("0.10")
    assert b.net()["la_bête"] == Decimal("1.15")
    (t,) = load("winamax", "tournament.txt").hands
    assert (t.tournament_id, t.level, t.currency) == ("812345678", "4", "chips")
    (p,) = load("winamax", "play_money.txt").hands
    assert p.currency == "play" and p.chip_unit == Decimal("0.01")
    assert p.hand.result.net == (75, -25, -50)


def test_every_encoding_the_sites_write_reads_the_same() -> None:
    text = (DATA / "pokerstars" / "cash.txt").read_text(encoding="utf-8")
    want = [h.hand.result.net for h in histories.load(text).hands]
    crlf = text.replace("\n", "\r\n")
    for data in (
        text.encode(),
        codecs.BOM_UTF8 + text.encode(),
        codecs.BOM_UTF16_LE + crlf.encode("utf-16-le"),
        codecs.BOM_UTF16_BE + crlf.encode("utf-16-be"),
        crlf.encode("utf-16-le"),  # no BOM
        crlf.encode(),
        (text + "é").encode()[:-1],  # a character cut short at the end
    ):
        assert [h.hand.result.net for h in histories.load(data).hands] == want


def test_load_leaves_the_garbage_collector_as_it_found_it() -> None:
    """load() pauses the cyclic collector while it builds the hands (speed): it is on
    again afterwards, also when the source is refused, and stays off if it was off."""
    import gc

    text = (DATA / "pokerstars" / "mixed_8game.txt").read_text(encoding="utf-8")
    assert gc.isenabled()
    assert histories.load(text).hands
    assert gc.isenabled()
    with pytest.raises(HistoryError):
        histories.load("no hand here\n")
    assert gc.isenabled()
    gc.disable()
    try:
        histories.load(text)
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_sources_that_are_not_hand_histories_get_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="no hand of PokerStars, Full Tilt Poker or Winamax"):
        histories.load("just some text\nwith two lines\n")
    with pytest.raises(ArgumentError, match="no such file"):
        histories.load(tmp_path / "missing.txt")
    with pytest.raises(ArgumentError, match="is a directory"):
        histories.load(tmp_path)
    with pytest.raises(ArgumentTypeError, match="path, bytes or str"):
        histories.load(12)  # type: ignore[arg-type]
    with pytest.raises(ArgumentTypeError, match="rules must be a Rules"):
        histories.load("PokerStars Hand #1: x\n", rules={"raise_cap": 4})  # type: ignore[arg-type]


def test_iter_load_streams_the_same_hands_in_file_order() -> None:
    items = list(histories.iter_load(DATA / "pokerstars" / "mixed_8game.txt"))
    kinds = [type(x).__name__ for x in items]
    assert kinds == ["Skipped", "SiteHand", "Refused", "Refused", "Skipped", "Refused"]
    assert [x.line for x in items] == sorted(x.line for x in items)


def _texts() -> list[tuple[str, str]]:
    out = []
    for path in sorted(DATA.rglob("*.txt")):
        out.append((str(path.relative_to(DATA)), histories._text.decode(path.read_bytes())))
    return out


@pytest.mark.parametrize(("name", "text"), _texts(), ids=[n for n, _ in _texts()])
def test_a_corrupt_record_is_refused_never_raised(name: str, text: str) -> None:
    """Each line of every record dropped, duplicated or garbled: the file still loads,
    and every hand is a replayed hand, refused or skipped."""
    lines = text.replace("\r\n", "\n").split("\n")
    rng = random.Random(name)
    n_hands = len(list(histories._text.split_hands(text)))
    for i in range(len(lines)):
        for variant in (
            lines[:i] + lines[i + 1 :],
            lines[: i + 1] + lines[i:],
            [*lines[:i], _garble(lines[i], rng), *lines[i + 1 :]],
        ):
            try:
                imported = histories.load("\n".join(variant))
            except HistoryError:
                assert i == 0 or not any(
                    ln.startswith(("Poker", "Full", "Winamax")) for ln in variant
                )
                continue
            total = len(imported.hands) + len(imported.refused) + len(imported.skipped)
            assert abs(total - n_hands) <= 1
            for h in imported.hands:
                assert sum(h.hand.result.net) + h.hand.result.rake == 0


def _garble(line: str, rng: random.Random) -> str:
    if not line:
        return "x"
    k = rng.randrange(len(line))
    return (
        line[:k] + rng.choice(["9", "$", "[", "]", "", " ", "??", "Kx", "-1", ":"]) + line[k + 1 :]
    )


def test_to_phh_is_the_heros_view_and_reads_in_phh_and_pokerkit() -> None:
    pokerkit = pytest.importorskip("pokerkit")
    read = 0
    for path in sorted(DATA.rglob("*.txt")):
        site = path.parent.name
        for h in histories.load(path).hands:
            text = h.to_phh()
            back = phh.loads(text)
            assert back.result.net == h.hand.result.net
            assert back.is_record
            if h.hero_seat is not None:
                assert back.hole_ids(h.hero_seat) == h.hand.hole_ids(h.hero_seat)
            assert f'venue = "{histories.SITE_NAMES[site]}"' in text
            if "_triple_draw_forced" in text:
                # the post of a player coming in (a new player's big blind, a dead small
                # blind) has no PHH field: PokerKit does not read ours
                continue
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                *_, state = pokerkit.HandHistory.loads(text)
            assert state is not None and not state.status
            if not h.hand.result.rake:
                n = h.hand.n_players
                order = [(h.hand.button + 1 + k) % n for k in range(n)]
                assert list(state.stacks) == [h.hand.stacks[s] for s in order]
            read += 1
    assert read >= 6


def test_dumps_refuses_what_pokerstars_cannot_print() -> None:
    hand = Hand(Rules.online(2), [50, 50], 0, 1)
    with pytest.raises(ArgumentError, match="finished hand"):
        histories.dumps(hand)
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    with pytest.raises(ArgumentError, match="site must be one of"):
        histories.dumps(hand, site="ipoker")
    with pytest.raises(ArgumentError, match="2 names"):
        histories.dumps(hand, players=["a"])
    with pytest.raises(ArgumentError, match="must differ"):
        histories.dumps(hand, players=["a", "a"])
    with pytest.raises(ArgumentError, match="one-line"):
        histories.dumps(hand, players=["a\nb", "c"])
    with pytest.raises(ArgumentError, match="viewer"):
        histories.dumps(hand, viewer=2)
    with pytest.raises(ArgumentError, match="chip_unit"):
        histories.dumps(hand, chip_unit="-1")
    with pytest.raises(ArgumentError, match="seat_numbers"):
        histories.dumps(hand, seat_numbers=[2, 1])


@pytest.mark.parametrize(
    "path", sorted(DATA.rglob("*.txt")), ids=lambda p: p.parent.name + "/" + p.name
)
def test_a_file_streamed_in_chunks_reads_as_the_whole_file(path: Path) -> None:
    whole = histories._text.decode(path.read_bytes()).replace("\r\n", "\n").split("\n")
    for chunk in (1, 2, 3, 7, 64):
        got = list(histories._text.stream_lines(path, chunk=chunk))
        assert got == whole[: len(got)] and len(whole) - len(got) <= 1


def test_iter_load_imports_a_large_file_in_flat_memory(tmp_path: Path) -> None:
    import tracemalloc

    (a, b) = histories.load(DATA / "pokerstars" / "cash.txt").hands
    texts = [histories.dumps(h.hand, viewer=3, players=h.players) for h in (a, b)]

    def peak(n: int) -> int:
        path = tmp_path / f"{n}.txt"
        with path.open("w") as f:
            for i in range(n):
                f.write(texts[i % 2].replace("Hand #1:", f"Hand #{i + 1}:", 1) + "\n\n")
        tracemalloc.start()
        count = sum(1 for x in histories.iter_load(path) if isinstance(x, histories.SiteHand))
        got = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert count == n
        return got

    small, large = peak(200), peak(2000)
    assert large < 2 * small + 500_000, (small, large)


def test_huge_amounts_and_nul_names_are_package_errors() -> None:
    text = (DATA / "pokerstars" / "cash.txt").read_text()
    huge = histories.load(text.replace("$4.10 in chips", "$" + "9" * 5000 + " in chips"))
    assert not huge.hands and len(huge.refused) == 2
    assert "line 3" in huge.refused[0].reason and "more than 24 digits" in huge.refused[0].reason
    big = histories.load(text.replace("$4.10 in chips", "$" + "9" * 20 + " in chips"))
    assert "at most 1125899906842623" in big.refused[0].reason
    with pytest.raises(ArgumentError, match="NUL"):
        histories.load("\x00" * 1000)
    with pytest.raises(ArgumentError, match="NUL"):
        histories.iter_load("a\x00b")
    # a long text without a line end or a header is taken for a path, and no file has
    # such a name: one short package error, for every way in
    for load in (histories.load, histories.iter_load):
        with pytest.raises(ArgumentError, match=r"cannot be read \(File name too long\)") as e:
            load("[" * 100_000)
        assert len(str(e.value)) < 300


@pytest.mark.parametrize(
    ("site", "line"),
    [
        ("pokerstars", "deuce:seven: discards 3 cards"),
        ("fulltilt", "tiltless discards 2 cards"),
        ("winamax", "Pif discard 2 cards"),
    ],
)
def test_an_unseen_draw_of_more_cards_than_a_hand_holds_is_refused(site: str, line: str) -> None:
    """Another player's draw claiming more than five cards (found by fuzzing: it raised
    IndexError out of ``histories.load``) refuses its hand with the line and the reason;
    the file's other hands load, and a refusal quotes at most 160 characters of a line."""
    text = histories._text.decode((DATA / site / "cash.txt").read_bytes()).replace("\r\n", "\n")
    assert text.count("\n" + line + "\n") == 1
    whole = histories.load(text)
    for count, why in (("9", "discards 9 cards: a player holds 5"), ("9" * 500, "cannot be read")):
        bad = histories.load(text.replace(line, line.replace(line.split()[-2], count)))
        assert len(bad.hands) == len(whole.hands) - 1 and len(bad.refused) == len(whole.refused) + 1
        reason = next(r.reason for r in bad.refused if r not in whole.refused)
        assert why in reason and ", line " in reason
        assert len(reason) < 400


def test_a_hand_listing_thousands_of_seats_is_refused_at_its_seats() -> None:
    """A hostile file listing 20,000 seats (each name holding " [") with 2,000 "Dealt to"
    lines took 35 s to refuse once the readers looked for the longest seated name in a
    "Dealt to" line; the seats themselves are refused now, past ten."""
    head = [
        "PokerStars Hand #1:  Triple Draw 2-7 Lowball Limit ($0.10/$0.20 USD) - "
        "2026/01/01 12:00:00 ET",
        "Table 'x' 6-max Seat #1 is the button",
    ]
    seats = [f"Seat {i + 1}: p [{i} ($1 in chips)" for i in range(20_000)]
    dealt = [f"Dealt to p [{i} [2c 3c 4c 5c 7d]" for i in range(2_000)]
    text = "\n".join([*head, *seats, "*** DEALING HANDS ***", *dealt, "*** SUMMARY ***"])
    (refused,) = histories.load(text).refused
    assert "line 13" in refused.reason and "more than 10 seats" in refused.reason
