"""Property tests over random tournaments (hypothesis): random structures, fields and
interleavings of the tables' hands, late entries, re-entries and absent players. After
every step the chips are conserved and the tournament's invariants hold
(``Tournament.check``: chips, seats, places, and tables within one player of each other
once balanced); every tournament ends with each entry eliminated exactly once or the
winner, the places running from 1 to the number of entries and the prizes adding up to
the pool; and a tournament saved at any step and restored by replay carries on exactly as
the original."""

from __future__ import annotations

import json
import random
from collections import Counter

from conftest import tournament_step
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triple_draw import Level, Structure, Tournament
from triple_draw.structure import PayoutRow


@st.composite
def structures(draw: st.DrawFn) -> Structure:
    size = draw(st.integers(2, 8))
    stack = draw(st.sampled_from([10, 20, 40]))
    d1, d2 = draw(st.integers(1, 6)), draw(st.integers(1, 6))
    late = draw(st.integers(0, 2))
    places = draw(st.integers(1, 6))
    shares = tuple(
        sorted(draw(st.lists(st.integers(1, 50), min_size=places, max_size=places)), reverse=True)
    )
    rows = (PayoutRow(2, (100,)),) + ((PayoutRow(max(places, 3), shares),) if places > 1 else ())
    return Structure(
        name="random",
        starting_stack=stack,
        levels=(Level(1, 2, 2, 4, 0, d1), Level(2, 4, 4, 8, 1, d2), Level(5, 10, 10, 20, 2, 5)),
        table_size=size,
        min_entries=2,
        late_registration=late,
        reentries=draw(st.integers(0, 2)) if late else 0,
        buy_in=draw(st.sampled_from([10, 99, 100])),
        payouts=rows,
        hand_for_hand=draw(st.booleans()),
        rules={"raise_cap": draw(st.sampled_from([3, 4]))},
    )


def _play(t: Tournament, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if t.is_over:
            return
        tournament_step(t, rng, late=0.03, absent=0.02)
        t.check()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structures(), st.integers(2, 24), st.integers(0, 2**32))
def test_random_tournaments_keep_chips_places_and_balance(structure, entrants, seed) -> None:
    t = Tournament(structure, seed=seed)
    for i in range(entrants):
        t.register(f"p{i}")
    t.start()
    t.check()
    rng = random.Random(seed)
    _play(t, rng, 20_000)
    assert t.is_over, t
    n = len(t.entries())
    busted = Counter(e["entry"] for e in t.events if e["kind"] == "busted")
    winners = [e for e in t.entries() if e.status == "winner"]
    assert len(winners) == 1 and winners[0].place == 1
    for e in t.entries():
        assert busted[e.id] == (0 if e.status == "winner" else 1), e
        assert e.status in ("busted", "winner") and e.place is not None
    covered = sorted(p for e in t.entries() for p in [e.place])
    assert covered[0] == 1 and covered[-1] <= n
    spans = {e.places for e in t.entries()}
    assert sorted(p for lo, hi in spans for p in range(lo, hi + 1)) == list(range(1, n + 1))
    assert sum(e.prize for e in t.entries()) == t.prize_pool == n * structure.buy_in
    assert t.chips_in_play() == sum(e.stack for e in t.entries()) == n * structure.starting_stack


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structures(), st.integers(2, 20), st.integers(0, 2**32), st.integers(0, 400))
def test_a_tournament_saved_at_any_step_carries_on_as_the_original(
    structure, entrants, seed, at
) -> None:
    t = Tournament(structure, seed=seed)
    for i in range(entrants):
        t.register(f"p{i}")
    t.start()
    rng = random.Random(seed)
    _play(t, rng, at)
    doc = json.loads(json.dumps(t.to_dict()))
    u = Tournament.from_dict(doc)
    assert u.to_dict() == doc
    assert u.events == t.events
    state = rng.getstate()
    _play(t, rng, 300)
    rng.setstate(state)
    _play(u, rng, 300)
    assert u.to_dict() == t.to_dict()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(structures(), st.integers(2, 16), st.integers(0, 2**32), st.integers(0, 300))
def test_levels_by_time_with_breaks_under_a_fake_clock(structure, entrants, seed, at) -> None:
    """Levels by time and breaks, the clock moving 0-40 s a step: the invariants hold,
    no hand is dealt during a break, and a save restored with the clock carries on."""
    from dataclasses import replace

    from triple_draw.structure import Break

    timed = replace(
        structure,
        level_by="time",
        levels=tuple(replace(lv, duration=60 * (i + 1)) for i, lv in enumerate(structure.levels)),
        breaks=(Break(1, 90), Break(2, 30)),
    )
    now = [1e6]
    t = Tournament(timed, seed=seed, clock=lambda: now[0])
    for i in range(entrants):
        t.register(f"p{i}")
    t.start()
    rng = random.Random(seed)
    for k in range(3000):
        if t.is_over:
            break
        now[0] += rng.choice([0, 0, 1, 5, 40])
        if t.on_break:
            assert t.ready_tables() == []
            now[0] += 10
            continue
        tournament_step(t, rng, late=0.03, absent=0.02)
        t.check()
        if k == at:
            doc = json.loads(json.dumps(t.to_dict()))
            u = Tournament.from_dict(doc, clock=lambda: now[0])
            assert u.to_dict() == doc
    assert t.is_over or t.remaining >= 2
