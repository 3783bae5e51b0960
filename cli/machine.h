/* machine.h — the machine record, read from its one writer (scripts/machine-record). */
#ifndef RINGBENCH_CLI_MACHINE_H
#define RINGBENCH_CLI_MACHINE_H

/* rb_machine_record — run scripts/machine-record of the source tree this binary was built
 * from, on its build folder, and return its JSON object (date, git commit, CPU, cores, memory,
 * kernel, compiler, the flags the build used, versions) as a NUL-terminated string without the
 * trailing newline. Owned by the caller (free). NULL when the script is missing, fails or prints
 * no object (the source tree moved, no /bin/sh): callers then write JSON null, never their own
 * copy of the fields. Not thread-safe (popen, environment); takes about half a second. */
char *rb_machine_record(void);

#endif
