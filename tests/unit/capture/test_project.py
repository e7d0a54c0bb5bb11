"""Which project a hook event belongs to: the work tree's name, or .graphmem.toml's."""

from __future__ import annotations

from pathlib import Path

import pytest

from graphmem.capture.project import project_of


def test_the_work_trees_root_names_the_project(tmp_path: Path) -> None:
    root = tmp_path / "shop"
    (root / ".git").mkdir(parents=True)
    (root / "src" / "deep").mkdir(parents=True)
    project = project_of(str(root / "src" / "deep"))
    assert (project.name, project.root, project.capture) == ("shop", root, True)


def test_graphmem_toml_names_the_project_and_can_opt_out(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".graphmem.toml").write_text('project = "billing"\ncapture = false\n')
    project = project_of(str(tmp_path))
    assert (project.name, project.capture) == ("billing", False)


def test_a_directory_name_becomes_a_valid_name(tmp_path: Path) -> None:
    root = tmp_path / "my project (copy)"
    (root / ".git").mkdir(parents=True)
    assert project_of(str(root)).name == "my-project--copy-"


def test_an_invalid_configured_name_is_an_error(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".graphmem.toml").write_text('project = "../etc"\n')
    with pytest.raises(ValueError, match="no valid project name"):
        project_of(str(tmp_path))
