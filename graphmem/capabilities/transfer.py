"""Transfer: a principal's durable memory written out as a graphmem export, and read in.

The export is versioned JSON Lines in a fixed order (the same memory gives the same
bytes); an import is validated whole, then written in slices, all or nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from graphmem.capabilities.context import Capability
from graphmem.content import is_name
from graphmem.errors import InvalidInput
from graphmem.settings import private_file
from graphmem.transfer import exporter, importer
from graphmem.transfer.summary import ExportSummary, ImportSummary
from graphmem.validation import check_project


@contextmanager
def _written(path: str | Path, field: str) -> Iterator[IO[str]]:
    """The file at ``path`` written as UTF-8 text, 0600 whatever the umask (secrets).

    ``field`` names the argument in the error; lines end Unix-style.

    Raises:
        InvalidInput: The file cannot be written (rule ``file``).
    """
    try:
        with private_file(Path(path)) as written:
            yield written
    except OSError as error:
        raise InvalidInput(
            f"{field}: cannot write {path}: {error.strerror}", field=field, rule="file"
        ) from None


@contextmanager
def _read(path: str | Path, field: str) -> Iterator[IO[bytes]]:
    """The file at ``path`` opened for reading bytes; ``field`` names it in the error.

    Raises:
        InvalidInput: The file cannot be opened or read (rule ``file``).
    """
    try:
        with Path(path).open("rb") as stream:
            yield stream
    except OSError as error:
        raise InvalidInput(
            f"{field}: cannot read {path}: {error.strerror}", field=field, rule="file"
        ) from None


class Transfer(Capability):
    """Export this principal's memory, and import an export."""

    def export(
        self,
        out: IO[str] | str | Path,
        *,
        project: str | None = None,
        include_secret: bool = False,
    ) -> ExportSummary:
        """Writes this principal's durable memory as a graphmem export (JSON Lines).

        The file holds, after a header line, the projects, episodes, beliefs (their
        whole history), provenance, supersession, conflicts, corrections, tombstones
        and the change log, in a fixed order: the same memory gives the same bytes.
        Access tokens, recall traces and the code graph are left out.

        Args:
            out: A text stream, or the path of the file to write.
            project: Only that project's memory (its episodes, the beliefs stated or
                learned there, and what links them).
            include_secret: Also write the secret episodes and beliefs (left out by
                default, with their links and events, and counted as ``withheld``).

        Raises:
            InvalidInput: ``project`` is not a valid name.
        """
        chosen = None if project is None else check_project(project)
        if isinstance(out, str | Path):
            with _written(out, "out") as stream:
                return exporter.export_memory(
                    self._db, self._principal, chosen, stream, include_secret
                )
        return exporter.export_memory(self._db, self._principal, chosen, out, include_secret)

    def import_memory(
        self,
        source: IO[str] | IO[bytes] | str | Path,
        *,
        as_principal: str | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> ImportSummary:
        """Imports a graphmem export, all or nothing, keeping its ids.

        Every line is validated before anything is written; then the file is written
        in slices of up to 5,000 rows, with new seqs from this store's clock in the
        file's order. Recall sees it once the last slice commits; a failure undoes
        it; when the process died part way, the same import made again finishes it.
        Importing the same file again writes nothing.

        Args:
            source: A text or binary stream, or the path of the file to read (bytes
                are decoded as UTF-8; a line that is not is refused, naming it).
            as_principal: Re-own the memory: write it for this principal (ids another
                principal holds get new ones, consistently). Without it, the file
                must hold this client's principal's memory.
            progress: Called with (rows written, rows in all) as the write proceeds.

        Raises:
            InvalidInput: A bad line (``details``: line, field, rule), or the file is
                another principal's and ``as_principal`` is not given.
            StateConflict: An id is another principal's and the import does not re-own,
                or the store already holds part (not all) of the file, or another
                process is importing the same file (rule ``import_running``).
            ConcurrentWrite: The import paused so long between two slices that its
                seqs expired; what it wrote is undone, make the call again.
        """
        if as_principal is not None and not is_name(as_principal):
            raise InvalidInput(
                f"as_principal: {as_principal!r} is not a valid name (letters, digits and ._:/@+-)",
                field="as_principal",
                rule="pattern",
            )
        self._engine.wrote()  # this client's next recall reads all of it
        if isinstance(source, str | Path):
            with _read(source, "source") as stream:
                return importer.import_memory(
                    self._db, self._principal, stream, as_principal, progress
                )
        return importer.import_memory(self._db, self._principal, source, as_principal, progress)
