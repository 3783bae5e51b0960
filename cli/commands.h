/*
 * commands.h — the subcommands of `ringbench`, each `int rb_cmd_X(int argc,
 * char **argv)` with argv[0] the command name, returning an RB_EXIT_* code.
 */
#ifndef RINGBENCH_COMMANDS_H
#define RINGBENCH_COMMANDS_H

int rb_cmd_list(int argc, char **argv);  /* cli/cmd_ring.c */
int rb_cmd_hash(int argc, char **argv);  /* cli/cmd_ring.c */
int rb_cmd_owner(int argc, char **argv); /* cli/cmd_ring.c */
int rb_cmd_table(int argc, char **argv); /* cli/cmd_ring.c */

/* verify/: `verify` and `vnodes` (defined when that part is built). */
int rb_cmd_verify(int argc, char **argv);
int rb_cmd_vnodes(int argc, char **argv);
#define RINGBENCH_VERIFY_COMMANDS                                                                  \
    {"verify", "movement, monotonicity, spread, verification codes", rb_cmd_verify},               \
        {"vnodes", "recommend a vnode count for a member range", rb_cmd_vnodes},

/* queue/: `pg` (when built with RINGBENCH_PG). */
int rb_cmd_pg(int argc, char **argv);
#define RINGBENCH_PG_COMMANDS                                                                      \
    {"pg", "Postgres queue: migrate, enqueue, worker, status, retry, explain, chaos, bench",       \
     rb_cmd_pg},

#endif
