"""``gorules verify``: the table, and an exit code that passes only when every check that ran passed."""

import argparse

import gorules.commands.verify as verify_command
from gorules.verify import Check, Outcome, not_run


def run_with(monkeypatch, capsys, outcomes):
    checks = [Check(f"check {i}", "-", (lambda o=o: o)) for i, o in enumerate(outcomes)]
    monkeypatch.setattr(verify_command, "registered_checks", lambda: checks)
    code = verify_command.run(argparse.Namespace(json=False, only=None))
    return code, capsys.readouterr().out


def test_all_passing_exits_zero(monkeypatch, capsys):
    code, out = run_with(monkeypatch, capsys, [Outcome(True, "fine"), Outcome(True, "fine")])
    assert code == 0 and "2 of 2 checks passed" in out


def test_one_failure_exits_one(monkeypatch, capsys):
    code, out = run_with(monkeypatch, capsys, [Outcome(True, "fine"), Outcome(False, "broken")])
    assert code == 1 and "FAIL broken" in out


def test_a_crashing_check_is_a_failing_row(monkeypatch, capsys):
    def crash():
        raise RuntimeError("boom")

    monkeypatch.setattr(verify_command, "registered_checks", lambda: [Check("crash", "-", crash)])
    assert verify_command.run(argparse.Namespace(json=False, only=None)) == 1
    assert "FAIL error: RuntimeError: boom" in capsys.readouterr().out


def test_a_check_that_cannot_run_is_shown_and_not_counted_as_passed(monkeypatch, capsys):
    code, out = run_with(monkeypatch, capsys, [Outcome(True, "fine"), not_run("GNU Go is not installed")])
    assert code == 0
    assert "skip not run: GNU Go is not installed" in out
    assert "1 of 2 checks passed; 1 not run" in out
