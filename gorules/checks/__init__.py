"""Checks that ``gorules verify`` runs, one module per capability.

Every module here defines ``checks() -> list[Check]``: cheap to call (it only describes
the checks); the work happens when a check's ``run`` is called.  ``gorules.verify``
discovers the modules, so a capability joins ``verify`` by adding a module.
"""
