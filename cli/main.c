/*
 * main.c — the `ringbench` command line: one table of subcommands.
 * Adding a command: implement `int rb_cmd_<name>(int, char **)` in its part's
 * folder, declare it in commands.h, add one line to the table below.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "commands.h"

static const rb_command commands[] = {{"list", "list the ring algorithms", rb_cmd_list},
                                      {"hash", "hash keys with a registered hash", rb_cmd_hash},
                                      {"owner", "owner (member) of each key", rb_cmd_owner},
                                      {"table", "owner of every bucket 0..B-1", rb_cmd_table},
#ifdef RINGBENCH_HAVE_VERIFY
                                      RINGBENCH_VERIFY_COMMANDS
#endif
#ifdef RINGBENCH_HAVE_PG
                                          RINGBENCH_PG_COMMANDS
#endif
};
#define N_COMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f) {
    fprintf(f, "usage: ringbench COMMAND [OPTIONS]   (ringbench COMMAND --help)\n\ncommands:\n");
    for (size_t i = 0; i < N_COMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "ringbench: a command is needed (ringbench --help lists them)\n");
        return RB_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
        strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return rb_cli_finish_output("--help");
    }
    for (size_t i = 0; i < N_COMMANDS; i++) {
        if (strcmp(argv[1], commands[i].name) != 0) continue;
        int rc = commands[i].run(argc - 1, argv + 1);
        /* a command that wrote into a closed or full stdout has failed (a command that
         * failed has said why in its one line already) */
        return rc ? rc : rb_cli_finish_output(commands[i].name);
    }
    fprintf(stderr, "ringbench: unknown command '%s' (ringbench --help lists them)\n", argv[1]);
    return RB_EXIT_USAGE;
}
