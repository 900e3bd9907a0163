"""The two build steps pyproject.toml cannot declare (everything else is there).

1. The compiled exact solver (littlego/solver/src, C loaded with ctypes, not a Python extension):
   compiled into the built package by `littlego.solver.build`, the one home of its flags. A
   machine without a C compiler still installs; the solver's users then say in one line how to
   build it (`make solver` or `littlego build-solver`).
2. The opening book: `opening_book.py` reads `opening_book.txt` beside itself, as in the
   submitted bundle, so the book is copied beside the installed module.
An editable install (`pip install -e .`) reads both from the checkout, where `make solver`
builds the library.
"""

import importlib.util
import os
import shutil
import sys

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK_FILE = "opening_book.txt"


def load_solver_build():
    """littlego/solver/build.py, standard library only, loaded from its file: the package it
    belongs to is what is being built, so it cannot be imported yet."""
    path = os.path.join(HERE, "littlego", "solver", "build.py")
    spec = importlib.util.spec_from_file_location("littlego_solver_build", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithSolverAndBook(build_py):
    def run(self):
        super().run()
        if self.editable_mode:
            return
        shutil.copy(os.path.join(HERE, BOOK_FILE), os.path.join(self.build_lib, BOOK_FILE))
        solver_build = load_solver_build()
        library = os.path.join(self.build_lib, os.path.relpath(solver_build.LIBRARY_PATH, HERE))
        if os.path.exists(library):  # build_lib outlives a build: never ship an earlier library
            os.remove(library)
        try:
            solver_build.build(library)
        except solver_build.BuildError as error:
            print("littlego: the compiled solver was not built ({}); the agent does not need "
                  "it".format(error), file=sys.stderr)


setup(cmdclass={"build_py": BuildWithSolverAndBook})
