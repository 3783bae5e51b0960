/* machine.h — the machine record, read from its one writer (scripts/machine-record), and the
 * output of the tree's other scripts the commands show (rb_source_script). */
#ifndef RINGBENCH_CLI_MACHINE_H
#define RINGBENCH_CLI_MACHINE_H

/* rb_machine_record — run scripts/machine-record of the source tree this binary was built
 * from, on its build folder, and return its JSON object (date, git commit, CPU, cores, memory,
 * kernel, compiler, the flags the build used, versions) as a NUL-terminated string without the
 * trailing newline. Owned by the caller (free). NULL when the script is missing, fails or prints
 * no object (the source tree moved, no /bin/sh): callers then write JSON null, never their own
 * copy of the fields. Not thread-safe (popen, environment); takes about half a second. */
char *rb_machine_record(void);

/* rb_source_script — run `script` (a path inside the source tree this binary was built from,
 * e.g. "bench/report.py") with the arguments args[0..] (NULL-terminated; each passed as one
 * word), stderr discarded, and return its stdout (NUL-terminated, trailing newlines and spaces
 * removed; owned by the caller, free). NULL when it cannot run, exits non-zero or prints
 * nothing. Not thread-safe (popen). */
char *rb_source_script(const char *script, const char *const *args);

#endif
