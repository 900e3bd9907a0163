"""`python3 -m littlego ...`: the `littlego` command without its installed script."""

import sys

from littlego.cli import main

sys.exit(main())
