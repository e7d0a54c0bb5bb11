"""The parse worker process that :mod:`graphmem.anchors.parsing` starts.

Reads chunks of tasks from stdin and writes their extractions to stdout until stdin
closes (see :mod:`graphmem.anchors.parsing`). Anything imported code prints goes to
stderr, so it can never corrupt the answers.
"""

from __future__ import annotations

import os
import pickle
import sys

from graphmem.anchors.parsing import Task, extract_task, read_frame, write_frame


def main() -> None:
    """Serves parse requests until the parent closes the pipe."""
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    requests = sys.stdin.buffer
    while (frame := read_frame(requests)) is not None:
        tasks: list[Task] = pickle.loads(frame)
        write_frame(
            answers, pickle.dumps([extract_task(t) for t in tasks], pickle.HIGHEST_PROTOCOL)
        )
    answers.close()


if __name__ == "__main__":
    main()
