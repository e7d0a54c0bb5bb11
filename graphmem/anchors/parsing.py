"""Parses source files on several cores, in worker processes of graphmem's own.

multiprocessing's ``spawn`` start method re-imports the caller's ``__main__`` in every
worker, so a script with no ``if __name__ == "__main__":`` guard would run again in
each one (writing its memory again, then failing with ``BrokenProcessPool``); ``fork``
would copy the driver's threads and locks. These workers are plain subprocesses running
:mod:`graphmem.anchors.parse_worker`: they never touch the caller's main module, so
:func:`parse_files` works the same from a script, a REPL, a notebook or a server.

The protocol is private to the two ends: a length-prefixed pickle of a chunk of tasks
goes in on the worker's stdin, a length-prefixed pickle of its extractions comes back
on its stdout, in order.
"""

from __future__ import annotations

import pickle
import queue
import subprocess
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO

from graphmem.anchors.extract import FileExtraction, extract_file
from graphmem.anchors.languages import load_language

PARALLEL_THRESHOLD = 32
"""Below this many files to parse, parsing stays in-process (no worker start-up)."""
CHUNK_FILES = 8
"""Files sent to a worker at a time."""
_HEADER_BYTES = 8
_BARE_PACKAGE = (
    "import sys, types; "
    "package = types.ModuleType('graphmem'); package.__path__ = [sys.argv[1]]; "
    "sys.modules['graphmem'] = package; "
)
"""How a worker's program begins: graphmem's modules load from the parent's own package
directory (``sys.argv[1]``) under a bare ``graphmem`` package. ``graphmem/__init__``
imports the client and the Neo4j driver, which took a worker 0.9 of its 1.2 s start-up
(parsing needs none of it), while a cold index of Django parses for about 3 s."""
_WORKER_MAIN = _BARE_PACKAGE + "from graphmem.anchors.parse_worker import main; main()"

Task = tuple[str, str, bytes]
"""(repo-relative path, language name, file bytes)."""


def extract_task(task: Task) -> FileExtraction:
    """Extracts one file of a known, loadable language."""
    path, lang, data = task
    language = load_language(lang)
    if language is None:  # listed only when loadable; a worker without it is a bug
        raise RuntimeError(f"grammar for {lang} is not installed")
    return extract_file(language, path, data)


def write_frame(stream: IO[bytes], payload: bytes) -> None:
    """Writes one length-prefixed frame and flushes it."""
    stream.write(len(payload).to_bytes(_HEADER_BYTES, "big"))
    stream.write(payload)
    stream.flush()


def read_frame(stream: IO[bytes]) -> bytes | None:
    """Reads one length-prefixed frame; None at a clean end of stream."""
    header = stream.read(_HEADER_BYTES)
    if not header:
        return None
    if len(header) != _HEADER_BYTES:
        raise EOFError("the stream ended inside a frame header")
    size = int.from_bytes(header, "big")
    payload = stream.read(size)
    if len(payload) != size:
        raise EOFError("the stream ended inside a frame")
    return payload


class ParseWorkerError(RuntimeError):
    """A parse worker died or answered out of protocol (a bug, not bad input)."""


class _Worker:
    """One parse worker process and its pipes."""

    def __init__(self) -> None:
        # The parent's own graphmem, installed or a source checkout.
        package_dir = str(Path(__file__).resolve().parents[1])
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_MAIN, package_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def run(self, chunk: Sequence[Task]) -> list[FileExtraction]:
        assert self.process.stdin is not None and self.process.stdout is not None
        try:
            write_frame(self.process.stdin, pickle.dumps(list(chunk), pickle.HIGHEST_PROTOCOL))
            answer = read_frame(self.process.stdout)
        except (OSError, EOFError) as error:
            raise ParseWorkerError(f"a parse worker failed: {error}") from error
        if answer is None:
            raise ParseWorkerError(f"a parse worker exited with code {self.process.wait()}")
        results: list[FileExtraction] = pickle.loads(answer)
        return results

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def _parallel(tasks: Sequence[Task], workers: int) -> Iterator[FileExtraction]:
    chunks = [tasks[i : i + CHUNK_FILES] for i in range(0, len(tasks), CHUNK_FILES)]
    started = [_Worker() for _ in range(min(workers, len(chunks)))]
    idle: queue.SimpleQueue[_Worker] = queue.SimpleQueue()
    for worker in started:
        idle.put(worker)

    def run(chunk: Sequence[Task]) -> list[FileExtraction]:
        worker = idle.get()
        try:
            return worker.run(chunk)
        finally:
            idle.put(worker)

    try:
        with ThreadPoolExecutor(len(started), thread_name_prefix="graphmem-parse") as threads:
            for results in threads.map(run, chunks):
                yield from results
    finally:
        for worker in started:
            worker.close()


def parse_files(tasks: Sequence[Task], workers: int) -> Iterator[FileExtraction]:
    """Extracts every task's file, in the order given.

    Args:
        tasks: The files to parse.
        workers: Worker processes to use; small jobs and ``workers <= 1`` stay in-process.

    Raises:
        ParseWorkerError: A worker process died.
    """
    if len(tasks) < PARALLEL_THRESHOLD or workers <= 1:
        return map(extract_task, tasks)
    return _parallel(tasks, workers)
