#!/bin/sh
# Check a built submission the way the grader will run it: games against the random player
# under the course-style driver, at the agent's default CPU budget.
#
# Usage: tools/check_submission.sh [GAMES_PER_COLOUR]     (default 10; `make submission` first)
#   SUBMISSION=DIR  the bundle's directory (default dist/submission)
#   PYTHON37=PATH   the Python 3.7 to play on (default: tools/grader_python.py's)
#
# The game directory is a new, empty temporary one that receives only the submission's files,
# tools/course_driver.sh, and host.py with the referee package it imports. `python3` there is
# Python 3.7, the grader's version (a link first on PATH), and numpy and psutil cannot be
# imported (a directory first on PYTHONPATH holds modules of those names that raise ImportError).
# Our player runs as `python3 my_player3.py` inside tools/cpu_meter.py, which records
# each move's CPU for the whole process tree, workers included, as the grader meters it. The
# player gets no LITTLEGO_* settings and no seed, as in grading. Prints the wins per colour and
# the largest CPU of a move; exits 1 if a game was lost, an output was missing or malformed, or
# a move took more than the grader's 10 s.

set -u

repo=$(cd "$(dirname "$0")/.." && pwd)
games=${1:-10}
submission=${SUBMISSION:-$repo/dist/submission}
meter=$repo/tools/cpu_meter.py
random_player=$repo/tests/fixtures/random_player.py
if [ ! -f "$submission/my_player3.py" ]; then
    echo "no $submission/my_player3.py: run 'make submission' first" >&2
    exit 2
fi

# The real executable, not a version manager's shim: a shim's own CPU would count as ours.
py=
for candidate in ${PYTHON37:-} $(python3 "$repo/tools/grader_python.py" 2>/dev/null); do
    py=$("$candidate" -c 'import sys; print(sys.executable if sys.version_info[:2] == (3, 7) else "")' 2>/dev/null) || py=
    [ -n "$py" ] && break
done
if [ -z "$py" ]; then
    py=$(python3 -c 'import sys; print(sys.executable)')
    echo "Python 3.7 not found: playing on $py" >&2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/game" "$work/game/referee" "$work/bin" "$work/blocked"
cp "$submission"/* "$work/game/"
cp "$repo/tools/course_driver.sh" "$repo/host.py" "$work/game/"
cp "$repo"/referee/*.py "$work/game/referee/"
ln -s "$py" "$work/bin/python3"
for module in numpy psutil; do
    echo "raise ImportError('$module is not promised by the grader')" > "$work/blocked/$module.py"
done
PATH=$work/bin:$PATH
PYTHONPATH=$work/blocked
export PATH PYTHONPATH
unset LITTLEGO_MOVE_CPU LITTLEGO_GAME_CPU LITTLEGO_WORKERS LITTLEGO_SEED LITTLEGO_BOOK \
    LITTLEGO_SOLVER LITTLEGO_KNOWLEDGE

cd "$work/game" || exit 2
ours="python3 '$meter' '$work/moves.jsonl' python3 my_player3.py"
started=$(date +%s)
wins_black=0
wins_white=0
for colour in 1 2; do
    game=1
    while [ "$game" -le "$games" ]; do
        theirs="LITTLEGO_SEED=$colour$game python3 '$random_player'"
        if [ "$colour" = 1 ]; then
            winner=$(sh course_driver.sh "$ours" "$theirs" host.py 2>>"$work/games.log")
        else
            winner=$(sh course_driver.sh "$theirs" "$ours" host.py 2>>"$work/games.log")
        fi
        if [ "$winner" = "$colour" ]; then
            [ "$colour" = 1 ] && wins_black=$((wins_black + 1))
            [ "$colour" = 2 ] && wins_white=$((wins_white + 1))
            result=won
        else
            result=LOST
        fi
        echo "game $game as $( [ "$colour" = 1 ] && echo Black || echo White): $result"
        game=$((game + 1))
    done
done

echo "as Black: $wins_black/$games wins; as White: $wins_white/$games wins;" \
     "$(($(date +%s) - started)) s"
echo "games ended by score: $(grep -c '^Game end (score: ' "$work/games.log") of $((2 * games))"
python3 - "$work/moves.jsonl" <<'EOF'
import json
import re
import sys

with open(sys.argv[1]) as handle:
    moves = [json.loads(line) for line in handle]
bad = [move for move in moves if not re.match(r"^(PASS|[0-4],[0-4])$", move["output"] or "")]
cpus = sorted(move["cpu"] for move in moves)
print("our moves: {}, missing or malformed outputs: {}, CPU per move: max {:.2f} s, median "
      "{:.2f} s, over 8.5 s: {} (the grader's limit is 10 s)".format(
          len(moves), len(bad), cpus[-1], cpus[len(cpus) // 2], sum(cpu > 8.5 for cpu in cpus)))
sys.exit(1 if bad or cpus[-1] > 10.0 else 0)
EOF
moves_ok=$?
[ "$moves_ok" = 0 ] && [ "$wins_black" = "$games" ] && [ "$wins_white" = "$games" ]
