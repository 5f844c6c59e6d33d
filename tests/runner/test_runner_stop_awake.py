"""A stop signal that another thread of the process takes still stops a main thread waiting for
the workers (`phoneshell.awake`), or for a flag its handler sets (`until`: `phoneshell sim` and
`phoneshell bridge`): CPython runs the handler on the main thread only once it runs Python
code again, and a main thread asleep in one wait until the workers were done ran it only then
(`phoneshell attack --device sim:2` under load played on to its last finish after a SIGTERM)."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable

from phoneshell.awake import awake, until
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
    raised, took = taken_elsewhere(lambda done: awake(lambda s: done.acquire(timeout=s)))
    assert isinstance(raised, stop.Stopped) and raised.name == "SIGTERM", raised
    assert took < 2.5, f"the stop was raised {took:.1f} s after it came"


def test_a_flag_set_by_a_handler_another_thread_took_ends_the_wait_until_it() -> None:
    """`until` sees the flag within a slice; the handler runs only once the main thread runs
    Python again, so a wait in one piece for the worker would see it 5 s later."""
    asked: list[int] = []
    previous = signal.signal(signal.SIGUSR1, lambda signum, frame: asked.append(signum))
    leave = threading.Event()

    def worker() -> None:
        time.sleep(0.3)
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR1)
        leave.wait(5.0)

    thread = threading.Thread(target=worker, daemon=True)
    try:
        started = time.monotonic()
        thread.start()
        until(lambda: bool(asked))
        took = time.monotonic() - started
    finally:
        leave.set()
        thread.join()
        signal.signal(signal.SIGUSR1, previous)
    assert asked == [signal.SIGUSR1]
    assert took < 2.5, f"the flag was seen {took:.1f} s after the signal"
