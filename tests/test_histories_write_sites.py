"""``histories.dumps(hand, site)`` for Full Tilt Poker and Winamax: the hand-written
records of ``tests/data/histories/<site>/`` come back line for line when their replayed
hands are written out again, random hands of random rules read back (with their records'
known cards), and every bad argument is refused with a message naming it."""

from __future__ import annotations

import random
import re
from decimal import Decimal
from pathlib import Path

import pytest

from conftest import play_randomly
from triple_draw import Hand, Rules, histories
from triple_draw.errors import ArgumentError
from triple_draw.game.cards import UNKNOWN
from triple_draw.histories._text import decode

DATA = Path(__file__).resolve().parent / "data" / "histories"
_SIGNS = ("USD", "EUR", "GBP")


def written_back(site_hand: histories.SiteHand) -> str:
    """The record's hand written by ``dumps`` as its site, with the record's own names,
    seats, hand number, table, date, money and tournament."""
    tid = site_hand.tournament_id
    hand_id = site_hand.hand_id
    if site_hand.site == "winamax" and tid is not None:  # "812345678-21-..." = tid-hand
        hand_id = hand_id.split("-", 1)[1]
    money = site_hand.currency in ("USD", "EUR", "GBP")
    return histories.dumps(
        site_hand.hand,
        site_hand.site,
        viewer=site_hand.hero_seat,
        players=site_hand.players,
        seat_numbers=site_hand.seat_numbers,
        hand_id=hand_id,
        table=site_hand.table or "t",
        date=site_hand.date,
        chip_unit=site_hand.chip_unit,
        currency=site_hand.currency if money else None,
        tournament_id=tid,
        buy_in=site_hand.buy_in,
        level=site_hand.level,
        max_seats=site_hand.max_seats,
    )


def hands_of(site: str, name: str) -> list[tuple[histories.SiteHand, list[str]]]:
    """The file's hands, each with the lines of its text."""
    path = DATA / site / name
    text = decode(path.read_bytes()).replace("\r", "")
    blocks = [b.strip().splitlines() for b in re.split(r"\n\s*\n", text) if b.strip()]
    imported = histories.load(path)
    out = []
    for h in imported.hands:
        (lines,) = [b for b in blocks if f"#{h.hand_id}" in b[0]]
        out.append((h, lines))
    return out


@pytest.mark.parametrize("name", ["cash.txt", "tournament.txt", "play_money.txt"])
def test_winamax_records_write_back_line_for_line(name: str) -> None:
    hands = hands_of("winamax", name)
    assert hands
    for h, lines in hands:
        # the lines that say nothing: another player's hidden cards
        original = [x for x in lines if not re.fullmatch(r"Dealt to .+ \[X X X X X\]", x)]
        assert written_back(h).splitlines() == original


@pytest.mark.parametrize("name", ["cash.txt", "tournament.txt"])
def test_full_tilt_records_write_back_their_play(name: str) -> None:
    """The header, the posts and every line of play come back; what Full Tilt Poker's
    records also hold - players sitting out, table talk, time-bank notices, the pot in a
    draw's heading, a showdown's order, the summary's seat lines - is left out of the
    comparison (``dumps`` writes the pot in one form and the engine's showdown order)."""
    hands = hands_of("fulltilt", name)
    assert hands

    def play(lines: list[str]) -> list[str]:
        out = []
        for x in lines[lines.index("*** HOLE CARDS ***") : lines.index("*** SUMMARY ***")]:
            if re.search(r": |has \d+ seconds|stands up$|^\S+ \S+ mucks$|shows \[", x):
                continue
            out.append(x.split(" (", 1)[0] if x.startswith("*** ") else x)
        return out

    def shows(lines: list[str]) -> set[str]:
        return {x for x in lines if " shows [" in x}

    for h, lines in hands:
        back = written_back(h).splitlines()
        assert back[0] == lines[0]
        assert play(back) == play(lines)
        assert shows(back) == shows(lines)
        start = back.index("*** HOLE CARDS ***")
        assert [x for x in back[:start] if "posts" in x or "antes" in x] == [
            x for x in lines[: lines.index("*** HOLE CARDS ***")] if "posts" in x or "antes" in x
        ]


SITE_RULES = {
    "fulltilt": {"draw_procedure": "declare-then-deal", "reshuffle": "served-discards"},
    "winamax": {"draw_procedure": "immediate", "reshuffle": "served-discards"},
}


@pytest.mark.parametrize("site", ["fulltilt", "winamax"])
def test_random_hands_read_back_from_each_site_as_the_site_deals(site: str) -> None:
    """Hands of the site's own rules - side pots, all-ins for less, uncalled bets (which
    Winamax folds into the winner's collection), split pots, antes, rake - written as one
    seat's view or with every card, in money or in tournament chips, read back with the
    site's rules (no ``rules=``): same actions, stacks and result, and every card the
    record knows is the hand's."""
    names = ["jo smith", "[Ace]High", "deuce:seven", "Zed", "x (y)", "ÉlodieW"]
    currency = "EUR" if site == "winamax" else "USD"
    rng = random.Random(site)
    texts, hands, viewers = [], [], []
    for seed in range(300):
        n = 2 + seed % 5
        tournament = seed % 3 == 0
        rules = Rules.online(
            rng.choice((2, 10, 20)),
            ante=rng.choice((0, 0, 1)),
            rake_percent="0" if tournament else rng.choice(("0", "5")),
            heads_up_uncapped=not tournament,
            **SITE_RULES[site],
        )
        rules = rules.replace(small_blind=rules.big_blind // 2)
        stacks = [rng.choice((rng.randint(1, 30), rng.randint(30, 400))) for _ in range(n)]
        hand = play_randomly(Hand(rules, stacks, rng.randrange(n), seed), rng)
        viewer = None if seed % 4 == 0 else seed % n
        texts.append(
            histories.dumps(
                hand,
                site,
                viewer=viewer,
                hand_id=seed + 10**9,
                players=names[:n],
                chip_unit=1 if tournament else Decimal("0.01"),
                currency=None if tournament else currency,
                tournament_id=4242 if tournament else None,
                table="Nantes 03",
            )
        )
        hands.append(hand)
        viewers.append(viewer)
    imported = histories.load("\n\n\n".join(texts))
    assert not imported.refused, imported.refused[0].reason
    assert len(imported.hands) == len(hands)
    for hand, got, viewer in zip(hands, imported.hands, viewers, strict=True):
        assert got.site == site
        back = got.hand
        # the site's rules (the record's rake is taken as given, not as a percentage)
        fields = ("small_bet", "big_bet", "small_blind", "big_blind", "ante", "raise_cap")
        fields += ("heads_up_uncapped", "draw_procedure", "reshuffle", "short_all_in")
        assert [getattr(back.rules, f) for f in fields] == [getattr(hand.rules, f) for f in fields]
        kinds = ("fold", "check", "call", "bet", "raise", "discard", "return", "win", "rake")
        assert [(e.kind, e.seat, e.amount) for e in back.history if e.kind in kinds] == [
            (e.kind, e.seat, e.amount) for e in hand.history if e.kind in kinds
        ]
        assert back.stacks == hand.stacks and back.result.net == hand.result.net
        for s in range(hand.n_players):
            known = [c for c in back.hole_ids(s) if c != UNKNOWN]
            assert set(known) <= set(hand.hole_ids(s))
            if viewer is None or s == viewer:
                assert sorted(known) == sorted(hand.hole_ids(s))
        if viewer is not None:
            assert got.hero == names[viewer]


def test_winamax_folds_the_uncalled_bet_into_the_collection() -> None:
    """Winamax prints no uncalled-bet line: the bettor collects the pot and his bet."""
    hand = Hand(Rules(), [100, 100, 100], 0, seed=3)
    hand.check_or_call()  # the button calls 2
    hand.fold()  # the small blind folds
    hand.bet_or_raise()  # the big blind raises to 4
    hand.fold()
    text = histories.dumps(hand, "winamax")
    assert "Player3 collected 7 from pot" in text  # 2 + 1 + 2 called, 2 uncalled
    assert "Uncalled" not in text and "returned" not in text
    assert "Total pot 7 | No rake" in text
    tilt = histories.dumps(hand, "fulltilt")
    assert "Uncalled bet of 2 returned to Player3" in tilt
    assert "Player3 wins the pot (5)" in tilt


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"site": "ipoker"}, "site must be one of ['fulltilt', 'pokerstars', 'winamax']"),
        ({"site": "winamax", "currency": "USD"}, "currency must be one of ['EUR']"),
        ({"site": "fulltilt", "hand_id": "12a"}, "hand_id must be digits"),
        ({"site": "winamax", "hand_id": "12--3"}, "hand_id must be digits, with dashes"),
        ({"site": "pokerstars", "hand_id": "x1"}, "hand_id must be digits"),
        ({"site": "winamax", "tournament_id": "T1"}, "tournament_id must be digits"),
        ({"site": "winamax", "date": "a\nb"}, "date must be a one-line text"),
        ({"site": "pokerstars", "max_seats": 1}, "max_seats must be an int from 2"),
        ({"site": "pokerstars", "hand_id": 10**5000}, "hand_id must be a one-line text"),
        ({"site": "winamax", "hand_id": "\u0661\u0662"}, "hand_id must be digits"),
        ({"site": "fulltilt", "tournament_id": 3.5}, "tournament_id must be digits"),
        ({"site": "pokerstars", "level": "I\nII", "tournament_id": 1}, "level must be a one-line"),
        ({"site": "fulltilt", "buy_in": ["$1"], "tournament_id": 1}, "buy_in must be a one-line"),
        ({"site": "fulltilt", "max_seats": 11}, "max_seats must be an int from 2"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, object], words: str) -> None:
    hand = Hand(Rules(), [100, 100], 0, seed=1)
    hand.fold()
    with pytest.raises(ArgumentError, match=re.escape(words)):
        histories.dumps(hand, **kwargs)  # type: ignore[arg-type]


def test_a_hand_in_progress_is_refused_in_the_sites_name() -> None:
    hand = Hand(Rules(), [100, 100], 0, seed=1)
    with pytest.raises(ArgumentError, match="Full Tilt Poker hand history"):
        histories.dumps(hand, "fulltilt")


def test_side_pots_and_split_pots_are_named_as_each_site_names_them() -> None:
    """Full Tilt Poker: "wins the main pot", "wins the side pot #1", "ties for the pot";
    Winamax: "collected ... from main pot", "from side pot 1"."""
    rng = random.Random(11)
    side = split = None
    for seed in range(3000):
        hand = play_randomly(Hand(Rules(), [3, 9, 100, 100], seed % 4, seed), rng, fold_chance=0)
        pots = hand.result.pots
        if side is None and len(pots) == 3 and all(len(p.winners) == 1 for p in pots):
            side = hand
        if split is None and any(len(p.winners) > 1 for p in pots):
            split = hand
        if side is not None and split is not None:
            break
    assert side is not None and split is not None
    tilt, wina = histories.dumps(side, "fulltilt"), histories.dumps(side, "winamax")
    for j, pot in enumerate(side.result.pots):
        ((s, x),) = pot.shares
        tilt_name = ("main pot", "side pot #1", "side pot #2")[j]
        assert f"Player{s + 1} wins the {tilt_name} ({x})" in tilt
        wina_name = ("main pot", "side pot 1", "side pot 2")[j]
        assert f"Player{s + 1} collected {x} from {wina_name}" in wina
    tilt = histories.dumps(split, "fulltilt")
    pots = split.result.pots
    for j, pot in enumerate(pots):
        name = "pot" if len(pots) == 1 else ("main pot", "side pot #1", "side pot #2")[j]
        if len(pots) == 2 and j == 1:
            name = "side pot"
        verb = "ties for" if len(pot.winners) > 1 else "wins"
        for s, x in pot.shares:
            assert f"Player{s + 1} {verb} the {name} ({x})" in tilt


@pytest.mark.parametrize("site", ["pokerstars", "fulltilt", "winamax"])
def test_every_record_of_every_site_reads_back_from_each_sites_history(site: str) -> None:
    """A record (the other players' cards unknown) read from any site's file, written as
    ``site``'s history and read back: the same play, result and known cards."""
    count = 0
    for path in sorted(DATA.glob("*/*.txt")):
        for h in histories.load(path).hands:
            money = h.currency in ("EUR",) if site == "winamax" else h.currency in _SIGNS
            text = histories.dumps(
                h.hand,
                site,
                players=h.players,
                chip_unit=h.chip_unit,
                currency=h.currency if money else None,
            )
            back = histories.load(text, rules=h.hand.rules)
            assert not back.refused, (path.name, h.hand_id, back.refused[0].reason)
            (got,) = back.hands
            kinds = ("fold", "check", "call", "bet", "raise", "discard", "return", "win")
            assert [(e.kind, e.seat, e.amount) for e in got.hand.history if e.kind in kinds] == [
                (e.kind, e.seat, e.amount) for e in h.hand.history if e.kind in kinds
            ]
            assert got.hand.result.net == h.hand.result.net
            for s in range(h.hand.n_players):
                assert sorted(got.hand.hole_ids(s)) == sorted(h.hand.hole_ids(s))
            count += 1
    assert count >= 13


def _same_cards(line: str) -> str:
    """A line with the cards of each bracket in one order (the sites print a shown or kept
    hand in their own order; the engine's is the order held)."""
    return re.sub(r"\[([^\]]*)\]", lambda m: "[" + " ".join(sorted(m.group(1).split())) + "]", line)


#: lines of PokerStars' records that say nothing of the play: chat, arrivals, time-outs,
#: the cap notice, "doesn't show hand", a seat sitting out
_PS_NOISE = re.compile(
    r' said, "|joins the table|has timed out|^Betting is capped$|doesn\'t show hand$'
    r"|is sitting out$"
)


@pytest.mark.parametrize(
    "name", ["cash.txt", "play_money.txt", "tournament.txt", "short_button.txt"]
)
def test_pokerstars_records_write_back_line_for_line_but_for_card_order(name: str) -> None:
    """PokerStars' own records (the suite's hand-written ones) written back from their
    replayed hands: every line of the header, the seats, the play and the summary, with
    the cards of a shown or kept hand taken in any order, and chat and players sitting
    out left out."""
    for h, lines in hands_of("pokerstars", name):
        back = written_back(h).splitlines()
        original = [x for x in lines if not _PS_NOISE.search(x)]
        assert [_same_cards(x) for x in back] == [_same_cards(x) for x in original]


@pytest.mark.parametrize("site", ["pokerstars", "fulltilt", "winamax"])
def test_high_stakes_with_thousands_grouped_read_back(site: str) -> None:
    """Amounts of thousands (``$20,000/$40,000``): PokerStars' reader took the comma of
    the header's small bet for the comma of a mixed game's ``8-Game (..., $0.10/$0.20)``
    and read a small bet of "000" ("the stakes are impossible"). Found by writing
    records again and again, each in a unit of the last one's chips."""
    rng = random.Random(5)
    currency = "EUR" if site == "winamax" else "USD"
    for seed in range(40):
        hand = play_randomly(Hand(Rules(), [3, 30, 200, 200][: 2 + seed % 3], 0, seed), rng)
        for unit in (1000, 10000, "12.5"):
            text = histories.dumps(hand, site, chip_unit=unit, currency=currency)
            if site != "winamax":
                assert ",000/" in text.splitlines()[0] or unit == "12.5"
            imported = histories.load(text, rules=hand.rules)
            assert not imported.refused, imported.refused[0].reason
            got = imported.hands[0]
            scale = Decimal(str(unit)) / got.chip_unit
            assert [x / scale for x in got.hand.stacks] == list(hand.stacks)


@pytest.mark.parametrize("site", ["pokerstars", "fulltilt", "winamax"])
def test_a_name_holding_a_bracket_reads_back(site: str) -> None:
    """ "jo [FR]" beside "jo": the "Dealt to" line's name ran to the first " [" and the
    hand was refused ("'jo' is dealt cards but has no seat", or "'FR' is not a card");
    the reader now tries the longest seated name the line goes on with."""
    hand = Hand(Rules(), [100, 100, 100], 0, seed=1)
    while not hand.is_over:
        hand.discard([hand.hole_ids(hand.actor)[0]]) if hand.in_draw else hand.check_or_call()
    for names in (["jo [FR]", "ann", "bo"], ["jo [FR]", "jo", "jo [FR] [x"]):
        for viewer in (0, 2, None):
            text = histories.dumps(hand, site, viewer=viewer, players=names)
            imported = histories.load(text)
            assert not imported.refused, imported.refused[0].reason
            (got,) = imported.hands
            assert got.players == tuple(names) and got.hand.result.net == hand.result.net
            if viewer is not None:
                assert got.hero == names[viewer]


@pytest.mark.parametrize("site", ["pokerstars", "fulltilt", "winamax"])
def test_names_that_start_like_other_lines_read_back(site: str) -> None:
    """A player named like the start of another line of the history ("Dealt to me",
    "Uncalled bet", "Seat 1", ...): PokerStars' reader took "Dealt to me collected 5 from
    pot" for a "Dealt to" line and refused the hand; a "Dealt to" line that cannot be one
    is now read as the line of the seated player it starts with."""
    won = Hand(Rules(), [100, 100, 100], 0, seed=1)  # the big blind collects uncontested
    won.bet_or_raise()
    won.fold()
    won.fold()
    shown = Hand(Rules(), [100, 100, 100], 0, seed=2)  # three draws and a showdown
    while not shown.is_over:
        shown.discard([shown.hole_ids(shown.actor)[0]]) if shown.in_draw else shown.check_or_call()
    for odd in ("Dealt to me", "Uncalled bet", "Seat 1", "Total pot", "Table x", "The button is"):
        for hand in (won, shown):
            for names in ([odd, "ann", "bo"], ["ann", "bo", odd]):
                for viewer in (0, 2, None):
                    text = histories.dumps(hand, site, viewer=viewer, players=names)
                    imported = histories.load(text)
                    assert not imported.refused, (odd, imported.refused[0].reason)
                    (got,) = imported.hands
                    assert got.players == tuple(names)
                    assert got.hand.result.net == hand.result.net
