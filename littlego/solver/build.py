"""How the compiled solver is built: its sources, its compiler flags and where the library goes.

    littlego build-solver [--force] [--native] [--quiet]   one line: built, or up to date

Reading guide: `build` compiles SOURCE_DIR's C files into LIBRARY_PATH when the library is
missing or a source or header is newer (`up_to_date`), and returns its path; `main` is the
command. This module is the one home of all three: the Makefile's `solver` target, the CLI
and the binding (littlego/solver/__init__.py, which takes LIBRARY_PATH from here and builds the
library at its first use when it is missing) ask it. Standard library only, and importing it
loads nothing: the binding loads the library itself, when first asked.

Where it is built: always on the machine that uses it, never shipped. The wheel is pure Python
(`py3-none-any`) and carries the C sources; an installed package compiles them into its own
directory at the solver's first use or by `littlego build-solver` (run by whoever may write
that directory). The flags are the compiler's
baseline for this CPU family, so a library copied with a venv to another machine of the same
family still runs; `--native` (what `make solver` uses in a checkout, and what the figures in
docs/benchmarks.md were measured with) adds -march=native, this CPU's own instructions.
-flto lets the rules' small functions inline across files, and -fvisibility=hidden
lets it inline the table's too (only api.c's door, marked LG_EXPORT in api.h, is exported: an
exported function may be replaced at load time, so calls to one go through the PLT,
uninlined). -Werror: a warning is a build failure.
"""

import argparse
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.path.join(HERE, "src")
LIBRARY_PATH = os.path.join(HERE, "build", "liblittlego_solver.so")
CFLAGS = ("-O3", "-flto", "-fvisibility=hidden", "-std=c11", "-Wall", "-Wextra", "-Werror",
          "-shared", "-fPIC")
NATIVE_FLAGS = ("-march=native",)  # opt-in: `littlego build-solver --native`
DEFAULT_COMPILER = "cc"  # unless $CC names another
TEMPORARY_SUFFIX = ".tmp"  # the compiler's output, named after the library and the process
COMMAND = "build-solver"  # how `main` names itself in its messages (`littlego build-solver`)


class BuildError(Exception):
    """The compiler is missing or failed; its own diagnostics went to stderr."""


def sources():
    """The C files compiled into the library, in name order."""
    return sorted(glob.glob(os.path.join(SOURCE_DIR, "*.c")))


def dependencies():
    """Every file the library is built from: the C files and the headers they include."""
    return sorted(glob.glob(os.path.join(SOURCE_DIR, "*.[ch]")))


def up_to_date(library_path=LIBRARY_PATH):
    """Whether `library_path` exists and no source or header is newer than it."""
    try:
        built = os.stat(library_path).st_mtime_ns
    except FileNotFoundError:
        return False
    return all(os.stat(path).st_mtime_ns <= built for path in dependencies())


def build(library_path=LIBRARY_PATH, compiler=None, force=False, native=False):
    """Compile the library into `library_path` unless it is up to date (`force`: in any case)
    and return its path. `compiler`: None for $CC, or cc without it; `native`: tuned for this
    CPU (NATIVE_FLAGS). The compiler writes a file
    of its own beside the library that then replaces it, so a process that has the old library
    loaded, or another build at the same time, never sees half a file. BuildError when it
    fails."""
    if not force and up_to_date(library_path):
        return library_path
    if compiler is None:
        compiler = os.environ.get("CC", DEFAULT_COMPILER)
    os.makedirs(os.path.dirname(os.path.abspath(library_path)), exist_ok=True)
    temporary = "{}.{}{}".format(library_path, os.getpid(), TEMPORARY_SUFFIX)
    try:
        flags = list(CFLAGS) + (list(NATIVE_FLAGS) if native else [])
        subprocess.run([compiler] + flags + ["-o", temporary] + sources(), check=True)
        os.replace(temporary, library_path)
    except subprocess.CalledProcessError as error:
        raise BuildError("{} failed with exit status {} building {}".format(
            compiler, error.returncode, library_path))
    except OSError as error:
        raise BuildError("cannot build {} with {}: {}".format(library_path, compiler, error))
    finally:
        if os.path.exists(temporary):
            os.remove(temporary)
    return library_path


def main(argv=None):
    """The command: one line (the library built, or already up to date; an error on stderr) and
    exit status 0, or 1 when the build failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--force", action="store_true", help="compile even when up to date")
    parser.add_argument("--native", action="store_true",
                        help="tune for this CPU (-march=native): faster, but the library then "
                             "runs only on CPUs with the same instructions; compiles even when "
                             "up to date")
    parser.add_argument("--quiet", action="store_true", help="print nothing unless it fails")
    args = parser.parse_args(argv)
    force = args.force or args.native
    fresh = not force and up_to_date(LIBRARY_PATH)
    try:
        path = build(LIBRARY_PATH, force=force, native=args.native)
    except BuildError as error:
        sys.stderr.write("{}: {}\n".format(COMMAND, error))
        return 1
    if not args.quiet:
        print("{}: {}".format(path, "up to date" if fresh else "built"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
