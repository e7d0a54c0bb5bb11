"""Signals: what a session did, derived from its spool by rules, each with its evidence.

A signal is a small fact about a session (a failure, a retry, a fix, an abandoned
approach, a rule the user stated, the commands that build or test the project, files
edited together), read from the :class:`~graphmem.capture.event.SpoolRecord` lines of one
session and citing the lines it came from. No LLM, no clock, no randomness, no I/O: the
same records always give the same signals (design §12, seed 003 §3.1).

The rules, and the decisions they make:

- **error**: a shell call that failed (``failed``, or an exit status other than 0) and
  was not interrupted by the user. Exploration commands (``ls``, ``cat``, ``grep``,
  ``find``, ``git status``...) that fail are routine answers ("no match", "no such
  file"), not errors. Failures of other tools (an Edit whose old string was not found)
  are not errors either. One signal per (normalised command, signature), citing every
  failing run with that pair.
- **retry**: a failing command run again (same :func:`normalise_command`). One signal
  per chain of runs: from a failure to the next pass of that command (included) or to
  the end of the session.
- **fix**: a failing command passes later, with file edits between its last failure
  and the pass. The pass is the same normalised command, or the same test runner over
  the same or a wider set of targets, options ignored (``pytest tests/x.py -k y`` fails,
  ``pytest tests/x.py`` or ``pytest`` passes). A pass with no edit since the last failure
  is a flaky pass: a retry, no fix. Its paths are the files edited between the last
  failure and the pass; its ``text`` the command that passed.
- **dead_end**: an approach abandoned, in three ways. (a) Edits made after a failure
  were reverted: an Edit whose old and new strings swap an earlier edit's, a Write that
  puts back a file's earlier content, or a shell ``git checkout -- f``, ``git restore
  f``, ``git stash``, ``git reset --hard``. (b) The same signature persisted through two
  or more attempts (edits, then the same failure again) and the eventual fix edited
  none of those attempts' files. (c) The user's next prompt rejected the edits of the
  segment before it ("no, that's wrong", "revert that", "that didn't work").
- **rule**: a sentence of a user prompt stating a rule or preference: starting with
  always/never/we use/prefer/make sure/don't ever/remember (after an optional "please",
  "also", "and", "we", "you should"...), or holding "from now on"; with the same in
  French, German and Spanish. Questions, fenced code, block quotes and words inside
  quotes or inline code do not count; the sentence is kept as written.
- **build_command** / **test_command**: a command that builds, lints or type-checks
  (build; ``ruff``, ``mypy``, ``eslint``, ``tsc`` are build commands) or runs tests
  (test), that passed at least once. One signal per normalised command, citing all its
  runs; ``command`` is its last passing run as typed.
- **co_edited**: two or more files edited in one task segment (between two prompts).

Routine success (a passing build, a read, a listing) is never a signal by itself. A
signal citing any untrusted record is marked untrusted; a rule comes only from a prompt.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import pairwise
from typing import Any

from graphmem.capture.event import SHELL_TOOL, EventKind, HookEvent, SpoolRecord


class SignalKind(StrEnum):
    """What a signal says happened."""

    ERROR = "error"
    RETRY = "retry"
    FIX = "fix"
    DEAD_END = "dead_end"
    RULE = "rule"
    BUILD_COMMAND = "build_command"
    TEST_COMMAND = "test_command"
    CO_EDITED = "co_edited"


_KIND_ORDER = {kind: index for index, kind in enumerate(SignalKind)}


@dataclass(frozen=True)
class Signal:
    """One signal and the spool lines it came from.

    Attributes:
        kind: What happened.
        evidence: The :attr:`SpoolRecord.n` of every record it came from, ascending.
        command: The shell command (error, retry, fix, build and test commands).
        signature: The normalised error signature (error, retry, fix, dead end).
        exit_code: The failing command's exit status (error, retry, fix).
        paths: The files edited (fix, dead end, co-edited), project-relative when under
            the session's working directory.
        text: The rule as the user stated it (rule); the command that passed (fix).
        untrusted: Whether any evidence record was untrusted.
    """

    kind: SignalKind
    evidence: tuple[int, ...]
    command: str | None = None
    signature: str | None = None
    exit_code: int | None = None
    paths: tuple[str, ...] = ()
    text: str | None = None
    untrusted: bool = False


# --- error signatures -----------------------------------------------------------------

_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_EXIT_CODE_LINE = re.compile(r"\AExit code (\d+)[ \t]*(?:\r?\n|\Z)")
_MAX_SIGNATURE_LINES = 3
_MAX_LINE_CHARS = 240
_MAX_READ_CHARS = 2000

_WRAPPER = re.compile(
    r"^make(?:\[\d+\])?: \*\*\*"
    r"|^npm (?:ERR!|error) (?:errno|code ELIFECYCLE|A complete log|command|Exit status|"
    r"This is probably|Failed at the|Lifecycle|\s*$)"
    r"|^npm (?:ERR!|error)\s*$"
    r"|^error: (?:could not compile|aborting due to|test failed|Recipe for target|"
    r"build failed|process didn't exit successfully)"
    r"|^error Command failed with exit code"
    r"|^=+ .* =+$|^_+ .* _+$|^-+ .* -+$"
    r"|ELIFECYCLE"
    r"|^FAIL\s*$|^FAIL\t|^exit status \d+$|^Exit status \d+$",
    re.IGNORECASE,
)
_TEST_FAILURE = re.compile(
    r"^(?:FAILED|ERROR)\s+\S+?(?:::\S+|\.py\b)"  # pytest's short summary
    r"|^(?:FAIL|ERROR): \w+ \("  # unittest
)
_DIAGNOSTIC = re.compile(
    r"^error(?:\[E\d+\])?: "  # rustc, cargo, many CLIs
    r"|^\S+?(?::\d+){1,2}:\s*(?:fatal )?error\b"  # gcc, clang, mypy
    r"|\berror TS\d+:"  # tsc
    r"|^\S+\.go:\d+(?::\d+)?: "  # go build, go vet
    r"|^--- FAIL: "  # go test
    r"|^\s*\u25cf "  # jest's failing test heading
    r"|^\S+:\d+:\d+: [A-Z]+\d+\b"  # ruff, flake8
    r"|^FAIL\s+\S+\.[cm]?[jt]sx?\b"  # jest, vitest: the failing file
)
_EXCEPTION = re.compile(
    r"^(?:[A-Za-z_]\w*\.)*(?:[A-Z]\w*)?(?:Error|Exception|Exit|Interrupt|Failure|Fault)\b"
    r"(?::.*)?$"
)
_PYTEST_E = re.compile(r"^E {2,}\S")
_MARKER = re.compile(
    r"panicked at|undefined reference|fatal:|command not found"
    r"|npm (?:ERR!|error) (?:code |missing script|ERESOLVE|404|enoent)"
    r"|No such file or directory|cannot find|not found|Segmentation fault"
    r"|Permission denied|ModuleNotFoundError|\bERR_[A-Z_]+",
    re.IGNORECASE,
)
_GENERIC = re.compile(r"\berror\b|\bFAILED\b|\bFAIL\b|\bfailed\b|\bfailure\b", re.IGNORECASE)

# Folding: what varies between runs of the same failure.
_TIMESTAMP = re.compile(
    r"\b\d{4}-\d{2}-\d{2}(?:[T _]\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)?"
    r"(?:Z|[+-]\d{2}:?\d{2})?\b(?!-)"
    r"|\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b"
)
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s'\"<>`)\]]+", re.IGNORECASE)
_TEMP = re.compile(
    r"(?:/private)?/(?:tmp|var/folders|var/tmp)(?:/[^\s'\"`:,;()\[\]<>]*)?"
    r"|[A-Za-z]:\\(?:[^\s'\"\\]+\\)*?Temp(?:\\[^\s'\"`:,;()\[\]<>]*)*"
    r"|(?<![^\s'\"(=])[^\s'\"]*pytest-of-[^\s'\"`:,;()\[\]<>]*"
    r"|\btmp(?=\w*\d)\w{4,}\b",
    re.IGNORECASE,
)
_UUID = re.compile(
    r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b", re.IGNORECASE
)
_PATH = re.compile(r"(?<![\w<.~@+-])(?:[A-Za-z]:)?(?:[\w.@~+-]*[\\/])+([\w.@+-]+)")
_LINE_COL = re.compile(r"(\.[A-Za-z]\w{0,9})(?::\d+(?::\d+)?|\(\d+,\s*\d+\))")
_HEX = re.compile(
    r"\b0x[0-9a-f]+\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b", re.IGNORECASE
)
_DURATION = re.compile(
    r"(?<![\w.])\d+(?:\.\d+)?\s?(?:ms|us|\u00b5s|ns|s|secs?|seconds?|mins?|minutes?|h)\b"
)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*(?![\w])")
_SPACE = re.compile(r"\s+")


def _clean(text: str) -> str:
    """Text without terminal escapes and control characters (tabs and newlines kept)."""
    return _CONTROL.sub("", _ANSI.sub("", text.replace("\r\n", "\n").replace("\r", "\n")))


FOLD_MARKS = frozenset({"time", "url", "tmp", "hex", "dur", "n"})
"""The words of the placeholders :func:`_fold` puts where runs differ (``<n>``, ``<dur>``
...): a signature quoted in a statement holds them, not words of the output."""


def _fold(line: str) -> str:
    """One output line with what varies between runs folded to placeholders."""
    line = _TIMESTAMP.sub("<time>", line)
    line = _URL.sub("<url>", line)
    line = _TEMP.sub("<tmp>", line)
    line = _UUID.sub("<hex>", line)
    line = _PATH.sub(r"\1", line)
    line = _LINE_COL.sub(r"\1", line)
    line = _HEX.sub("<hex>", line)
    line = _DURATION.sub("<dur>", line)
    line = _NUMBER.sub("<n>", line)
    return _SPACE.sub(" ", line).strip()[:_MAX_LINE_CHARS]


_COLLECTION_ERROR = re.compile(r"^ERROR\s+\S+\.py\s*$")
"""pytest's summary of a module that failed to import: it names the file, not why."""


def _category(line: str) -> int:
    """How telling a line of failure output is: 1 most, 7 least (a wrapper's), 8 not."""
    stripped = line.strip()
    if _WRAPPER.search(stripped):
        return 7
    if _COLLECTION_ERROR.match(stripped):
        return 6  # the import error's own lines say more
    tiers = (_TEST_FAILURE, _DIAGNOSTIC, _EXCEPTION, _PYTEST_E, _MARKER, _GENERIC)
    return next((tier for tier, rule in enumerate(tiers, 1) if rule.search(line)), 8)


def error_signature(output: str) -> str | None:
    """The normalised signature of a failure's output, the same for the same failure.

    Picks the most telling lines: a test runner's failing tests (pytest's ``FAILED``
    summary, go's ``--- FAIL``, jest's headings; not pytest's bare ``ERROR file.py``
    for a module that failed to import, which ranks with any line naming an error),
    else compiler diagnostics, else a traceback's last exception line, else pytest's
    ``E`` lines, else known markers (``panicked at``, ``npm ERR!``, ``No such
    file``...), else any line naming an error or failure, else a wrapper's line
    (``make: ***``), else the last non-empty line.
    Up to three such lines (the last one only for a traceback) are then folded:
    terminal colours and control characters removed; timestamps to ``<time>``; URLs to
    ``<url>``; temporary paths (``/tmp/...``, ``pytest-of-*``, ``tmpk2j3x9``) to
    ``<tmp>``; other paths to their base name (directories dropped: ``/home/a/x/app.py``
    and ``x/app.py`` both read ``app.py``) with any ``:line:col`` dropped; uuids, hashes
    and hex numbers to ``<hex>``; durations to ``<dur>``; numbers standing alone to
    ``<n>`` (numbers inside names such as ``TS2322`` or ``E0308`` are kept); whitespace
    collapsed. A leading ``Exit code N`` line (Claude Code's) is not part of it.

    Args:
        output: The failed command's output (stdout and stderr, or the host's error).

    Returns:
        The lines picked and folded, joined with `` | ``; None for empty output.
    """
    text = _EXIT_CODE_LINE.sub("", _clean(output), count=1)
    lines = [line[:_MAX_READ_CHARS].rstrip() for line in text.split("\n") if line.strip()]
    if not lines:
        return None
    categories = [_category(line) for line in lines]
    best = min(categories)
    if best == 8:
        picked = [lines[-1]]
    elif best == 3:
        picked = [lines[max(i for i, c in enumerate(categories) if c == 3)]]
    else:
        picked = []
        for index, line in enumerate(lines):
            if categories[index] != best:
                continue
            if line.rstrip().endswith(":") and "panicked at" in line and index + 1 < len(lines):
                line = f"{line} {lines[index + 1]}"  # rust >= 1.73: the message follows
            picked.append(line)
    folded: list[str] = []
    for line in picked:
        fold = _fold(line)
        if fold and fold not in folded:
            folded.append(fold)
        if len(folded) == _MAX_SIGNATURE_LINES:
            break
    return " | ".join(folded) or None


# --- commands -------------------------------------------------------------------------

_OPERATORS = ("&&", "||", ";", "|", "\n")
_PLUMBING = frozenset(
    {"tail", "head", "tee", "cat", "less", "more", "grep", "rg", "sort", "uniq", "wc", "cut"}
)
_TRAILERS = frozenset({"echo", "true", "printf", ":"})
_REDIRECT = re.compile(r"(?:^|\s)(?:\d|&)?>>?&?\s*(?:\S+)?|(?:^|\s)\d?<\s*\S+")


def _split_top(command: str) -> list[tuple[str, str]]:
    """A command line cut at its top-level operators: (operator before, segment) pairs."""
    parts: list[tuple[str, str]] = []
    quote = ""
    operator = ""
    start = 0
    index = 0
    while index < len(command):
        char = command[index]
        if quote:
            if char == "\\" and quote == '"':
                index += 1
            elif char == quote:
                quote = ""
        elif char == "\\":
            index += 1
        elif char in "'\"":
            quote = char
        else:
            found = next((op for op in _OPERATORS if command.startswith(op, index)), "")
            if found and not (found == "|" and command.startswith("|&", index)):
                parts.append((operator, command[start:index]))
                operator = found
                index += len(found)
                start = index
                continue
        index += 1
    parts.append((operator, command[start:]))
    return [(op, segment.strip()) for op, segment in parts if segment.strip()]


def _words(segment: str) -> list[str]:
    """A segment's words, shell quoting undone when it parses."""
    try:
        return shlex.split(segment)
    except ValueError:
        return segment.split()


def normalise_command(command: str) -> str:
    """A command as typed, reduced to what decides its outcome, for matching runs.

    Terminal escapes are removed and whitespace collapsed; output plumbing is dropped:
    trailing pipes into ``tail``, ``head``, ``tee``, ``grep`` and the like, trailing
    ``; echo ...`` and ``|| true``, and redirections (``2>&1``, ``> log``). ``cd``
    prefixes and environment assignments are kept (they change what runs).

    Args:
        command: The shell command.

    Returns:
        The normalised command.
    """
    parts = _split_top(_clean(command).replace("\t", " "))
    while len(parts) > 1:
        operator, segment = parts[-1]
        words = _words(segment)
        program = posixpath.basename(words[0]) if words else ""
        if (operator == "|" and program in _PLUMBING) or (
            operator in (";", "&&", "||", "\n") and program in _TRAILERS
        ):
            parts.pop()
            continue
        break
    out: list[str] = []
    for operator, segment in parts:
        segment = _SPACE.sub(" ", _REDIRECT.sub(" ", segment)).strip()
        if not segment:
            continue
        out.append(f"{operator.strip() or ';'} {segment}" if out else segment)
    return " ".join(out)


_WRAPPERS = {
    "time": 0,
    "nice": 0,
    "env": 0,
    "command": 0,
    "exec": 0,
    "npx": 0,
    "bunx": 0,
    "timeout": 1,
}
_RUNNERS = {("uv", "run"), ("poetry", "run"), ("pipenv", "run"), ("pdm", "run")}
_RUNNERS |= {("rye", "run"), ("pnpm", "exec"), ("pnpm", "dlx"), ("yarn", "dlx")}
_RUNNERS |= {("bundle", "exec"), ("npm", "exec")}
_PYTHON = re.compile(r"^(?:python[\d.]*|py)$")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")

_TEST_PROGRAMS = frozenset(
    {"pytest", "py.test", "tox", "nox", "jest", "vitest", "mocha", "ava", "rspec"}
    | {"phpunit", "ctest", "unittest", "nose2", "karma", "playwright", "cypress"}
)
_TEST_SUBCOMMANDS = {
    "go": {"test"},
    "cargo": {"test", "nextest"},
    "dotnet": {"test"},
    "swift": {"test"},
    "deno": {"test"},
    "mix": {"test"},
    "bun": {"test"},
    "bazel": {"test"},
    "mvn": {"test", "verify"},
    "mvnw": {"test", "verify"},
    "gradle": {"test", "check"},
    "gradlew": {"test", "check"},
    "make": {"test", "tests", "check", "unit", "integration", "e2e"},
}
_BUILD_PROGRAMS = frozenset(
    {"make", "cmake", "ninja", "tsc", "ruff", "mypy", "pyright", "eslint", "flake8"}
    | {"pylint", "black", "webpack", "rollup", "esbuild", "mvn", "mvnw", "gradle"}
    | {"gradlew", "msbuild", "pre-commit", "golangci-lint", "clang-tidy", "meson"}
)
_BUILD_SUBCOMMANDS = {
    "go": {"build", "vet", "install"},
    "cargo": {"build", "check", "clippy"},
    "dotnet": {"build", "publish"},
    "swift": {"build"},
    "bazel": {"build"},
    "vite": {"build"},
    "next": {"build"},
    "uv": {"build"},
    "poetry": {"build"},
    "build": {""},  # python -m build
}
_SCRIPT_RUNNERS = frozenset({"npm", "pnpm", "yarn", "bun"})
_TEST_SCRIPT = re.compile(r"^(?:test|tests|e2e|spec)(?:[:\-_].*)?$")
_BUILD_SCRIPT = re.compile(r"^(?:build|lint|typecheck|type-check|check|compile|tsc)(?:[:\-_].*)?$")


def _program(words: list[str]) -> list[str]:
    """A segment's words from its program on: assignments and wrappers dropped."""
    while words:
        head = words[0]
        if _ASSIGNMENT.match(head):
            words = words[1:]
        elif head in _WRAPPERS:
            words = words[1 + _WRAPPERS[head] :]
        elif (len(words) > 1 and (head, words[1]) in _RUNNERS) or (
            _PYTHON.match(posixpath.basename(head)) and len(words) > 2 and words[1] == "-m"
        ):
            words = words[2:]
        else:
            break
    if words:
        words = [posixpath.basename(words[0]), *words[1:]]
    return words


def _subcommand(words: list[str]) -> str:
    """The first word after the program that is not an option, or ''."""
    return next((word for word in words[1:] if not word.startswith("-")), "")


def _segment_kind(words: list[str]) -> str | None:
    """``test``, ``build`` or None for one segment's program words."""
    if not words:
        return None
    program, sub = words[0], _subcommand(words)
    if program in _SCRIPT_RUNNERS:
        script = _subcommand(words[1:]) if sub in ("run", "run-script") else sub
        if _TEST_SCRIPT.match(script) or sub in ("t", "tst"):
            return "test"
        return "build" if _BUILD_SCRIPT.match(script) else None
    if program in _TEST_PROGRAMS or sub in _TEST_SUBCOMMANDS.get(program, ()):
        return "test"
    if program in _BUILD_PROGRAMS or sub in _BUILD_SUBCOMMANDS.get(program, ()):
        return "build"
    return None


def command_kind(command: str) -> str | None:
    """Whether a command runs the project's tests (``test``) or builds it (``build``).

    Lint and type checks (ruff, mypy, eslint, tsc, cargo clippy, go vet) build.

    Args:
        command: The shell command, as typed or normalised.

    Returns:
        ``test``, ``build`` or None.
    """
    kinds = {_segment_kind(_program(_words(seg))) for _, seg in _split_top(command)}
    return "test" if "test" in kinds else "build" if "build" in kinds else None


_EXPLORATION = frozenset(
    {"ls", "cat", "head", "tail", "grep", "rg", "ag", "find", "fd", "which", "whereis"}
    | {"test", "[", "diff", "cmp", "wc", "file", "stat", "tree", "pwd", "echo", "less"}
    | {"more", "type", "readlink", "realpath", "du", "df", "sed", "awk", "cd", "true"}
)
_GIT_READS = frozenset({"status", "log", "diff", "show", "branch", "blame", "grep", "ls-files"})


def _exploration(command: str) -> bool:
    """Whether every segment of a command only looks around (a failure there is routine)."""
    for _, segment in _split_top(command):
        words = _program(_words(segment))
        if not words:
            continue
        if words[0] == "git" and _subcommand(words) in _GIT_READS:
            continue
        if words[0] not in _EXPLORATION:
            return False
    return True


_VALUED_OPTIONS = frozenset(
    {"-k", "-m", "-p", "-n", "-c", "-o", "-r", "-W", "--maxfail", "--tb", "--deselect"}
    | {"--ignore", "--rootdir", "--durations", "-run", "--run", "-t", "--testNamePattern"}
    | {"-e", "--env", "--config", "--package", "--features"}
)


def _test_key(command: str) -> tuple[str, tuple[str, ...]] | None:
    """A test command's runner (with its ``cd`` prefix) and the test targets it names."""
    prefix: list[str] = []
    for _, segment in _split_top(command):
        words = _program(_words(segment))
        if words and words[0] == "cd":
            prefix.append(" ".join(words))
            continue
        if _segment_kind(words) != "test":
            continue
        runner = [words[0]]
        if words[0] in _SCRIPT_RUNNERS or words[0] in _TEST_SUBCOMMANDS:
            runner.append(_subcommand(words))
        targets: set[str] = set()
        arguments = words[len(runner) :]
        for index, word in enumerate(arguments):
            if index and arguments[index - 1] in _VALUED_OPTIONS:
                continue  # ``-k name.part`` names no file
            if not word.startswith("-") and ("/" in word or "::" in word or "." in word):
                targets.add(word.split("::")[0].removeprefix("./").rstrip("/") or ".")
        return " && ".join([*prefix, " ".join(runner)]), tuple(sorted(targets))
    return None


def _covers(passing: tuple[str, ...], failing: tuple[str, ...]) -> bool:
    """Whether a passing run's targets include every target of a failing run."""
    if not passing or "." in passing:
        return True
    if not failing:
        return False
    return all(any(t == p or t.startswith(p + "/") for p in passing) for t in failing)


# --- reading the records --------------------------------------------------------------

_EDIT_TOOLS = frozenset(
    {"edit", "write", "multiedit", "notebookedit", "apply_patch", "applypatch"}
    | {"write_file", "replace", "edit_file", "search_replace", "create_file"}
    | {"str_replace", "insert", "file_edit", "delete_file"}
)
_PATH_KEYS = ("file_path", "path", "notebook_path", "filePath", "target_file", "absolute_path")
_PATCH_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$", re.MULTILINE)
_PAIR_KEYS = (("old_string", "new_string"), ("old_str", "new_str"), ("oldString", "newString"))


@dataclass
class _Run:
    """One shell call."""

    n: int
    command: str
    norm: str
    failed: bool
    exit_code: int | None
    signature: str | None
    untrusted: bool
    segment: int
    cwd: str
    errant: bool  # a failure that counts as an error
    kind: str | None
    test_key: tuple[str, tuple[str, ...]] | None


@dataclass
class _Edit:
    """One successful file edit."""

    n: int
    paths: tuple[str, ...]
    untrusted: bool
    segment: int
    pairs: tuple[tuple[str, str], ...] = ()
    content: str | None = None


@dataclass
class _Prompt:
    """One user prompt."""

    n: int
    text: str
    untrusted: bool
    segment: int


@dataclass
class _Session:
    """A session's records, sorted into what the rules read."""

    runs: list[_Run] = field(default_factory=list)
    edits: list[_Edit] = field(default_factory=list)
    prompts: list[_Prompt] = field(default_factory=list)
    untrusted: dict[int, bool] = field(default_factory=dict)


def _relative(path: str, cwd: str) -> str:
    """A path relative to the working directory when under it, normalised."""
    path = posixpath.normpath(path.replace("\\", "/")) if path else path
    root = posixpath.normpath(cwd.replace("\\", "/")) if cwd else ""
    if root and root != "/" and path.startswith(root + "/"):
        return path[len(root) + 1 :]
    return path


def _edit_paths(event: HookEvent) -> tuple[str, ...]:
    """The files an edit touched, from the event's paths or its tool input."""
    found: list[str] = [p for p in event.paths if isinstance(p, str) and p]
    if not found:
        for key in _PATH_KEYS:
            value = event.tool_input.get(key)
            if isinstance(value, str) and value:
                found.append(value)
                break
    if not found:
        for value in event.tool_input.values():
            if isinstance(value, str) and "*** " in value:
                found.extend(_PATCH_FILE.findall(value))
    ordered = dict.fromkeys(_relative(p, event.cwd) for p in found)
    return tuple(ordered)


def _edit_pairs(tool_input: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """The (old, new) string pairs of an edit's input (one, or MultiEdit's list)."""
    items: list[Any] = [tool_input]
    edits = tool_input.get("edits")
    if isinstance(edits, list):
        items.extend(edits)
    pairs: list[tuple[str, str]] = []
    for item in items:
        if not isinstance(item, dict):
            continue
        for old_key, new_key in _PAIR_KEYS:
            old, new = item.get(old_key), item.get(new_key)
            if isinstance(old, str) and isinstance(new, str) and old != new:
                pairs.append((old, new))
                break
    return tuple(pairs)


def _exit_code(event: HookEvent) -> int | None:
    """The exit status the event gives, or the one Claude Code's error text opens with."""
    if isinstance(event.exit_code, int):
        return event.exit_code
    match = _EXIT_CODE_LINE.match(event.output or "")
    return int(match.group(1)) if match else None


def _is_edit(event: HookEvent) -> bool:
    """Whether an event is a finished, successful file edit."""
    if event.kind is not EventKind.POST_TOOL or event.failed or event.interrupted:
        return event.host_event.lower() == "afterfileedit"
    tool = (event.tool or "").lower()
    return tool in _EDIT_TOOLS or tool.endswith(("__edit_file", "__write_file"))


def _read(records: Sequence[SpoolRecord]) -> _Session:
    """Sort a session's records into runs, edits and prompts, in spool order."""
    session = _Session()
    segment = 0
    seen_calls: dict[str, _Run] = {}
    for record in sorted(records, key=lambda r: r.n):
        event = record.event
        session.untrusted[record.n] = session.untrusted.get(record.n, False) or record.untrusted
        if event.kind is EventKind.PROMPT:
            segment += 1
            if event.prompt and not event.agent_id:
                session.prompts.append(_Prompt(record.n, event.prompt, record.untrusted, segment))
        elif event.kind is EventKind.POST_TOOL and event.tool == SHELL_TOOL and event.command:
            code = _exit_code(event)
            failed = event.failed or event.interrupted or code not in (None, 0)
            call = event.tool_use_id
            if call and call in seen_calls:  # one call reported twice (Cursor)
                earlier = seen_calls[call]
                if failed and not earlier.failed:
                    earlier.failed, earlier.exit_code = True, code
                    earlier.signature = error_signature(event.output or "")
                    earlier.errant = not event.interrupted and not _exploration(earlier.norm)
                continue
            norm = normalise_command(event.command)
            run = _Run(
                n=record.n,
                command=event.command.strip(),
                norm=norm,
                failed=failed,
                exit_code=code,
                signature=error_signature(event.output or "") if failed else None,
                untrusted=record.untrusted,
                segment=segment,
                cwd=event.cwd,
                errant=failed and not event.interrupted and not _exploration(norm),
                kind=command_kind(norm),
                test_key=_test_key(norm),
            )
            if call:
                seen_calls[call] = run
            session.runs.append(run)
        elif _is_edit(event):
            paths = _edit_paths(event)
            if paths:
                content = event.tool_input.get("content")
                session.edits.append(
                    _Edit(
                        n=record.n,
                        paths=paths,
                        untrusted=record.untrusted,
                        segment=segment,
                        pairs=_edit_pairs(event.tool_input),
                        content=content if isinstance(content, str) else None,
                    )
                )
    return session


# --- the rules ------------------------------------------------------------------------


def _signal(session: _Session, kind: SignalKind, evidence: Iterable[int], **fields: Any) -> Signal:
    """A signal citing the given records, untrusted when any of them is."""
    cited = tuple(sorted(set(evidence)))
    untrusted = any(session.untrusted.get(n, False) for n in cited)
    return Signal(kind=kind, evidence=cited, untrusted=untrusted, **fields)


def _paths_of(edits: Iterable[_Edit]) -> tuple[str, ...]:
    """The distinct files a set of edits touched, sorted."""
    return tuple(sorted({path for edit in edits for path in edit.paths}))


def _failure_signal(session: _Session, kind: SignalKind, runs: list[_Run]) -> Signal:
    """An error or retry: the runs cited, and the first one's command, signature and status."""
    first = runs[0]
    return _signal(
        session,
        kind,
        (run.n for run in runs),
        command=first.command,
        signature=first.signature,
        exit_code=first.exit_code,
    )


def _errors(session: _Session) -> list[Signal]:
    """One error per (normalised command, signature), citing each failing run."""
    groups: dict[tuple[str, str | None], list[_Run]] = defaultdict(list)
    for run in session.runs:
        if run.errant:
            groups[(run.norm, run.signature)].append(run)
    return [_failure_signal(session, SignalKind.ERROR, runs) for runs in groups.values()]


def _retries(session: _Session) -> list[Signal]:
    """One retry per chain: a failure, and the runs of the same command up to its pass."""
    open_chains: dict[str, list[_Run]] = {}
    chains: list[list[_Run]] = []
    for run in session.runs:
        chain = open_chains.get(run.norm)
        if chain is not None:
            chain.append(run)
            if not run.failed:
                chains.append(open_chains.pop(run.norm))
        elif run.errant:
            open_chains[run.norm] = [run]
    chains.extend(open_chains.values())
    return [_failure_signal(session, SignalKind.RETRY, chain) for chain in chains if len(chain) > 1]


def _same_check(failing: _Run, passing: _Run) -> bool:
    """Whether a passing run checks what a failing run checked (see the module's fix)."""
    if failing.norm == passing.norm:
        return True
    if failing.test_key is None or passing.test_key is None:
        return False
    (runner_f, targets_f), (runner_p, targets_p) = failing.test_key, passing.test_key
    return runner_f == runner_p and _covers(targets_p, targets_f)


def _edits_between(session: _Session, after: int, before: int) -> list[_Edit]:
    """The edits made between two records."""
    numbers = [edit.n for edit in session.edits]
    return session.edits[bisect_right(numbers, after) : bisect_left(numbers, before)]


def _fixes_and_persistence(session: _Session) -> list[Signal]:
    """Fixes, and dead ends where a signature outlived two attempts the fix then left."""
    fixed_by: dict[int, list[_Run]] = defaultdict(list)
    passes = {run.n: run for run in session.runs if not run.failed}
    for index, run in enumerate(session.runs):
        if not run.errant:
            continue
        later = session.runs[index + 1 :]
        passing = next((p for p in later if not p.failed and _same_check(run, p)), None)
        if passing is not None:
            fixed_by[passing.n].append(run)
    signals: list[Signal] = []
    for pass_n, failures in fixed_by.items():
        passing, last = passes[pass_n], failures[-1]
        fix_edits = _edits_between(session, last.n, pass_n)
        if not fix_edits:
            continue  # a flaky pass: a retry, not a fix
        fix_paths = _paths_of(fix_edits)
        signals.append(
            _signal(
                session,
                SignalKind.FIX,
                [last.n, pass_n, *(edit.n for edit in fix_edits)],
                command=last.command,
                signature=last.signature,
                exit_code=last.exit_code,
                paths=fix_paths,
                text=passing.command,
            )
        )
        signals.extend(_persisted(session, failures, set(fix_paths)))
    return signals


def _persisted(session: _Session, failures: list[_Run], fix_paths: set[str]) -> list[Signal]:
    """Dead ends (b): attempts after which the same signature came back, then left."""
    attempts: dict[str | None, list[tuple[_Run, _Run, list[_Edit]]]] = defaultdict(list)
    for before, after in pairwise(failures):
        edits = _edits_between(session, before.n, after.n)
        if edits and before.signature == after.signature and before.signature is not None:
            attempts[before.signature].append((before, after, edits))
    signals: list[Signal] = []
    for signature, tries in attempts.items():
        if len(tries) < 2:
            continue
        edits = [edit for _, _, batch in tries for edit in batch]
        left = tuple(path for path in _paths_of(edits) if path not in fix_paths)
        if not left:
            continue
        evidence = [n for before, after, _ in tries for n in (before.n, after.n)]
        evidence += [edit.n for edit in edits if set(edit.paths) & set(left)]
        signals.append(
            _signal(session, SignalKind.DEAD_END, evidence, signature=signature, paths=left)
        )
    return signals


_GIT_REVERT = re.compile(
    r"^git (?:checkout|restore)\b|^git reset --hard\b"
    r"|^git stash(?:\s+(?:push|save|-\S+)(?:\s.*)?)?$"
)


def _shell_reverts(session: _Session) -> list[tuple[_Run, tuple[str, ...] | None]]:
    """Shell commands that threw edits away, with the files named (None: all of them)."""
    reverts: list[tuple[_Run, tuple[str, ...] | None]] = []
    for run in session.runs:
        if run.failed:
            continue
        for _, segment in _split_top(run.norm):
            words = _program(_words(segment))
            line = " ".join(words)
            if not _GIT_REVERT.match(line):
                continue
            if words[1] in ("checkout", "restore"):
                named = words[words.index("--") + 1 :] if "--" in words else None
                if named is None:
                    if words[1] == "checkout":
                        continue  # ``git checkout <branch>`` is not a revert
                    named = [w for w in words[2:] if not w.startswith("-")]
                if not named:
                    continue
                paths = None if "." in named else tuple(_relative(p, run.cwd) for p in named)
                reverts.append((run, paths))
            else:
                reverts.append((run, None))
    return reverts


def _reverted_edits(session: _Session) -> list[tuple[int, list[_Edit]]]:
    """Each revert (its record) and the earlier edits it undid."""
    found: list[tuple[int, list[_Edit]]] = []
    changed: dict[tuple[str, str, str], list[_Edit]] = defaultdict(list)
    writes: dict[tuple[str, ...], list[_Edit]] = defaultdict(list)
    for edit in session.edits:
        undone = {
            prior.n: prior
            for path in edit.paths
            for old, new in edit.pairs
            for prior in changed.get((path, new, old), ())
        }
        if edit.content is not None:
            history = writes[edit.paths]
            back = [i for i, prior in enumerate(history) if prior.content == edit.content]
            if back and history[-1].content != edit.content:
                undone.update((prior.n, prior) for prior in history[back[-1] + 1 :])
            history.append(edit)
        if undone:
            found.append((edit.n, [undone[n] for n in sorted(undone)]))
        for path in edit.paths:
            for old, new in edit.pairs:
                changed[(path, old, new)].append(edit)
    last_revert = -1
    for run, paths in _shell_reverts(session):
        thrown = [
            edit
            for edit in session.edits
            if last_revert < edit.n < run.n and (paths is None or set(edit.paths) & set(paths))
        ]
        if thrown:
            found.append((run.n, thrown))
            last_revert = run.n
    return found


def _reverts(session: _Session) -> list[Signal]:
    """Dead ends (a): edits made after a failure, then reverted."""
    signals: list[Signal] = []
    failures = [run for run in session.runs if run.errant]
    for revert_n, undone in _reverted_edits(session):
        first = min(edit.n for edit in undone)
        before = [run for run in failures if run.n < first]
        if not before:
            continue
        latest = [run for run in failures if run.n < revert_n][-1]
        evidence = [before[-1].n, latest.n, revert_n, *(edit.n for edit in undone)]
        signals.append(
            _signal(
                session,
                SignalKind.DEAD_END,
                evidence,
                command=before[-1].command,
                signature=latest.signature,
                paths=_paths_of(undone),
            )
        )
    return signals


_REJECTION = re.compile(
    r"^\W*(?:no\s*[,.!]\s*(?!problem|worries|need|thanks|rush)|nope\b|wrong\b)"
    r"|\b(?:that|this|it)(?:'s| is) (?:wrong|not (?:right|it|what i (?:asked|wanted)))"
    r"|\bwrong (?:approach|fix|file|direction)\b"
    r"|\bdo(?:n'?t| not) do (?:that|this)\b"
    r"|\b(?:revert|undo|roll back) (?:that|this|it|those|these|your)\b"
    r"|\b(?:that|this|it) (?:didn'?t|did not|doesn'?t|does not) (?:work|help|fix)\b"
    r"|\bnot like (?:that|this)\b",
    re.IGNORECASE,
)


def _rejections(session: _Session) -> list[Signal]:
    """Dead ends (c): the user's next prompt rejected the last segment's edits."""
    signals: list[Signal] = []
    for prompt in session.prompts:
        if not _REJECTION.search(_unquoted(prompt.text)[:300]):
            continue
        edits = [edit for edit in session.edits if edit.segment == prompt.segment - 1]
        if not edits:
            continue
        failures = [
            run
            for run in session.runs
            if run.errant and run.segment == prompt.segment - 1 and run.n < prompt.n
        ]
        signals.append(
            _signal(
                session,
                SignalKind.DEAD_END,
                [prompt.n, *(edit.n for edit in edits), *(run.n for run in failures[-1:])],
                signature=failures[-1].signature if failures else None,
                paths=_paths_of(edits),
            )
        )
    return signals


_FENCE = re.compile(r"(?ms)^\s*(```|~~~).*?(?:^\s*\1[^\n]*$|\Z)")
_QUOTED_LINE = re.compile(r"(?m)^\s*>.*$")
_QUOTED_SPAN = re.compile(r"`[^`\n]*`|\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d")
_SENTENCE = re.compile(r"(?:[^.!?\n]|[.!?](?=[^\s.!?]))+(?:[.!?]+|$)", re.MULTILINE)
"""A sentence of a prompt whose quoted spans are masked: it ends at ``.``, ``!`` or ``?``
before a space or the end, so ``package-lock.json`` and ``e.g.`` do not end one."""
_LEAD = (
    r"^(?:(?:please|pls|and|also|but|so|ok(?:ay)?|remember|note|important|we)\b[\s,:]*"
    r"|(?:you|we) (?:should|must|need to|have to)\s+)*"
)
_RULE = re.compile(
    _LEAD + r"(?:always|never(?! mind)|don'?t ever|do not ever|prefer|"
    r"make sure (?:to|that|you|we)|remember (?:that|to)|use\b.*(?:instead of|rather than|, not)\b)"
    r"|^we use\b|^(?:we|i) prefer\b"
    r"|\bfrom now on\b|\bgoing forward\b|\bin (?:this|our) (?:project|repo|codebase)\b"
    r"|^(?:toujours|jamais|ne jamais|n'utilise jamais)\b|\b(?:dor[ée]navant|d[ée]sormais|"
    r"[àa] partir de maintenant)\b"
    r"|^(?:immer|nie|niemals)\b|\b(?:ab jetzt|ab sofort|von nun an|k[üu]nftig)\b"
    r"|^(?:siempre|nunca|jam[áa]s)\b|\b(?:a partir de ahora|de ahora en adelante)\b",
    re.IGNORECASE,
)
_QUESTION_START = re.compile(
    r"^(?:do|does|did|should|shall|can|could|would|will|why|how|what|when|where|which|"
    r"is|are|was|were|have|has)\b",
    re.IGNORECASE,
)


_TERM = r"`?([\w][\w.+/-]*)`?"
_REPLACED = re.compile(
    r"\b(?:moved|switched|migrated|changed|gone|went|ported)\s+(?:\w+\s+){0,2}?from\s+"
    + _TERM
    + r"\s+(?:over\s+)?to\b"
    r"|\breplaced?\s+" + _TERM + r"\s+(?:with|by)\b"
    r"|\b(?:instead of|rather than)\s+(?:using\s+|running\s+)?"
    + _TERM
    + r"|\bno longer\s+(?:use|uses|using|run|runs|need|needs)\s+"
    + _TERM
    + r"|\buse\s+`?[\w.+/-]+`?\s*,\s*not\s+"
    + _TERM
    + r"|"
    + _TERM
    + r"\s+is\s+(?:gone|dropped|removed|deprecated)\b",
    re.IGNORECASE,
)
_NOT_A_TERM = frozenset({"it", "this", "that", "these", "those", "them", "the", "a", "an"})


def replaced_terms(text: str) -> tuple[str, ...]:
    """What a prompt says was replaced, in its own words, lowercased and in order.

    "We moved from npm to pnpm", "black is gone", "use uv, not pip", "instead of
    `make`", "replace Jest with Vitest": ``npm``, ``black``, ``pip``, ``make``, ``jest``.
    """
    found: list[str] = []
    for match in _REPLACED.finditer(_unquoted(text)):
        term = next(group for group in match.groups() if group is not None)
        term = term.lower().rstrip("./+-")  # a sentence's full stop is not the name's
        if term not in _NOT_A_TERM and len(term) > 1:
            found.append(term)
    return tuple(dict.fromkeys(found))


def _unquoted(text: str) -> str:
    """A prompt without fenced code and block quotes."""
    return _QUOTED_LINE.sub("", _FENCE.sub("", text))


def _rules(session: _Session) -> list[Signal]:
    """Rules and preferences the user stated, one signal per sentence as written."""
    found: dict[str, list[_Prompt]] = defaultdict(list)
    texts: dict[str, str] = {}
    for prompt in session.prompts:
        text = _unquoted(prompt.text)
        masked_text = _QUOTED_SPAN.sub(lambda m: "_" * len(m.group(0)), text)
        for match in _SENTENCE.finditer(masked_text):  # `go vet ./...` ends no sentence
            start, end = match.span()
            sentence = text[start:end].strip(" \t-*\u2022")
            masked = masked_text[start:end].strip(" \t-*\u2022")
            if sentence.endswith("?") or _QUESTION_START.match(masked):
                continue
            if not _RULE.search(masked):
                continue
            key = _SPACE.sub(" ", sentence).casefold().rstrip(".!")
            texts.setdefault(key, _SPACE.sub(" ", sentence))
            found[key].append(prompt)
    return [
        _signal(session, SignalKind.RULE, (p.n for p in prompts), text=texts[key])
        for key, prompts in found.items()
    ]


def _commands(session: _Session) -> list[Signal]:
    """Commands that build or test the project and passed at least once."""
    groups: dict[str, list[_Run]] = defaultdict(list)
    for run in session.runs:
        if run.kind is not None:
            groups[run.norm].append(run)
    signals: list[Signal] = []
    for runs in groups.values():
        passed = [run for run in runs if not run.failed]
        if not passed:
            continue
        kind = SignalKind.TEST_COMMAND if runs[0].kind == "test" else SignalKind.BUILD_COMMAND
        signals.append(_signal(session, kind, (run.n for run in runs), command=passed[-1].command))
    return signals


def _co_edited(session: _Session) -> list[Signal]:
    """Files edited together in one task segment (two or more)."""
    segments: dict[int, list[_Edit]] = defaultdict(list)
    for edit in session.edits:
        segments[edit.segment].append(edit)
    return [
        _signal(session, SignalKind.CO_EDITED, (e.n for e in edits), paths=_paths_of(edits))
        for edits in segments.values()
        if len(_paths_of(edits)) >= 2
    ]


def derive_signals(records: Sequence[SpoolRecord]) -> list[Signal]:
    """The signals of one session's spool records, each citing its evidence.

    Args:
        records: The session's spool records (any order; read by ``n``).

    Returns:
        The signals, ordered by first evidence, then kind; duplicates dropped.
    """
    session = _read(records)
    signals = [
        *_errors(session),
        *_retries(session),
        *_fixes_and_persistence(session),
        *_reverts(session),
        *_rejections(session),
        *_rules(session),
        *_commands(session),
        *_co_edited(session),
    ]
    unique = list(dict.fromkeys(signals))
    return sorted(
        unique,
        key=lambda s: (s.evidence[0] if s.evidence else -1, _KIND_ORDER[s.kind], s.evidence),
    )
