"""Root parallelism: W processes search the same root independently; the parent merges.

Start at `root_parallel_search`. The parent forks W-1 workers, searches itself as worker 0,
then reads each worker's root statistics from a pipe and sums visits and values per action.
Forking (not multiprocessing's spawn) keeps the start-up CPU near zero, which the grader meters.
A worker that cannot be started, crashes or misses the wall deadline is simply left out: the
parent's own search always counts, so the move never depends on a worker. No worker outlives
the call: stragglers are killed and every child is reaped.

The CPU bound is hard, whatever a search does: each worker carries kernel-enforced limits on
its own CPU (`_limit_worker`: ITIMER_PROF with the default, fatal SIGPROF, and RLIMIT_CPU as a
backstop) and dies with the parent (PR_SET_PDEATHSIG, where ctypes and libc allow); the
parent's own search is cut by the same timer, raising `_OverCpu`, and the parent then plays on
the workers' answers.
"""

import marshal
import math
import os
import random
import resource
import select
import signal

from clocks import wall_clock_seconds
from mcts import core
from mcts.budget import Budget

# How long past its own wall deadline the parent waits for a worker's answer.
REPORT_GRACE_SECONDS = 1.0
# A search (worker or parent) is stopped by the kernel this far past its CPU share; it stops
# itself at its share, checking its clock at every simulation.
HARD_CPU_MARGIN = 0.25
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>

_prctl = []  # [libc's prctl, or None where ctypes or libc is missing], loaded once


def _load_prctl():
    if not _prctl:
        try:
            import ctypes
            _prctl.append(ctypes.CDLL(None).prctl)
        except (ImportError, OSError, AttributeError):
            _prctl.append(None)
    return _prctl[0]


class _OverCpu(Exception):
    """The parent's own search passed its hard CPU limit."""


def _over_cpu(signum, frame):
    raise _OverCpu()


def _limit_worker(cpu_seconds, parent_pid, prctl):
    """In a fresh worker: die at `cpu_seconds` + HARD_CPU_MARGIN of its CPU, or with the parent."""
    limit = cpu_seconds + HARD_CPU_MARGIN
    signal.signal(signal.SIGPROF, signal.SIG_DFL)
    signal.setitimer(signal.ITIMER_PROF, limit)
    hard = int(math.ceil(limit)) + 1  # whole seconds; SIGKILL when soft == hard
    _, inherited = resource.getrlimit(resource.RLIMIT_CPU)
    if inherited != resource.RLIM_INFINITY:
        hard = min(hard, inherited)
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:
        os._exit(1)  # the parent died before the death signal was armed


def _encode(result):
    return ([stats.as_tuple() for stats in result.children], result.simulations, result.proven)


def _decode(data):
    children, simulations, proven = marshal.loads(data)
    return core.SearchResult([core.ChildStats(*stats) for stats in children], simulations, proven)


def _run_worker(write_fd, search, limit):
    """The child's whole life: limits, search, send, exit without running the parent's cleanup."""
    code = 1
    try:
        limit()
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
        timeout = wall_deadline - wall_clock_seconds()
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


def _parent_search(search, cpu_seconds, log):
    """`[result]` of the parent's own search, or `[]` when it passed its hard CPU limit.

    Only the main thread may handle signals; elsewhere the search runs on its own clock alone.
    """
    try:
        previous = signal.signal(signal.SIGPROF, _over_cpu)
    except ValueError:
        return [search()]
    try:
        signal.setitimer(signal.ITIMER_PROF, cpu_seconds + HARD_CPU_MARGIN)
        return [search()]
    except _OverCpu:
        if log:
            log("the parent's search passed its CPU limit; playing on the workers' answers")
        return []
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def root_parallel_search(root_state, evaluator, seed, workers, cpu_per_worker, wall_seconds, *,
                         exploration, log=None, stop=None, leaf_solver=None,
                         max_simulations=None):
    """Merged root statistics of `workers` searches: `(children, simulations, workers_used)`.

    Each worker's budget is `cpu_per_worker` CPU seconds of its own, `wall_seconds` of wall
    time and, when given, `max_simulations` simulations (the one budget that repeats: tools
    that must give the same answer twice set it); `stop` (a `mcts.stopping.StopRules`) may end
    each worker's search early; `leaf_solver` is core.search's (each worker has its own copy).
    """

    def search_with(worker_seed):
        budget = Budget(cpu_per_worker, wall_seconds, max_simulations)
        return core.search(root_state, evaluator, random.Random(worker_seed), budget,
                           exploration=exploration, stop=stop, leaf_solver=leaf_solver)

    children = []
    parent_pid = os.getpid()
    prctl = _load_prctl() if workers > 1 else None
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
                _run_worker(write_fd, lambda: search_with(seed + index),
                            lambda: _limit_worker(cpu_per_worker, parent_pid, prctl))
            os.close(write_fd)
            children.append((pid, read_fd))
        results = _parent_search(lambda: search_with(seed), cpu_per_worker, log)
        answers = _collect([fd for _, fd in children],
                           wall_clock_seconds() + REPORT_GRACE_SECONDS)
    finally:
        _end_workers(children)
    answered = 0
    for data in answers:
        try:
            results.append(_decode(data))
            answered += 1
        except (EOFError, ValueError, TypeError):
            if log:
                log("a worker sent an unreadable answer; left out")
    if log and answered < len(children):
        log("{} of {} workers answered".format(answered, len(children)))
    return core.merge(results), sum(result.simulations for result in results), len(results)
