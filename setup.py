"""The one build step pyproject.toml cannot declare (everything else is there): the opening book.

`opening_book.py` reads `opening_book.txt` beside itself, as in the submitted bundle, and it is a
top-level module, not a package that could carry package data; so the book is copied beside the
installed module. (MANIFEST.in puts it into the sdist.) An editable install (`pip install -e .`)
reads it from the checkout.

The compiled solver is not built here: the wheel stays pure Python (`py3-none-any`) and carries
the C sources, which littlego/solver/build.py compiles on the machine that uses them, at the
solver's first use or by `littlego build-solver`.
"""

import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK_FILE = "opening_book.txt"


class BuildWithBook(build_py):
    def run(self):
        super().run()
        if not self.editable_mode:
            shutil.copy(os.path.join(HERE, BOOK_FILE), os.path.join(self.build_lib, BOOK_FILE))


setup(cmdclass={"build_py": BuildWithBook})
