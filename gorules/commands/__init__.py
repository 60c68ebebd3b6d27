"""CLI subcommands, one module each.

Every module here defines ``register(subparsers)``, which adds its subcommand and sets
``func`` on the parser to a function ``(args) -> int`` (the exit code).  ``gorules.cli``
discovers the modules, so a new capability joins the CLI by adding a module.
"""
