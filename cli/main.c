/*
 * main.c — the `ringbench` command line: one table of subcommands.
 * Adding a command: implement `int rb_cmd_<name>(int, char **)` in its part's
 * folder, declare it in commands.h, add one line to the table below.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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

/* A standard descriptor the caller closed (`>&-`, `<&-`) is reopened on /dev/null with the
 * other access mode (stdin write-only, stdout and stderr read-only): the next file or socket
 * opened (libpq's connection) would otherwise take its number and receive the output or the
 * log lines. Reads and writes on it still fail (EBADF), so a command reports a closed stdin
 * or stdout as it did. */
static void hold_std_fds(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int n = open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);
        if (n >= 0 && n != fd) {
            dup2(n, fd);
            close(n);
        }
    }
}

int main(int argc, char **argv) {
    hold_std_fds();
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
