/* api.h: the door's codes, defined here once. api.c answers with them, and the library exports
 * each one as an int named by the same word (LG_ABORTED as `lg_aborted`, ...) that the binding
 * (littlego/solver/__init__.py) reads when it loads the library: no number is copied by hand.
 *
 * Reading guide: the answers of lg_at_least (LG_YES, LG_NO), of both questions when the CPU
 * limit passed first (LG_ABORTED), of lg_at_least for an illegal `move` (LG_ILLEGAL) and of
 * lg_winning_move when no move wins (LG_NO_WIN); then LG_NOT_A_MOVE, the `move` that asks about
 * the position itself. The door's functions are api.c's, the only symbols it exports.
 */
#ifndef LITTLEGO_API_H
#define LITTLEGO_API_H

#define LG_YES 1
#define LG_NO 0
#define LG_ABORTED (-1)
#define LG_ILLEGAL (-2)
#define LG_NO_WIN (-3)
#define LG_NOT_A_MOVE (-1)

/* The library is built with hidden symbols (littlego/solver/build.py): only what is marked with
 * this is the door. */
#define LG_EXPORT __attribute__((visibility("default")))

#endif
