"""hookwire's logs in Python's ``logging`` (docs/logging.md).

``enable_logging(level)`` registers the one process-wide log sink of the engine; each record
becomes a ``logging`` record on the logger named after its target: ``hookwire.load``,
``hookwire.fire`` or ``hookwire.hook``, children of ``hookwire``. Its fields are attributes
of the record (``record.event``, ``record.hook_id``, ``record.pid``...), and all of them
together are ``record.hookwire_fields``. Off until enabled, and free while off.
"""

from __future__ import annotations

import logging
from typing import Any

from hookwire import _native

#: The level of hook stdin, stdout and stderr records, below ``logging.DEBUG``.
TRACE = 5

# The core's levels (1 error ... 5 trace) as ``logging`` levels.
_TO_PYTHON = {1: logging.ERROR, 2: logging.WARNING, 3: logging.INFO, 4: logging.DEBUG, 5: TRACE}

# Attributes a LogRecord already has: a field of the same name is only in ``hookwire_fields``.
_RESERVED = frozenset(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


def _core_level(level: int) -> int:
    """The core level that delivers every record ``logging`` would let through at ``level``."""
    for core, python in sorted(_TO_PYTHON.items(), reverse=True):
        if level <= python:
            return core
    return 0


def _emit(level: int, target: str, message: str, fields: dict[str, Any]) -> None:
    logger = logging.getLogger(target.replace("::", "."))
    python_level = _TO_PYTHON.get(level, logging.INFO)
    if not logger.isEnabledFor(python_level):
        return
    extra = {k: v for k, v in fields.items() if k not in _RESERVED}
    extra["hookwire_fields"] = fields
    logger.log(python_level, message, extra=extra)


def enable_logging(level: int | str | None = None) -> None:
    """Send hookwire's events to ``logging``, at ``level`` and above.

    ``level`` is a ``logging`` level (``logging.DEBUG``, ``"INFO"``, ``hookwire.TRACE``);
    ``None`` takes the effective level of the ``hookwire`` logger now. Records go to the loggers
    ``hookwire.load``, ``hookwire.fire`` and ``hookwire.hook``, whose own levels and handlers
    still apply. The level is fixed when this is called: call it again after changing it.

    Process-wide: it replaces an earlier registration, and every dispatcher's events follow
    it. Records are logged on the thread that emitted them, taking the GIL for that call only.
    Hook stdin, stdout and stderr appear only at ``TRACE``.
    """
    if level is None:
        level = logging.getLogger("hookwire").getEffectiveLevel()
    elif isinstance(level, str):
        named = logging.getLevelName(level.upper())
        if not isinstance(named, int):
            raise ValueError(f"unknown logging level {level!r}")
        level = named
    _native.set_log_sink(_emit, _core_level(level))


def disable_logging() -> None:
    """Stop sending hookwire's events to ``logging`` (the default). When it returns, no record
    is being logged on any thread."""
    _native.set_log_sink(None, 0)
