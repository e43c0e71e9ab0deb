"""The emulated columns' call budget (conformance/runners/watchdog.py): a call that outlives its
budget is stopped, a stop sent before the emulation began is sent again, a call that returns in
time is never stopped, and the thread ends with its owner."""

from __future__ import annotations

import gc
import threading
import time

from conformance.runners.watchdog import RETRY, Watchdog


class Cpu:
    """Counts the stops; the first ``lost`` of them do nothing, as emu_stop before the emulation."""

    def __init__(self, lost: int = 0):
        self.stops = 0
        self.lost = lost
        self.stopped = threading.Event()

    def stop(self) -> None:
        self.stops += 1
        if self.stops > self.lost:
            self.stopped.set()


def watchdog_threads() -> set[threading.Thread]:
    return {t for t in threading.enumerate() if t.name == "unicorn-watchdog"}


def test_a_stop_that_comes_too_early_is_sent_again_until_the_call_is_disarmed() -> None:
    cpu = Cpu(lost=2)
    dog = Watchdog(cpu.stop)
    started = time.monotonic()
    dog.arm(0.0)
    assert cpu.stopped.wait(5.0)
    assert cpu.stops == 3 and time.monotonic() - started >= 2 * RETRY * 0.9
    dog.disarm()
    after = cpu.stops
    time.sleep(5 * RETRY)
    assert cpu.stops == after  # disarmed: no more stops
    dog.close()


def test_a_call_that_returns_in_time_is_never_stopped() -> None:
    cpu = Cpu()
    dog = Watchdog(cpu.stop)
    for _ in range(20):
        dog.arm(0.2)
        dog.disarm()
    time.sleep(0.4)
    assert cpu.stops == 0
    dog.close()


def test_the_thread_ends_with_its_owner_closed_or_not() -> None:
    before = watchdog_threads()
    cpu = Cpu()
    closed, dropped = Watchdog(cpu.stop), Watchdog(cpu.stop)
    mine = watchdog_threads() - before
    assert len(mine) == 2
    closed.close()
    del closed, dropped
    gc.collect()
    for thread in mine:
        thread.join(5.0)
        assert not thread.is_alive()
