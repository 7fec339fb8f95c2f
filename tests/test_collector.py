"""The live server's handling of Python's garbage collector (xboard_engine/web/app/collector.py): what
survives a sweep is frozen out of the collector's passes, and a cycle of garbage frozen meanwhile is
freed by the full pass every ``full_every`` seconds."""
import gc
import weakref

import pytest

from xboard_engine.web.app.collector import Collector

pytestmark = pytest.mark.skipif(not hasattr(gc, "freeze"), reason="an interpreter without gc.freeze")


class Cycle:
    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def clock():
    now = [100.0]
    yield now
    gc.unfreeze()


def test_a_tick_freezes_what_survived_and_a_cycle_of_garbage_waits_for_the_full_pass(clock):
    collector = Collector(full_every=600, clock=lambda: clock[0])
    collector.start()
    kept = Cycle()
    gone = weakref.ref(kept)
    collector.tick()
    assert gc.get_freeze_count() > 0
    del kept                                  # garbage now, but frozen: no pass of the collector sees it
    gc.collect()
    assert gone() is not None
    clock[0] += 599
    collector.tick()
    assert gone() is not None and collector.full_passes == 0
    clock[0] += 1
    collector.tick()                          # the full pass: thawed, collected, frozen again
    assert gone() is None and collector.full_passes == 1
    assert gc.get_freeze_count() > 0


def test_young_cycles_of_garbage_are_collected_before_a_tick_freezes(clock):
    collector = Collector(full_every=600, clock=lambda: clock[0])
    collector.start()
    young = Cycle()
    gone = weakref.ref(young)
    del young
    collector.tick()                          # generations 0 and 1 collected first
    assert gone() is None
