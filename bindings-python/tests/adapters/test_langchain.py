"""The LangChain middleware in a real ``create_agent`` loop, driven by LangChain's fake chat
model, with a Bash-style tool guarded by the project's command hook."""

from __future__ import annotations

import asyncio
import itertools
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("langchain.agents")

from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.tools import tool
from pydantic import Field

from hookwire.adapters import AdapterWarning, ToolCallDeferred
from hookwire.adapters.langchain import HookwireMiddleware

from .hookproject import HookProject, readme_snippet


class ScriptedChat(GenericFakeChatModel):
    """GenericFakeChatModel that accepts tools and records every request's messages."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChat:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def bash_call(command: str, call_id: str = "call-1") -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": "Bash", "args": {"command": command}, "id": call_id}])


def model(*replies: AIMessage, then: str | None = None) -> ScriptedChat:
    tail: Iterator[AIMessage] = itertools.repeat(AIMessage(content=then)) if then is not None else iter(())
    return ScriptedChat(messages=itertools.chain(replies, tail))


class Shell:
    """The Bash tool: records the commands it ran instead of running them."""

    def __init__(self) -> None:
        self.ran: list[str] = []

        @tool("Bash")
        def bash(command: str) -> str:
            """Run a shell command."""
            self.ran.append(command)
            return f"ran: {command}"

        self.tool = bash


def run(project: HookProject, chat: ScriptedChat, prompt: str = "list files", **kw: Any) -> tuple[dict[str, Any], Shell]:
    shell = Shell()
    agent = create_agent(chat, [shell.tool], middleware=[HookwireMiddleware(project.dir, **kw)])
    return agent.invoke({"messages": [HumanMessage(prompt)]}), shell


def tool_messages(state: dict[str, Any]) -> list[ToolMessage]:
    return [m for m in state["messages"] if isinstance(m, ToolMessage)]


def test_deny_keeps_the_tool_from_running_and_the_model_gets_the_reason(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "contains": "rm -rf", "exit": 2, "stderr": "no rm -rf here"})
    chat = model(bash_call("rm -rf /"), then="ok")
    state, shell = run(project, chat)
    assert shell.ran == []
    [denied] = tool_messages(state)
    assert denied.status == "error"
    assert "no rm -rf here" in denied.text
    assert any(isinstance(m, ToolMessage) and "no rm -rf here" in m.text for m in chat.seen[1])


def test_updated_input_changes_the_call(project: HookProject) -> None:
    rewrite = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                                      "updatedInput": {"command": "ls -la"}}}
    project.rules({"event": "PreToolUse", "stdout": rewrite})
    state, shell = run(project, model(bash_call("ls"), then="done"))
    assert shell.ran == ["ls -la"]
    [post] = project.events("PostToolUse")
    assert post["tool_input"] == {"command": "ls -la"}
    assert post["tool_response"] == "ran: ls -la"


def test_stop_block_causes_one_more_turn_with_the_reason(project: HookProject) -> None:
    project.rules({"event": "Stop", "when": {"stop_hook_active": False}, "exit": 2, "stderr": "run the tests first"})
    chat = model(then="finished")
    state, _ = run(project, chat)
    assert len(chat.seen) == 2
    assert isinstance(chat.seen[1][-1], HumanMessage) and "run the tests first" in chat.seen[1][-1].text
    stops = project.events("Stop")
    assert [s["stop_hook_active"] for s in stops] == [False, True]
    assert len({s["session_id"] for s in stops}) == 1


def test_an_endless_stop_block_is_ended_by_the_cap(project: HookProject) -> None:
    project.rules({"event": "Stop", "exit": 2, "stderr": "keep going"})
    chat = model(then="again")
    run(project, chat)
    # The engine honours 8 consecutive blocks and lets the 9th Stop end the turn.
    assert len(project.events("Stop")) == 9
    assert len(chat.seen) == 9
    assert project.names()[-1] == "SessionEnd"


def test_post_tool_use_block_and_context_reach_the_model(project: HookProject) -> None:
    out = {"decision": "block", "reason": "output looks wrong",
           "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "check twice"}}
    project.rules({"event": "PostToolUse", "stdout": out})
    chat = model(bash_call("ls"), then="done")
    state, shell = run(project, chat)
    assert shell.ran == ["ls"]
    [result] = tool_messages(state)
    assert result.text.startswith("ran: ls")
    assert "output looks wrong" in result.text and "check twice" in result.text
    assert result in chat.seen[1] or any("output looks wrong" in m.text for m in chat.seen[1])


def test_user_prompt_submit_block_makes_no_model_call(project: HookProject) -> None:
    project.rules({"event": "UserPromptSubmit", "exit": 2, "stderr": "not today"})
    told: list[tuple[str, str]] = []
    chat = model(then="never")
    state, _ = run(project, chat, on_user_message=lambda text, event: told.append((text, event)))
    assert chat.seen == []
    assert not any(isinstance(m, HumanMessage) for m in state["messages"])
    assert any("not today" in text for text, _ in told)
    assert "Stop" not in project.names()
    assert project.names()[-1] == "SessionEnd"


def test_prompt_context_and_rewrite_reach_the_model(project: HookProject) -> None:
    out = {"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "the repo is small"}}
    project.rules({"event": "UserPromptSubmit", "stdout": out})
    chat = model(then="ok")
    run(project, chat)
    [first] = chat.seen
    assert any(isinstance(m, SystemMessage) and "the repo is small" in m.text for m in first)


def test_events_carry_session_cwd_tool_use_id_and_permission_mode(project: HookProject) -> None:
    chat = model(bash_call("ls", call_id="toolu_1"), then="done")
    run(project, chat, session_id="sess-1", permission_mode="bypassPermissions")
    events = project.events()
    assert project.names() == ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"]
    assert {e["session_id"] for e in events} == {"sess-1"}
    assert {e["permission_mode"] for e in events} == {"bypassPermissions"}
    [pre] = project.events("PreToolUse")
    assert pre["tool_name"] == "Bash" and pre["tool_input"] == {"command": "ls"} and pre["tool_use_id"] == "toolu_1"
    assert project.events("UserPromptSubmit")[0]["prompt"] == "list files"
    assert project.events("Stop")[0]["last_assistant_message"] == "done"


def test_defer_raises_with_the_pending_call(project: HookProject) -> None:
    out = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}
    project.rules({"event": "PreToolUse", "stdout": out})
    with pytest.raises(ToolCallDeferred) as caught:
        run(project, model(bash_call("make deploy"), then="x"))
    assert caught.value.tool_name == "Bash" and caught.value.tool_input == {"command": "make deploy"}


def test_a_rewrite_that_is_not_an_object_denies_with_a_warning(project: HookProject) -> None:
    # A hook cannot produce a non-object updatedInput through the settings reader, so the step
    # is exercised as host_step would hand it over.
    from hookwire.adapters._base import Step

    chat = model(bash_call("ls"), then="done")
    shell = Shell()
    mw = HookwireMiddleware(project.dir)
    bad = Step("PreToolUse", "run_tool", ["not", "an", "object"], None, None, None, None, None, None, False)
    mw._firer.fire = lambda event, _f=mw._firer.fire: bad if event["hook_event_name"] == "PreToolUse" else _f(event)  # type: ignore[method-assign]
    agent = create_agent(chat, [shell.tool], middleware=[mw])
    with pytest.warns(AdapterWarning, match="not an object"):
        state = agent.invoke({"messages": [HumanMessage("go")]})
    assert shell.ran == []
    assert tool_messages(state)[0].status == "error"


def test_async_invoke_applies_deny_and_stop(project: HookProject) -> None:
    project.rules(
        {"event": "PreToolUse", "exit": 2, "stderr": "denied async"},
        {"event": "Stop", "when": {"stop_hook_active": False}, "exit": 2, "stderr": "one more"},
    )
    chat = model(bash_call("ls"), then="done")
    shell = Shell()
    agent = create_agent(chat, [shell.tool], middleware=[HookwireMiddleware(project.dir)])
    state = asyncio.run(agent.ainvoke({"messages": [HumanMessage("go")]}))
    assert shell.ran == []
    assert "denied async" in tool_messages(state)[0].text
    assert len(chat.seen) == 3


def test_readme_snippet_runs(project: HookProject) -> None:
    project.rules({"event": "PreToolUse", "exit": 2, "stderr": "blocked by the README hook"})
    shell = Shell()
    namespace: dict[str, Any] = {"model": model(bash_call("ls"), then="done"), "tools": [shell.tool],
                                 "project_dir": str(project.dir)}
    exec(readme_snippet("python-adapter-langchain"), namespace)
    assert shell.ran == []
    assert "blocked by the README hook" in tool_messages(namespace["result"])[0].text
