"""A stop signal that another thread of the process takes still stops a main thread waiting for
the workers (`stop.awake`): CPython runs the handler on the main thread only once it runs Python
code again, and a main thread asleep in one wait until the workers were done ran it only then
(`phoneshell attack --device sim:2` under load played on to its last finish after a SIGTERM)."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable

from phoneshell.runner import stop


def taken_elsewhere(wait: Callable[[threading.Semaphore], None],
                    ) -> tuple[BaseException | None, float]:
    """SIGTERM taken by a worker thread while the main thread waits (`wait(done)`) for that
    worker, which ends 5 s later: what the wait raised, and after how long."""
    assert threading.current_thread() is threading.main_thread()  # where signals are handled
    done, leave = threading.Semaphore(0), threading.Event()

    def worker() -> None:
        time.sleep(0.3)  # the main thread asleep in its wait by now
        signal.pthread_kill(threading.get_ident(), signal.SIGTERM)  # this thread takes it
        leave.wait(5.0)
        done.release()

    thread = threading.Thread(target=worker, daemon=True)
    raised: BaseException | None = None
    with stop.stop_signals():
        started = time.monotonic()
        try:
            thread.start()
            wait(done)
        except KeyboardInterrupt as exc:
            raised = exc
        took = time.monotonic() - started
    leave.set()
    thread.join()
    return raised, took


def test_a_stop_another_thread_took_is_raised_in_the_main_threads_wait() -> None:
    """Within a slice of the wait; a wait in one piece (`done.acquire()`) raised it only once
    the worker was done, 5 s later (measured on this CPython, 3.11)."""
    raised, took = taken_elsewhere(lambda done: stop.awake(lambda s: done.acquire(timeout=s)))
    assert isinstance(raised, stop.Stopped) and raised.name == "SIGTERM", raised
    assert took < 2.5, f"the stop was raised {took:.1f} s after it came"
