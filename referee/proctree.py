"""Run a player's command for one move under the grader's limits, and leave nothing behind.

Start at `run_limited` (one process per move); gtp.py uses its parts, `spawn`, `watch` and
`kill_tree`, for an engine that lives through a game. The grader counts the CPU time of the
player's whole process tree (every thread and child) and gives 10 s per move; we add a
wall-clock limit so a sleeping player cannot stall a match. The command runs in its own
session, so its process group holds every descendant that did not leave it on purpose; at the
end of the move the group and every descendant we ever saw are killed, whether the move
finished, timed out or was interrupted.

CPU is measured two ways and the larger wins: `TreeCpuMeter` samples the live tree with psutil
(so a runaway is caught while it runs), and os.wait4 gives the direct child's own usage plus
that of every descendant it reaped (what the Unix `time` command reports).
"""

import collections
import os
import signal
import subprocess
import time

POLL_SECONDS = 0.005         # how often we check whether the direct child has exited
CPU_SAMPLE_SECONDS = 0.05    # how often the tree's CPU is read (cheap: one /proc read each)
TREE_REFRESH_SECONDS = 0.2   # how often new descendants are looked for (scans all of /proc)
KILL_WAIT_SECONDS = 2.0      # how long we wait for killed processes to be gone

OVER_CPU = "cpu"
OVER_WALL = "wall"

# cpu, wall: seconds used; over_limit: None, OVER_CPU or OVER_WALL; exit_status: the direct
# child's exit code (negative: killed by that signal), which the course ignores.
RunResult = collections.namedtuple("RunResult", "cpu wall over_limit exit_status")


class TreeCpuMeter(object):
    """CPU seconds used so far by a process and every descendant seen since it started."""

    def __init__(self, psutil, root_pid):
        self._psutil = psutil
        self._root = psutil.Process(root_pid)
        self.members = {root_pid: self._root}
        self._usage = {}  # pid -> (CPU including its reaped children, parent pid)
        self._lost = 0.0  # CPU of members gone while no member was their parent
        self.cpu = 0.0

    def refresh(self):
        """Adopt descendants started since the last refresh."""
        try:
            children = self._root.children(recursive=True)
        except self._psutil.Error:
            return
        for child in children:
            self.members.setdefault(child.pid, child)

    def sample(self):
        """Read every member's CPU and return the tree's total so far."""
        usage = {}
        for pid, process in self.members.items():
            try:
                with process.oneshot():
                    times = process.cpu_times()
                    parent = process.ppid()
            except self._psutil.Error:
                continue
            usage[pid] = (times.user + times.system + times.children_user
                          + times.children_system, parent)
        for pid, (cpu, parent) in self._usage.items():
            # A reaped member's CPU moves into its parent's children_* times; only when an
            # orphan is reaped by someone outside the tree is it lost, so we keep it here.
            if pid not in usage and parent not in usage:
                self._lost += cpu
        self._usage = usage
        self.cpu = max(self.cpu, self._lost + sum(cpu for cpu, _ in usage.values()))
        return self.cpu


def _exit_status(status):
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def spawn(command, cwd, env, log, stdin=subprocess.DEVNULL, stdout=None):
    """Start the shell `command` as the leader of a new session, so its group can be killed.

    Returns `(process, meter)`; output not sent to `stdout` goes to the open file `log`.
    """
    import psutil
    process = subprocess.Popen(command, shell=True, cwd=cwd, env=env, stdin=stdin,
                               stdout=log if stdout is None else stdout,
                               stderr=log, start_new_session=True)
    return process, TreeCpuMeter(psutil, process.pid)


def watch(meter, finished, cpu_limit, wall_limit, cpu_already=0.0):
    """Poll `finished()` until it is true; return None, or OVER_CPU/OVER_WALL at a limit.

    `cpu_already` is the tree's CPU before this move (a GTP engine lives across moves).
    """
    started = time.perf_counter()
    next_sample = next_refresh = started
    while not finished():
        now = time.perf_counter()
        if now >= next_refresh:
            meter.refresh()
            next_refresh = now + TREE_REFRESH_SECONDS
        if now >= next_sample:
            if meter.sample() - cpu_already > cpu_limit:
                return OVER_CPU
            next_sample = now + CPU_SAMPLE_SECONDS
        if now - started > wall_limit:
            return OVER_WALL
        time.sleep(POLL_SECONDS)
    return None


def _still_running(psutil, process):
    try:
        return process.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def _group_processes(psutil, pgid):
    found = []
    for process in psutil.process_iter():
        try:
            if os.getpgid(process.pid) == pgid:
                found.append(process)
        except OSError:
            pass  # gone since the listing
    return found


def kill_tree(process, meter):
    """SIGKILL the process group of `process` and every descendant `meter` has seen.

    Returns once they are all dead (or after KILL_WAIT_SECONDS): SIGKILL is delivered
    asynchronously, and a dying spinner must not eat the next player's CPU.
    """
    import psutil
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass  # the group is already empty
    # Members that left the group (setsid) are still ours; psutil refuses to kill a pid that
    # now belongs to another process.
    pending = list(meter.members.values()) + _group_processes(psutil, process.pid)
    deadline = time.perf_counter() + KILL_WAIT_SECONDS
    while time.perf_counter() < deadline:
        pending = [member for member in pending if _still_running(psutil, member)]
        if not pending:
            return
        for member in pending:
            try:
                member.kill()
            except psutil.Error:
                pass
        time.sleep(POLL_SECONDS)


def run_limited(command, cwd, env, cpu_limit, wall_limit, log_path):
    """Run the shell `command` in `cwd` until it exits or passes a limit; return a RunResult.

    Its stdout and stderr are appended to `log_path` (not a pipe: a descendant holding a pipe
    open could block us, and the course sends the players' output to a terminal anyway).
    """
    reaped = []

    def exited():
        pid, status, rusage = os.wait4(process.pid, os.WNOHANG)
        if pid:
            reaped.append((status, rusage, time.perf_counter()))
        return bool(pid)

    started = time.perf_counter()
    with open(log_path, "ab") as log:
        process, meter = spawn(command, cwd, env, log)
    try:
        over_limit = watch(meter, exited, cpu_limit, wall_limit)
    finally:
        kill_tree(process, meter)
        if not reaped:
            _, status, rusage = os.wait4(process.pid, 0)
            reaped.append((status, rusage, time.perf_counter()))
        # Popen must not wait for a pid we reaped ourselves.
        process.returncode = _exit_status(reaped[0][0])
    status, rusage, ended = reaped[0]
    cpu = max(meter.cpu, rusage.ru_utime + rusage.ru_stime)
    wall = ended - started
    if over_limit is None and cpu > cpu_limit:
        over_limit = OVER_CPU
    if over_limit is None and wall > wall_limit:
        over_limit = OVER_WALL
    return RunResult(cpu, wall, over_limit, _exit_status(status))
