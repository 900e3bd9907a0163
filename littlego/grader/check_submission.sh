#!/bin/sh
# Check a built submission the way the grader will run it: games against the random player
# under the course-style driver, at the agent's default CPU budget.
#
# Usage: littlego check-submission [GAMES_PER_COLOUR]     (default 10; `make submission` first)
#   SUBMISSION=DIR  the bundle's directory (default dist/submission)
#   PYTHON37=PATH   the Python 3.7 to play on (default: `littlego grader-python`)
#
# The game directory is a new, empty temporary one that receives only the submission's files
# and course_driver.sh; the judge is the checkout's host.py, run by its path (copied beside the
# bundle, its package would shadow the checkout's for the opponent's `python3 -m`). The grader's environment is littlego.grader.environment's, as in
# tests/test_submission.py: `python3` is Python 3.7, numpy and psutil cannot be imported, the
# player gets none of its settings and no seed. Our player runs as `python3 my_player3.py`
# inside cpu_meter.py, which records each move's CPU for the whole process tree, workers
# included, as the grader meters it; the opponent is the built-in random player
# (littlego.opponents.run). Prints the wins per colour and the largest CPU of a move; exits 1
# if a game was lost, an output was missing or malformed, or a move took more than the grader's
# limit (`littlego grader-env moves`).

set -u

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
games=${1:-10}
submission=${SUBMISSION:-$repo/dist/submission}
if [ ! -f "$submission/my_player3.py" ]; then
    echo "no $submission/my_player3.py: run 'make submission' first" >&2
    exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/game"
cp "$submission"/* "$here/course_driver.sh" "$work/game/"
# The grader's environment; the checks at the end run outside it, on this machine's python3.
host_python=$(command -v python3)
grader=$(PYTHONPATH="$repo" python3 -m littlego.grader.environment env "$work" ${PYTHON37:+--python "$PYTHON37"}) || exit 2
eval "$grader"

cd "$work/game" || exit 2
ours="python3 '$here/cpu_meter.py' '$work/moves.jsonl' output.txt python3 my_player3.py"
started=$(date +%s)
wins_black=0
wins_white=0
for colour in 1 2; do
    game=1
    while [ "$game" -le "$games" ]; do
        theirs="PYTHONPATH='$repo' python3 -m littlego.opponents.run random --seed $colour$game"
        if [ "$colour" = 1 ]; then
            winner=$(sh course_driver.sh "$ours" "$theirs" "$repo/host.py" 2>>"$work/games.log")
        else
            winner=$(sh course_driver.sh "$theirs" "$ours" "$repo/host.py" 2>>"$work/games.log")
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
cd "$work" && PYTHONPATH="$repo" "$host_python" -m littlego.grader.environment moves "$work/moves.jsonl"
moves_ok=$?
[ "$moves_ok" = 0 ] && [ "$wins_black" = "$games" ] && [ "$wins_white" = "$games" ]
