"""`xboard-engine serve` (the web app, ``xboard_engine/web/``) with timers around its hot parts, for
scripts/live_load.py --profile-server.

    python scripts/live_profile.py serve --data-dir DIR --port 0 ...   (the server's own arguments)
    python scripts/live_profile.py web --no-browser --data-dir DIR ... (one person's board)

Nothing in the server changes: this wrapper replaces a few functions with timed copies before the
server starts (the store's committed writes, a room's state text, a broadcast, an action applied,
a message handled, a page joining a game, a game found by its address, a game created, the lobby
view), watches how late the server's event loop wakes up and how long the garbage collector
pauses, and at the end (SIGTERM or Ctrl-C) writes the counts, totals, means, 99th percentiles and
maxima, and the objects the collector tracks, to DIR/profile.txt.  With LIVE_CPROFILE=1 it also runs cProfile over the whole server and adds the
functions with the most time of their own, and the most cumulative time, to that file.
"""
import asyncio
import atexit
import functools
import gc
import os
import sys
import time

sys.path.insert(0, os.environ.get("LIVE_SERVER_ROOT") or os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from xboard_engine.web.rooms import dispatch, hall, lobby, room, seating
from xboard_engine.web.app import routes
from xboard_engine.web.store import sqlite as store  # noqa: E402

TIMES = {}


def timed(owner, name, label=None):
    original = getattr(owner, name)
    label = label or f"{owner.__name__}.{name}"
    samples = TIMES.setdefault(label, [])

    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        t = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            samples.append(time.perf_counter() - t)
    setattr(owner, name, wrapper)


def timed_async(owner, name):
    original = getattr(owner, name)
    samples = TIMES.setdefault(f"{owner.__name__}.{name}", [])

    @functools.wraps(original)
    async def wrapper(*args, **kwargs):
        t = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            samples.append(time.perf_counter() - t)
    setattr(owner, name, wrapper)


timed(store.SqliteStore, "_write")
timed(room.Room, "state_text")
timed(room.Room, "broadcast")
timed(hall.Hall, "apply")
timed(hall.Hall, "join")
timed(hall.Hall, "room_at")
timed_async(dispatch, "handle")
timed_async(seating.Seating, "create")
timed_async(lobby.Lobby, "lobby_view")

LAG = TIMES.setdefault("event loop lateness (50 ms ticks)", [])
GC = {}


def gc_timer(phase, info):
    """The collector's pauses, by generation."""
    if phase == "start":
        GC["at"] = time.perf_counter()
    elif "at" in GC:
        TIMES.setdefault(f"gc pause, generation {info['generation']}", []).append(time.perf_counter() - GC.pop("at"))


if hasattr(gc, "callbacks"):
    gc.callbacks.append(gc_timer)


def watch_loop():
    loop = asyncio.get_event_loop()
    state = {"at": time.perf_counter()}

    def tick():
        now = time.perf_counter()
        LAG.append(max(0.0, now - state["at"] - 0.05))
        state["at"] = now
        loop.call_later(0.05, tick)
    loop.call_later(0.05, tick)


original_make_app = routes.make_app


def make_app(h, gate):
    app = original_make_app(h, gate)

    async def start(app):
        watch_loop()
    app.on_startup.append(start)
    return app


routes.make_app = make_app


def report(path, profile):
    lines = [f"{'what':40} {'count':>8} {'total s':>9} {'mean ms':>9} {'p99 ms':>9} {'max ms':>9}"]
    for label, samples in TIMES.items():
        if not samples:
            continue
        ordered = sorted(samples)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        lines.append(f"{label:40} {len(samples):8d} {sum(samples):9.2f} {1000 * sum(samples) / len(samples):9.3f} "
                     f"{1000 * p99:9.3f} {1000 * ordered[-1]:9.3f}")
    import collections
    objects = gc.get_objects()
    kinds = collections.Counter(type(o).__name__ for o in objects)
    lines.append(f"objects the collector tracks at the end: {len(objects)} (frozen at the start: {gc.get_freeze_count() if hasattr(gc, 'get_freeze_count') else '?'}); "
                 + ", ".join(f"{k} {n}" for k, n in kinds.most_common(12)))
    del objects
    threshold = os.environ.get("LIVE_GC_THRESHOLD")
    if threshold:
        lines.append(f"gc thresholds {threshold}")
    text = "\n".join(lines) + "\n"
    if profile is not None:
        import io
        import pstats
        profile.disable()
        for key in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(profile, stream=out).sort_stats(key).print_stats(30)
            text += f"\n--- cProfile by {key}\n" + out.getvalue()
    with open(path, "w") as f:
        f.write(text)


def main():
    argv = sys.argv[1:]
    if os.environ.get("LIVE_GC_THRESHOLD"):          # e.g. 20000,50,100: an experiment
        gc.set_threshold(*[int(x) for x in os.environ["LIVE_GC_THRESHOLD"].split(",")])
    data_dir = argv[argv.index("--data-dir") + 1] if "--data-dir" in argv else "."
    profile = None
    if os.environ.get("LIVE_CPROFILE"):
        import cProfile
        profile = cProfile.Profile()
        profile.enable()
    atexit.register(report, os.path.join(data_dir, "profile.txt"), profile)
    from xboard_engine.cli import main as cli_main
    sys.exit(cli_main(argv))


if __name__ == "__main__":
    main()
