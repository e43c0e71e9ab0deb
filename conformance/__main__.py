"""``python -m conformance`` is the ``orca-conformance`` command."""

import sys

from .cli import main

sys.exit(main())
