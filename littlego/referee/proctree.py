"""Run a player's command for one move under the grader's limits, and leave nothing behind.

Start at `run_limited` (one process per move); gtp_player.py uses its parts, `spawn`, `watch` and
`kill_tree`, for an engine that lives through a game. The grader counts the CPU time of the
player's whole process tree (every thread and child) and gives 10 s per move; we add a
wall-clock limit so a sleeping player cannot stall a match. The command runs in its own
session, so its process group holds every descendant that did not leave it on purpose; at the
end of the move the group and every descendant we ever saw are killed, whether the move
finished, timed out or was interrupted.

CPU is metered exactly, each process once, whatever order the tree is reaped in: this process
makes itself a child subreaper (Linux), so a descendant whose parent dies is re-parented to us
instead of to init, and every process of the tree ends up reaped either by its own parent (its
CPU then sits in that parent's children_* times) or by us (os.wait4's rusage). `TreeCpuMeter`
adds the rusage of what we reaped to the own and children_* times of the members still alive,
read parents first, so a child reaped while we read can be missed until the next sample but
never counted twice. The root's own rusage (itself plus all it reaped: what the Unix `time`
command reports) is kept apart as `time_cpu`, an independent second figure.
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
PR_SET_CHILD_SUBREAPER = 36  # from <linux/prctl.h>

OVER_CPU = "cpu"
OVER_WALL = "wall"

# cpu: CPU seconds of the whole tree (exact meter); time_cpu: the root's rusage, i.e. what
# `time` reports (orphans excluded); wall: seconds; over_limit: None, OVER_CPU or OVER_WALL;
# exit_status: the direct child's exit code (negative: killed by that signal), which the course
# ignores; leftovers: processes of the tree still running when the root exited (then killed).
RunResult = collections.namedtuple("RunResult", "cpu time_cpu wall over_limit exit_status leftovers")

_subreaper = []  # [True] once this process is a child subreaper, [False] if it cannot be


def become_subreaper():
    """Make orphaned descendants ours to reap (Linux prctl); False where that is unavailable."""
    if not _subreaper:
        try:
            import ctypes
            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper.append(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
        except (ImportError, OSError, AttributeError):
            _subreaper.append(False)
    return _subreaper[0]


def _cpu_of(usage):
    return usage.ru_utime + usage.ru_stime


class TreeCpuMeter(object):
    """CPU seconds used so far by a process and every descendant seen since it started."""

    def __init__(self, psutil, root_pid):
        self._psutil = psutil
        self.root_pid = root_pid
        self._root = psutil.Process(root_pid)
        self.members = {root_pid: self._root}
        self.reaped = {}  # pid -> (wait status, CPU from its rusage) of members we reaped
        self.cpu = 0.0

    def refresh(self):
        """Adopt descendants started since the last refresh."""
        try:
            children = self._root.children(recursive=True)
        except self._psutil.Error:
            return
        self.adopt(children)

    def adopt(self, processes):
        for process in processes:
            self.members.setdefault(process.pid, process)

    def reap(self):
        """Reap every member that is our child and has exited; True once the root is reaped."""
        for pid in self.members:
            if pid in self.reaped:
                continue
            try:
                found, status, usage = os.wait4(pid, os.WNOHANG)
            except ChildProcessError:
                continue  # not ours: its own parent reaps it (or has)
            if found:
                self.reaped[pid] = (status, _cpu_of(usage))
        return self.root_pid in self.reaped

    def root_status(self):
        """The root's wait status once reaped, else None."""
        return self.reaped[self.root_pid][0] if self.root_pid in self.reaped else None

    def time_cpu(self):
        """The root's rusage (itself and all it reaped), 0 until it is reaped."""
        return self.reaped[self.root_pid][1] if self.root_pid in self.reaped else 0.0

    def running(self):
        """Members alive and not zombies."""
        return [process for pid, process in self.members.items()
                if pid not in self.reaped and _still_running(self._psutil, process)]

    def sample(self):
        """Reap what we may, read every live member's CPU and return the tree's total so far."""
        self.reap()
        total = sum(cpu for _, cpu in self.reaped.values())
        live = [process for pid, process in self.members.items() if pid not in self.reaped]
        # Parents first: a child reaped by its parent between the two reads is then missed
        # (until the next sample), never counted both in itself and in the parent.
        live.sort(key=self._birth)
        for process in live:
            try:
                times = process.cpu_times()
            except self._psutil.Error:
                continue
            total += times.user + times.system + times.children_user + times.children_system
        self.cpu = max(self.cpu, total)
        return self.cpu

    def _birth(self, process):
        try:
            return process.create_time(), process.pid
        except self._psutil.Error:
            return 0.0, process.pid


def _exit_status(status):
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def spawn(command, cwd, env, log, stdin=subprocess.DEVNULL, stdout=None):
    """Start the shell `command` as the leader of a new session, so its group can be killed.

    Returns `(process, meter)`; output not sent to `stdout` goes to the open file `log` (None:
    our own stdout and stderr).
    """
    import psutil
    become_subreaper()
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
    """SIGKILL the process group of `process` and every descendant `meter` has seen, and reap
    those that are ours (the meter then holds their CPU).

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
    meter.adopt(_group_processes(psutil, process.pid))
    deadline = time.perf_counter() + KILL_WAIT_SECONDS
    while True:
        meter.reap()
        pending = meter.running()
        if not pending or time.perf_counter() >= deadline:
            break
        for member in pending:
            try:
                member.kill()
            except psutil.Error:
                pass
        time.sleep(POLL_SECONDS)
    meter.sample()


def run_limited(command, cwd, env, cpu_limit, wall_limit, log_path=None):
    """Run the shell `command` in `cwd` until it exits or passes a limit; return a RunResult.

    Its stdout and stderr are appended to `log_path` (not a pipe: a descendant holding a pipe
    open could block us, and the course sends the players' output to a terminal anyway), or
    are ours when it is None.
    """
    import psutil
    ended = []

    def exited():
        if meter.reap():
            ended.append(time.perf_counter())
        return bool(ended)

    started = time.perf_counter()
    if log_path is None:
        process, meter = spawn(command, cwd, env, None)
    else:
        with open(log_path, "ab") as log:
            process, meter = spawn(command, cwd, env, log)
    leftovers = 0
    try:
        over_limit = watch(meter, exited, cpu_limit, wall_limit)
        if over_limit is None:
            meter.refresh()
            meter.adopt(_group_processes(psutil, process.pid))
            leftovers = len(meter.running())
    finally:
        kill_tree(process, meter)
        if meter.root_status() is None:
            _, status, usage = os.wait4(process.pid, 0)
            meter.reaped[process.pid] = (status, _cpu_of(usage))
            meter.sample()
        if not ended:
            ended.append(time.perf_counter())
        # Popen must not wait for a pid we reaped ourselves.
        process.returncode = _exit_status(meter.root_status())
    cpu = meter.cpu
    wall = ended[0] - started
    if over_limit is None and cpu > cpu_limit:
        over_limit = OVER_CPU
    if over_limit is None and wall > wall_limit:
        over_limit = OVER_WALL
    return RunResult(cpu, meter.time_cpu(), wall, over_limit, process.returncode, leftovers)
