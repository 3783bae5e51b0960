/*
 * ringbench/error.h — the one error convention of the ringbench library.
 *
 * Every fallible function returns 0 on success or one of the negative
 * RB_E* codes below. rb_strerror() turns a code into a fixed message;
 * rb_error_detail() gives the calling thread's last detailed message
 * (which member, which size), set by the function that failed.
 * Lookups (owner of a bucket, key or position) cannot fail.
 */
#ifndef RINGBENCH_ERROR_H
#define RINGBENCH_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

/* X-macro list: code name, value, fixed message. New codes go at the end. */
#define RB_ERROR_LIST(X)                                                                           \
    X(RB_OK, 0, "success")                                                                         \
    X(RB_EINVAL, -1, "invalid argument")                                                           \
    X(RB_ENOMEM, -2, "out of memory")                                                              \
    X(RB_EEMPTY, -3, "empty membership")                                                           \
    X(RB_EDUP, -4, "duplicate member id")                                                          \
    X(RB_ERANGE, -5, "size out of range or overflows")                                             \
    X(RB_ENOPOINT, -6, "a member would have no point on the ring")                                 \
    X(RB_EENCODING, -7, "invalid UTF-8")                                                           \
    X(RB_EUNKNOWN, -8, "unknown name")                                                             \
    X(RB_ENOTSUP, -9, "operation not supported by this algorithm")                                 \
    X(RB_EIO, -10, "input/output error")                                                           \
    X(RB_EDB, -11, "database error")                                                               \
    X(RB_ELOST, -12, "lease lost (fenced by lease_generation)")                                    \
    X(RB_EMISMATCH, -13, "result does not match the expected value")

enum rb_error {
#define RB_ERROR_ENUM_(name, value, msg) name = value,
    RB_ERROR_LIST(RB_ERROR_ENUM_)
#undef RB_ERROR_ENUM_
};

/*
 * rb_strerror — fixed, static message for an error code.
 * Accepts any int; an unknown code gives "unknown error". Never NULL.
 * Thread-safe (returns a string literal).
 */
const char *rb_strerror(int code);

/*
 * rb_error_detail — the calling thread's last detailed error message, e.g.
 * "duplicate member id 'w1' (members 0 and 3)": the library's messages number
 * members from 0 (the Postgres extension maps them to SQL's members[k+1]),
 * quoted input is cut on a UTF-8 character boundary (rb_utf8_cut). Empty
 * string when no
 * function has failed on this thread yet. Valid until the next failing call
 * on the same thread. Thread-local; never NULL.
 */
const char *rb_error_detail(void);

/*
 * rb_set_error — record a detailed message (printf format) for the calling
 * thread and return `code`, so a failing path can `return rb_set_error(...)`.
 * Used by the library and its extensions; a message longer than 1023 bytes is
 * cut and ends in "...".
 */
int rb_set_error(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

#ifdef __cplusplus
}
#endif
#endif
