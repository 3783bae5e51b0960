/* TEMPORARY (branch pgbench): `ringbench pg` with only `bench`, until the
 * issue-5 command table is merged. */
#include <string.h>

#include "cli.h"
#include "commands.h"

int rb_cmd_pg_bench(int argc, char **argv);

int rb_cmd_pg(int argc, char **argv) {
    if (argc >= 2 && strcmp(argv[1], "bench") == 0) return rb_cmd_pg_bench(argc - 1, argv + 1);
    return rb_cli_usage_error("pg", "usage: ringbench pg bench [OPTIONS]");
}
