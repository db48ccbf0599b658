"""``triple-draw import``: the sites' hand histories (:mod:`triple_draw.histories`) read
and summed up on the command line.

Every FILE is read with :func:`triple_draw.histories.iter_load`, one hand at a time, and
only the sums are kept (with ``--phh``, each hand's table is written as it comes), so
files of any size import in flat memory beyond the text of the file being read. Per site:
the hands imported, refused and skipped; per currency the site played in (``chips`` in
tournaments, ``play`` for play money), the hands, the rake and each player's hands, net in
money and net in big bets (each hand's net chips over its big bet, summed); then every
refused hand with its reason.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from triple_draw._text import format_table
from triple_draw._cli_common import UsageError, _print_json

if TYPE_CHECKING:
    from triple_draw.histories import Refused, SiteHand, Skipped

__all__ = ["import_command", "Tally"]

#: How the text output names the units of a currency.
_UNITS = {"chips": "chips", "play": "play chips"}


@dataclass
class _Player:
    hands: int = 0
    net: Decimal = Decimal(0)
    big_bets: Fraction = Fraction(0)


@dataclass
class _Ledger:
    """The hands of one site in one currency."""

    hands: int = 0
    rake: Decimal = Decimal(0)
    players: dict[str, _Player] = field(default_factory=dict)


@dataclass
class _Site:
    imported: int = 0
    refused: int = 0
    skipped: int = 0
    ledgers: dict[str, _Ledger] = field(default_factory=dict)


@dataclass
class Tally:
    """The sums of an import: per site, per currency, per player. ``hero``: only the
    hands that player is in are counted, and only his line is kept."""

    hero: str | None = None
    sites: dict[str, _Site] = field(default_factory=dict)
    #: (file, Refused) of every refused hand, in file order
    refused: list[tuple[str, Refused]] = field(default_factory=list)

    def add(self, item: SiteHand | Refused | Skipped, file: str) -> SiteHand | None:
        """Count one item of :func:`~triple_draw.histories.iter_load`; the hand when it is
        an imported hand that counts (with ``hero``: one he is in)."""
        from triple_draw.histories import Refused, SiteHand

        site = self.sites.setdefault(item.site, _Site())
        if isinstance(item, Refused):
            site.refused += 1
            self.refused.append((file, item))
            return None
        if not isinstance(item, SiteHand):
            site.skipped += 1
            return None
        if self.hero is not None and self.hero not in item.players:
            return None
        site.imported += 1
        ledger = site.ledgers.setdefault(item.currency, _Ledger())
        ledger.hands += 1
        ledger.rake += item.rake
        big_bet = item.hand.rules.big_bet
        for name, chips in zip(item.players, item.hand.result.net, strict=True):
            if self.hero is not None and name != self.hero:
                continue
            p = ledger.players.setdefault(name, _Player())
            p.hands += 1
            p.net += chips * item.chip_unit
            p.big_bets += Fraction(chips, big_bet)
        return item

    @property
    def imported(self) -> int:
        return sum(s.imported for s in self.sites.values())

    def to_dict(self) -> dict[str, Any]:
        """The ``import --json`` document (without its ``schema_version``)."""
        from triple_draw.histories import SITE_NAMES

        sites = []
        for name, s in self._sites():
            sites.append(
                {
                    "site": name,
                    "name": SITE_NAMES[name],
                    "imported": s.imported,
                    "refused": s.refused,
                    "skipped": s.skipped,
                    "currencies": [
                        {
                            "currency": currency,
                            "hands": ledger.hands,
                            "rake": str(ledger.rake),
                            "players": [
                                {
                                    "player": player,
                                    "hands": p.hands,
                                    "net": str(p.net),
                                    "big_bets": _big_bets(p.big_bets),
                                }
                                for player, p in _players(ledger)
                            ],
                        }
                        for currency, ledger in s.ledgers.items()
                    ],
                }
            )
        return {
            "hero": self.hero,
            "totals": {
                "imported": self.imported,
                "refused": len(self.refused),
                "skipped": sum(s.skipped for s in self.sites.values()),
            },
            "sites": sites,
            "refused": [
                {
                    "site": r.site,
                    "hand_id": r.hand_id,
                    "file": file,
                    "line": r.line,
                    "reason": r.reason,
                }
                for file, r in self.refused
            ],
        }

    def lines(self) -> list[str]:
        """The text report."""
        from triple_draw.histories import SITE_NAMES

        out: list[str] = []
        whose = f" (those {self.hero} is in)" if self.hero is not None else ""
        for name, s in self._sites():
            if out:
                out.append("")
            out.append(
                f"{SITE_NAMES[name]}: {_count(s.imported)} imported{whose}, "
                f"{s.refused} refused, {s.skipped} skipped"
            )
            for currency, ledger in s.ledgers.items():
                unit = _UNITS.get(currency, currency)
                out.append("")
                out.append(f"  {currency}: {_count(ledger.hands)}, rake {ledger.rake} {unit}")
                rows = [["player", "hands", f"net {unit}", "big bets"]]
                rows += [
                    [player, str(p.hands), f"{p.net:+}", f"{_big_bets(p.big_bets):+.2f}"]
                    for player, p in _players(ledger)
                ]
                out += ["  " + line for line in format_table(rows, right={1, 2, 3})]
        if self.refused:
            out.append("")
            out.append(f"Refused hands ({len(self.refused)}):")
            for file, r in self.refused:
                # the reason names the hand (its number, or its line) and the line at fault
                out.append(f"  {SITE_NAMES[r.site]}, {file}: {r.reason}")
        return out

    def _sites(self) -> list[tuple[str, _Site]]:
        from triple_draw.histories import SITES

        return sorted(self.sites.items(), key=lambda kv: SITES.index(kv[0]))


def _players(ledger: _Ledger) -> list[tuple[str, _Player]]:
    # the biggest winner first; names break ties
    return sorted(ledger.players.items(), key=lambda kv: (-kv[1].net, kv[0]))


def _big_bets(x: Fraction) -> float:
    return round(float(x), 2)


def _count(n: int) -> str:
    return f"{n} hand{'' if n == 1 else 's'}"


class _PhhFile:
    """The ``--phh`` output: written to a temporary file beside OUT, which replaces OUT
    only when the whole import succeeded (a failed import leaves OUT as it was)."""

    def __init__(self, path: str, inputs: list[str]) -> None:
        self.path = Path(path)
        if self.path.is_dir():
            raise UsageError(f"--phh {path}: is a directory")
        for f in inputs:
            if self.path.exists() and os.path.samefile(self.path, f):
                raise UsageError(f"--phh {path}: is one of the files to import")
        # (a file of this process's own, created as any new file, with the umask's mode)
        self.tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self.fp: IO[str] = open(self.tmp, "w", encoding="utf-8", newline="\n")
        except OSError as e:
            raise UsageError(f"--phh {path}: cannot be written ({e.strerror or e})") from None

    def write(self, text: str) -> None:
        self.fp.write(text)

    def commit(self) -> None:
        self.fp.close()
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        self.fp.close()
        self.tmp.unlink(missing_ok=True)


def import_command(args: argparse.Namespace) -> int:
    from triple_draw import histories, phh
    from triple_draw.histories._text import check_path

    if args.hero is not None and not args.hero.strip():
        raise UsageError("--hero: give a player's name")
    for f in args.files:  # every file is there before the first is read
        check_path(f)
    tally = Tally(hero=args.hero)
    out = _PhhFile(args.phh, args.files) if args.phh is not None else None
    bar: Any = None
    try:
        if not args.no_progress and sys.stderr.isatty():
            from tqdm import tqdm

            bar = tqdm(unit="hand", file=sys.stderr, desc="import", leave=False)

        def counted() -> Any:
            for f in args.files:
                if bar is not None:
                    bar.set_postfix_str(f)
                for item in histories.iter_load(Path(f)):
                    if bar is not None:
                        bar.update(1)
                    hand = tally.add(item, f)
                    if hand is not None:
                        yield hand.hand, hand.phh_fields()

        if out is None:
            for _ in counted():
                pass
        else:
            for text in phh.iter_dumps_all(counted()):
                out.write(text)
        if args.hero is not None and tally.imported == 0:
            raise UsageError(f"--hero {args.hero!r}: in no hand imported from the files")
        if out is not None:
            out.commit()
            out = None
    finally:
        if bar is not None:
            bar.close()
        if out is not None:
            out.discard()
    if args.json:
        _print_json({"files": list(args.files), "phh": args.phh, **tally.to_dict()})
    else:
        sys.stdout.write("\n".join(tally.lines()) + "\n")
        if args.phh is not None:
            sys.stdout.write(f"\n{_count(tally.imported)} written to {args.phh}\n")
    return 0
