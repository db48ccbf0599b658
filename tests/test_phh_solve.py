"""The search for the unknown cards of a PHH history (docs: PHH, unknown cards): a
player's view of a hand with several reshuffles loads back under every reshuffle rule,
with and without burn cards, under both draw procedures; the choice is the same for the
same text; and a history that no choice of cards makes possible is refused at once.

``TD_PHH_SEEDS=N`` widens the sweep to the first N reshuffling seeds per table
(docs: development)."""

from __future__ import annotations

import os
import re
from collections import Counter

import pytest
from conftest import count_replays, draw_heavy_hand, reshuffling_seeds, spy_on_search

from triple_draw import phh
from triple_draw.errors import HistoryError
from triple_draw.game import Hand, Rules
from triple_draw.game.cards import to_ids
from triple_draw.phh import read, solve
from triple_draw.phh.base import parse_toml

RULES = {
    "served-discards": {},
    "pokerstars": {"reshuffle": "pokerstars"},
    "pokerkit-burns": {"reshuffle": "pokerkit", "burn_cards": True},
    "pokerstars-burns": {"reshuffle": "pokerstars", "burn_cards": True},
}
SEEDS = int(os.environ.get("TD_PHH_SEEDS", "1"))


def _rules(name: str, procedure: str) -> Rules:
    return Rules(max_players=8, draw_procedure=procedure, **RULES[name])


CASES = [
    pytest.param(name, procedure, n, seed, id=f"{name}-{procedure}-{n}-{seed}")
    for name in RULES
    for procedure in ("declare-then-deal", "immediate")
    for n in (6, 7, 8)
    for seed in reshuffling_seeds(_rules(name, procedure), n, SEEDS)
]


@pytest.mark.parametrize(("name", "procedure", "n", "seed"), CASES)
def test_every_view_of_a_hand_with_reshuffles_loads_back(
    name: str, procedure: str, n: int, seed: int
) -> None:
    h = draw_heavy_hand(_rules(name, procedure), n, seed)
    assert sum(e.kind == "reshuffle" for e in h.history) >= 2
    for viewer in range(n):
        back = phh.complete(phh.dumps(h, viewer=viewer), seed=seed)
        assert back.stacks == h.stacks, viewer
        assert back.hole_ids(viewer) == h.hole_ids(viewer) or h.folded[viewer], viewer


def _hole_cards(h: Hand) -> list[tuple[int, ...]]:
    return [h.hole_ids(s) for s in range(h.n_players)]


def test_the_search_chooses_the_same_cards_whatever_the_seed(monkeypatch) -> None:
    # the quick first choice is seeded; the search depends on the text only
    searched = spy_on_search(monkeypatch)
    h = draw_heavy_hand(Rules(max_players=8), 8, 1)
    text = phh.dumps(h, viewer=7)
    first = phh.complete(text, seed=1)
    again = phh.complete(text, seed=2)
    assert len(searched) == 2 and None not in searched  # the first choice got stuck twice
    assert _hole_cards(first) == _hole_cards(again)
    assert [e.cards for e in first.history] == [e.cards for e in again.history]


def test_the_search_follows_a_history_with_every_card_named() -> None:
    # given every card, the search has nothing to choose but the burn cards: it finds
    # the hand as it was dealt, card for card
    h = draw_heavy_hand(Rules(max_players=8, reshuffle="pokerkit", burn_cards=True), 8, 2)
    back = phh.complete(phh.dumps(h), seed=2)
    assert back.stacks == h.stacks
    assert _hole_cards(back) == _hole_cards(h)


def _a_view_receiving_its_own_discard() -> str:
    """A viewer who, in his last draw, is dealt a card he throws in that very draw: no
    deal gives it (his discards go into the pool only after he is served)."""
    h = draw_heavy_hand(Rules(max_players=8), 8, 2)
    text = phh.dumps(h, viewer=0)
    card = "[2-9TJQKA][cdhs]"
    *_, m = re.finditer(rf'"(p\d) sd ((?:{card})+)"', text)
    who, thrown = m.groups()
    got = re.compile(rf'"d dh {who} ((?:{card})+)"').search(text, m.end())
    assert got is not None
    dealt = got.group(1)
    bad = text[: got.start(1)] + thrown[:2] + dealt[2:] + text[got.end(1) :]
    # his hand at the showdown holds the card he was dealt instead
    return re.sub(rf'"{who} sm ([^"]*)"', lambda s: s.group(0).replace(dealt[:2], thrown[:2]), bad)


def test_a_view_that_no_deal_gives_is_refused_naming_where() -> None:
    with pytest.raises(HistoryError, match=r"line \d+, action \d+ .*cannot be in the stub"):
        phh.complete(_a_view_receiving_its_own_discard(), seed=1)


def test_the_search_proves_an_impossible_view_without_guessing(monkeypatch) -> None:
    # the search runs out of choices (it does not hit its bound): no random choice of
    # cards is tried after it

    bad = _a_view_receiving_its_own_discard()
    calls = count_replays(monkeypatch)
    with pytest.raises(HistoryError):
        phh.complete(bad, seed=1)
    assert len(calls) == 1  # the first choice, then the search's proof


def _heavy_view(
    reshuffle: str, procedure: str, n: int, seed: int, burns: bool, viewer: int
) -> tuple[Hand, str]:
    """The heavy-drawing hand of ``seed`` under these rules, and one seat's view of it."""
    rules = Rules(max_players=8, reshuffle=reshuffle, draw_procedure=procedure, burn_cards=burns)
    h = draw_heavy_hand(rules, n, seed)
    return h, phh.dumps(h, viewer=viewer)


def _solver(text: str) -> solve.Solver:
    from triple_draw.game import core
    from triple_draw.phh import read
    from triple_draw.phh.actions import parse_actions
    from triple_draw.phh.base import Locator, parse_toml
    from triple_draw.phh.timing import find_serves

    data = parse_toml(text)
    n = len(data["starting_stacks"])
    rules = read._rules_for(data, n, None)
    seat_of, button = read._seating(data, n)
    acts = parse_actions(data["actions"], n, Locator(text))
    serves = find_serves(
        rules, data["starting_stacks"], seat_of, button, acts, core.resolve_core(None)
    )
    return read.solver_for(acts, n, rules, serves, Locator(text), solve.recorded_stubs(acts))


def test_the_search_is_bounded(monkeypatch) -> None:
    text = phh.dumps(draw_heavy_hand(Rules(max_players=8), 8, 1), viewer=7)
    assert solve.MAX_NODES >= _solver(text).solve().nodes
    monkeypatch.setattr(solve, "MAX_NODES", 3)
    with pytest.raises(solve.Unsolved, match="more than 3 choices"):
        _solver(text).solve()


# -- "pokerstars" views record where each new stub formed ------------------------------------


def _stub_notes(text: str) -> list[str]:
    return [line for line in text.splitlines() if "#" in line]


def test_a_pokerstars_view_records_where_each_new_stub_formed() -> None:
    # the stub re-forms early when it holds only the served player's own discards: that
    # depends on cards the view hides, so the view says where (a PHH comment), and the
    # loader follows it (this view did not load without it)
    h = draw_heavy_hand(Rules(max_players=8, reshuffle="pokerstars"), 7, 1)
    reshuffles = [e.amount for e in h.history if e.kind == "reshuffle"]
    text = phh.dumps(h, viewer=3)
    notes = _stub_notes(text)
    assert [int(re.findall(r"new stub of (\d+) cards", n)[0]) for n in notes] == reshuffles
    assert all(re.fullmatch(r'  "d dh p\d \S+ # new stub of \d+ cards",', n) for n in notes)
    back = phh.complete(text, seed=1)
    assert back.stacks == h.stacks and back.hole_ids(3) == h.hole_ids(3)
    assert _stub_notes(phh.dumps(back, viewer=3)) == notes
    # a full history, and the other reshuffle rules, need no such comment
    assert not _stub_notes(phh.dumps(h))
    other = draw_heavy_hand(Rules(max_players=8), 7, 1)
    assert any(e.kind == "reshuffle" for e in other.history)
    assert not _stub_notes(phh.dumps(other, viewer=3))


@pytest.mark.parametrize(
    ("procedure", "n", "seed", "burns", "viewer"),
    [
        ("declare-then-deal", 8, 1, True, 1),
        ("immediate", 8, 1, True, 1),
        ("declare-then-deal", 7, 18, False, 2),
        ("declare-then-deal", 7, 18, False, 4),
        ("declare-then-deal", 8, 18, False, 6),
        ("immediate", 8, 13, False, 6),
        ("declare-then-deal", 8, 13, True, 6),
        ("immediate", 7, 20, True, 2),
        # seeds 34-50: dead positions that form before any single card has nowhere to
        # go, seen by matching every stub's cards to its deals and to what it keeps
        ("declare-then-deal", 8, 34, False, 6),
        ("immediate", 8, 34, False, 6),
        ("declare-then-deal", 8, 38, False, 7),
        ("immediate", 8, 38, False, 7),
        ("declare-then-deal", 7, 44, True, 6),
        ("declare-then-deal", 7, 50, True, 5),
        ("declare-then-deal", 7, 50, True, 6),
        ("immediate", 7, 50, True, 5),
        ("immediate", 7, 50, True, 6),
    ],
)
def test_the_search_following_the_record_finds_cards_that_fit(
    procedure: str, n: int, seed: int, burns: bool, viewer: int
) -> None:
    # heavy views whose dead positions form two draws before they fail: a card nobody
    # names again is never dealt to a player who threw it, and where a new stub forms
    # early the others are dealt before then; checked before a choice is kept, the
    # search finds cards within a quarter of its bound (and refuses none of them)
    h, text = _heavy_view("pokerstars", procedure, n, seed, burns, viewer)
    solver = _solver(text)
    assert solver.fixed is not None
    plan = solver.solve()
    assert plan.nodes <= solve.MAX_NODES // 4
    back = phh.complete(text, seed=seed)
    assert back.stacks == h.stacks and back.hole_ids(viewer) == h.hole_ids(viewer)


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_a_card_its_holder_throws_at_a_discard_that_names_it_is_followed_past_it(
    procedure: str,
) -> None:
    # seat 6 keeps 4h (dealt face up) until his own discard names it; from there it joins
    # the stub, which must keep it until a new stub forms early, holding only the
    # discards of a player who never threw 4h: dead as soon as 4h reaches the viewer's
    # hand without that player having thrown it, not only when the discard names it
    # (checked there, the search ran past its bound and the view was refused)
    rules = Rules(max_players=8, reshuffle="pokerstars", draw_procedure=procedure)
    h = draw_heavy_hand(rules, 8, 29)
    text = phh.dumps(h, viewer=6)
    solver = _solver(text)
    assert solver.fixed is not None
    plan = solver.solve()
    assert plan.nodes <= solve.MAX_NODES // 10
    back = phh.complete(text, seed=29)
    assert back.stacks == h.stacks and back.hole_ids(6) == h.hole_ids(6)


def test_the_record_of_new_stubs_is_only_a_comment() -> None:
    # without it, or with one that does not fit the counts, a view loads as it did before
    # the record existed
    rules = Rules(max_players=8, reshuffle="pokerstars")
    seed = reshuffling_seeds(rules, 6, 1)[0]
    h = draw_heavy_hand(rules, 6, seed)
    text = phh.dumps(h, viewer=0)
    assert _stub_notes(text)
    bare = re.sub(r" # new stub of \d+ cards", "", text)
    wrong = re.sub(r"new stub of \d+ cards", "new stub of 51 cards", text)
    for variant in (bare, wrong):
        assert phh.complete(variant, seed=seed).stacks == h.stacks
    solver = _solver(wrong)
    assert solver.fixed is None  # the record does not fit the counts: not followed
    assert _solver(text).fixed is not None


# -- every check of the search is a necessary condition ---------------------------------------


def _true_places(h: Hand, solver: solve.Solver, seat_of: list[int]) -> list[list[tuple[int, int]]]:
    """Where each card really is after each step of ``solver`` (but the shows), as the
    search writes it: per card (place, players who threw it under "pokerstars")."""
    n = solver.n
    player = {s: k for k, s in enumerate(seat_of)}
    rules = h.rules
    pool_all = rules.reshuffle == "pokerkit"
    masks = rules.reshuffle == "pokerstars"
    loc = [solve.STUB] * 52
    mask = [0] * 52
    after: list[list[tuple[int, int]]] = []
    events = h.history
    pending: int | None = None  # the size of a new stub formed in the next draw

    def gather() -> int:
        pooled = 0
        for c in range(52):
            if loc[c] == solve.OUT or (pool_all and loc[c] >= 2 + n):
                loc[c] = solve.STUB
                pooled += 1
        return pooled

    def pool_size() -> int:
        return sum(1 for w in loc if w == solve.OUT or (pool_all and w >= 2 + n))

    def snap() -> None:
        after.append(list(zip(loc, mask, strict=True)))

    for x, e in enumerate(events):
        cards = [] if e.cards is None else to_ids(e.cards)
        if e.kind == "deal":
            for c in cards:
                loc[c] = 2 + player[e.seat]
        elif e.kind == "fold":
            k = player[e.seat]
            loc = [solve.OUT if w == 2 + k else w for w in loc]
            snap()
        elif e.kind == "discard":
            k = player[e.seat]
            for c in cards:
                loc[c] = 2 + n + k
                mask[c] |= (1 << k) if masks else 0
            snap()
        elif e.kind == "reshuffle":
            if events[x + 1].kind == "burn":
                gather()
            else:
                pending = e.amount
        elif e.kind == "burn":
            loc[cards[0]] = solve.OUT
            snap()
        elif e.kind == "draw":
            k = player[e.seat]
            at = -1
            if pending is not None:
                at = loc.count(solve.STUB) + pool_size() - pending
                pending = None
            for y, c in enumerate(cards):
                if y == at:
                    gather()
                loc[c] = 2 + k
                snap()
            loc = [solve.OUT if w == 2 + n + k else w for w in loc]
            snap()
    return after


def _agrees(solver: solve.Solver, st: solve._State, j: int, truth: list[tuple[int, int]]) -> bool:
    """Whether position ``st`` after step ``j`` is the true one, up to the cards no later
    step tells apart (as the search's own key): the named cards each where it is, the
    cards never named again and the jokers as groups."""
    drawing = solver.drawing[j + 1]

    def place(t: int) -> tuple[int, int]:
        return st.loc[t], st.mask[t] & drawing

    def real(c: int) -> tuple[int, int]:
        return truth[c][0], truth[c][1] & drawing

    dead: list[int] = []
    jokers: list[int] = []
    for c in range(52):
        t = st.tok[c]
        if t < 0:
            jokers.append(c)
        elif solver.last_req[c] > j:
            if place(t) != real(c):
                return False
        else:
            dead.append(c)
    return Counter(place(st.tok[c]) for c in dead) == Counter(real(c) for c in dead) and Counter(
        place(t) for t in range(52) if st.ident[t] < 0
    ) == Counter(real(c) for c in jokers)


def _why(solver: solve.Solver, st: solve._State, j: int, truth: list[list[tuple[int, int]]]) -> str:
    """Why the search refuses the true position after step ``j``."""
    solver._viable = lambda _st, _j: True  # type: ignore[method-assign]
    try:
        real = [c for c in solver._expand(st, j) if _agrees(solver, c, j, truth[j])]
    finally:
        del solver._viable
    if not real:
        return f"no move of the step gives it ({solver.deepest[1]})"
    solver.deepest = (-1, "")
    solver._viable(real[0], j)
    return solver.deepest[1]


def walk_the_truth(h: Hand, text: str, solver: solve.Solver) -> None:
    """Steps ``solver`` through the cards the hand really dealt: at every step one of the
    choices it keeps is the true one (so no check refuses the real cards), with every
    check the search can make."""
    solver._prepare_matching()
    data = parse_toml(text)
    seat_of, _button = read._seating(data, solver.n)
    truth = _true_places(h, solver, seat_of)
    steps = solver.steps
    plays = [s for s in steps if s.kind != solve.SHOW]
    assert len(plays) == len(truth)
    st = solver._root()
    for j in range(len(plays)):
        kept = [c for c in solver._expand(st, j) if _agrees(solver, c, j, truth[j])]
        step = steps[j]
        assert kept, (
            f"step {j} ({step.kind} of p{step.player + 1}, action {step.act}) refuses the "
            f"real cards: {_why(solver, st, j, truth)}"
        )
        st = kept[0]
    for j in range(len(plays), len(steps)):
        st = next(solver._expand(st, j))
    assert not solver.unbalanced  # the matchings' places and cards always add up


WALKS = [
    pytest.param(name, procedure, n, seed, id=f"{name}-{procedure}-{n}-{seed}")
    for name in RULES
    for procedure in ("declare-then-deal", "immediate")
    for n in (6, 7, 8)
    for seed in reshuffling_seeds(_rules(name, procedure), n, 2)
]


@pytest.mark.parametrize(("name", "procedure", "n", "seed"), WALKS)
def test_every_check_of_the_search_keeps_the_real_cards(
    name: str, procedure: str, n: int, seed: int
) -> None:
    # a check that is not a necessary condition would refuse the real cards somewhere
    # (and a history the search refuses is called impossible): for every view, the
    # search keeps the true position at every step, following the record of new stubs
    # and without it
    h = draw_heavy_hand(_rules(name, procedure), n, seed)
    for viewer in range(n):
        text = phh.dumps(h, viewer=viewer)
        walk_the_truth(h, text, _solver(text))
        if _stub_notes(text):
            walk_the_truth(h, text, _solver(re.sub(r" # new stub of \d+ cards", "", text)))


@pytest.mark.parametrize("procedure", ["declare-then-deal", "immediate"])
def test_the_new_stubs_reckoned_without_the_record_count_later_discards(procedure: str) -> None:
    # p5's stub runs out at his deal in the first draw by the counts; what is left of
    # the new one in the third draw may be only p4's own discards - thrown after the
    # first step - so a new stub may form early there. Counting only the discards made
    # so far, the search without the record refused the real cards at the first step.
    h, text = _heavy_view("pokerstars", procedure, 6, 5, True, 1)
    text = re.sub(r" # new stub of \d+ cards", "", text)
    walk_the_truth(h, text, _solver(text))


@pytest.mark.parametrize(
    ("procedure", "n", "seed", "viewer", "burns"),
    [
        ("declare-then-deal", 8, 20, 2, True),
        ("immediate", 7, 18, 3, True),
        ("immediate", 7, 20, 2, True),
        ("immediate", 7, 28, 2, True),
        ("immediate", 8, 12, 0, True),
        ("immediate", 8, 18, 7, True),
        ("immediate", 8, 20, 4, True),
        # found only by the second order of the choices (a card a player shows later
        # kept in the stub rather than sent through a hand that throws it)
        ("immediate", 8, 20, 3, False),
        ("immediate", 8, 49, 3, False),
    ],
)
def test_a_stub_holds_exactly_the_cards_dealt_from_it(
    procedure: str, n: int, seed: int, viewer: int, burns: bool
) -> None:
    # "pokerkit": a player who keeps every card he is dealt until he shows his whole
    # hand takes his last cards from the end of one stub and the start of the next.
    # Each card on its own could get there; together they do not fit unless the stub
    # and the pool that forms the next one hold those very cards. The search checks the
    # matching of the stubs' cards to their deals, and found nothing within its bound
    # before (solve raised Unsolved).
    h, text = _heavy_view("pokerkit", procedure, n, seed, burns, viewer)
    assert _solver(text).solve().nodes <= solve.MAX_NODES
    back = phh.complete(text, seed=seed)
    assert back.stacks == h.stacks and back.hole_ids(viewer) == h.hole_ids(viewer)


@pytest.mark.parametrize(
    ("name", "procedure", "n", "seed", "viewer"),
    [
        # a card in a hand was taken to join the stub where its holder surely lets go of
        # it, though he could throw it at an earlier discard (the check of the cards
        # nobody names again refused the real cards, following the record)
        ("pokerstars-burns", "immediate", 7, 50, 6),
        # the matching of the stubs' cards: cards named at their holder's discard, and
        # the unknown cards of a player's next discard chosen from his hand
        ("pokerstars", "immediate", 8, 6, 5),
        ("pokerstars", "immediate", 8, 8, 2),
        ("pokerstars-burns", "declare-then-deal", 7, 44, 6),
    ],
)
def test_every_check_keeps_the_real_cards_of_these_views(
    name: str, procedure: str, n: int, seed: int, viewer: int
) -> None:
    h = draw_heavy_hand(_rules(name, procedure), n, seed)
    text = phh.dumps(h, viewer=viewer)
    walk_the_truth(h, text, _solver(text))
    walk_the_truth(h, text, _solver(re.sub(r" # new stub of \d+ cards", "", text)))


def test_a_refusal_names_the_rule_of_the_history(monkeypatch) -> None:
    # the quick choice, short of cards for its slots under "pokerkit", said that "the
    # pokerstars reshuffle never gives a player his own discards"; with the search
    # giving up at once, that was the reason given for refusing this view
    from triple_draw.phh import read

    monkeypatch.setattr(read, "_search", lambda *args, **kwargs: None)
    monkeypatch.setattr(read, "MAX_ATTEMPTS", 3)
    rules = Rules(
        max_players=8, reshuffle="pokerkit", draw_procedure="declare-then-deal", burn_cards=True
    )
    text = phh.dumps(draw_heavy_hand(rules, 8, 20), viewer=2)
    with pytest.raises(HistoryError, match="in two places") as refused:
        phh.complete(text, seed=20)
    assert "pokerstars" not in str(refused.value)
