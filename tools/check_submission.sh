#!/bin/sh
# Check a built submission the way the grader will run it: games against the random player
# under the course-style driver, at the agent's default CPU budget.
#
# Usage: tools/check_submission.sh [GAMES_PER_COLOUR]     (default 10; `make submission` first)
#   SUBMISSION=DIR  the bundle's directory (default dist/submission)
#   PYTHON37=PATH   the Python 3.7 to play on (default: tools/grader_python.py's)
#
# The game directory is a new, empty temporary one that receives only the submission's files,
# tools/course_driver.sh, and host.py with the referee package it imports (and course_io, which
# the judge reads its files with). The grader's environment is tools/grader_sim.py's, as in
# tests/test_submission.py: `python3` is Python 3.7, numpy and psutil cannot be imported, the
# player gets none of its settings and no seed. Our player runs as `python3 my_player3.py`
# inside tools/cpu_meter.py, which records each move's CPU for the whole process tree, workers
# included, as the grader meters it. Prints the wins per colour and the largest CPU of a move;
# exits 1 if a game was lost, an output was missing or malformed, or a move took more than the
# grader's limit (tools/grader_sim.py moves).

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

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/game" "$work/game/referee"
cp "$submission"/* "$work/game/"
cp "$repo/tools/course_driver.sh" "$repo/host.py" "$repo/course_io.py" "$work/game/"
cp "$repo"/referee/*.py "$work/game/referee/"
# The grader's environment; the checks at the end run outside it, on this machine's python3.
host_python=$(command -v python3)
grader=$(python3 "$repo/tools/grader_sim.py" env "$work" ${PYTHON37:+--python "$PYTHON37"}) || exit 2
eval "$grader"

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
PYTHONPATH= "$host_python" "$repo/tools/grader_sim.py" moves "$work/moves.jsonl"
moves_ok=$?
[ "$moves_ok" = 0 ] && [ "$wins_black" = "$games" ] && [ "$wins_white" = "$games" ]
