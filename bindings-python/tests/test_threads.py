"""`fire` releases the GIL: fires from several Python threads run at the same time."""

from __future__ import annotations

import threading
import time

from conftest import one_hook, tool_event

import hookwire


def test_four_threads_each_firing_a_half_second_hook_overlap() -> None:
    d = hookwire.Dispatcher(one_hook("sleep 0.5"))
    results: list[dict] = []
    lock = threading.Lock()

    def fire() -> None:
        r = d.fire(tool_event())
        with lock:
            results.append(r)

    threads = [threading.Thread(target=fire) for _ in range(4)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - start

    assert len(results) == 4
    for r in results:
        assert len(r["outcomes"]) == 1, r
        assert r["outcomes"][0]["status"] == "ok", r
    # One after the other they would take 2 s; with the GIL released they overlap.
    assert 0.5 <= elapsed < 1.5, f"4 concurrent 0.5 s fires took {elapsed:.2f} s"


def test_python_threads_keep_running_while_a_hook_runs() -> None:
    d = hookwire.Dispatcher(one_hook("sleep 0.5"))
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.01)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        r = d.fire(tool_event())
    finally:
        done.set()
        counter.join()
    assert len(r["outcomes"]) == 1, r
    assert ticks >= 10, f"the other thread only ran {ticks} times during a 0.5 s fire"


def test_one_dispatcher_shared_by_many_threads_gives_every_thread_its_own_result() -> None:
    d = hookwire.Dispatcher({"hooks": {}})
    errors: list[BaseException] = []

    def fire(i: int) -> None:
        try:
            for _ in range(200):
                r = d.fire(tool_event(session_id=f"s{i}"))
                assert r["event"] == "PreToolUse"
                assert r["outcomes"] == []
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=fire, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
