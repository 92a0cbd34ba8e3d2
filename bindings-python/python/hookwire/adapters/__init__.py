"""Claude Code-compatible hooks for agents built on agent frameworks.

One module per framework, each imported on its own so that ``hookwire`` itself depends on no
framework (install the matching extra, e.g. ``pip install 'hookwire[langchain]'``):

- ``hookwire.adapters.langchain``: ``HookwireMiddleware``, an agent middleware for
  ``langchain.agents.create_agent(..., middleware=[...])``.
- ``hookwire.adapters.openai_agents``: ``HookwireRunner``, which wraps an Agents SDK agent's
  function tools and drives ``agents.Runner`` (prompt, Stop and session events).
- ``hookwire.adapters.pydantic_ai``: ``HookwireCapability``, a capability for
  ``pydantic_ai.Agent(..., capabilities=[...])``.

Every adapter takes a ``hookwire.Dispatcher`` or a project directory (then it loads what Claude
Code would: ``Dispatcher.from_claude_code_defaults(project_dir)``), fires the events of
Claude Code's loop, and applies each result through ``hookwire.host_step``: the adapters only
translate that step into the framework's terms. This module imports nothing heavy.
"""

from __future__ import annotations

from hookwire.adapters._base import (
    AdapterWarning,
    HookwireAdapterError,
    PromptBlocked,
    RunStopped,
    ToolCallDeferred,
)

__all__ = [
    "AdapterWarning",
    "HookwireAdapterError",
    "PromptBlocked",
    "RunStopped",
    "ToolCallDeferred",
]
