"""Writing PHH: a hand's fields and actions as a TOML document (written by ``tomli-w``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import tomli_w

from triple_draw.errors import ArgumentError
from triple_draw.game.hand import Hand
from triple_draw.game.rules import real_game_only
from triple_draw.phh.base import (
    FORCED_FIELD,
    GENERATED,
    OPTION_NAMES,
    OPTIONAL,
    PER_PLAYER,
    RAKE_FIELD,
    RAKE_NAMES,
    RULES_FIELD,
    STUB_NOTE,
    VARIANT,
    phh_order,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[import-not-found, unused-ignore]

#: Indentation of the items of a multi-line array (the actions).
INDENT = 2


def dumps(hand: Hand, /, *, viewer: int | None = None, **fields: Any) -> str:
    """The PHH text of ``hand`` (finished or in progress).

    ``viewer``: write only what that seat may know - the other players' hole cards,
    discards and replacements become ``??`` unless shown at showdown. ``fields``: optional
    PHH fields (``event``, ``hand``, ``players``, ...; names starting with ``_`` are
    user-defined). Per-player fields (``players``, ``winnings``, ``time_banks``) are
    given in the hand's seat order (seat 0 first) and written in PHH order. A field that
    would not read back as given (a name PHH does not define, a value TOML cannot hold)
    raises :class:`~triple_draw.errors.ArgumentError`.

    Finished hands also get ``finishing_stacks``, which :func:`loads` checks.
    """
    return tomli_w.dumps(_document(hand, viewer, fields), indent=INDENT)


def dumps_all(hands: Iterable[Hand], /, **fields: Any) -> str:
    """A ``.phhs`` text: every hand as PHH in a table ``[1]``, ``[2]``, ... ``fields`` as
    in :func:`dumps` (``viewer`` too), for every hand."""
    return "".join(iter_dumps_all((hand, fields) for hand in hands))


def iter_dumps_all(
    entries: Iterable[tuple[Hand, Mapping[str, Any]]], /, *, start: int = 1
) -> Iterator[str]:
    """The text of a ``.phhs`` file one hand's table at a time, for hands that each have
    their own fields (their players, their viewer...): each entry is a hand and its fields
    as in :func:`dumps` (``viewer`` too). The pieces joined are the whole text (what
    :func:`dumps_all` writes when every hand has the same fields); written to a file as
    they come, a file of any number of hands is written in flat memory. ``start``: the
    first table's number (a page of a longer file: its pieces joined by a newline)."""
    for i, (hand, fields) in enumerate(entries, start):
        rest = dict(fields)
        viewer = rest.pop("viewer", None)
        text = tomli_w.dumps({str(i): _document(hand, viewer, rest)}, indent=INDENT)
        yield text if i == start else "\n" + text


def dump(hand: Hand, fp: Any, /, **kwargs: Any) -> None:
    """Write :func:`dumps` of ``hand`` to a path or an open (text or binary) file."""
    _write(fp, dumps(hand, **kwargs))


def dump_all(hands: Iterable[Hand], fp: Any, /, **kwargs: Any) -> None:
    """Write :func:`dumps_all` of ``hands`` to a path or an open file (``.phhs``)."""
    _write(fp, dumps_all(hands, **kwargs))


def iter_actions(hand: Hand) -> Iterator[str]:
    """The PHH action strings of ``hand`` (the ``actions`` field of :func:`dumps`)."""
    if not isinstance(hand, Hand):
        raise ArgumentError(f"iter_actions expects a Hand, got {type(hand).__name__}")
    yield from _actions(hand, phh_order(hand.button, hand.n_players), None)


def _document(hand: Hand, viewer: Any, fields: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(hand, Hand):
        raise ArgumentError(f"dumps expects a Hand, got {type(hand).__name__}")
    real_game_only(hand.rules, "PHH")
    n = hand.n_players
    if viewer is not None and (type(viewer) is not int or not 0 <= viewer < n):
        raise ArgumentError(f"viewer must be a seat 0..{n - 1} or None, got {viewer!r}")
    order = phh_order(hand.button, n)
    rules = hand.rules
    antes, blinds, forced = _forced_bets(hand, order)
    doc: dict[str, Any] = {
        "variant": VARIANT,
        "antes": antes,
        "blinds_or_straddles": blinds,
        "small_bet": rules.small_bet,
        "big_bet": rules.big_bet,
        "starting_stacks": [hand.starting_stacks[s] for s in order],
        "actions": _actions(hand, order, viewer),
        "seats": [s + 1 for s in order],
    }
    if any(antes):
        # short antes win only from what was put in (side pots by contribution)
        doc["ante_trimming_status"] = True
    if hand.is_over:
        doc["finishing_stacks"] = [hand.stacks[s] for s in order]
    for name, value in fields.items():
        if name in GENERATED:
            raise ArgumentError(f"field {name!r} is written by dumps itself")
        if name not in OPTIONAL and not name.startswith("_"):
            raise ArgumentError(
                f"unknown PHH field {name!r}: use an optional PHH field or a user-defined "
                "name starting with '_'"
            )
        if value is None:
            continue
        if name in PER_PLAYER:
            try:
                value = list(value)
            except TypeError:
                raise ArgumentError(
                    f"field {name!r} needs a list of {n} entries (one per seat)"
                ) from None
            if len(value) != n:
                raise ArgumentError(
                    f"field {name!r} needs {n} entries (one per seat), got {len(value)}"
                )
            value = [value[s] for s in order]
        _check_field(name, value)
        doc[name] = value
    doc[RULES_FIELD] = {k: getattr(rules, k) for k in OPTION_NAMES}
    doc[RULES_FIELD].update(
        (k, v) for k, v in rules.to_dict().items() if k in RAKE_NAMES
    )  # only when the game takes a rake (to_dict leaves out "no rake")
    if hand.is_record and hand._rake_given is not None:
        doc[RAKE_FIELD] = hand._rake_given
    if forced is not None:
        doc[FORCED_FIELD] = forced
    return doc


def _forced_bets(
    hand: Hand, order: list[int]
) -> tuple[list[int], list[int], dict[str, Any] | None]:
    """``antes`` and ``blinds_or_straddles`` in PHH order, and the forced-bets field.

    The blinds and the ante are written at their nominal size (a short stack posts what
    it has, as PHH readers do). A hand a table dealt (no small blind, entry posts) adds
    each player's posts as the hand's post events record them: dead chips to his ante,
    live chips to his blind; the field then gives the stakes and the layout, which the
    loader needs to tell the posts from the blinds."""
    rules = hand.rules
    n = len(order)
    no_sb = hand.small_blind_seat is None
    blinds = [rules.big_blind] if no_sb else [rules.small_blind, rules.big_blind]
    blinds += [0] * (n - len(blinds))
    antes = [rules.ante] * n
    p = {seat: k for k, seat in enumerate(order)}
    posts = False
    seen_bb = False  # the live and dead posts follow the big blind's post
    for e in hand.history:
        kind = e.kind
        if kind == "post_big_blind":
            if seen_bb:
                blinds[p[e.seat]] += e.amount  # type: ignore[index, operator]
                posts = True
            seen_bb = True
        elif kind == "post_ante" and seen_bb:
            antes[p[e.seat]] += e.amount  # type: ignore[index, operator]
            posts = True
        elif kind not in _POSTS:
            break
    if not (no_sb or posts):
        return antes, blinds, None
    forced = {
        "small_blind": rules.small_blind,
        "big_blind": rules.big_blind,
        "ante": rules.ante,
        "no_small_blind": no_sb,
    }
    return antes, blinds, forced


def _check_field(name: str, value: Any) -> None:
    """Refuse a field that would not read back as given."""
    try:
        text = tomli_w.dumps({name: value})
        text.encode("utf-8")
        back = tomllib.loads(text).get(name)
    except (TypeError, ValueError, RecursionError) as e:  # UnicodeEncodeError: a ValueError
        raise ArgumentError(f"field {name!r} cannot be written as PHH (TOML): {e}") from None
    if back != _as_read(value):
        raise ArgumentError(
            f"field {name!r} would not read back as given: {value!r} is read as {back!r}"
        )


def _as_read(value: Any) -> Any:
    """``value`` as the TOML reader gives it back (arrays as lists)."""
    if isinstance(value, (list, tuple)):
        return [_as_read(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_read(v) for k, v in value.items()}
    return value


def _write(fp: Any, text: str) -> None:
    if isinstance(fp, (str, os.PathLike)):
        with open(fp, "w", encoding="utf-8") as f:
            f.write(text)
        return
    try:
        fp.write(text)
    except TypeError:  # a binary file
        fp.write(text.encode("utf-8"))


def _actions(hand: Hand, order: list[int], viewer: int | None) -> list[str]:
    p = {seat: k + 1 for k, seat in enumerate(order)}
    out: list[str] = []
    deals: dict[int, str] = {}
    draws: list[str] = []
    # a player's view under "pokerstars": where a new stub formed while a player was served
    # (public at the table) is a comment on his replacements - where it forms depends on
    # which cards are in the stub, which the view does not show (docs: PHH)
    mark = viewer is not None and hand.rules.reshuffle == "pokerstars"
    stub: tuple[int, int] | None = None  # (seat, size) of a new stub before his draw

    def hidden(seat: int | None, cards: Sequence[str]) -> str:
        if viewer is None or seat == viewer:
            return "".join(cards)
        return "??" * len(cards)

    def flush() -> None:
        if deals:
            out.extend(f"d dh p{k} {deals[k]}" for k in sorted(deals))
            deals.clear()
        out.extend(draws)
        draws.clear()

    for e in hand.history:
        kind, seat = e.kind, e.seat
        if kind == "deal":
            deals[p[seat]] = hidden(seat, e.cards or ())  # type: ignore[index]
            continue
        if kind == "draw":
            # replacements are listed after every declaration of the draw (PHH and
            # PokerKit order), also under the "immediate" draw procedure
            line = f"d dh p{p[seat]} {hidden(seat, e.cards or ())}"  # type: ignore[index]
            if stub is not None and stub[0] == seat:
                line += f" {STUB_NOTE.format(stub[1])}"
            stub = None
            draws.append(line)
            continue
        if kind == "reshuffle" and mark:
            stub = (seat, e.amount)  # type: ignore[assignment]
            continue
        if kind == "burn":
            stub = None  # the stub ran out before the burn: where is a matter of counts
            continue
        if kind == "discard":
            if deals:
                flush()
            cards = hidden(seat, e.cards or ())
            out.append(f"p{p[seat]} sd {cards}" if cards else f"p{p[seat]} sd")  # type: ignore[index]
            continue
        if kind in _SILENT:
            continue
        flush()
        if kind == "fold":
            out.append(f"p{p[seat]} f")  # type: ignore[index]
        elif kind in ("check", "call"):
            out.append(f"p{p[seat]} cc")  # type: ignore[index]
        elif kind in ("bet", "raise"):
            out.append(f"p{p[seat]} cbr {e.amount}")  # type: ignore[index]
        elif kind == "show":
            out.append(f"p{p[seat]} sm {''.join(e.cards or ())}")  # type: ignore[index]
        elif kind == "muck":
            out.append(f"p{p[seat]} sm")  # type: ignore[index]
    flush()
    return out


_POSTS = frozenset(("post_ante", "post_small_blind", "post_big_blind"))

#: History events with no PHH action (blinds and antes are fields; pots are computed).
_SILENT = frozenset(
    (
        "post_ante",
        "post_small_blind",
        "post_big_blind",
        "burn",  # PHH has no burn action (PokerKit writes none): the reader burns by the rules
        "reshuffle",
        "begin_draw",
        "return",
        "win",
        "rake",
    )
)
