"""Every notebook in notebooks/ executes from a clean kernel without error.

The notebooks are kept as plain-text sources in jupytext's percent format
(``notebooks/NAME.py``, cells separated by ``# %%``); each is converted to a notebook
here and executed by nbclient, as a user who opens it in Jupyter would run it.
"""

from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("[0-9][0-9]_*.py"))


def test_there_are_notebooks():
    assert len(NOTEBOOKS) >= 4


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_source_has_cells(path):
    notebook = jupytext.read(path, fmt="py:percent")
    kinds = {cell.cell_type for cell in notebook.cells}
    assert kinds == {"code", "markdown"}
    assert notebook.cells[0].cell_type == "markdown" and notebook.cells[0].source.startswith("# ")


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes(path, tmp_path):
    notebook = jupytext.read(path, fmt="py:percent")
    client = NotebookClient(
        notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]
    assert errors == []
