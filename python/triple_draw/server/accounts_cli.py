"""``triple-draw accounts``: the admin's command for the accounts of ``serve --accounts``.

``list`` the accounts (name, balance, created, the tables where each is seated), ``credit``
an account (a negative amount debits it; a debit beyond the balance is refused), show an
account's ``ledger``. It works on the server's SQLite file, also while the server runs
(each change is one transaction, and the server reads balances from the database).
Imports only the standard library and the package at import time: no extra is needed.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from triple_draw._cli_common import UsageError, _int_range, _print_json

__all__ = ["add_accounts_parser", "run"]


def _amount(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of chips, got {text!r}"
        ) from None
    if v == 0:
        raise argparse.ArgumentTypeError("0 chips credit nothing")
    return v


def add_accounts_parser(sub: Any) -> argparse.ArgumentParser:
    """Add the ``accounts`` subcommand to the ``triple-draw`` subparsers."""
    p: argparse.ArgumentParser = sub.add_parser(
        "accounts",
        help="list, credit and audit the accounts of 'serve --accounts'",
        description="The accounts of a table server run with --accounts, in its database: "
        "list them, credit (or debit) one, show one's ledger.",
        epilog="Example: triple-draw accounts credit Ann 500 --db triple_draw.sqlite3",
    )
    actions = p.add_subparsers(dest="action", required=True, metavar="ACTION")

    def db_option(q: argparse.ArgumentParser) -> None:
        q.add_argument(
            "--db",
            default="triple_draw.sqlite3",
            help="the server's SQLite file (default ./triple_draw.sqlite3)",
        )

    ls = actions.add_parser("list", help="every account: name, balance, created, seats")
    db_option(ls)
    ls.add_argument("--json", action="store_true", help="print JSON")
    cr = actions.add_parser(
        "credit",
        help="credit an account (a negative amount debits it)",
        description="Credit NAME's balance with AMOUNT chips; a negative AMOUNT debits it "
        "(refused beyond the balance). Recorded in the account's ledger.",
    )
    cr.add_argument("name", metavar="NAME", help="the account's name (case does not matter)")
    cr.add_argument("amount", metavar="AMOUNT", type=_amount, help="chips: > 0 credits, < 0 debits")
    cr.add_argument("--note", default="", help="a note for the ledger (default: none)")
    db_option(cr)
    lg = actions.add_parser("ledger", help="an account's ledger, newest first")
    lg.add_argument("name", metavar="NAME", help="the account's name")
    lg.add_argument(
        "--limit",
        type=_int_range(1, 100_000, "a whole number"),
        default=50,
        help="entries shown (default 50)",
    )
    lg.add_argument("--json", action="store_true", help="print JSON")
    db_option(lg)
    p.set_defaults(func=run)
    return p


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def _seated(tables: dict[str, dict[str, Any]]) -> dict[int, list[str]]:
    """Where each account is seated, from the stored tables: account id -> ``t1/2``
    (table id / seat number, counted from 1)."""
    out: dict[int, list[str]] = {}
    for tid, state in sorted(tables.items()):
        for ts, seat in enumerate(state.get("seats") or ()):
            if isinstance(seat, dict) and isinstance(seat.get("account"), int):
                out.setdefault(seat["account"], []).append(f"{tid}/{ts + 1}")
    return out


def run(args: argparse.Namespace) -> int:
    from triple_draw.server.store import SQLiteStore, UnknownAccountError
    from triple_draw.server.tables import name_key

    note = getattr(args, "note", "")
    if len(note) > 200:
        raise UsageError(f"--note: at most 200 characters, got {len(note)}")
    if not Path(args.db).is_file():
        raise UsageError(f"no database at {args.db!r} (triple-draw serve creates it)")
    store = SQLiteStore(args.db)
    try:
        if args.action == "list":
            seated = _seated(store.load_tables())
            rows: list[dict[str, Any]] = [
                {
                    "name": a.name,
                    "balance": a.balance,
                    "created": a.created,
                    "seated": seated.get(a.id, []),
                }
                for a in store.accounts()
            ]
            if args.json:
                _print_json({"accounts": rows})
            elif not rows:
                print("no accounts")
            else:
                width = max(4, *(len(r["name"]) for r in rows))
                print(f"{'name':<{width}}  {'balance':>12}  {'created':<19}  seated")
                for r in rows:
                    print(
                        f"{r['name']:<{width}}  {r['balance']:>12}  {_when(r['created'])}  "
                        + (", ".join(r["seated"]) or "-")
                    )
            return 0
        account = store.account_by_name(name_key(args.name))
        if account is None:
            raise UsageError(f"no account named {args.name!r}")
        if args.action == "credit":
            try:
                balance = store.credit(name_key(args.name), args.amount, note)
            except UnknownAccountError:
                raise UsageError(f"no account named {args.name!r}") from None
            kind = "credit" if args.amount > 0 else "debit"
            print(f"{account.name}: {args.amount:+d} chips ({kind}); balance {balance}")
            return 0
        entries = store.ledger(account.id, args.limit)
        if args.json:
            doc = {
                "name": account.name,
                "balance": account.balance,
                "ledger": [e._asdict() for e in entries],
            }
            _print_json(doc)
            return 0
        print(f"{account.name}: balance {account.balance}")
        for e in entries:
            where = f" at {e.table_id}" if e.table_id else ""
            note = f" ({e.note})" if e.note else ""
            print(f"{_when(e.at)}  {e.kind:<8} {e.amount:+12d} -> {e.balance:>12}{where}{note}")
        return 0
    finally:
        store.close()
