from __future__ import annotations

import sys

from tests.fuzz.run import main

sys.exit(main(sys.argv[1:]))
