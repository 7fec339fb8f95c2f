"""How long the live server's store takes to write one move (``Store.add_action``: one committed
transaction), on SQLite and on PostgreSQL, and on PostgreSQL with the host check that
``serve --shared`` adds to every write of a game.

    python scripts/store_bench.py                                  # SQLite only (a temporary file)
    python scripts/store_bench.py postgresql://USER:PASSWORD@HOST/EMPTY_DATABASE --moves 2000

The PostgreSQL database should be a scratch one: a game is added to it per store measured."""
import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from xboard_engine.web.store.records import StoredAction, StoredSeat
from xboard_engine.web.store.sqlite import SqliteStore  # noqa: E402


def per_move(store, moves: int) -> float:
    """Milliseconds a move, ``moves`` written one after another to one new game."""
    seats = [StoredSeat(0, "player", None, None, None), StoredSeat(1, "player", None, None, None)]
    game = store.add_game("two", {"variant": "normal"}, seats, None, True)
    started = time.perf_counter()
    for n in range(moves):
        store.add_action(game.id, StoredAction(n, n % 2, "move", "e2e4", [300.0, 300.0], time.time()))
    return (time.perf_counter() - started) / moves * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("postgres", nargs="?", help="a scratch PostgreSQL database's address")
    parser.add_argument("--moves", type=int, default=2000, help="moves written per store (default %(default)s)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = SqliteStore(os.path.join(folder, "bench.sqlite3"))
        print(f"SQLite: {per_move(store, args.moves):.3f} ms a move written", flush=True)
        store.close()
    if args.postgres:
        from xboard_engine.web.store.postgres import PostgresStore
        store = PostgresStore(args.postgres)
        print(f"PostgreSQL: {per_move(store, args.moves):.3f} ms a move written", flush=True)
        store.close()
        store = PostgresStore(args.postgres)
        store.add_host("store_bench")
        alive = store.host_lock()
        alive.take(False, "store_bench")
        print(f"PostgreSQL, with --shared's host check: {per_move(store, args.moves):.3f} ms a move written", flush=True)
        alive.release()
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
