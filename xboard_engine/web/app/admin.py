"""``xboard-engine admin``: what a club's administrator does on the server's machine, on the
server's database (the same ``--data-dir`` or ``--database`` as ``serve``; it may be serving).

- ``reset-password NAME``: prints a link that sets a new password for the account NAME, once,
  within an hour (there is no email here: the administrator hands the link to its owner).
- ``grant NAME ROLE`` / ``revoke NAME ROLE``: the roles ``administrator`` and ``moderator``."""
import argparse
import os
import sys
from typing import Any, List

from ...paths import data_path

ROLES = ("administrator", "moderator")


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(prog="xboard-engine admin", description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", default=data_path("live"),
                        help="the server's data directory, whose live.sqlite3 is used (default %(default)s)")
    parser.add_argument("--database", metavar="URL_OR_FILE", help="the server's database, as serve --database")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    reset = commands.add_parser("reset-password", help="print a one-hour, one-use link that sets a new password")
    reset.add_argument("name", help="the account's username")
    reset.add_argument("--public-url", metavar="URL", help="the address people use (default: the path alone)")
    for verb in ("grant", "revoke"):
        role = commands.add_parser(verb, help=f"{verb} a role ({' or '.join(ROLES)})")
        role.add_argument("name", help="the account's username")
        role.add_argument("role", choices=ROLES)
    args = parser.parse_args(argv)
    from ..identity.names import fold
    from ..identity.accounts import make_reset
    from ..store.postgres import open_store
    from ..store.records import StoreError
    where = args.database or os.path.join(args.data_dir, "live.sqlite3")
    if not where.startswith(("postgresql://", "postgres://")) and not os.path.isfile(where):
        sys.stderr.write(f"xboard-engine admin: no database at {where} (give the server's --data-dir or --database)\n")
        return 2
    try:
        store = open_store(where, fold=fold)
    except StoreError as error:
        sys.stderr.write(f"xboard-engine admin: {error}\n")
        return 2
    try:
        if args.command == "reset-password":
            secret = make_reset(store, args.name)
            base = (args.public_url or "").rstrip("/")
            print(f"{base}/reset#{secret}")
            print("(it sets a new password once, within an hour, and ends the account's sessions)", file=sys.stderr)
        else:
            _change_role(store, args.name, args.role, args.command == "grant")
    except LookupError as error:
        sys.stderr.write(f"xboard-engine admin: {error.args[0]}\n")
        return 1
    except StoreError as error:
        sys.stderr.write(f"xboard-engine admin: {error}\n")
        return 2
    finally:
        store.close()
    return 0


def _change_role(store: Any, name: str, role: str, grant: bool) -> None:
    from ..identity.names import fold
    account = store.account_by_key(fold(name))
    if account is None:
        raise LookupError(f"no account is named {name!r}")
    roles = set(account["roles"])
    (roles.add if grant else roles.discard)(role)
    store.set_roles(account["id"], sorted(roles))
    print(f"{account['name']}: {', '.join(sorted(roles)) or 'no roles'}")
