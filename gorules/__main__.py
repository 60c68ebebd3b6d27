"""``python -m gorules`` is the ``gorules`` command."""

import sys

from gorules.cli import main

sys.exit(main())
