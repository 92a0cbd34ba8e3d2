"""Claude Code-compatible hooks for LangChain agents (``langchain.agents.create_agent``).

Supported: ``langchain >= 1.0, < 2`` with ``langchain-core >= 1.0, < 2`` (tested with langchain
1.5.2, langchain-core 1.8.3, langgraph 1.2.24). Install with the ``langchain`` extra of the
wheel (docs/frameworks.md).

    from hookwire.adapters.langchain import HookwireMiddleware
    agent = create_agent(model, tools, middleware=[HookwireMiddleware(project_dir)])
    agent.invoke({"messages": [{"role": "user", "content": "..."}]})

Where each event fires, all inside the agent's own graph, sync (``invoke``) and async
(``ainvoke``) alike:

- ``before_agent``: SessionStart (``source`` ``startup``, or ``resume`` when a checkpointed
  thread already has a session), then UserPromptSubmit on the last human message. A block
  raises ``PromptBlocked`` (SessionEnd fired first, no model call), so ``invoke`` raises it as
  every adapter does; a rewrite replaces the message; context is added as a ``SystemMessage``
  after the prompt.
- ``wrap_tool_call``/``awrap_tool_call``: PreToolUse before the tool (a deny is an error
  ``ToolMessage`` with the reason, a rewrite replaces the call's ``args``, a defer raises
  ``ToolCallDeferred``), then PermissionRequest where a human would be asked (below),
  PostToolUse or PostToolUseFailure after it (the block reason and context are appended to
  the ``ToolMessage``; ``updated_tool_output`` replaces its content when it has the same JSON
  type).
- ``after_agent``: Stop. A block adds the reason as a ``HumanMessage`` and jumps back to the
  model (``stop_hook_active`` true on the next Stop), then SessionEnd (``reason: "other"``)
  when the run really ends.

Every event is built by the core (``hookwire.host_event``) from what LangChain knows: no
``transcript_path`` (no transcript file), ``permission_mode`` ``default`` unless given.

Options:

- ``trust``: for a project directory, whether its ``.claude/settings.json`` and
  ``.claude/settings.local.json`` hooks run: ``"store"`` (default: once recorded with
  ``hookwire.record_trust(hookwire.claude_code_defaults(project_dir))``), ``"trusted"`` (the
  host vouches for the project's files) or ``"untrusted"``. Files that exist but are skipped
  for want of trust give one ``UntrustedHooksWarning`` when the middleware is built; the tools
  then run without those hooks.
- ``tool_names``: framework tool name -> the name hooks match, over ``DEFAULT_TOOL_NAMES``
  (``bash``, ``shell``, ``terminal`` (langchain-community's ``ShellTool``), ``run_shell_command``
  -> ``Bash``; ``read_file`` -> ``Read``; ``write_file`` -> ``Write``; ``edit_file`` -> ``Edit``;
  ``glob``, ``glob_search`` -> ``Glob``; ``grep``, ``grep_search`` -> ``Grep``; ``web_fetch``,
  ``fetch`` -> ``WebFetch``; ``web_search``, ``duckduckgo_search``, ``tavily_search`` ->
  ``WebSearch``). ``None`` or ``{}`` maps nothing. The first call of a tool that no hook on a
  tool event can match, while there are such hooks, gives one ``AdapterWarning``.
- ``human_in_the_loop``: a ``HumanInTheLoopMiddleware`` with ``interrupt_mode="per_call"``,
  given here instead of in ``middleware=[...]``: Claude Code's permission flow runs around
  LangChain's approval. For a call it gates (``interrupt_on``, ``when``): a PreToolUse
  ``allow`` runs the tool without asking and fires no PermissionRequest; otherwise
  PermissionRequest fires: ``allow`` runs the tool (with its ``updatedInput``), ``deny`` is an
  error ``ToolMessage`` with the hook's message (shown to the user as well), no decision leaves
  the call to the middleware, which interrupts the run for a person as it would without hooks.
  On resume LangGraph runs the tool node again up to the pause (LangChain's own rule for
  ``per_call``), so PreToolUse and PermissionRequest fire again for that call.
- ``permission_tools``: tools that need permission with nobody to ask (tool names, or
  ``needs(name, input) -> bool``): PermissionRequest fires after PreToolUse and decides; no
  decision denies.

What LangChain cannot express, each with a warning (``AdapterWarning``) once per middleware:
a tool that returns a ``Command`` instead of a ``ToolMessage`` (PostToolUse results are not
applied to it), and a tool that raises (PostToolUseFailure fires but its block or context
cannot reach the model, the exception propagates). Tool context rides inside the tool
result's text, since a system message between tool results is rejected by several providers.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Annotated, Any, Literal, NotRequired

from langchain.agents.middleware import AgentMiddleware, AgentState, HumanInTheLoopMiddleware, hook_config
from langchain.agents.middleware.types import PrivateStateAttr
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from langgraph.errors import GraphBubbleUp
from langgraph.types import Command

import hookwire
from hookwire.adapters._base import (
    COMMON_TOOL_NAMES,
    DEFAULT,
    HookFirer,
    Hooks,
    PermissionTools,
    PromptBlocked,
    Step,
    ToolCallDeferred,
    Trust,
    UserMessageCallback,
    as_text,
    bad_rewrite_message,
    merged,
    with_text,
)

__all__ = ["DEFAULT_TOOL_NAMES", "HookwireMiddleware", "HookwireState"]

#: The tool names mapped by default: the common ones and those of LangChain's bundled tools
#: (langchain-community's ``ShellTool`` is ``terminal``, ``ShellToolMiddleware``'s tool
#: ``shell``, ``FilesystemFileSearchMiddleware``'s ``glob_search`` and ``grep_search``).
DEFAULT_TOOL_NAMES: Mapping[str, str] = {
    **COMMON_TOOL_NAMES,
    "terminal": "Bash",
    "glob_search": "Glob",
    "grep_search": "Grep",
    "duckduckgo_search": "WebSearch",
    "tavily_search": "WebSearch",
}


class HookwireState(AgentState[Any]):
    """The middleware's private part of the agent state."""

    hookwire_session_id: NotRequired[Annotated[str | None, PrivateStateAttr]]
    hookwire_stop_blocks: NotRequired[Annotated[int, PrivateStateAttr]]
    """Consecutive Stop continuations in this run (``stop_hook_active`` when > 0)."""
    hookwire_halted: NotRequired[Annotated[bool, PrivateStateAttr]]
    """A hook ended the run (``continue: false``): no more model calls, no Stop."""


class HookwireMiddleware(AgentMiddleware[HookwireState, Any, Any]):
    """Agent middleware that runs Claude Code hooks around a LangChain agent's loop.

    ``hooks``: a ``hookwire.Dispatcher``, or a project directory whose Claude Code settings are
    loaded (``hookwire.claude_code_defaults``) with the project's files trusted as ``trust``
    says (``"store"``, ``"trusted"``, ``"untrusted"``). ``on_user_message(text, event)``
    receives text meant for the user (a blocked prompt's reason, ``systemMessage``, a
    permission denial); without it that text goes to the ``hookwire.adapters`` logger.
    ``tool_names``, ``human_in_the_loop`` and ``permission_tools``: see the module docstring.
    """

    state_schema = HookwireState

    def __init__(
        self,
        hooks: Hooks,
        *,
        session_id: str | None = None,
        cwd: str | os.PathLike[str] | None = None,
        permission_mode: str | None = None,
        on_user_message: UserMessageCallback | None = None,
        trust: Trust | None = None,
        tool_names: Mapping[str, str] | None = DEFAULT,
        permission_tools: PermissionTools = None,
        human_in_the_loop: HumanInTheLoopMiddleware[Any, Any, Any] | None = None,
    ) -> None:
        super().__init__()
        self.tools = []
        if human_in_the_loop is not None:
            if not isinstance(human_in_the_loop, HumanInTheLoopMiddleware):
                raise TypeError("human_in_the_loop must be a langchain HumanInTheLoopMiddleware")
            if human_in_the_loop.interrupt_mode != "per_call":
                raise ValueError(
                    "human_in_the_loop needs HumanInTheLoopMiddleware(..., interrupt_mode=\"per_call\"): "
                    "PreToolUse and PermissionRequest run before its question, at the tool call"
                )
        self._hitl = human_in_the_loop
        self._firer = HookFirer(
            hooks,
            session_id=session_id,
            cwd=cwd,
            permission_mode=permission_mode,
            on_user_message=on_user_message,
            adapter="langchain",
            trust=trust,
            tool_names=tool_names,
            default_tool_names=DEFAULT_TOOL_NAMES,
            permission_tools=permission_tools,
        )

    # --- SessionStart, UserPromptSubmit -------------------------------------------------------

    @hook_config(can_jump_to=["end"])
    def before_agent(self, state: HookwireState, runtime: Any) -> dict[str, Any] | None:
        sid, source, prompt = self._run_start(state)
        start = self._firer.fire(self._firer.event("SessionStart", sid, source=source))
        submit = self._firer.fire(self._prompt_event(sid, prompt)) if prompt is not None else None
        if submit is not None and submit.action == "block_prompt":
            self._firer.fire(self._firer.event("SessionEnd", sid))
            raise PromptBlocked(submit.user_message)
        return self._after_prompt(sid, prompt, start, submit)

    @hook_config(can_jump_to=["end"])
    async def abefore_agent(self, state: HookwireState, runtime: Any) -> dict[str, Any] | None:
        sid, source, prompt = self._run_start(state)
        start = await self._firer.afire(self._firer.event("SessionStart", sid, source=source))
        submit = await self._firer.afire(self._prompt_event(sid, prompt)) if prompt is not None else None
        if submit is not None and submit.action == "block_prompt":
            await self._firer.afire(self._firer.event("SessionEnd", sid))
            raise PromptBlocked(submit.user_message)
        return self._after_prompt(sid, prompt, start, submit)

    def _run_start(self, state: HookwireState) -> tuple[str, str, HumanMessage | None]:
        known = state.get("hookwire_session_id")
        sid = known or self._firer.fixed_session_id or _thread_id() or self._firer.new_session_id()
        messages = state.get("messages") or []
        prompt = messages[-1] if messages and isinstance(messages[-1], HumanMessage) else None
        return sid, ("resume" if known else "startup"), prompt

    def _prompt_event(self, sid: str, prompt: HumanMessage) -> dict[str, Any]:
        return self._firer.event("UserPromptSubmit", sid, prompt=prompt.text)

    def _after_prompt(self, sid: str, prompt: HumanMessage | None, start: Step, submit: Step | None) -> dict[str, Any]:
        update: dict[str, Any] = {"hookwire_session_id": sid, "hookwire_stop_blocks": 0, "hookwire_halted": False}
        messages: list[Any] = []
        if submit is not None and submit.prompt is not None and prompt is not None:
            messages.append(HumanMessage(content=submit.prompt, id=prompt.id))
        for step in (start, submit):
            if step is not None and step.context:
                messages.append(SystemMessage(content=step.context))
        if messages:
            update["messages"] = messages
        return update

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: HookwireState, runtime: Any) -> dict[str, Any] | None:
        """Ends the run before the next model call once a hook stopped it (after a tool)."""
        return {"jump_to": "end"} if state.get("hookwire_halted") else None

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: HookwireState, runtime: Any) -> dict[str, Any] | None:
        return self.before_model(state, runtime)

    # --- PreToolUse, PermissionRequest, PostToolUse, PostToolUseFailure ----------------------

    def wrap_tool_call(self, request: Any, handler: Any) -> ToolMessage | Command[Any]:
        firer = self._firer
        call = _Call(request, self._session_of(request))
        pre = firer.fire(call.event(firer, "PreToolUse"))
        early = self._before_tool(call, pre)
        if early is not None:
            return early
        asking = self._asking(call, pre)
        human = False
        if asking is not None:
            asked = firer.ask(call.permission_event(firer), someone_to_ask=asking == "human")
            early, pre, human = self._permitted(call, pre, asked, asking)
            if early is not None:
                return early
        ran: list[bool] = []

        def run(req: Any) -> Any:
            ran.append(call.ran_as(req))
            return handler(req)

        try:
            result = self._hitl.wrap_tool_call(call.request, run) if human and self._hitl else run(call.request)
        except GraphBubbleUp:
            raise
        except Exception as error:
            self._tool_raised(call, firer.fire(call.failure_event(firer, error)))
            raise
        if not ran:
            passed: ToolMessage | Command[Any] = result  # the person rejected or answered: no tool ran
            return passed
        post_event = call.post_event(firer, result)
        post = firer.fire(post_event) if post_event is not None else None
        return self._after_tool(call, pre, result, post)

    async def awrap_tool_call(self, request: Any, handler: Any) -> ToolMessage | Command[Any]:
        firer = self._firer
        call = _Call(request, self._session_of(request))
        pre = await firer.afire(call.event(firer, "PreToolUse"))
        early = self._before_tool(call, pre)
        if early is not None:
            return early
        asking = self._asking(call, pre)
        human = False
        if asking is not None:
            asked = await firer.aask(call.permission_event(firer), someone_to_ask=asking == "human")
            early, pre, human = self._permitted(call, pre, asked, asking)
            if early is not None:
                return early
        ran: list[bool] = []

        async def run(req: Any) -> Any:
            ran.append(call.ran_as(req))
            return await handler(req)

        try:
            result = await (self._hitl.awrap_tool_call(call.request, run) if human and self._hitl else run(call.request))
        except GraphBubbleUp:
            raise
        except Exception as error:
            self._tool_raised(call, await firer.afire(call.failure_event(firer, error)))
            raise
        if not ran:
            passed: ToolMessage | Command[Any] = result
            return passed
        post_event = call.post_event(firer, result)
        post = await firer.afire(post_event) if post_event is not None else None
        return self._after_tool(call, pre, result, post)

    def _session_of(self, request: Any) -> str:
        state = request.state if isinstance(request.state, dict) else {}
        return state.get("hookwire_session_id") or self._firer.fixed_session_id or _thread_id() or "langchain"

    def _before_tool(self, call: _Call, pre: Step) -> ToolMessage | Command[Any] | None:
        """The result that replaces the tool call (deny), or None to run it (with its rewrite
        applied to ``call.request``). Raises ``ToolCallDeferred``."""
        if pre.action == "defer_tool":
            raise ToolCallDeferred(call.name, call.args, call.id)
        if pre.action == "deny_tool":
            return _halting(call.error_message(with_text(pre.message or "", pre.context)), pre.stop)
        return self._rewrite(call, pre)

    def _rewrite(self, call: _Call, step: Step) -> ToolMessage | None:
        """Applies the step's rewrite to ``call``; the error result when it is not an object."""
        try:
            replacement = self._firer.replacement_input(step, call.name)
        except ValueError as error:
            self._firer.warn_once("bad-rewrite", str(error))
            return call.error_message(bad_rewrite_message(call.name, error))
        if replacement is not None:
            call.rewrite(replacement)
        return None

    def _asking(self, call: _Call, pre: Step) -> Literal["human", "nobody"] | None:
        """Who would be asked for permission to run this call: the human-in-the-loop
        middleware's person, nobody (``permission_tools``), or no one at all (a PreToolUse
        ``allow`` skips the question, as in Claude Code)."""
        if pre.approved:
            return None
        if self._hitl is not None and _gated(self._hitl, call.request):
            return "human"
        if self._firer.needs_permission(call.name, call.args):
            return "nobody"
        return None

    def _permitted(
        self, call: _Call, pre: Step, asked: Step, asking: str
    ) -> tuple[ToolMessage | Command[Any] | None, Step, bool]:
        """PermissionRequest's step: the denial's result, or None and the step the call runs
        with; and whether the person is still to be asked (no decision, someone to ask)."""
        if asking == "human" and not asked.decided:
            return None, pre, True
        if asked.action == "deny_tool":
            text = with_text(asked.message or "", pre.context, asked.context)
            return _halting(call.error_message(text), pre.stop or asked.stop), pre, False
        return self._rewrite(call, asked), merged(pre, asked), False

    def _after_tool(self, call: _Call, pre: Step, result: Any, post: Step | None) -> ToolMessage | Command[Any]:
        if not isinstance(result, ToolMessage) or post is None:
            self._firer.warn_once(
                "command-result",
                f"tool {call.name!r} returned a {type(result).__name__}, not a ToolMessage: "
                "PreToolUse context and PostToolUse results are not applied to it",
            )
            passed: ToolMessage | Command[Any] = result
            return passed
        content: Any = result.content
        if post.tool_output is not None:
            content = post.tool_output
        elif post.tool_output_refused:
            self._firer.warn_once(
                "tool-output",
                f"PostToolUse updated_tool_output does not fit what tool {call.name!r} returned; kept the original",
            )
        content = _append_text(content, pre.context, post.feedback, post.context)
        message = result.model_copy(update={"content": content})
        return _halting(message, pre.stop or post.stop)

    def _tool_raised(self, call: _Call, post: Step) -> None:
        if post.feedback or post.context or post.tool_output is not None:
            self._firer.warn_once(
                "raised",
                f"tool {call.name!r} raised: PostToolUseFailure's block, context or output cannot "
                "reach the model (the exception propagates; set handle_tool_errors to get an error ToolMessage)",
            )

    # --- Stop, SessionEnd ---------------------------------------------------------------------

    @hook_config(can_jump_to=["model"])
    def after_agent(self, state: HookwireState, runtime: Any) -> dict[str, Any] | None:
        sid = state.get("hookwire_session_id") or self._firer.new_session_id()
        stop = None if state.get("hookwire_halted") else self._firer.fire(self._stop_event(sid, state))
        update = self._after_stop(state, stop)
        if update.get("jump_to") is None:
            self._firer.fire(self._firer.event("SessionEnd", sid))
        return update

    @hook_config(can_jump_to=["model"])
    async def aafter_agent(self, state: HookwireState, runtime: Any) -> dict[str, Any] | None:
        sid = state.get("hookwire_session_id") or self._firer.new_session_id()
        stop = None if state.get("hookwire_halted") else await self._firer.afire(self._stop_event(sid, state))
        update = self._after_stop(state, stop)
        if update.get("jump_to") is None:
            await self._firer.afire(self._firer.event("SessionEnd", sid))
        return update

    def _stop_event(self, sid: str, state: HookwireState) -> dict[str, Any]:
        last = next((m for m in reversed(state.get("messages") or []) if isinstance(m, AIMessage)), None)
        return self._firer.event(
            "Stop",
            sid,
            stop_hook_active=state.get("hookwire_stop_blocks", 0) > 0,
            last_assistant_message=last.text if last is not None else None,
        )

    def _after_stop(self, state: HookwireState, stop: Step | None) -> dict[str, Any]:
        blocks = state.get("hookwire_stop_blocks", 0)
        if stop is None or stop.action != "continue_turn":
            return {"hookwire_stop_blocks": 0}
        if blocks >= hookwire.MAX_STOP_CONTINUATIONS:
            self._firer.warn_once(
                "stop-bound",
                f"Stop hooks blocked {blocks} consecutive times; the adapter's bound ends the turn",
            )
            return {"hookwire_stop_blocks": 0}
        messages: list[Any] = [HumanMessage(content=stop.message or "")]
        if stop.context:
            messages.append(SystemMessage(content=stop.context))
        return {"messages": messages, "jump_to": "model", "hookwire_stop_blocks": blocks + 1}


class _Call:
    """One tool call being hooked: its request (rewritten in place) and the facts of its events."""

    def __init__(self, request: Any, session_id: str) -> None:
        self.request = request
        self.session_id = session_id
        call = request.tool_call
        self.name: str = call.get("name") or ""
        self.args: Any = call.get("args")
        self.id: str | None = call.get("id")

    def rewrite(self, args: dict[str, Any]) -> None:
        self.args = args
        self.request = self.request.override(tool_call={**self.request.tool_call, "args": args})

    def ran_as(self, request: Any) -> bool:
        """Notes the call the tool runs with (a person's edit included); True."""
        self.args = request.tool_call.get("args")
        return True

    def event(self, firer: HookFirer, name: str, **facts: Any) -> dict[str, Any]:
        return firer.event(name, self.session_id, tool_name=self.name, tool_input=self.args, tool_use_id=self.id, **facts)

    def permission_event(self, firer: HookFirer) -> dict[str, Any]:
        return firer.event("PermissionRequest", self.session_id, **firer.permission_facts(self.name, self.args))

    def post_event(self, firer: HookFirer, result: Any) -> dict[str, Any] | None:
        if not isinstance(result, ToolMessage):
            return None
        if result.status == "error":
            return self.event(firer, "PostToolUseFailure", error=as_text(result.content))
        return self.event(firer, "PostToolUse", tool_response=result.content)

    def failure_event(self, firer: HookFirer, error: Exception) -> dict[str, Any]:
        return self.event(firer, "PostToolUseFailure", error=str(error), error_type=type(error).__name__)

    def error_message(self, text: str) -> ToolMessage:
        return ToolMessage(content=text, tool_call_id=self.id or "", name=self.name, status="error")


def _gated(hitl: HumanInTheLoopMiddleware[Any, Any, Any], request: Any) -> bool:
    """Whether the human-in-the-loop middleware would ask its person about this call."""
    config = hitl.interrupt_on.get(request.tool_call.get("name") or "")
    if config is None:
        return False
    when = config.get("when")
    return when is None or bool(when(request))


def _append_text(content: Any, *texts: str | None) -> Any:
    """``content`` (a string or a list of content blocks) with each text after it."""
    extra = [t for t in texts if t]
    if not extra:
        return content
    if isinstance(content, list):
        return [*content, *({"type": "text", "text": t} for t in extra)]
    return with_text(as_text(content), *extra)


def _halting(message: ToolMessage, stop: bool) -> ToolMessage | Command[Any]:
    """The tool's message, and when a hook stopped the run, the flag that ends it before the
    next model call (``before_model``)."""
    if not stop:
        return message
    return Command(update={"messages": [message], "hookwire_halted": True})


def _thread_id() -> str | None:
    """The LangGraph thread id of the running graph, if any."""
    try:
        from langgraph.config import get_config

        thread = get_config().get("configurable", {}).get("thread_id")
    except (RuntimeError, LookupError, ImportError):
        return None
    return str(thread) if thread is not None else None
