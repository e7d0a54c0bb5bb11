"""What serving a written memory costs: a new client process's resident memory.

``graphmem bench scale`` runs this module in a process of its own once a size is
written, as a restarted ``graphmem serve`` starts: it opens a client of the bench's
principal, loads or builds the views, recalls, and prints its resident memory. The
bench's own process also holds what writing the memory left behind (its allocator
keeps freed memory), so this is the figure a server pays for the memory it serves.

It reads one JSON object on stdin: ``principal``, ``embedder`` (``hashed`` or
``minilm``) and ``queries`` (``[text, project]`` pairs); it prints one JSON object.
The connection comes from the environment, as for any client.
"""

from __future__ import annotations

import json
import sys

from graphmem.bench.stats import rss_mb
from graphmem.client import GraphMem
from graphmem.vectors.hashed import HashedEmbedder
from graphmem.vectors.minilm import MiniLMEmbedder
from graphmem.vectors.protocol import Embedder


def measure(
    principal: str, embedder: Embedder, queries: list[tuple[str, str]]
) -> dict[str, float | None]:
    """Opens a client of ``principal``, recalls ``queries`` and returns its memory in MB."""
    started = rss_mb()
    with GraphMem(principal, embedder=embedder) as memory:
        for text, project in queries:
            memory.recall(text, project=project, k=10)
        serving = rss_mb()
    return {
        "recalls": len(queries),
        "at_start_mb": started,
        "serving_mb": serving,
        "peak_mb": rss_mb("VmHWM"),
    }


def main() -> None:
    """Reads the request on stdin and prints the figures."""
    request = json.load(sys.stdin)
    embedder: Embedder = HashedEmbedder() if request["embedder"] == "hashed" else MiniLMEmbedder()
    queries = [(str(text), str(project)) for text, project in request["queries"]]
    print(json.dumps(measure(str(request["principal"]), embedder, queries)))


if __name__ == "__main__":
    main()
