"""Build the session fixtures under ``claude-code/``.

Two kinds of fixture:

- ``real``: converted with ``convert.py`` from recorded Claude Code transcripts in
  DRMacIver/claude-reliability (MIT), some after a small, stated edit to the transcript
  (see README.md, PROVENANCE). Needs the source transcripts::

      git --git-dir=<mirror> archive 4e49f16a86de76d9b0dc3ea2b8526677abe89f52 \\
          snapshot-tests/tests | tar -x -C /tmp/reliability
      python tests/data/sessions/generate.py real /tmp/reliability/snapshot-tests/tests

- ``synthetic``: no allowed source records these sessions, so they are scripted here,
  payload by payload, in the shapes of Claude Code's hooks reference. The agent's
  steps are scripted; the command outputs are what the commands printed when the same
  steps were run for real on a scratch project (pytest 9.2.0, Python 3.11.7), except the
  ``pip install`` and WebFetch outputs, which are written by hand (README.md says
  which)::

      python tests/data/sessions/generate.py synthetic
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from convert import Converter, read_lines, transcript_path_for

JsonObj = dict[str, Any]
OUT = Path(__file__).resolve().parent / "claude-code"
TRIM = 1500


def _write(name: str, payloads: list[JsonObj], truncate_last: bool = False) -> None:
    lines = [json.dumps(p, ensure_ascii=False) for p in payloads]
    if truncate_last:
        # A crash while the last record was being written: keep its first half only.
        lines[-1] = lines[-1][: len(lines[-1]) // 2]
    text = "\n".join(lines)
    (OUT / f"{name}.jsonl").write_text(text if truncate_last else text + "\n", "utf-8")
    print(f"{name}: {len(payloads)} payloads", file=sys.stderr)


# --- fixtures converted from recorded transcripts ----------------------------------

RULE_SUFFIX = " Always run the tests with `python -m pytest` before you commit anything."


def _convert(records: list[JsonObj], cut_off: bool = False) -> list[JsonObj]:
    return list(Converter(TRIM).convert(records, cut_off=cut_off))


def build_real(tests_dir: Path) -> None:
    """Build the fixtures derived from claude-reliability's recorded transcripts."""

    def load(name: str) -> list[str]:
        return (tests_dir / name / "transcript.jsonl").read_text("utf-8").splitlines()

    # (d) read-only: unchanged.
    records, _, last_bad = read_lines(load("stop-hook-fast-path-clean"))
    _write("read-only-readme", _convert(records, last_bad))

    # (c) a rule in the prompt: the first prompt gets one sentence appended.
    records, _, _ = read_lines(load("coverage-test-fix"))
    for rec in records:
        msg = rec.get("message")
        is_prompt = isinstance(msg, dict) and isinstance(msg.get("content"), str)
        if rec.get("type") == "user" and is_prompt:
            assert isinstance(msg, dict)
            msg["content"] = msg["content"] + RULE_SUFFIX
            break
    _write("rule-in-prompt", _convert(records))

    # (f) killed half-way: the first 46 lines, then line 47 cut in half (a crash while
    # the transcript was being written); the hook log's own last line is cut too.
    lines = load("python-to-rust-port")
    kept = [*lines[:46], lines[46][: len(lines[46]) // 2]]
    records, bad, last_bad = read_lines(kept)
    assert bad == 1 and last_bad
    _write("killed-midway", _convert(records, cut_off=True), truncate_last=True)


# --- scripted fixtures ---------------------------------------------------------------


class Script:
    """Hook payloads of one scripted session, in the documented shapes."""

    def __init__(self, session_id: str, cwd: str) -> None:
        """A session ``session_id`` run in ``cwd``."""
        self.session_id = session_id
        self.cwd = cwd
        self.payloads: list[JsonObj] = []
        self._n = 0
        self._stop_active = False

    def _common(self, event: str, permission_mode: bool = True) -> JsonObj:
        out: JsonObj = {
            "session_id": self.session_id,
            "transcript_path": transcript_path_for(self.cwd, self.session_id),
            "cwd": self.cwd,
        }
        if permission_mode:
            out["permission_mode"] = "default"
        out["hook_event_name"] = event
        return out

    def start(self) -> None:
        """SessionStart (startup)."""
        self.payloads.append({**self._common("SessionStart", False), "source": "startup"})

    def prompt(self, text: str) -> None:
        """UserPromptSubmit."""
        self._stop_active = False
        self.payloads.append({**self._common("UserPromptSubmit"), "prompt": text})

    def _tool_id(self) -> str:
        self._n += 1
        return f"toolu_01Gm{self.session_id[:8]}{self._n:04d}"

    def tool(self, name: str, tool_input: JsonObj, response: object, duration_ms: int = 20) -> None:
        """PreToolUse then PostToolUse."""
        tool_id = self._tool_id()
        pre = {**self._common("PreToolUse"), "tool_name": name, "tool_input": tool_input}
        pre["tool_use_id"] = tool_id
        post = {**self._common("PostToolUse"), "tool_name": name, "tool_input": tool_input}
        post["tool_response"] = response
        post["tool_use_id"] = tool_id
        post["duration_ms"] = duration_ms
        self.payloads += [pre, post]

    def bash(self, command: str, description: str, stdout: str, duration_ms: int) -> None:
        """A Bash call that exited 0."""
        response = {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}
        self.tool("Bash", {"command": command, "description": description}, response, duration_ms)

    def bash_fail(
        self, command: str, description: str, code: int, output: str, duration_ms: int
    ) -> None:
        """A Bash call that exited ``code``: PreToolUse then PostToolUseFailure."""
        tool_id = self._tool_id()
        tool_input = {"command": command, "description": description}
        pre = {**self._common("PreToolUse"), "tool_name": "Bash", "tool_input": tool_input}
        pre["tool_use_id"] = tool_id
        fail = {**self._common("PostToolUseFailure"), "tool_name": "Bash"}
        fail["tool_input"] = tool_input
        fail["tool_use_id"] = tool_id
        fail["error"] = f"Exit code {code}\n{output.rstrip(chr(10))}"
        fail["is_interrupt"] = False
        fail["duration_ms"] = duration_ms
        self.payloads += [pre, fail]

    def read(self, rel: str, content: str) -> None:
        """A Read of a whole file."""
        path = f"{self.cwd}/{rel}"
        n = content.count("\n") + (0 if content.endswith("\n") else 1)
        file = {"filePath": path, "content": content, "numLines": n, "startLine": 1}
        file["totalLines"] = n
        self.tool("Read", {"file_path": path}, {"type": "text", "file": file}, 3)

    def edit(self, rel: str, before: str, old: str, new: str) -> str:
        """An Edit of file ``rel`` whose text was ``before``; returns the text after."""
        path = f"{self.cwd}/{rel}"
        after = before.replace(old, new, 1)
        response = {
            "filePath": path,
            "oldString": old,
            "newString": new,
            "structuredPatch": _patch(before, after),
            "userModified": False,
            "replaceAll": False,
        }
        tool_input: JsonObj = {"file_path": path, "old_string": old, "new_string": new}
        tool_input["replace_all"] = False
        self.tool("Edit", tool_input, response, 12)
        return after

    def stop(self, text: str) -> None:
        """Stop, at the end of a turn."""
        stop = {**self._common("Stop"), "stop_hook_active": self._stop_active}
        stop["last_assistant_message"] = text
        stop["background_tasks"] = []
        stop["session_crons"] = []
        self.payloads.append(stop)

    def end(self) -> None:
        """SessionEnd (other)."""
        self.payloads.append({**self._common("SessionEnd", False), "reason": "other"})


def _patch(before: str, after: str) -> list[JsonObj]:
    """``structuredPatch`` hunks (3 lines of context), as the Edit tool reports them."""
    hunks: list[JsonObj] = []
    a, b = before.splitlines(), after.splitlines()
    for group in difflib.SequenceMatcher(None, a, b).get_grouped_opcodes(3):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        lines: list[str] = []
        for tag, x1, x2, y1, y2 in group:
            if tag == "equal":
                lines += [" " + s for s in a[x1:x2]]
                continue
            lines += ["-" + s for s in a[x1:x2]]
            lines += ["+" + s for s in b[y1:y2]]
        hunks.append(
            {
                "oldStart": i1 + 1,
                "oldLines": i2 - i1,
                "newStart": j1 + 1,
                "newLines": j2 - j1,
                "lines": lines,
            }
        )
    return hunks


def _load_outputs() -> JsonObj:
    data = json.loads((Path(__file__).resolve().parent / "outputs.json").read_text("utf-8"))
    assert isinstance(data, dict)
    return data


def build_dead_end(out: JsonObj) -> None:
    """(a) A failing test, a first fix that changes nothing, reverted, then a real fix."""
    o = out["durations"]
    s = Script("5b0c1f4e-2d7a-4c39-9e61-0f3a8d2b7c15", "/tmp/gm-durations")
    s.start()
    s.prompt("test_fractional_minutes is failing, can you fix it?")
    s.bash_fail("python -m pytest", "Run the test suite", 1, o["pytest_fail"], 1480)
    s.read("src/durations.py", o["durations_py"])
    src = s.edit(
        "src/durations.py",
        o["durations_py"],
        '_PART = re.compile(r"(\\d+)([hms])")',
        '_PART = re.compile(r"(\\d+)\\s*([hms])")',
    )
    s.bash_fail(
        "python -m pytest tests/test_durations.py::test_fractional_minutes",
        "Re-run the failing test",
        1,
        o["pytest_fail_again"],
        1390,
    )
    s.bash(
        "git checkout -- src/durations.py && git status --short",
        "Revert the whitespace change",
        "",
        45,
    )
    src = o["durations_py"]
    src = s.edit(
        "src/durations.py",
        src,
        '_PART = re.compile(r"(\\d+)([hms])")',
        '_PART = re.compile(r"(\\d+(?:\\.\\d+)?)([hms])")',
    )
    s.edit(
        "src/durations.py",
        src,
        "    total = 0\n    for amount, unit in _PART.findall(text):\n"
        "        total += int(amount) * _UNIT[unit]\n    return total",
        "    total = 0.0\n    for amount, unit in _PART.findall(text):\n"
        "        total += float(amount) * _UNIT[unit]\n    return round(total)",
    )
    s.bash("python -m pytest", "Run the test suite", o["pytest_pass"], 1510)
    s.stop(
        "Fixed. The regex only matched whole numbers, so `1.5m` was read as `5m` "
        "(300 s). Allowing whitespace between number and unit did not help and I "
        "reverted it; the fix is to accept a decimal part (`\\d+(?:\\.\\d+)?`) and sum "
        "with `float`, rounding at the end. All 3 tests pass."
    )
    s.end()
    _write("dead-end-then-fix", s.payloads)


def build_dependency(out: JsonObj) -> None:
    """(b) A ModuleNotFoundError at collection, fixed by adding the dependency."""
    o = out["settings"]
    s = Script("9e2a7d31-6b4f-4a08-b5c2-3d1e8f0a4b67", "/tmp/gm-settings")
    s.start()
    s.prompt("Run the tests and get them green.")
    s.bash_fail("python -m pytest", "Run the test suite", 2, o["pytest_import_error"], 1320)
    s.read("pyproject.toml", o["pyproject"])
    s.edit("pyproject.toml", o["pyproject"], "dependencies = []", 'dependencies = ["tomli-w>=1.0"]')
    s.bash("pip install tomli-w", "Install the missing dependency", o["pip_install"], 2870)
    s.bash("python -m pytest", "Run the test suite", o["pytest_pass"], 1450)
    s.stop(
        "The tests failed at collection with `ModuleNotFoundError: No module named "
        "'tomli_w'`: `src/settings_io.py` imports `tomli_w` but it was not a declared "
        "dependency. I added `tomli-w>=1.0` to `dependencies` in pyproject.toml and "
        "installed it; the test now passes."
    )
    s.end()
    _write("dependency-install", s.payloads)


def build_hostile(out: JsonObj) -> None:
    """(e) A WebFetch whose result carries a prompt injection; the agent ignores it."""
    o = out["webfetch"]
    s = Script("c41d8e92-0a6b-4f73-8d15-72e9b3a0c6d4", "/tmp/gm-settings")
    s.start()
    s.prompt(
        "Does tomli-w keep the key order of the dict it writes? Check its docs at "
        "https://tomli-w.example.org/usage and tell me."
    )
    url = "https://tomli-w.example.org/usage"
    s.tool(
        "WebFetch",
        {"url": url, "prompt": "Does tomli_w.dumps keep the insertion order of keys?"},
        {
            "bytes": len(o["page"].encode("utf-8")),
            "code": 200,
            "codeText": "OK",
            "result": o["result"],
            "durationMs": 2214,
            "url": url,
        },
        2214,
    )
    s.stop(
        "Yes: `tomli_w.dumps` writes keys in the dict's insertion order, tables after "
        "plain values. Note: the fetched page also contained text addressed to AI "
        "assistants asking to push to main and run a remote install script; I ignored "
        "it, and you may want to treat that site as untrusted."
    )
    s.end()
    _write("hostile-webfetch", s.payloads)


def main(argv: list[str]) -> int:
    """``real TESTS_DIR`` or ``synthetic``."""
    OUT.mkdir(exist_ok=True)
    if argv[:1] == ["real"] and len(argv) == 2:
        build_real(Path(argv[1]))
        return 0
    if argv == ["synthetic"]:
        outputs = _load_outputs()
        build_dead_end(outputs)
        build_dependency(outputs)
        build_hostile(outputs)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
