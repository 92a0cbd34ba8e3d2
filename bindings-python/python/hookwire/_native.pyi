"""Type stubs of ``hookwire._native``, the compiled half of ``hookwire``.

``tests/test_stubs.py`` checks that these stubs and the runtime module name the same things.
"""

from os import PathLike
from typing import Any, Self

__version__: str

class Dispatcher:
    """A loaded configuration, ready to fire events.

    Thread-safe: one dispatcher may be shared by any number of threads, and their fires run
    at the same time. The GIL is released while hooks run.
    """

    def __new__(cls, config: dict[str, Any] | str | bytes) -> Self:
        """Build from a dict or JSON text (str or bytes). Raises ``ConfigError``;
        another argument type raises ``TypeError``."""

    @classmethod
    def from_file(cls, path: str | bytes | PathLike[str] | PathLike[bytes]) -> Self:
        """Build from a JSON file. I/O failures raise ``OSError``; a bad configuration
        raises ``ConfigError``."""

    def fire(self, event: dict[str, Any] | str | bytes) -> dict[str, Any]:
        """Fire one event; return the result JSON (protocol.md §8) as a dict.
        Raises ``EventError``; a hook's failure is an outcome, never an exception."""

    def trust_status(self) -> dict[str, Any]:
        """The trust state of every project and local source (protocol.md §2.8): a dict with
        ``store``, ``default_store``, ``project_dir`` (``None`` when unset) and ``sources``,
        each with ``scope``, ``label``, ``path``, ``resolved``, ``key``, ``digest``,
        ``trusted`` (bool) and ``why``. Nothing is spawned, read or written."""

def record_trust(config: dict[str, Any] | str | bytes) -> dict[str, Any]:
    """Record the SHA-256 of every project and local file source of ``config`` in the trust
    store (``trust.store``, else ``$XDG_CONFIG_HOME/hookwire/trust.json`` or
    ``~/.config/hookwire/trust.json``; written atomically, mode 0600) and return the new
    trust status, shaped as ``Dispatcher.trust_status()``. Call it after the user approved;
    dispatchers built afterwards run those sources until a file changes. Raises
    ``ConfigError`` (including pointer ``/project_dir`` when it is missing) and
    ``HookwireError`` (``internal``: the store could not be written)."""

class HookwireError(Exception):
    """Base of every hookwire error; raised itself for ``panic`` and ``internal``."""

    kind: str
    """One of the stable kinds: ``invalid_utf8``, ``invalid_json``, ``invalid_config``,
    ``invalid_event``, ``panic``, ``internal`` (``null_pointer`` never occurs in Python)."""
    line: int | None
    """1-based line of a JSON syntax error."""
    column: int | None
    """1-based column (in bytes) of a JSON syntax error."""
    pointer: str | None
    """JSON pointer to the faulty place of a well-formed document."""

class ConfigError(HookwireError):
    """No dispatcher could be built from the configuration."""

class EventError(HookwireError):
    """The event could not be fired."""
