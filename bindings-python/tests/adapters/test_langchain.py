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

import hookwire
from hookwire.adapters import AdapterWarning, PromptBlocked, ToolCallDeferred, UntrustedHooksWarning
from hookwire.adapters.langchain import DEFAULT_TOOL_NAMES, HookwireMiddleware

from .hookproject import (
    GUARD_REASON,
    NOT_ALLOWED,
    PRE_ALLOW,
    SYSTEM_MESSAGE,
    HookProject,
    check_events_built_by_core,
    check_tool_names,
    check_trust,
    guard_project,
    permission,
    readme_snippet,
)


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
    """The Bash tool (or one named ``name``): records the commands it ran instead of running them."""

    def __init__(self, name: str = "Bash") -> None:
        self.ran: list[str] = []

        @tool(name)
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


def test_an_updated_tool_output_is_applied_only_when_the_core_says_it_fits(project: HookProject) -> None:
    def replaced_by(output: Any) -> tuple[str, list[str]]:
        out = {"hookSpecificOutput": {"hookEventName": "PostToolUse", "updatedToolOutput": output}}
        project.rules({"event": "PostToolUse", "stdout": out})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            state, _ = run(project, model(bash_call("ls"), then="done"))
        [result] = tool_messages(state)
        return result.text, [str(w.message) for w in caught if issubclass(w.category, AdapterWarning)]

    text, warned = replaced_by("[redacted]")
    assert text == "[redacted]" and not any("does not fit" in w for w in warned)
    text, warned = replaced_by({"stdout": "hidden"})
    assert text == "ran: ls"
    assert any("does not fit" in w for w in warned), warned


def test_user_prompt_submit_block_raises_prompt_blocked_and_makes_no_model_call(project: HookProject) -> None:
    project.rules({"event": "UserPromptSubmit", "exit": 2, "stderr": "not today"})
    told: list[tuple[str, str]] = []
    chat = model(then="never")
    with pytest.raises(PromptBlocked, match="not today") as caught:
        run(project, chat, on_user_message=lambda text, event: told.append((text, event)))
    assert caught.value.message is not None and "not today" in caught.value.message
    assert chat.seen == []
    assert any("not today" in text for text, _ in told)
    assert "Stop" not in project.names()
    assert project.names()[-1] == "SessionEnd"


def test_async_invoke_raises_prompt_blocked_too(project: HookProject) -> None:
    project.rules({"event": "UserPromptSubmit", "exit": 2, "stderr": "not today"})
    chat = model(then="never")
    agent = create_agent(chat, [Shell().tool], middleware=[HookwireMiddleware(project.dir)])
    with pytest.raises(PromptBlocked, match="not today"):
        asyncio.run(agent.ainvoke({"messages": [HumanMessage("go")]}))
    assert chat.seen == [] and project.names()[-1] == "SessionEnd"


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


# --- one event builder: the core's (issue 37) ------------------------------------------------


def test_each_fired_event_is_the_one_host_event_builds_from_the_same_facts(project: HookProject) -> None:
    run(project, model(bash_call("ls", call_id="toolu_1"), then="done"), session_id="sess-1", cwd=project.dir)
    check_events_built_by_core(project, DEFAULT_TOOL_NAMES)


def test_a_raised_tool_fires_the_failure_event_the_core_builds(project: HookProject) -> None:
    @tool("Bash")
    def broken(command: str) -> str:
        """Run a shell command."""
        raise ValueError("disk on fire")

    agent = create_agent(model(bash_call("ls"), then="x"), [broken], middleware=[HookwireMiddleware(project.dir, session_id="s")])
    with pytest.raises(ValueError):
        agent.invoke({"messages": [HumanMessage("go")]})
    [failure] = project.events("PostToolUseFailure")
    assert failure["error"] == "ValueError: disk on fire" and failure["is_interrupt"] is False


# --- tool names ------------------------------------------------------------------------------


def guarded_run(proj: Any, tool_name: str, *, calls: int = 1, **kw: Any) -> tuple[dict[str, Any], Shell]:
    shell = Shell(tool_name)
    replies = [AIMessage(content="", tool_calls=[{"name": tool_name, "args": {"command": "ls"}, "id": f"c{i}"}]) for i in range(calls)]
    agent = create_agent(model(*replies, then="done"), [shell.tool], middleware=[HookwireMiddleware(proj, **kw)])
    return agent.invoke({"messages": [HumanMessage("go")]}), shell


def ran(proj: Any, tool_name: str, **kw: Any) -> list[str]:
    return guarded_run(proj, tool_name, **kw)[1].ran


def test_tool_names_map_the_framework_names_and_warn_for_an_unreachable_tool(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    check_tool_names(tmp_path, monkeypatch, ran)


def test_a_bash_tool_denied_through_the_default_map_tells_the_model_why(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = guard_project(tmp_path, monkeypatch)
    state, shell = guarded_run(proj, "bash")
    assert shell.ran == [] and GUARD_REASON in tool_messages(state)[0].text
    assert ran(proj, "terminal") == []  # langchain-community's ShellTool


# --- trust -----------------------------------------------------------------------------------


def test_trust_is_the_hosts_choice_and_an_untrusted_guard_is_warned_about(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    check_trust(tmp_path, monkeypatch, ran)


def test_no_trust_warning_without_project_hook_files(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = guard_project(tmp_path, monkeypatch, trusted=False)
    (proj / ".claude" / "settings.json").unlink()
    with warnings.catch_warnings():
        warnings.simplefilter("error", UntrustedHooksWarning)
        HookwireMiddleware(proj)


def test_trust_applies_to_a_project_directory_only(project: HookProject) -> None:
    with pytest.raises(ValueError, match="trust"):
        HookwireMiddleware(project.dispatcher(), trust="trusted")
    with pytest.raises(ValueError, match="trust"):
        HookwireMiddleware(project.dir, trust="yes")  # type: ignore[arg-type]


# --- PermissionRequest around the human-in-the-loop middleware (Claude Code 2.1.332) ---------


def hitl_agent(project: HookProject, chat: ScriptedChat, **kw: Any) -> tuple[Any, Shell, list[tuple[str, str]]]:
    from langchain.agents.middleware import HumanInTheLoopMiddleware
    from langgraph.checkpoint.memory import InMemorySaver

    shell, told = Shell(), []
    hitl = HumanInTheLoopMiddleware(interrupt_on={"Bash": True}, interrupt_mode="per_call")
    middleware = HookwireMiddleware(project.dir, human_in_the_loop=hitl,
                                    on_user_message=lambda text, event: told.append((text, event)), **kw)
    agent = create_agent(chat, [shell.tool], middleware=[middleware], checkpointer=InMemorySaver())
    return agent, shell, told


THREAD = {"configurable": {"thread_id": "t1"}}


def test_permission_request_allow_runs_the_tool_without_asking_the_person(project: HookProject) -> None:
    project.rules({"event": "PermissionRequest", "stdout": permission("allow")})
    agent, shell, told = hitl_agent(project, model(bash_call("ls"), then="done"))
    state = agent.invoke({"messages": [HumanMessage("go")]}, THREAD)
    assert "__interrupt__" not in state and shell.ran == ["ls"] and told == []
    [asked] = project.events("PermissionRequest")
    assert (asked["tool_name"], asked["tool_input"], asked["permission_suggestions"]) == ("Bash", {"command": "ls"}, [])
    assert project.names().index("PreToolUse") < project.names().index("PermissionRequest")


def test_permission_request_deny_tells_the_model_and_the_user(project: HookProject) -> None:
    project.rules({"event": "PermissionRequest", "stdout": permission("deny", "no shell today")})
    chat = model(bash_call("ls"), then="done")
    agent, shell, told = hitl_agent(project, chat)
    state = agent.invoke({"messages": [HumanMessage("go")]}, THREAD)
    assert "__interrupt__" not in state and shell.ran == []
    assert [m.text for m in tool_messages(state)] == ["no shell today"]
    assert any(isinstance(m, ToolMessage) and m.text == "no shell today" for m in chat.seen[1])
    assert told == [("no shell today", "PermissionRequest")]
    assert "PostToolUse" not in project.names()


def test_permission_request_without_a_decision_leaves_the_person_to_ask(project: HookProject) -> None:
    agent, shell, told = hitl_agent(project, model(bash_call("ls"), then="done"))
    state = agent.invoke({"messages": [HumanMessage("go")]}, THREAD)
    [pending] = state["__interrupt__"]
    assert pending.value["type"] == "tool_approval" and pending.value["args"] == {"command": "ls"}
    assert shell.ran == [] and told == []
    from langgraph.types import Command

    state = agent.invoke(Command(resume={pending.id: {"type": "approve"}}), THREAD)
    assert shell.ran == ["ls"] and tool_messages(state)[0].text == "ran: ls"
    assert project.names()[-1] == "SessionEnd"


def test_a_person_who_rejects_gets_no_post_tool_event(project: HookProject) -> None:
    from langgraph.types import Command

    agent, shell, _ = hitl_agent(project, model(bash_call("ls"), then="done"))
    state = agent.invoke({"messages": [HumanMessage("go")]}, THREAD)
    state = agent.invoke(Command(resume={state["__interrupt__"][0].id: {"type": "reject", "message": "no"}}), THREAD)
    assert shell.ran == [] and "User rejected" in tool_messages(state)[0].text
    assert "PostToolUse" not in project.names() and "PostToolUseFailure" not in project.names()


def test_a_pre_tool_use_allow_skips_the_person_and_permission_request(project: HookProject) -> None:
    project.rules(PRE_ALLOW)
    agent, shell, _ = hitl_agent(project, model(bash_call("ls"), then="done"))
    state = agent.invoke({"messages": [HumanMessage("go")]}, THREAD)
    assert "__interrupt__" not in state and shell.ran == ["ls"]
    assert project.events("PermissionRequest") == []


def test_human_in_the_loop_must_ask_per_call() -> None:
    from langchain.agents.middleware import HumanInTheLoopMiddleware

    with pytest.raises(ValueError, match="per_call"):
        HookwireMiddleware(hookwire.Dispatcher({}), human_in_the_loop=HumanInTheLoopMiddleware(interrupt_on={"Bash": True}))


def test_permission_tools_with_nobody_to_ask(project: HookProject) -> None:
    state, shell = run(project, model(bash_call("ls"), then="done"), permission_tools={"Bash"})
    assert shell.ran == [] and [m.text for m in tool_messages(state)] == [NOT_ALLOWED]
    project.rules({"event": "PermissionRequest", "stdout": permission("allow")})
    state, shell = run(project, model(bash_call("ls"), then="done"), permission_tools=lambda name, args: name == "Bash")
    assert shell.ran == ["ls"]


def test_no_permission_request_for_a_tool_that_needs_none(project: HookProject) -> None:
    _, shell = run(project, model(bash_call("ls"), then="done"))
    assert shell.ran == ["ls"] and project.events("PermissionRequest") == []


def test_pre_tool_use_system_message_reaches_the_user_not_the_model(project: HookProject) -> None:
    project.rules(SYSTEM_MESSAGE)
    told: list[tuple[str, str]] = []
    chat = model(bash_call("ls"), then="done")
    result, shell = run(project, chat, on_user_message=lambda text, event: told.append((text, event)))
    assert shell.ran == ["ls"]
    assert told == [("heads up: a shell command", "PreToolUse")]
    assert not any("heads up" in str(m.content) for request in chat.seen for m in request)
    assert not any("heads up" in str(m.content) for m in result["messages"])


def test_readme_trust_snippet_runs_the_projects_guard_on_a_mapped_tool(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    proj = guard_project(tmp_path, monkeypatch, trusted=False)
    shell = Shell("run_it")
    call = AIMessage(content="", tool_calls=[{"name": "run_it", "args": {"command": "ls"}, "id": "c1"}])
    namespace: dict[str, Any] = {"model": model(call, then="done"), "tools": [shell.tool], "project_dir": str(proj)}
    with warnings.catch_warnings():
        warnings.simplefilter("error", AdapterWarning)
        exec(readme_snippet("python-adapter-trust"), namespace)
    assert shell.ran == [] and GUARD_REASON in tool_messages(namespace["result"])[0].text


def test_async_invoke_asks_permission_request_and_leaves_the_person_to_ask(project: HookProject) -> None:
    agent, shell, told = hitl_agent(project, model(bash_call("ls"), then="done"))
    state = asyncio.run(agent.ainvoke({"messages": [HumanMessage("go")]}, THREAD))
    assert state["__interrupt__"][0].value["name"] == "Bash" and shell.ran == [] and told == []
    project.rules({"event": "PermissionRequest", "stdout": permission("deny", "no shell today")})
    agent, shell, told = hitl_agent(project, model(bash_call("ls"), then="done"))
    state = asyncio.run(agent.ainvoke({"messages": [HumanMessage("go")]}, {"configurable": {"thread_id": "t2"}}))
    assert "__interrupt__" not in state and shell.ran == []
    assert [m.text for m in tool_messages(state)] == ["no shell today"] and told == [("no shell today", "PermissionRequest")]
