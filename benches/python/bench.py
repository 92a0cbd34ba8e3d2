"""Python binding vs what Python users would write instead (issue 10, figure 6).

Prints one JSON object per line (the format of benches/spawn/spawn.c). Every pair is measured
in this process, interleaved round by round. If `hookwire` cannot be imported, prints one
"skipped" row and exits 0.

    python bench.py [--quick] LIBHOOKWIRE_SO
"""

import ctypes
import json
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

QUICK = "--quick" in sys.argv
LIB = [a for a in sys.argv[1:] if not a.startswith("--")]


def row(figure, name, baseline, hw, base, goal=None):
    def q(xs, p):
        s = sorted(xs)
        k = max(0, min(len(s) - 1, -(-int(p * len(s) * 1000000) // 1000000) - 1))
        return s[k]

    r = {"figure": figure, "name": name, "baseline": baseline, "unit": "s", "n": len(hw),
         "median": q(hw, 0.5), "p90": q(hw, 0.9), "base_median": q(base, 0.5), "base_p90": q(base, 0.9)}
    r["ratio_median"] = r["median"] / r["base_median"]
    r["ratio_p90"] = r["p90"] / r["base_p90"]
    if goal:
        r["goal"] = goal
    print(json.dumps(r), flush=True)


def skipped(why):
    print(json.dumps({"figure": "6py", "name": "Python binding", "skipped": why}), flush=True)
    sys.exit(0)


try:
    import hookwire
except ImportError as e:
    skipped(f"hookwire is not importable by {sys.executable} ({e}); pip install ./bindings-python")

EVENT = {"hook_event_name": "PreToolUse", "session_id": "s", "cwd": "/tmp", "tool_name": "Bash",
         "tool_input": {"command": "ls"}}
NOMATCH = {"hook_event_name": "Notification", "session_id": "s", "cwd": "/tmp", "message": "hi"}


def hooks(n):
    # Distinct args so the dedup rule (protocol.md §2.7) keeps all n.
    return {"hooks": {"PreToolUse": [{"hooks": [
        {"type": "command", "command": "/bin/true", "args": [str(k)]} for k in range(n)]}]}}


def timed(f):
    t0 = time.perf_counter()
    f()
    return time.perf_counter() - t0


def user_run(_=None):
    # What a Python agent writes by hand for one hook.
    p = subprocess.run(["/bin/true"], input=json.dumps(EVENT).encode(), capture_output=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def one_hook():
    d = hookwire.Dispatcher(hooks(1))
    r = d.fire(EVENT)
    assert r["outcomes"][0]["exit_code"] == 0, r
    n = 5 if QUICK else 40
    hw, base = [], []
    for _ in range(n):
        hw.append(timed(lambda: d.fire(EVENT)))
        base.append(timed(user_run))
    row("6py-1", "Python Dispatcher.fire, 1 hook /bin/true",
        "subprocess.run(input=, capture_output=True, timeout=)", hw, base)


def eight_hooks():
    d = hookwire.Dispatcher(hooks(8))
    assert len(d.fire(EVENT)["outcomes"]) == 8
    pool = ThreadPoolExecutor(max_workers=8)
    n = 3 if QUICK else 25
    hw, base = [], []
    for _ in range(n):
        hw.append(timed(lambda: d.fire(EVENT)))
        base.append(timed(lambda: list(pool.map(user_run, range(8)))))
    pool.shutdown()
    row("6py-8", "Python Dispatcher.fire, 8 hooks /bin/true",
        "8 × subprocess.run on a ThreadPoolExecutor(8)", hw, base)


def no_match():
    if not LIB:
        print(json.dumps({"figure": "6py-0", "name": "Python no-match fire",
                          "skipped": "no libhookwire.so given for the ctypes baseline"}))
        return
    lib = ctypes.CDLL(LIB[0])
    lib.hooks_dispatcher_new.restype = ctypes.c_void_p
    lib.hooks_dispatcher_new.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.hooks_fire.restype = ctypes.c_int32
    lib.hooks_fire.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_void_p)]
    lib.hooks_free.argtypes = [ctypes.c_void_p]
    cfg = json.dumps(hooks(1)).encode()
    cd = lib.hooks_dispatcher_new(cfg, None)
    assert cd
    ev = json.dumps(NOMATCH).encode()
    out = ctypes.c_void_p()

    def c_fire():
        rc = lib.hooks_fire(cd, ev, ctypes.byref(out))
        lib.hooks_free(out)
        return rc

    d = hookwire.Dispatcher(hooks(1))
    assert d.fire(NOMATCH)["outcomes"] == [] and c_fire() == 0
    n = 500 if QUICK else 20000
    hw, base = [], []
    pc = time.perf_counter
    for _ in range(n):
        t0 = pc()
        d.fire(NOMATCH)
        t1 = pc()
        c_fire()
        t2 = pc()
        hw.append(t1 - t0)
        base.append(t2 - t1)
    row("6py-0", "Python Dispatcher.fire(dict), no match",
        "C ABI hooks_fire+hooks_free via ctypes (bytes in)", hw, base)


one_hook()
eight_hooks()
no_match()
