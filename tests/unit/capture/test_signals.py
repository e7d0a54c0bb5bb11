"""Signals derived from hand-built spool records (graphmem.capture.signals)."""

from __future__ import annotations

import time
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent, SpoolRecord
from graphmem.capture.signals import (
    Signal,
    SignalKind,
    command_kind,
    derive_signals,
    error_signature,
    normalise_command,
    replaced_terms,
)

CWD = "/home/alice/proj"


class Session:
    """Builds one session's spool records, numbered from 0."""

    def __init__(self) -> None:
        self.records: list[SpoolRecord] = []

    def _add(self, untrusted: bool = False, **fields: Any) -> Session:
        fields.setdefault("host_event", "test")
        event = HookEvent(host="claude-code", session_id="s1", cwd=CWD, **fields)
        n = len(self.records)
        self.records.append(SpoolRecord(n, "2026-01-01T00:00:00Z", "proj", event, untrusted))
        return self

    def prompt(self, text: str, untrusted: bool = False) -> Session:
        return self._add(kind=EventKind.PROMPT, prompt=text, untrusted=untrusted)

    def run(
        self, command: str, code: int = 0, output: str = "", untrusted: bool = False
    ) -> Session:
        return self._add(
            kind=EventKind.POST_TOOL,
            tool=SHELL_TOOL,
            command=command,
            exit_code=code,
            failed=code != 0,
            output=output,
            untrusted=untrusted,
        )

    def edit(self, path: str, old: str = "a", new: str = "b", untrusted: bool = False) -> Session:
        return self._add(
            kind=EventKind.POST_TOOL,
            tool="Edit",
            paths=(path,),
            tool_input={"file_path": path, "old_string": old, "new_string": new},
            untrusted=untrusted,
        )

    def write(self, path: str, content: str) -> Session:
        return self._add(
            kind=EventKind.POST_TOOL,
            tool="Write",
            paths=(path,),
            tool_input={"file_path": path, "content": content},
        )

    def read(self, path: str) -> Session:
        return self._add(kind=EventKind.POST_TOOL, tool="Read", paths=(path,))

    def other(self, **fields: Any) -> Session:
        return self._add(**fields)

    def signals(self) -> list[Signal]:
        return derive_signals(self.records)

    def kinds(self) -> list[SignalKind]:
        return [signal.kind for signal in self.signals()]

    def of(self, kind: SignalKind) -> list[Signal]:
        return [signal for signal in self.signals() if signal.kind is kind]


PYTEST_FAIL = """\
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-8.3.2, pluggy-1.5.0
rootdir: {root}
collected 3 items

tests/test_a.py F..                                                      [100%]

=================================== FAILURES ===================================
___________________________________ test_x ____________________________________

tmp_path = PosixPath('{tmp}/test_x0')

    def test_x(tmp_path):
>       assert (tmp_path / "out").read_text() == "a"
E       AssertionError: assert 'b' == 'a'

tests/test_a.py:{line}: AssertionError
=========================== short test summary info ============================
FAILED tests/test_a.py::test_x - AssertionError: assert 'b' == 'a'
========================= 1 failed, 2 passed in {secs}s ==========================
"""

ERR = "FAILED tests/test_a.py::test_x - AssertionError: assert 1 == 2"
ERR2 = "FAILED tests/test_a.py::test_x - KeyError: 'name'"


# --- error signatures -----------------------------------------------------------------


def test_pytest_signature_is_the_same_across_machines_temp_dirs_lines_and_timings() -> None:
    one = PYTEST_FAIL.format(
        root="/home/alice/proj", tmp="/tmp/pytest-of-alice/pytest-12", line=7, secs="0.12"
    )
    two = PYTEST_FAIL.format(
        root="/Users/bob/src/proj",
        tmp="/private/var/folders/x1/abc/T/pytest-of-bob/pytest-3",
        line=9,
        secs="3.48",
    )
    assert error_signature(one) == error_signature(two)
    assert error_signature(one) == "FAILED test_a.py::test_x - AssertionError: assert 'b' == 'a'"


def test_pytest_different_failures_differ() -> None:
    assert error_signature(ERR) != error_signature(ERR2)
    other_test = ERR.replace("test_x", "test_y")
    assert error_signature(ERR) != error_signature(other_test)


def test_pytest_collection_error_keeps_the_missing_module() -> None:
    out = """\
==================================== ERRORS ====================================
_______________________ ERROR collecting tests/test_a.py _______________________
ImportError while importing test module '/home/alice/proj/tests/test_a.py'.
E   ModuleNotFoundError: No module named 'requests'
=========================== short test summary info ============================
ERROR tests/test_a.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!
=============================== 1 error in 0.05s ===============================
"""
    assert error_signature(out) == "E ModuleNotFoundError: No module named 'requests'"


def test_pytest_without_summary_uses_the_e_lines() -> None:
    out = "    def test_x():\n>       assert f() == 3\nE       assert 4 == 3\n"
    assert error_signature(out) == "E assert <n> == <n>"


def test_python_traceback_takes_the_last_exception_line() -> None:
    one = """\
Traceback (most recent call last):
  File "/home/alice/proj/app.py", line 3, in <module>
    import foo
ModuleNotFoundError: No module named 'foo'
"""
    two = one.replace("/home/alice/proj/", "").replace("line 3", "line 12")
    assert error_signature(one) == error_signature(two)
    assert error_signature(one) == "ModuleNotFoundError: No module named 'foo'"
    chained = """\
Traceback (most recent call last):
  File "x.py", line 2, in <module>
KeyError: 'a'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "x.py", line 4, in <module>
ValueError: bad config at 0x7f3a2c1d9e80
"""
    assert error_signature(chained) == "ValueError: bad config at <hex>"


def test_npm_missing_script() -> None:
    out = """\
npm ERR! Missing script: "build"
npm ERR!
npm ERR! To see a list of scripts, run:
npm ERR!   npm run

npm ERR! A complete log of this run can be found in:
npm ERR!     /home/alice/.npm/_logs/2024-05-01T10_22_31_123Z-debug-0.log
"""
    assert error_signature(out) == 'npm ERR! Missing script: "build"'


def test_jest_failure_via_npm_test() -> None:
    out = """\
FAIL src/App.test.js
  \u25cf App \u203a renders learn react link

    expect(received).toBeInTheDocument()

Tests:       1 failed, 1 total
Time:        2.315 s
npm ERR! code ELIFECYCLE
npm ERR! errno 1
"""
    assert error_signature(out) == "FAIL App.test.js | \u25cf App \u203a renders learn react link"


def test_cargo_compile_error() -> None:
    out = """\
   Compiling demo v0.1.0 (/home/alice/demo)
error[E0425]: cannot find value `x` in this scope
 --> src/main.rs:2:20
  |
2 |     println!("{}", x);
  |                    ^ not found in this scope

For more information about this error, try `rustc --explain E0425`.
error: could not compile `demo` (bin "demo") due to 1 previous error
"""
    assert error_signature(out) == "error[E0425]: cannot find value `x` in this scope"


def test_cargo_test_panic_keeps_the_message_on_the_next_line() -> None:
    out = """\
running 1 test
test tests::it_works ... FAILED

failures:

---- tests::it_works stdout ----
thread 'tests::it_works' panicked at src/lib.rs:10:9:
assertion `left == right` failed
  left: 4
 right: 5

failures:
    tests::it_works

test result: FAILED. 0 passed; 1 failed; 0 ignored; finished in 0.00s

error: test failed, to rerun pass `--lib`
"""
    assert error_signature(out) == (
        "thread 'tests::it_works' panicked at lib.rs: assertion `left == right` failed"
    )


def test_go_build_and_go_test() -> None:
    build = "# example.com/m\n./main.go:5:2: undefined: foo\n"
    assert error_signature(build) == "main.go: undefined: foo"
    test = """\
--- FAIL: TestAdd (0.00s)
    add_test.go:9: Add(1, 2) = 4; want 3
FAIL
FAIL\texample.com/m\t0.002s
FAIL
"""
    assert error_signature(test) == "--- FAIL: TestAdd (<dur>)"
    assert error_signature(test.replace("0.00s", "1.25s")) == error_signature(test)


def test_tsc_both_formats_fold_line_and_column() -> None:
    plain = "src/index.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."
    pretty = "src/index.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'."
    assert error_signature(plain) == (
        "index.ts: error TS2322: Type 'string' is not assignable to type 'number'."
    )
    assert error_signature(pretty) is not None
    assert "TS2322" in (error_signature(pretty) or "")
    other = plain.replace("TS2322", "TS2345")
    assert error_signature(other) != error_signature(plain)


def test_gcc_and_linker() -> None:
    gcc = "main.c:4:5: error: implicit declaration of function 'foo'\n"
    assert error_signature(gcc) == "main.c: error: implicit declaration of function 'foo'"
    ld = (
        "/usr/bin/ld: main.o: in function `main':\n"
        "main.c:(.text+0x1a): undefined reference to `foo'\n"
    )
    assert error_signature(ld) == "main.c:(.text+<hex>): undefined reference to `foo'"


def test_claude_exit_code_line_colours_and_timestamps_are_not_part_of_it() -> None:
    one = "Exit code 1\n\x1b[31m2024-05-01T10:22:31Z ERROR connection refused after 1200ms\x1b[0m"
    two = "Exit code 2\n2025-01-09 08:00:00 ERROR connection refused after 35ms"
    assert (
        error_signature(one)
        == error_signature(two)
        == "<time> ERROR connection refused after <dur>"
    )


def test_hashes_uuids_and_tmp_names_fold() -> None:
    one = "error: object 3f9a2b1c7d in /tmp/tmpk2j3x9ab/r (123e4567-e89b-12d3-a456-426614174000)"
    two = "error: object 0badc0ffee1 in /tmp/tmpq8w7e6rt/r (00000000-0000-4000-8000-000000000000)"
    assert error_signature(one) == error_signature(two)


def test_fallback_is_the_last_non_empty_line_and_empty_is_none() -> None:
    assert error_signature("building...\nsomething odd happened\n\n") == "something odd happened"
    assert error_signature("") is None
    assert error_signature("Exit code 1\n") is None


def test_error_codes_inside_names_are_kept() -> None:
    assert error_signature("error[E0308]: mismatched types") != error_signature(
        "error[E0382]: borrow of moved value"
    )


# --- commands -------------------------------------------------------------------------


def test_normalise_command_drops_plumbing_and_keeps_what_runs() -> None:
    assert normalise_command("pytest  tests -q 2>&1 | tail -20") == "pytest tests -q"
    assert normalise_command("npm test; echo $?") == "npm test"
    assert normalise_command("make build > build.log 2>&1 || true") == "make build"
    assert normalise_command("cd web && PYTHONPATH=. pytest") == "cd web && PYTHONPATH=. pytest"
    assert normalise_command('grep "a|b" x | head') == 'grep "a|b" x'
    assert normalise_command("pytest | grep FAILED") == "pytest"


def test_command_kind() -> None:
    assert command_kind("pytest tests/x.py") == "test"
    assert command_kind("PYTHONPATH=. python -m pytest -q") == "test"
    assert command_kind("uv run pytest") == "test"
    assert command_kind("npm test") == "test"
    assert command_kind("npm run test:unit") == "test"
    assert command_kind("yarn build") == "build"
    assert command_kind("cargo test") == "test"
    assert command_kind("cargo build --release") == "build"
    assert command_kind("go test ./...") == "test"
    assert command_kind("go build ./...") == "build"
    assert command_kind("make") == "build"
    assert command_kind("make test") == "test"
    assert command_kind("./gradlew check") == "test"
    assert command_kind("mvn package") == "build"
    assert command_kind("ruff check . && mypy --strict graphmem") == "build"
    assert command_kind("tox -e py311") == "test"
    assert command_kind("ls -la") is None
    assert command_kind("git status") is None
    assert command_kind("npm install") is None
    assert command_kind("python script.py") is None


# --- sessions -------------------------------------------------------------------------


def test_read_only_session_has_no_signals() -> None:
    s = Session().prompt("how does recall work?").read("graphmem/recall/x.py")
    s.run("ls graphmem").run("grep -rn recall graphmem", code=1).run(
        "cat missing.txt", 1, "No such file"
    )
    s.run("git status")
    assert s.signals() == []


def test_a_passing_build_is_only_a_build_command() -> None:
    s = Session().prompt("build it").run("npm run build", output="Build succeeded")
    assert s.kinds() == [SignalKind.BUILD_COMMAND]
    assert s.signals()[0].evidence == (1,)
    assert s.signals()[0].command == "npm run build"


def test_a_failing_only_build_is_an_error_not_a_build_command() -> None:
    s = Session().run("cargo build", 101, "error[E0425]: cannot find value `x`")
    assert s.kinds() == [SignalKind.ERROR]


def test_a_failure_never_fixed_is_an_error_only() -> None:
    s = Session().prompt("fix the tests").run("pytest tests/test_a.py", 1, ERR).edit("src/a.py")
    signals = s.signals()
    assert [x.kind for x in signals] == [SignalKind.ERROR]
    error = signals[0]
    assert error.command == "pytest tests/test_a.py"
    assert error.exit_code == 1
    assert error.signature == "FAILED test_a.py::test_x - AssertionError: assert <n> == <n>"
    assert error.evidence == (1,)


def test_a_flaky_retry_that_passes_without_edits_is_a_retry_not_a_fix() -> None:
    s = Session().run("pytest", 1, ERR).read("a.py").run("pytest")
    assert set(s.kinds()) == {SignalKind.ERROR, SignalKind.RETRY, SignalKind.TEST_COMMAND}
    (retry,) = s.of(SignalKind.RETRY)
    assert retry.evidence == (0, 2)
    assert retry.signature is not None


def test_fix_after_edits() -> None:
    s = Session().prompt("fix it").run("pytest tests/test_a.py", 1, ERR)
    s.edit(f"{CWD}/src/a.py").run("pytest tests/test_a.py")
    (fix,) = s.of(SignalKind.FIX)
    assert fix.evidence == (1, 2, 3)
    assert fix.paths == ("src/a.py",)
    assert fix.command == "pytest tests/test_a.py"
    assert fix.text == "pytest tests/test_a.py"
    assert fix.signature == error_signature(ERR)
    assert fix.exit_code == 1
    kinds = s.kinds()
    assert kinds == [
        SignalKind.ERROR,
        SignalKind.RETRY,
        SignalKind.FIX,
        SignalKind.TEST_COMMAND,
    ]


def test_fix_by_the_same_runner_with_options_or_a_wider_target() -> None:
    s = Session().run("pytest tests/x.py -k y", 1, ERR).edit("a.py").run("pytest tests/x.py")
    assert s.of(SignalKind.FIX)[0].text == "pytest tests/x.py"
    s = Session().run("pytest tests/x.py::test_a", 1, ERR).edit("a.py").run("pytest tests")
    assert len(s.of(SignalKind.FIX)) == 1
    s = Session().run("pytest tests/x.py", 1, ERR).edit("a.py").run("pytest -q")
    assert len(s.of(SignalKind.FIX)) == 1


def test_no_fix_when_the_pass_checks_something_else() -> None:
    s = Session().run("pytest tests/x.py", 1, ERR).edit("a.py").run("pytest tests/z.py")
    assert s.of(SignalKind.FIX) == []
    s = Session().run("pytest", 1, ERR).edit("a.py").run("pytest tests/x.py")
    assert s.of(SignalKind.FIX) == []
    s = Session().run("pytest", 1, ERR).edit("a.py").run("cargo test")
    assert s.of(SignalKind.FIX) == []


def test_fix_paths_are_the_edits_after_the_last_failure() -> None:
    s = (
        Session()
        .run("make", 2, "x.c:1:1: error: bad")
        .edit("x.c")
        .run("make", 2, "y.c:1:1: error: worse")
    )
    s.edit("y.c").run("make")
    (fix,) = s.of(SignalKind.FIX)
    assert fix.paths == ("y.c",)
    assert fix.signature == "y.c: error: worse"
    assert len(s.of(SignalKind.ERROR)) == 2
    assert s.of(SignalKind.DEAD_END) == []


def test_retry_chain_is_one_signal() -> None:
    s = Session().run("pytest", 1, ERR).run("pytest", 1, ERR).run("pytest", 1, ERR)
    (retry,) = s.of(SignalKind.RETRY)
    assert retry.evidence == (0, 1, 2)
    (error,) = s.of(SignalKind.ERROR)
    assert error.evidence == (0, 1, 2)


def test_persistent_signature_then_fixed_elsewhere_is_a_dead_end() -> None:
    s = Session().prompt("fix").run("pytest", 1, ERR)
    s.edit("a.py").run("pytest", 1, ERR).edit("a.py", "c", "d").run("pytest", 1, ERR)
    s.edit("b.py").run("pytest")
    (dead,) = s.of(SignalKind.DEAD_END)
    assert dead.paths == ("a.py",)
    assert dead.signature == error_signature(ERR)
    assert dead.evidence == (1, 2, 3, 4, 5)
    assert s.of(SignalKind.FIX)[0].paths == ("b.py",)


def test_one_failed_attempt_is_not_a_persistence_dead_end() -> None:
    s = (
        Session()
        .run("pytest", 1, ERR)
        .edit("a.py")
        .run("pytest", 1, ERR)
        .edit("b.py")
        .run("pytest")
    )
    assert s.of(SignalKind.DEAD_END) == []


def test_persistence_fixed_in_the_same_file_is_not_a_dead_end() -> None:
    s = Session().run("pytest", 1, ERR).edit("a.py").run("pytest", 1, ERR)
    s.edit("a.py", "c", "d").run("pytest", 1, ERR).edit("a.py", "e", "f").run("pytest")
    assert s.of(SignalKind.DEAD_END) == []


def test_reverted_edit_after_a_failure_is_a_dead_end() -> None:
    s = Session().run("pytest", 1, ERR).edit("a.py", "x = 1", "x = 2").run("pytest", 1, ERR2)
    s.edit("a.py", "x = 2", "x = 1")
    (dead,) = s.of(SignalKind.DEAD_END)
    assert dead.paths == ("a.py",)
    assert dead.signature == error_signature(ERR2)
    assert dead.evidence == (0, 1, 2, 3)


def test_a_revert_without_a_failure_before_is_no_dead_end() -> None:
    s = Session().edit("a.py", "x = 1", "x = 2").edit("a.py", "x = 2", "x = 1")
    assert s.of(SignalKind.DEAD_END) == []


def test_write_back_of_earlier_content_is_a_revert() -> None:
    s = Session().write("a.py", "v1").run("make", 2, "error: boom").write("a.py", "v2")
    s.write("a.py", "v1")
    (dead,) = s.of(SignalKind.DEAD_END)
    assert dead.evidence == (1, 2, 3)


def test_git_restore_and_stash_revert_edits() -> None:
    s = Session().run("pytest", 1, ERR).edit("a.py").edit("b.py").run("git checkout -- a.py")
    (dead,) = s.of(SignalKind.DEAD_END)
    assert dead.paths == ("a.py",)
    assert dead.evidence == (0, 1, 3)
    s = Session().run("pytest", 1, ERR).edit("a.py").edit("b.py").run("git stash")
    assert s.of(SignalKind.DEAD_END)[0].paths == ("a.py", "b.py")
    s = Session().run("pytest", 1, ERR).edit("a.py").run("git checkout main")
    assert s.of(SignalKind.DEAD_END) == []


def test_user_rejection_is_a_dead_end() -> None:
    s = Session().prompt("fix the bug").run("pytest", 1, ERR).edit("a.py").edit("b.py")
    s.prompt("No, that's wrong. Try the parser instead.")
    (dead,) = s.of(SignalKind.DEAD_END)
    assert dead.paths == ("a.py", "b.py")
    assert dead.evidence == (1, 2, 3, 4)
    assert dead.signature == error_signature(ERR)


def test_friendly_no_and_rejection_without_edits_are_not_dead_ends() -> None:
    s = Session().prompt("fix").edit("a.py").prompt("No problem, now do the docs")
    assert s.of(SignalKind.DEAD_END) == []
    s = Session().prompt("what is this?").prompt("that didn't work")
    assert s.of(SignalKind.DEAD_END) == []
    s = Session().prompt("fix").edit("a.py").prompt("revert that")
    assert len(s.of(SignalKind.DEAD_END)) == 1


def test_rules_from_prompts() -> None:
    s = Session().prompt(
        "Always run `make lint` before committing. We use pnpm, not npm!\n"
        "Should we always use tabs? The test always fails on CI.\n"
        "Please never push to main. From now on, write docstrings in Google style.\n"
        "> always quote this\n"
        "```\n# never in code\n```\n"
        'He said "always do it" once.'
    )
    texts = [signal.text for signal in s.of(SignalKind.RULE)]
    assert texts == [
        "Always run `make lint` before committing.",
        "We use pnpm, not npm!",
        "Please never push to main.",
        "From now on, write docstrings in Google style.",
    ]
    assert all(signal.evidence == (0,) for signal in s.of(SignalKind.RULE))


def test_a_rule_is_not_cut_at_a_dot_inside_a_command_or_a_file_name() -> None:
    s = Session().prompt(
        "Always run `go vet ./...` before you push. "
        "Use `pnpm install` from now on; package-lock.json is gone. Thanks."
    )
    assert [signal.text for signal in s.of(SignalKind.RULE)] == [
        "Always run `go vet ./...` before you push.",
        "Use `pnpm install` from now on; package-lock.json is gone.",
    ]


def test_what_a_prompt_says_was_replaced() -> None:
    assert replaced_terms(
        "We moved from npm to pnpm. Use `pnpm install` from now on; yarn is gone."
    ) == ("npm", "yarn")
    assert replaced_terms("Use uv, not pip! Replace Jest with Vitest.") == ("pip", "jest")
    assert replaced_terms("Build with `make` instead of `just`; we no longer use tox") == (
        "just",
        "tox",
    )
    assert replaced_terms("We switched CI to nextest. Do it instead of that.") == ()
    assert replaced_terms("```\nmoved from a to b\n```") == ()  # code is not what they said


def test_rules_in_other_languages_and_preferences() -> None:
    s = (
        Session()
        .prompt("Prefer dataclasses over dicts.")
        .prompt("Make sure to update the changelog.")
    )
    s.prompt("Von nun an bitte Tests schreiben.").prompt("Siempre usa pnpm.")
    s.prompt("Ne jamais modifier les fichiers générés.").prompt("Remember that the API is v2.")
    assert len(s.of(SignalKind.RULE)) == 6


def test_a_repeated_rule_is_one_signal_citing_both_prompts() -> None:
    s = Session().prompt("Always use uv.").run("ls").prompt("always use uv")
    (rule,) = s.of(SignalKind.RULE)
    assert rule.evidence == (0, 2)
    assert rule.text == "Always use uv."


def test_rules_come_only_from_prompts() -> None:
    s = (
        Session()
        .run("cat README", output="Always run the tests.")
        .other(kind=EventKind.STOP, message="Always run the tests.")
    )
    assert s.of(SignalKind.RULE) == []


def test_untrusted_evidence_marks_the_signal() -> None:
    s = Session().run("pytest", 1, ERR, untrusted=True).edit("a.py").run("pytest")
    assert all(signal.untrusted for signal in s.signals())
    s = Session().prompt("Always use uv.", untrusted=True)
    assert s.of(SignalKind.RULE)[0].untrusted
    s = Session().run("pytest")
    assert not s.signals()[0].untrusted


def test_co_edited_per_segment() -> None:
    s = Session().prompt("one").edit("b.py").edit(f"{CWD}/a.py").edit("b.py", "c", "d")
    s.prompt("two").edit("c.py")
    (co,) = s.of(SignalKind.CO_EDITED)
    assert co.paths == ("a.py", "b.py")
    assert co.evidence == (1, 2, 3)


def test_build_commands_group_runs_and_cite_all() -> None:
    s = Session().run("ruff check .", 1, "a.py:1:8: F401 `os` imported but unused")
    s.edit("a.py").run("ruff check . 2>&1 | tail").run("ruff check .")
    (build,) = s.of(SignalKind.BUILD_COMMAND)
    assert build.evidence == (0, 2, 3)
    assert build.command == "ruff check ."


def test_interrupted_commands_and_failed_edits_are_not_errors() -> None:
    s = Session().other(
        kind=EventKind.POST_TOOL, tool=SHELL_TOOL, command="pytest", failed=True, interrupted=True
    )
    s.other(kind=EventKind.POST_TOOL, tool="Edit", failed=True, paths=("a.py",), output="not found")
    assert s.signals() == []


def test_claude_failure_without_exit_code_reads_it_from_the_error_text() -> None:
    s = Session().other(
        kind=EventKind.POST_TOOL,
        tool=SHELL_TOOL,
        command="make",
        failed=True,
        output="Exit code 2\nmain.c:1:1: error: x",
    )
    (error,) = s.signals()
    assert error.exit_code == 2
    assert error.signature == "main.c: error: x"


def test_one_call_reported_twice_counts_once() -> None:
    fields: dict[str, Any] = {"kind": EventKind.POST_TOOL, "tool": SHELL_TOOL, "command": "make"}
    s = (
        Session()
        .other(tool_use_id="t1", **fields)
        .other(tool_use_id="t1", failed=True, exit_code=2, output="error: x", **fields)
    )
    (error,) = s.signals()
    assert error.evidence == (0,)


def test_codex_apply_patch_paths() -> None:
    patch = "*** Begin Patch\n*** Update File: src/a.py\n@@\n-x\n+y\n*** Add File: src/b.py\n+z\n"
    s = Session().other(kind=EventKind.POST_TOOL, tool="apply_patch", tool_input={"input": patch})
    (co,) = s.of(SignalKind.CO_EDITED)
    assert co.paths == ("src/a.py", "src/b.py")


def test_signals_are_ordered_by_first_evidence_then_kind() -> None:
    s = Session().run("pytest", 1, ERR).edit("a.py").edit("b.py").run("pytest")
    s.prompt("Always use uv.")
    signals = s.signals()
    keys = [(x.evidence[0], list(SignalKind).index(x.kind)) for x in signals]
    assert keys == sorted(keys)
    assert derive_signals(list(reversed(s.records))) == signals


# --- property -------------------------------------------------------------------------

_TEXT = st.text(max_size=40)
_OUTPUTS = st.one_of(_TEXT, st.sampled_from([ERR, ERR2, "error: x", "Exit code 1\nboom", ""]))
_COMMANDS = st.one_of(
    _TEXT,
    st.sampled_from(
        ["pytest", "pytest tests/x.py -k y", "make", "npm test", "git stash", "git checkout -- a"]
    ),
)


@st.composite
def _events(draw: st.DrawFn) -> HookEvent:
    kind = draw(st.sampled_from(list(EventKind)))
    tool = draw(st.sampled_from([SHELL_TOOL, "Edit", "Write", "MultiEdit", "Read", None, "x"]))
    paths = tuple(draw(st.lists(st.sampled_from(["a.py", "/home/alice/proj/b.py", "", "c"]))))
    tool_input = draw(
        st.dictionaries(
            st.sampled_from(["old_string", "new_string", "content", "file_path", "edits"]),
            st.one_of(_TEXT, st.lists(st.dictionaries(st.just("old_string"), _TEXT))),
            max_size=4,
        )
    )
    return HookEvent(
        host="claude-code",
        host_event=draw(st.sampled_from(["x", "afterFileEdit"])),
        kind=kind,
        session_id="s",
        cwd=draw(st.sampled_from([CWD, "", "/"])),
        prompt=draw(st.one_of(st.none(), _TEXT, st.just("No, always use uv. revert that"))),
        tool=tool,
        tool_use_id=draw(st.sampled_from([None, "t1", "t2"])),
        command=draw(st.one_of(st.none(), _COMMANDS)),
        paths=paths,
        tool_input=tool_input,
        output=draw(st.one_of(st.none(), _OUTPUTS)),
        exit_code=draw(st.one_of(st.none(), st.integers(-2, 300))),
        failed=draw(st.booleans()),
        interrupted=draw(st.booleans()),
        agent_id=draw(st.sampled_from([None, "sub"])),
    )


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_events(), st.booleans()), max_size=25), st.randoms())
def test_derive_signals_never_raises_and_cites_only_its_input(
    events: list[tuple[HookEvent, bool]], rng: Any
) -> None:
    records = [
        SpoolRecord(n, "2026-01-01T00:00:00Z", "p", event, untrusted)
        for n, (event, untrusted) in enumerate(events)
    ]
    rng.shuffle(records)
    signals = derive_signals(records)
    numbers = {record.n for record in records}
    untrusted = {record.n for record in records if record.untrusted}
    for signal in signals:
        assert signal.evidence
        assert list(signal.evidence) == sorted(set(signal.evidence))
        assert set(signal.evidence) <= numbers
        assert signal.untrusted == bool(set(signal.evidence) & untrusted)
        if signal.kind is SignalKind.RULE:
            assert all(
                records_by_n(records)[n].event.kind is EventKind.PROMPT for n in signal.evidence
            )
    assert derive_signals(records) == signals


def records_by_n(records: list[SpoolRecord]) -> dict[int, SpoolRecord]:
    return {record.n: record for record in records}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_error_signature_and_normalise_command_never_raise(text: str) -> None:
    signature = error_signature(text)
    assert signature is None or signature.strip() == signature
    assert normalise_command(normalise_command(text)) == normalise_command(text)


def test_long_and_hostile_output_stays_fast() -> None:
    hostile = [
        "a" * 5000 + "!",
        "a/" * 3000 + " ",
        "/a" * 3000,
        "= " * 3000,
        "A." * 3000 + "Error",
        "tmp1" + "a" * 5000,
        "pytest-of-" * 500,
        "\n".join(["E   " + "x" * 300] * 500),
    ]
    start = time.perf_counter()
    for text in hostile:
        error_signature(text)
        normalise_command(text)
    assert time.perf_counter() - start < 2.0


def test_option_values_are_not_test_targets() -> None:
    s = Session().run("pytest tests/x.py -k a.b", 1, ERR).edit("a.py").run("pytest tests/x.py")
    assert len(s.of(SignalKind.FIX)) == 1
    s = Session().run("go test -run TestA ./pkg", 1, ERR).edit("a.go").run("go test ./pkg")
    assert len(s.of(SignalKind.FIX)) == 1


def test_descriptions_and_one_off_requests_are_not_rules() -> None:
    s = Session().prompt(
        "I always forget this. You never listen. Never mind, just fix it. "
        "Make sure the tests pass. Use the not operator here. The build always breaks."
    )
    assert s.of(SignalKind.RULE) == []
    s = Session().prompt("Use pnpm instead of npm. Use ruff, not black. I prefer small commits.")
    assert len(s.of(SignalKind.RULE)) == 3


def test_git_checkout_of_an_absolute_path_and_stash_with_options() -> None:
    s = Session().run("pytest", 1, ERR).edit("a.py").edit("b.py")
    s.run(f"git checkout -- {CWD}/b.py")
    assert s.of(SignalKind.DEAD_END)[0].paths == ("b.py",)
    s = Session().run("pytest", 1, ERR).edit("a.py").run("git stash -u")
    assert s.of(SignalKind.DEAD_END)[0].paths == ("a.py",)
    s = Session().run("pytest", 1, ERR).edit("a.py").run("git stash list")
    assert s.of(SignalKind.DEAD_END) == []


def test_node_mypy_and_shell_signatures() -> None:
    node = (
        "/home/a/x.js:3\n  foo();\n  ^\n\nReferenceError: foo is not defined\n"
        "    at Object.<anonymous> (/home/a/x.js:3:3)\n\nNode.js v18.17.0\n"
    )
    assert error_signature(node) == "ReferenceError: foo is not defined"
    mypy = (
        'src/a.py:3: error: Incompatible return value type (got "int", expected "str")'
        "  [return-value]\nFound 1 error in 1 file (checked 5 source files)\n"
    )
    assert error_signature(mypy) == (
        'a.py: error: Incompatible return value type (got "int", expected "str") [return-value]'
    )
    assert error_signature("bash: line 1: pytest: command not found") == (
        "bash: line <n>: pytest: command not found"
    )
