"""The .cypher files: every one loads, migrations are well named, statements split."""

from __future__ import annotations

import re

from graphmem.store.cypher import cypher, queries_dir, split_statements
from graphmem.store.migrations import available_migrations


def test_every_query_file_loads_and_names_no_format_placeholders() -> None:
    names = [
        path.relative_to(queries_dir()).with_suffix("").as_posix()
        for path in queries_dir().rglob("*.cypher")
        if "schema" not in path.parts
    ]
    assert "belief/create" in names
    for name in names:
        text = cypher(name)
        assert text.strip()
        assert "{}" not in text and "%s" not in text


def test_every_read_of_memory_filters_on_principal() -> None:
    for path in queries_dir().rglob("*.cypher"):
        if path.parent.name in ("belief", "episode", "memory", "browser"):
            assert "$principal" in path.read_text(), path.name


_MATCH_BY_ROW_ID = re.compile(r"MATCH \((\w+):(\w+) \{id: (?!\$\w+\}|'[^']*'\})[^}]+\}\)\s*$")


def test_every_match_by_a_row_s_id_names_the_id_index() -> None:
    # By an id taken from a row ($ids[i], row.id), the planner may seek the principal's
    # index and filter every node of the principal by id, once per row; on a small
    # store it often does, and keeps the plan while the store grows.
    checked = 0
    for path in queries_dir().rglob("*.cypher"):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            found = _MATCH_BY_ROW_ID.search(line)
            if found:
                variable, label = found.group(1), found.group(2)
                hint = f"USING INDEX SEEK {variable}:{label}(id)"
                assert hint in lines[number + 1], f"{path.name}:{number + 1}: {hint}"
                checked += 1
    assert checked >= 20


def test_every_index_hint_asks_for_a_seek() -> None:
    # A plain `USING INDEX` lets the planner scan the whole index and filter, once per
    # row: on a small or just-emptied store it did (code/link_contains read 3M index
    # entries for 1,546 links), and the cached plan outlived the store's growth.
    hinted = 0
    for path in queries_dir().rglob("*.cypher"):
        for line in path.read_text(encoding="utf-8").splitlines():
            statement = line.split("//")[0]  # a comment may name a hint
            if "USING INDEX" in statement:
                assert "USING INDEX SEEK " in statement, f"{path.name}: {line.strip()}"
                hinted += 1
    assert hinted >= 50


def test_migrations_are_numbered_in_order() -> None:
    migrations = available_migrations()
    assert [m.id for m in migrations] == sorted(m.id for m in migrations)
    assert migrations[0].id == "001"
    for migration in migrations:
        for statement in split_statements(migration.text):
            assert not statement.endswith(";")
            # Every statement is idempotent: guarded schema changes, MERGE, a data
            # update that only touches nodes it has not touched yet, or a (batched)
            # statement whose only writes are MERGEs.
            guarded = ("IF NOT EXISTS", "IF EXISTS", "IS NULL")
            merges_only = "MERGE" in statement and not re.search(
                r"\bCREATE\s*[(:]|\bDELETE\b|\bREMOVE\b", statement
            )
            assert (
                statement.startswith("MERGE") or merges_only or any(g in statement for g in guarded)
            )


def test_split_statements() -> None:
    text = "// comment\nCREATE A;\nCREATE B\n  MORE;\n\nCREATE C"
    assert split_statements(text) == ["CREATE A", "CREATE B\n  MORE", "CREATE C"]


_MATCH_BY_PROPERTY = re.compile(r"MATCH \((\w+):(\w+) \{")


def test_a_query_planned_once_names_an_index_for_every_node_it_starts_from() -> None:
    # `CYPHER replan=skip` keeps the first plan for the server's life: it must not
    # depend on the statistics of the store it was first planned on.
    pinned = 0
    for path in queries_dir().rglob("*.cypher"):
        text = path.read_text(encoding="utf-8")
        if "CYPHER replan=skip" not in text:
            continue
        pinned += 1
        lines = text.splitlines()
        for number, line in enumerate(lines):
            statement = line.split("//")[0]
            found = _MATCH_BY_PROPERTY.search(statement)
            if found:
                hint = f"USING INDEX SEEK {found.group(1)}:{found.group(2)}("
                assert hint in lines[number + 1], f"{path.name}:{number + 1}: {hint}"
            elif "MATCH (" in statement and "-" in statement:  # one node: a scan is the only plan
                if "USING INDEX SEEK" in lines[number + 1]:
                    continue
                # A walk from a bound node, unhinted: with a label, a property or a
                # WHERE on the node it reaches, the plan may start there instead.
                pattern = statement.split("MATCH", 1)[1]
                assert not re.search(r"\(\w*:|\{", pattern), f"{path.name}:{number + 1}: {line}"
                assert not lines[number + 1].lstrip().startswith("WHERE"), (
                    f"{path.name}:{number + 2}"
                )
    assert pinned >= 5


# A pattern comprehension, `[(start)-[:TYPE]->(far) ... | ...]`, up to its `|`.
_PATTERN_COMPREHENSION = re.compile(r"\[\s*\((?:[^|\[\]]|\[[^\]]*\])*\|")


def test_every_pattern_comprehension_walks_out_from_its_bound_node() -> None:
    # A label, a property map or a WHERE inside the pattern lets the planner start from
    # the far node instead (a label scan, or an index seek of the whole principal) and
    # expand into the bound one, once per row: recall/belief_candidates read 992k db
    # hits for 78 rows at 2,000 beliefs. Test what the walk reached in a list
    # comprehension around it instead.
    walks = 0
    for path in queries_dir().rglob("*.cypher"):
        text = "\n".join(
            line.split("//")[0] for line in path.read_text(encoding="utf-8").splitlines()
        )
        for found in _PATTERN_COMPREHENSION.finditer(text):
            pattern = found[0]
            assert not re.search(r"\(\w*:|\{|\bWHERE\b", pattern), f"{path.name}: {pattern}"
            walks += 1
    assert walks >= 8
