"""Claude Code-compatible hooks for pydantic-ai agents, as one agent capability.

Supported: ``pydantic-ai-slim >= 2.68, < 3`` (capabilities with ``wrap_node_run`` and
``get_wrapper_toolset``, ``ToolFailed``; tested with 2.68.0). Install with
``pip install 'hookwire[pydantic-ai]'``.

    from hookwire.adapters.pydantic_ai import HookwireCapability
    agent = Agent(model, tools=[...], capabilities=[HookwireCapability(project_dir)])
    result = agent.run_sync("...")

Where each event fires (``run``, ``run_sync``, ``iter`` alike; every hook is fired with
``fire_async``):

- ``wrap_run``: SessionStart (``source`` ``startup``, or ``resume`` with a message history)
  before the run, SessionEnd (``reason: "other"``) after it, also when it fails.
- ``wrap_node_run`` on the ``UserPromptNode``: UserPromptSubmit. A block raises
  ``PromptBlocked`` before any model call; a rewrite replaces the prompt; session and prompt
  context are appended to the prompt (the first request has no other place for them).
- A ``WrapperToolset`` around all of the run's tools (``get_wrapper_toolset``): PreToolUse
  before each call (a deny is a failed tool result, ``ToolFailed``, with the reason; a rewrite
  is validated against the tool's argument schema, then replaces the arguments; a defer
  raises ``ToolCallDeferred``), PostToolUse or PostToolUseFailure after it (block reason and
  context reach the model beside the result as ``ToolReturn.content``; ``updated_tool_output``
  replaces the return value when it has the same JSON type).
- ``wrap_node_run`` when the graph reaches ``End``: Stop. A block sends the reason as a new
  user prompt to the model (one more ``ModelRequestNode``), and the run's output is then the
  model's next answer.

Session id: ``session_id=`` if given, else the run's ``conversation_id`` (which pydantic-ai
carries across runs through ``message_history``).

What pydantic-ai cannot express, each with a warning (``AdapterWarning``) once per capability:
a tool that raises another exception than ``ToolFailed`` (PostToolUseFailure fires, but its
block or context cannot reach the model: the exception propagates as pydantic-ai decides), and
``continue: false`` after a tool: a run cannot end without an output, so ``RunStopped`` is
raised after the tool ran (no further model call).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.agent import ModelRequestNode, UserPromptNode
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import ApprovalRequired, CallDeferred, ToolFailed
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolReturn, UserPromptPart
from pydantic_ai.toolsets import AbstractToolset, WrapperToolset
from pydantic_ai.toolsets.abstract import ToolsetTool
from pydantic_graph import End

from hookwire.adapters._base import (
    MAX_STOP_CONTINUATIONS,
    HookFirer,
    Hooks,
    PromptBlocked,
    RunStopped,
    Step,
    ToolCallDeferred,
    UserMessageCallback,
    as_json,
    bad_rewrite_message,
    fits,
    with_text,
)

__all__ = ["HookwireCapability"]

#: pydantic-ai's own control-flow signals from a tool: not failures, passed through unhooked.
_CONTROL = (ModelRetry, CallDeferred, ApprovalRequired)


class HookwireCapability(AbstractCapability[Any]):
    """A pydantic-ai capability that runs Claude Code hooks around an agent's loop.

    ``hooks``: a ``hookwire.Dispatcher``, or a project directory whose Claude Code settings are
    loaded (``Dispatcher.from_claude_code_defaults``). ``on_user_message(text, event)``
    receives text meant for the user; without it that text goes to the ``hookwire.adapters``
    logger. One instance may serve many runs: each run gets its own copy (``for_run``).
    """

    def __init__(
        self,
        hooks: Hooks,
        *,
        session_id: str | None = None,
        cwd: str | os.PathLike[str] | None = None,
        permission_mode: str = "default",
        on_user_message: UserMessageCallback | None = None,
        _firer: HookFirer | None = None,
    ) -> None:
        self._firer = _firer or HookFirer(
            hooks,
            session_id=session_id,
            cwd=cwd,
            permission_mode=permission_mode,
            on_user_message=on_user_message,
            adapter="pydantic-ai",
        )
        self._session_id = ""
        self._stop_blocks = 0
        self._halt: Step | None = None
        self._start_context: str | None = None

    async def for_run(self, ctx: RunContext[Any]) -> HookwireCapability:
        """A copy with this run's state (session id, Stop count), sharing the dispatcher."""
        run = HookwireCapability(None, _firer=self._firer)  # type: ignore[arg-type]
        run._session_id = self._firer.fixed_session_id or ctx.conversation_id or self._firer.new_session_id()
        return run

    def get_wrapper_toolset(self, toolset: AbstractToolset[Any]) -> AbstractToolset[Any] | None:
        return _HookedToolset(toolset, run=self)

    # --- SessionStart, SessionEnd --------------------------------------------------------------

    async def wrap_run(self, ctx: RunContext[Any], *, handler: Any) -> Any:
        source = "resume" if ctx.messages else "startup"
        start = await self._firer.afire(self._firer.event("SessionStart", self._session_id, source=source))
        self._start_context = start.context
        try:
            return await handler()
        finally:
            await self._firer.afire(self._firer.event("SessionEnd", self._session_id, reason="other"))

    # --- UserPromptSubmit, Stop -------------------------------------------------------------

    async def wrap_node_run(self, ctx: RunContext[Any], *, node: Any, handler: Any) -> Any:
        if isinstance(node, UserPromptNode) and node.user_prompt is not None:
            await self._submit(node)
        result = await handler(node)
        if self._halt is not None:
            raise RunStopped(self._halt.event, self._halt.user_message)
        if isinstance(result, End):
            return await self._stop(ctx, result)
        return result

    async def _submit(self, node: UserPromptNode[Any, Any]) -> None:
        prompt = node.user_prompt
        text = prompt if isinstance(prompt, str) else "\n".join(p for p in prompt or () if isinstance(p, str))
        step = await self._firer.afire(self._firer.event("UserPromptSubmit", self._session_id, prompt=text))
        if step.action == "block_prompt":
            raise PromptBlocked(step.user_message)
        if step.prompt is not None:
            prompt = step.prompt
        extra = [t for t in (self._start_context, step.context) if t]
        if extra:
            prompt = with_text(prompt, *extra) if isinstance(prompt, str) else [*(prompt or ()), *extra]
        node.user_prompt = prompt

    async def _stop(self, ctx: RunContext[Any], end: End[Any]) -> Any:
        event = self._firer.event(
            "Stop",
            self._session_id,
            stop_hook_active=self._stop_blocks > 0,
            last_assistant_message=_last_text(ctx),
        )
        step = await self._firer.afire(event)
        if step.action != "continue_turn":
            self._stop_blocks = 0
            return end
        if self._stop_blocks >= MAX_STOP_CONTINUATIONS:
            self._firer.warn_once(
                "stop-bound", f"Stop hooks blocked {self._stop_blocks} consecutive times; the adapter's bound ends the turn"
            )
            return end
        self._stop_blocks += 1
        text = with_text(step.message or "", step.context)
        return ModelRequestNode(request=ModelRequest(parts=[UserPromptPart(text)]))

    # --- called by _HookedToolset ---------------------------------------------------------------

    def _halt_after_tool(self, step: Step) -> None:
        if step.stop and self._halt is None:
            self._halt = step


@dataclass
class _HookedToolset(WrapperToolset[Any]):
    """Every tool of the run, with PreToolUse before and PostToolUse(Failure) after it.

    A dataclass like its base: pydantic-ai copies toolsets with ``dataclasses.replace``."""

    run: HookwireCapability = field(kw_only=True)

    async def call_tool(self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]) -> Any:
        run, firer = self.run, self.run._firer
        fields = {"tool_name": name, "tool_input": as_json(tool_args), "tool_use_id": ctx.tool_call_id}
        pre = await firer.afire(firer.event("PreToolUse", run._session_id, **fields))
        if pre.action == "defer_tool":
            raise ToolCallDeferred(name, tool_args, ctx.tool_call_id)
        run._halt_after_tool(pre)
        if pre.action == "deny_tool":
            raise ToolFailed(with_text(pre.message or "", pre.context))
        args = tool_args
        try:
            replacement = firer.replacement_input(pre, name)
            if replacement is not None:
                args = tool.args_validator.validate_python(replacement)
                fields["tool_input"] = as_json(replacement)
        except (ValueError, ValidationError) as error:
            firer.warn_once("bad-rewrite", str(error))
            raise ToolFailed(bad_rewrite_message(name, error)) from None
        try:
            result = await super().call_tool(name, args, ctx, tool)
        except _CONTROL:
            raise
        except ToolFailed as failed:
            post = await firer.afire(firer.event("PostToolUseFailure", run._session_id, **fields, error=failed.message, is_interrupt=False))
            run._halt_after_tool(post)
            raise ToolFailed(with_text(failed.message, pre.context, post.feedback, post.context)) from failed
        except Exception as error:
            post = await firer.afire(
                firer.event("PostToolUseFailure", run._session_id, **fields, error=f"{type(error).__name__}: {error}", is_interrupt=False)
            )
            if post.feedback or post.context:
                firer.warn_once(
                    "raised",
                    f"tool {name!r} raised {type(error).__name__}: PostToolUseFailure's block or context cannot reach the model",
                )
            raise
        value = result.return_value if isinstance(result, ToolReturn) else result
        post = await firer.afire(firer.event("PostToolUse", run._session_id, **fields, tool_response=as_json(value)))
        run._halt_after_tool(post)
        return _deliver(firer, name, result, value, pre, post)


def _deliver(firer: HookFirer, name: str, result: Any, value: Any, pre: Step, post: Step) -> Any:
    """The tool's result with the hooks' replacement output and their texts beside it."""
    if post.tool_output is not None:
        if fits(value, post.tool_output):
            value = post.tool_output
        else:
            firer.warn_once("tool-output", f"PostToolUse updated_tool_output does not fit what tool {name!r} returned; kept the original")
    texts = [t for t in (pre.context, post.feedback, post.context) if t]
    if not texts and value is (result.return_value if isinstance(result, ToolReturn) else result):
        return result
    if isinstance(result, ToolReturn):
        earlier = result.content
        content: Any = [*([earlier] if isinstance(earlier, str) else (earlier or ())), *texts]
        return ToolReturn(return_value=value, content=content or None, metadata=result.metadata)
    return ToolReturn(return_value=value, content="\n\n".join(texts) if texts else None)


def _last_text(ctx: RunContext[Any]) -> str | None:
    for message in reversed(ctx.messages):
        if isinstance(message, ModelResponse):
            texts = [p.content for p in message.parts if isinstance(p, TextPart)]
            return "".join(texts) if texts else None
    return None

