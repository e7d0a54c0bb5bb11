"""The host adapters (graphmem.capture.hosts), on payloads shaped as each host documents.

Each example cites where its shape comes from:
- CC: Claude Code hooks reference, ``thevibeworks/claude-code-docs``
  ``content/en/docs/claude-code/hooks.md`` (tool outputs:
  ``content/en/agent-sdk/typescript.md``);
- CX: ``openai/codex`` ``codex-rs/hooks/schema/generated/<event>.command.input.schema.json``
  (Bash's ``tool_response`` string: ``codex-rs/core/tests/suite/hooks.rs``);
- GM: ``google-gemini/gemini-cli`` ``docs/hooks/reference.md`` and
  ``packages/core/src/tools/shell.ts``;
- CU: Cursor's hooks documentation (cursor.com/docs/agent/hooks) as public copies of
  it show the fields.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent, PayloadError
from graphmem.capture.hosts import ADAPTERS, adapter, claude_code, codex, cursor, gemini

CC_COMMON = {
    "session_id": "abc123",
    "transcript_path": "/Users/u/.claude/projects/p/00893aaf.jsonl",
    "cwd": "/Users/u/proj",
    "permission_mode": "default",
}


def cc(event: str, **fields: Any) -> HookEvent:
    return claude_code.read_event({**CC_COMMON, "hook_event_name": event, **fields})


# --- Claude Code ---------------------------------------------------------------------


def test_cc_session_start_reads_source_as_reason() -> None:
    # CC hooks.md "SessionStart input"
    event = cc("SessionStart", source="startup", model="claude-sonnet-5")
    assert event.kind is EventKind.SESSION_START
    assert (event.session_id, event.cwd, event.reason) == ("abc123", "/Users/u/proj", "startup")
    assert event.transcript_path == CC_COMMON["transcript_path"]
    assert event.extra == {"permission_mode": "default", "model": "claude-sonnet-5"}


def test_cc_prompt() -> None:
    # CC hooks.md "UserPromptSubmit input"
    event = cc("UserPromptSubmit", prompt="Write a function to calculate the factorial")
    assert event.kind is EventKind.PROMPT
    assert event.prompt == "Write a function to calculate the factorial"


def test_cc_pre_tool_bash() -> None:
    # CC hooks.md "Common input fields" example (PreToolUse for Bash)
    event = cc(
        "PreToolUse",
        prompt_id="550e8400-e29b-41d4-a716-446655440000",
        tool_name="Bash",
        tool_input={"command": "npm test", "description": "Run test suite", "timeout": 120000},
        tool_use_id="toolu_01ABC123",
    )
    assert event.kind is EventKind.PRE_TOOL
    assert (event.tool, event.command, event.tool_use_id) == (
        SHELL_TOOL,
        "npm test",
        "toolu_01ABC123",
    )
    assert event.tool_input == {"description": "Run test suite", "timeout": 120000}
    assert event.extra["prompt_id"] == "550e8400-e29b-41d4-a716-446655440000"


def test_cc_post_tool_bash_success_is_exit_zero() -> None:
    # CC typescript.md BashOutput {stdout, stderr, interrupted, isImage}
    event = cc(
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "pytest -q"},
        tool_response={
            "stdout": "3 passed",
            "stderr": "warn",
            "interrupted": False,
            "isImage": False,
        },
        tool_use_id="toolu_1",
        duration_ms=812,
    )
    assert event.kind is EventKind.POST_TOOL
    assert (event.output, event.exit_code, event.failed) == ("3 passed\nwarn", 0, False)
    assert event.duration_ms == 812


def test_cc_post_tool_bash_background_or_interrupted_has_no_exit_code() -> None:
    response = {"stdout": "", "stderr": "", "interrupted": True, "isImage": False}
    event = cc(
        "PostToolUse", tool_name="Bash", tool_input={"command": "sleep 9"}, tool_response=response
    )
    assert (event.interrupted, event.exit_code) == (True, None)
    background = {**response, "interrupted": False, "backgroundTaskId": "b1"}
    event = cc(
        "PostToolUse", tool_name="Bash", tool_input={"command": "srv"}, tool_response=background
    )
    assert event.exit_code is None


def test_cc_post_tool_failure_parses_exit_line() -> None:
    # CC hooks.md "PostToolUseFailure input"
    event = cc(
        "PostToolUseFailure",
        tool_name="Bash",
        tool_input={"command": "npm test", "description": "Run test suite"},
        tool_use_id="toolu_01ABC123",
        error="Exit code 1\nError: Cannot find module 'express'",
        is_interrupt=False,
        duration_ms=4187,
    )
    assert (event.kind, event.failed, event.exit_code) == (EventKind.POST_TOOL, True, 1)
    assert event.output == "Error: Cannot find module 'express'"
    assert (event.command, event.interrupted, event.extra) == (
        "npm test",
        False,
        {"permission_mode": "default"},
    )


def test_cc_failure_without_exit_line_keeps_the_message() -> None:
    # CC hooks.md: "a bare failure message with no exit-code line"
    event = cc(
        "PostToolUseFailure",
        tool_name="Bash",
        tool_input={"command": "x"},
        error="spawn failed",
        is_interrupt=True,
    )
    assert (event.exit_code, event.output, event.interrupted) == (None, "spawn failed", True)


def test_cc_edit_keeps_strings_and_reads_path() -> None:
    # CC hooks.md "Edit" tool_input; typescript.md FileEditOutput
    tool_input = {
        "file_path": "/p/a.py",
        "old_string": "x = 1",
        "new_string": "x = 2",
        "replace_all": False,
    }
    response = {
        "filePath": "/p/a.py",
        "oldString": "x = 1",
        "newString": "x = 2",
        "originalFile": "x = 1\n",
        "structuredPatch": [],
        "userModified": False,
        "replaceAll": False,
    }
    event = cc("PostToolUse", tool_name="Edit", tool_input=tool_input, tool_response=response)
    assert event.paths == ("/p/a.py",)
    assert event.tool_input == {"old_string": "x = 1", "new_string": "x = 2", "replace_all": False}
    assert event.output is None


def test_cc_write_and_read() -> None:
    # CC hooks.md "PostToolUse input" (Write); typescript.md FileReadOutput (text)
    write = cc(
        "PostToolUse",
        tool_name="Write",
        tool_input={"file_path": "/path/to/file.txt", "content": "file content"},
        tool_response={"filePath": "/path/to/file.txt", "success": True},
    )
    assert (write.tool, write.paths) == ("Write", ("/path/to/file.txt",))
    read = cc(
        "PostToolUse",
        tool_name="Read",
        tool_input={"file_path": "/p/b.py"},
        tool_response={
            "type": "text",
            "file": {
                "filePath": "/p/b.py",
                "content": "print(1)\n",
                "numLines": 1,
                "startLine": 1,
                "totalLines": 1,
            },
        },
    )
    assert (read.paths, read.output) == (("/p/b.py",), "print(1)\n")


def test_cc_web_and_mcp_tools_keep_their_names() -> None:
    # CC hooks.md "WebFetch" tool_input; MCP tools are mcp__<server>__<tool>
    fetch = cc(
        "PostToolUse",
        tool_name="WebFetch",
        tool_input={"url": "https://example.com/api", "prompt": "p"},
        tool_response={"result": "page"},
    )
    assert (fetch.tool, fetch.output) == ("WebFetch", "page")
    mcp = cc(
        "PostToolUse",
        tool_name="mcp__memory__create_entities",
        tool_input={},
        tool_response=[{"type": "text", "text": "ok"}],
    )
    assert (mcp.tool, mcp.output) == ("mcp__memory__create_entities", "ok")


def test_cc_stop_subagent_stop_compact_end() -> None:
    # CC hooks.md "Stop input", "SubagentStop input", "PostCompact input", "SessionEnd input"
    stop = cc(
        "Stop",
        stop_hook_active=True,
        last_assistant_message="Done.",
        background_tasks=[],
        session_crons=[],
    )
    assert (stop.kind, stop.message, stop.agent_id) == (EventKind.STOP, "Done.", None)
    sub = cc(
        "SubagentStop",
        stop_hook_active=False,
        agent_id="def456",
        agent_type="Explore",
        agent_transcript_path="/t/agent-def456.jsonl",
        last_assistant_message="Found 3",
    )
    assert (sub.kind, sub.agent_id, sub.message) == (EventKind.STOP, "def456", "Found 3")
    pre = cc("PreCompact", trigger="manual", custom_instructions="")
    assert (pre.kind, pre.reason) == (EventKind.PRE_COMPACT, "manual")
    post = cc("PostCompact", trigger="auto", compact_summary="Summary...")
    assert (post.kind, post.reason, post.message) == (EventKind.POST_COMPACT, "auto", "Summary...")
    end = cc("SessionEnd", reason="prompt_input_exit")
    assert (end.kind, end.reason) == (EventKind.SESSION_END, "prompt_input_exit")
    other = cc("Notification", message="Claude needs your permission")
    assert other.kind is EventKind.OTHER


def test_cc_outputs() -> None:
    # CC hooks.md "Add context for Claude" and the event decision-control sections
    assert claude_code.context_output("PostToolUseFailure", "fact") == {
        "hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "fact"}
    }
    for name in ("SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse"):
        assert claude_code.context_output(name, "f") is not None
    for name in ("Stop", "SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "Notification"):
        assert claude_code.context_output(name, "f") is None
    assert claude_code.empty_output("PostToolUse") == ""


# --- Codex ---------------------------------------------------------------------------

CX_COMMON = {
    "session_id": "019a-thread",
    "cwd": "/work/p",
    "model": "gpt-5-codex",
    "permission_mode": "default",
    "transcript_path": None,
    "turn_id": "turn-1",
}


def cx(event: str, **fields: Any) -> HookEvent:
    return codex.read_event({**CX_COMMON, "hook_event_name": event, **fields})


def test_cx_post_tool_bash_string_response() -> None:
    # CX post-tool-use.command.input.schema.json; Bash's tool_response: output string
    event = cx(
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "printf post-tool-output"},
        tool_response="post-tool-output",
        tool_use_id="call-1",
    )
    assert (event.kind, event.tool, event.command) == (
        EventKind.POST_TOOL,
        SHELL_TOOL,
        "printf post-tool-output",
    )
    assert (event.output, event.exit_code, event.failed) == ("post-tool-output", None, False)
    assert event.transcript_path is None
    assert event.extra == {
        "model": "gpt-5-codex",
        "permission_mode": "default",
        "turn_id": "turn-1",
    }


def test_cx_exit_code_from_output_header_or_object() -> None:
    header = "Exit code: 2\nWall time: 0.4 seconds\nOutput:\nFAILED test_x"
    event = cx(
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "pytest"},
        tool_response=header,
        tool_use_id="c",
    )
    assert (event.exit_code, event.failed) == (2, True)
    unified = "Process exited with code 0\nOutput:\nExit code: 9 printed by the program"
    assert (
        cx(
            "PostToolUse",
            tool_name="Bash",
            tool_input={"command": "t"},
            tool_response=unified,
            tool_use_id="c",
        ).exit_code
        == 0
    )
    obj = cx(
        "PostToolUse",
        tool_name="Bash",
        tool_input={"command": "t"},
        tool_response={"exit_code": 1, "output": "boom"},
        tool_use_id="c",
    )
    assert (obj.exit_code, obj.failed, obj.output) == (1, True, "boom")


def test_cx_apply_patch_paths_and_mcp() -> None:
    patch = (
        "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y\n"
        "*** Add File: b.txt\n+hi\n*** End Patch"
    )
    event = cx(
        "PreToolUse", tool_name="apply_patch", tool_input={"command": patch}, tool_use_id="c"
    )
    assert (event.tool, event.paths, event.tool_input) == (
        "apply_patch",
        ("src/a.py", "b.txt"),
        {"command": patch},
    )
    mcp = cx(
        "PostToolUse",
        tool_name="mcp__memory__create_entities",
        tool_input={"a": 1},
        tool_response={"content": [{"type": "text", "text": "ok"}]},
        tool_use_id="c",
    )
    assert (mcp.tool, mcp.output, mcp.failed) == ("mcp__memory__create_entities", "ok", False)


def test_cx_lifecycle_events() -> None:
    # CX stop / subagent-stop / post-compact input schemas
    stop = cx("Stop", last_assistant_message=None, stop_hook_active=False)
    assert (stop.kind, stop.message) == (EventKind.STOP, None)
    sub = cx(
        "SubagentStop",
        agent_id="a1",
        agent_type="worker",
        agent_transcript_path=None,
        last_assistant_message="done",
        stop_hook_active=False,
    )
    assert (sub.kind, sub.agent_id, sub.message) == (EventKind.STOP, "a1", "done")
    assert cx("PostCompact", trigger="auto").reason == "auto"
    assert cx("SessionStart", source="resume").reason == "resume"
    assert cx("UserPromptSubmit", prompt="fix it").prompt == "fix it"
    assert (
        cx("PermissionRequest", tool_name="Bash", tool_input={"command": "rm x"}).kind
        is EventKind.OTHER
    )


def test_cx_outputs() -> None:
    # CX *.command.output.schema.json: hookSpecificOutput.additionalContext
    assert codex.context_output("PostToolUse", "f") == {
        "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "f"}
    }
    assert codex.context_output("SessionStart", "f") is not None
    assert codex.context_output("Stop", "f") is None
    assert codex.context_output("PostCompact", "f") is None
    assert codex.empty_output("Stop") == ""


# --- Gemini CLI ----------------------------------------------------------------------

GM_COMMON = {
    "session_id": "g-1",
    "transcript_path": "/home/u/.gemini/tmp/chat.json",
    "cwd": "/home/u/p",
    "timestamp": "2026-12-04T10:00:00Z",
}


def gm(event: str, **fields: Any) -> HookEvent:
    return gemini.read_event({**GM_COMMON, "hook_event_name": event, **fields})


def test_gm_after_tool_shell_failure() -> None:
    # GM reference.md AfterTool; shell.ts llmContent lines, wrapped untrusted
    content = (
        "<untrusted_context>\nOutput: FAILED test_a\nExit Code: 1\n"
        "Process Group PGID: 42\n</untrusted_context>"
    )
    event = gm(
        "AfterTool",
        tool_name="run_shell_command",
        tool_input={"command": "pytest", "description": "tests"},
        tool_response={"llmContent": content, "returnDisplay": "FAILED test_a"},
    )
    assert (event.kind, event.tool, event.command) == (EventKind.POST_TOOL, SHELL_TOOL, "pytest")
    assert (event.exit_code, event.failed) == (1, True)
    assert event.output is not None and event.output.startswith("Output: FAILED")


def test_gm_after_tool_shell_success_and_error() -> None:
    ok = gm(
        "AfterTool",
        tool_name="run_shell_command",
        tool_input={"command": "ls"},
        tool_response={
            "llmContent": "Output: a\nb\nProcess Group PGID: 7",
            "returnDisplay": "a\nb",
        },
    )
    assert (ok.exit_code, ok.failed) == (0, False)
    err = gm(
        "AfterTool",
        tool_name="read_file",
        tool_input={"file_path": "/p/x"},
        tool_response={
            "llmContent": "",
            "returnDisplay": "",
            "error": {"message": "File not found", "type": "file_not_found"},
        },
    )
    assert (err.failed, err.paths, err.exit_code) == (True, ("/p/x",), None)


def test_gm_agent_and_lifecycle() -> None:
    # GM reference.md BeforeAgent, AfterAgent, SessionStart, PreCompress, Notification
    assert gm("BeforeAgent", prompt="add tests").prompt == "add tests"
    after = gm("AfterAgent", prompt="add tests", prompt_response="Added.", stop_hook_active=False)
    assert (after.kind, after.message, after.prompt) == (EventKind.STOP, "Added.", "add tests")
    assert gm("SessionStart", source="clear").reason == "clear"
    assert gm("PreCompress", trigger="auto").kind is EventKind.PRE_COMPACT
    note = gm("Notification", notification_type="ToolPermission", message="Allow?", details={})
    assert (note.kind, note.message) == (EventKind.OTHER, "Allow?")
    before = gm("BeforeTool", tool_name="mcp_github_list_issues", tool_input={"repo": "r"})
    assert (before.kind, before.tool) == (EventKind.PRE_TOOL, "mcp_github_list_issues")


def test_gm_outputs() -> None:
    # GM reference.md: additionalContext on SessionStart, BeforeAgent, AfterTool;
    # stdout must be pure JSON
    assert gemini.context_output("AfterTool", "f") == {
        "hookSpecificOutput": {"hookEventName": "AfterTool", "additionalContext": "f"}
    }
    assert gemini.context_output("BeforeAgent", "f") is not None
    assert gemini.context_output("AfterAgent", "f") is None
    assert gemini.empty_output("SessionEnd") == "{}"


# --- Cursor --------------------------------------------------------------------------

CU_COMMON = {
    "conversation_id": "conv-123",
    "generation_id": "gen-456",
    "workspace_roots": ["/path/to/project"],
    "model": "gpt-5",
    "cursor_version": "2.1.0",
}


def cu(event: str, **fields: Any) -> HookEvent:
    return cursor.read_event({**CU_COMMON, "hook_event_name": event, **fields})


def test_cu_shell_events() -> None:
    # CU afterShellExecution {command, output, duration}
    after = cu(
        "afterShellExecution", command="npm run build", output="ERR! build failed", duration=1500
    )
    assert (after.kind, after.tool, after.command, after.output) == (
        EventKind.POST_TOOL,
        SHELL_TOOL,
        "npm run build",
        "ERR! build failed",
    )
    assert (after.session_id, after.cwd, after.duration_ms, after.exit_code) == (
        "conv-123",
        "/path/to/project",
        1500,
        None,
    )
    assert after.extra["generation_id"] == "gen-456"


def test_cu_tool_failure_and_edit() -> None:
    # CU postToolUseFailure {tool_name, tool_input, tool_use_id, error_message,
    # failure_type, is_interrupt}
    fail = cu(
        "postToolUseFailure",
        tool_name="Shell",
        tool_input={"command": "npm run build"},
        tool_use_id="t1",
        cwd="/path/to/project",
        error_message="Command failed",
        failure_type="error",
        is_interrupt=False,
        duration=1500,
    )
    assert (fail.failed, fail.command, fail.output, fail.extra["failure_type"]) == (
        True,
        "npm run build",
        "Command failed",
        "error",
    )
    # CU afterFileEdit {file_path, edits: [{old_string, new_string}]}
    edit = cu(
        "afterFileEdit",
        file_path="/path/to/main.ts",
        edits=[{"old_string": "const foo = 1", "new_string": "const foo = 2"}],
    )
    assert (edit.kind, edit.paths) == (EventKind.POST_TOOL, ("/path/to/main.ts",))
    assert edit.tool_input["edits"][0]["new_string"] == "const foo = 2"


def test_cu_lifecycle() -> None:
    start = cursor.read_event(
        {
            "hook_event_name": "sessionStart",
            "session_id": "conv-9",
            "is_background_agent": False,
            "composer_mode": "agent",
        }
    )
    assert (start.kind, start.session_id, start.cwd) == (EventKind.SESSION_START, "conv-9", "")
    assert cu("beforeSubmitPrompt", prompt="Fix the bug", attachments=[]).prompt == "Fix the bug"
    stop = cu("stop", status="completed", loop_count=0)
    assert (stop.kind, stop.reason) == (EventKind.STOP, "completed")
    assert (
        cu("sessionEnd", session_id="conv-123", reason="user_close").kind is EventKind.SESSION_END
    )
    post = cu(
        "postToolUse",
        tool_name="Read",
        tool_input={"file_path": "/p/a.ts"},
        tool_output='{"content": "x"}',
        tool_use_id="t2",
    )
    assert (post.paths, post.output) == (("/p/a.ts",), '{"content": "x"}')


def test_cu_same_call() -> None:
    after = cu("afterShellExecution", command="npm run build", output="ERR!", duration=10)
    fail = cu(
        "postToolUseFailure",
        tool_name="Shell",
        tool_input={"command": "npm run build "},
        tool_use_id="t1",
        error_message="failed",
        failure_type="error",
    )
    assert cursor.same_call(after, fail) and cursor.same_call(fail, after)
    other_command = cu(
        "postToolUseFailure",
        tool_name="Shell",
        tool_input={"command": "npm test"},
        error_message="x",
    )
    assert not cursor.same_call(after, other_command)
    other_turn = cursor.read_event(
        {
            **CU_COMMON,
            "generation_id": "gen-999",
            "hook_event_name": "postToolUseFailure",
            "tool_name": "Shell",
            "tool_input": {"command": "npm run build"},
        }
    )
    assert not cursor.same_call(after, other_turn)
    other_session = cursor.read_event(
        {
            **CU_COMMON,
            "conversation_id": "conv-2",
            "hook_event_name": "afterShellExecution",
            "command": "npm run build",
        }
    )
    assert not cursor.same_call(other_session, fail)
    assert not cursor.same_call(after, after)


def test_cu_outputs() -> None:
    assert cursor.context_output("postToolUse", "f") == {"additional_context": "f"}
    assert cursor.context_output("sessionStart", "f") == {"additional_context": "f"}
    assert cursor.context_output("stop", "f") is None
    assert cursor.empty_output("stop") == "{}"


# --- every adapter -------------------------------------------------------------------

ALL = [claude_code, codex, gemini, cursor]


@pytest.mark.parametrize("module", ALL, ids=lambda m: m.HOST)
@pytest.mark.parametrize("payload", [None, "text", 3, [1, 2], {"hook_event_name": "Stop"}])
def test_unreadable_payloads_raise(module: Any, payload: object) -> None:
    with pytest.raises(PayloadError):
        module.read_event(payload)


@pytest.mark.parametrize("module", ALL, ids=lambda m: m.HOST)
@pytest.mark.parametrize(
    "bad",
    [
        {"session_id": 7},
        {"session_id": ""},
        {"hook_event_name": ["x"]},
        {"cwd": 1},
        {"tool_name": 5},
        {"tool_name": "Bash", "tool_input": "cmd"},
    ],
)
def test_wrong_types_raise(module: Any, bad: dict[str, object]) -> None:
    base = {"session_id": "s", "conversation_id": "s", "hook_event_name": "x", "cwd": "/"}
    if module is cursor and "tool_input" in bad:
        bad = {**bad, "tool_input": 3}
    if module is cursor and "session_id" in bad:
        base.pop("conversation_id")
    with pytest.raises(PayloadError):
        module.read_event({**base, **bad})


def test_registry() -> None:
    assert set(ADAPTERS) == {"claude-code", "codex", "gemini", "cursor"}
    assert adapter("gemini") is gemini
    with pytest.raises(KeyError, match="claude-code"):
        adapter("copilot")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=20,
)
KEYS = [
    "session_id",
    "conversation_id",
    "hook_event_name",
    "cwd",
    "tool_name",
    "tool_input",
    "tool_response",
    "tool_output",
    "error",
    "command",
    "output",
    "duration",
    "duration_ms",
    "is_interrupt",
    "exit_code",
    "file_path",
    "workspace_roots",
    "edits",
    "source",
    "prompt",
    "tool_use_id",
]
payloads = (
    json_values
    | st.dictionaries(st.sampled_from(KEYS), json_values, max_size=10)
    | st.fixed_dictionaries(
        {
            "session_id": st.text(min_size=1, max_size=5),
            "conversation_id": st.text(min_size=1, max_size=5),
            "hook_event_name": st.sampled_from(
                [
                    "PostToolUse",
                    "PostToolUseFailure",
                    "AfterTool",
                    "postToolUseFailure",
                    "afterShellExecution",
                    "afterFileEdit",
                    "Stop",
                ]
            ),
        },
        optional={key: json_values for key in KEYS[3:]},
    )
)


@pytest.mark.parametrize("module", ALL, ids=lambda m: m.HOST)
@given(payload=payloads)
def test_any_json_reads_or_raises_payload_error(module: Any, payload: object) -> None:
    try:
        event = module.read_event(payload)
    except PayloadError:
        return
    assert isinstance(event, HookEvent)
    assert event.host == module.HOST
