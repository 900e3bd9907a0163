#!/bin/sh
# One Little-Go game in the current directory, played the way the course's driver loop plays
# it, so that a player can be tried under exactly the grader's file protocol.
#
# Usage: course_driver.sh BLACK_CMD WHITE_CMD [HOST_PY]
#   BLACK_CMD, WHITE_CMD  shell commands, e.g. "python3 my_player3.py", run in this directory
#   HOST_PY               the judge (default: the repository's host.py)
#
# Prints the judge's final exit code on stdout: 1 or 2 is the winner's colour (3: our judge
# could not read input.txt). Everything else, the players' output and the judge's verbose
# board, goes to stderr. Both players share this directory, as in the course.

set -u

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 BLACK_CMD WHITE_CMD [HOST_PY]" >&2
    exit 64
fi
black_cmd=$1
white_cmd=$2
host_py=${3:-$(cd "$(dirname "$0")/../.." && pwd)/host.py}

# The opening input.txt: Black to move, two empty boards, LF endings, no final newline.
printf '1' > input.txt
for _ in 1 2 3 4 5 6 7 8 9 10; do
    printf '\n00000' >> input.txt
done

ply=0

# One turn: a fresh output.txt, the player (stdout to stderr, exit code ignored), the judge.
turn() {
    rm -f output.txt
    sh -c "$1" 1>&2 || true
    ply=$((ply + 1))
    python3 "$host_py" -m "$ply" -v True 1>&2
}

while :; do
    turn "$black_cmd"
    status=$?
    [ "$status" -ne 0 ] && break
    turn "$white_cmd"
    status=$?
    [ "$status" -ne 0 ] && break
done
echo "$status"
