"""Running independent offline jobs on local processes or a Ray cluster, interruptibly.

Start at `run`: `run(function, argument_list, jobs, ray_address, done)` calls
`function(*arguments)` for each entry, on `jobs` local worker processes or on the Ray cluster
at `ray_address` (the `cluster` extra: `make install-cluster`; `ray_missing` is the commands'
check that it is installed), and hands each result to `done(arguments, result)`
as it arrives, in the order they finish. ^C or SIGTERM stops the workers and raises
KeyboardInterrupt, so a caller that saved each result in `done` resumes where it stopped.
"""

import concurrent.futures
import importlib.util
import multiprocessing
import signal
import sys

from littlego.paths import REPO_ROOT

RAY_MISSING = "--ray needs Ray, the cluster extra: pip install 'littlego[cluster]'"


def ray_missing(command, ray_address):
    """For a command given `--ray ADDRESS`: False when Ray is installed (or no address was given),
    else True after one line on stderr naming `command` and the extra to install."""
    if ray_address and importlib.util.find_spec("ray") is None:
        sys.stderr.write("{}: {}\n".format(command, RAY_MISSING))
        return True
    return False


class RayExecutor(object):
    """The executor interface over a Ray cluster: `submit` returns a concurrent Future. The
    checkout travels to the workers without its build outputs; each builds the solver once
    (littlego.solver.build: a C compiler on every node)."""

    def __init__(self, address):
        import ray  # optional: `make install-cluster`
        self.ray = ray
        ray.init(address=address, runtime_env={
            "working_dir": REPO_ROOT,
            "excludes": [".venv", ".git", "runs", "dist"]},
            log_to_driver=False)
        self.remote = {}

    def submit(self, function, *args):
        if function not in self.remote:
            self.remote[function] = self.ray.remote(function)
        return self.remote[function].remote(*args).future()

    def shutdown(self):
        self.ray.shutdown()


class LocalExecutor(object):
    """The executor interface over local worker processes; `shutdown` ends running jobs too
    (an interrupted build must not leave searches behind)."""

    def __init__(self, jobs):
        self.pool = multiprocessing.Pool(jobs)

    def submit(self, function, *args):
        future = concurrent.futures.Future()
        self.pool.apply_async(function, args, callback=future.set_result,
                              error_callback=future.set_exception)
        return future

    def shutdown(self):
        self.pool.terminate()
        self.pool.join()


def _interrupt(signum, frame):
    raise KeyboardInterrupt()


def run(function, argument_list, jobs, ray_address, done):
    """See the module docstring; an exception raised by a job is raised here."""
    executor = RayExecutor(ray_address) if ray_address else LocalExecutor(jobs)
    # After the workers start: they keep the default SIGTERM, which `shutdown` sends them.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        futures = {executor.submit(function, *arguments): arguments
                   for arguments in argument_list}
        for future in concurrent.futures.as_completed(futures):
            done(futures[future], future.result())
    finally:
        signal.signal(signal.SIGTERM, previous)
        executor.shutdown()
