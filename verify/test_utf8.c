/*
 * test_utf8.c — the UTF-8 helpers of ringbench/utf8.h and the --param value
 * reader (impls/params.c) against known answers.
 *
 * rb_utf8_check: the offsets are what Python 3's UTF-8 decoder reports as
 * UnicodeDecodeError.start for the same bytes (-1: it decodes them), an
 * independent decoder with the same rules (RFC 3629; Unicode 15, table 3-7).
 * rb_utf8_cut: the longest prefix of at most N bytes that ends on a character
 * boundary, by hand from the encodings of U+00E9 (C3 A9), U+20AC (E2 82 AC)
 * and U+1F600 (F0 9F 98 80). Failures print the case, got and expected.
 */
#include <stdint.h>
#include <string.h>

#include "ring_impl.h"
#include "ringbench/utf8.h"
#include "unit.h"

static void check_cases(void) {
    static const struct {
        const char *bytes;
        size_t len;
        int64_t first_invalid;
    } cases[] = {
        {"", 0, -1},
        {"abc", 3, -1},
        {"\xc3\xa9", 2, -1},
        {"a\0b", 3, -1},
        {"a\xff", 2, 1},
        {"\xc0\xaf", 2, 0},              /* overlong '/' */
        {"\xe0\x80\xaf", 3, 0},          /* overlong, three bytes */
        {"\xed\xa0\x80", 3, 0},          /* surrogate U+D800 */
        {"\xf4\x90\x80\x80", 4, 0},      /* above U+10FFFF */
        {"ab\xe2\x82", 4, 2},            /* truncated at the end */
        {"\xf0\x9f\x98\x80x\x80", 6, 5}, /* a stray continuation byte */
        {"\xc3", 1, 0},
        {"\xc3\xa9\xc3", 3, 2},
        {"\xe2\x82\xac\xf5", 4, 3},
    };
    char case_[64];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(case_, sizeof case_, "case %zu (%zu bytes)", i + 1, cases[i].len);
        rb_unit_eq("rb_utf8_check", case_,
                   (uint64_t)(int64_t)rb_utf8_check(cases[i].bytes, cases[i].len),
                   (uint64_t)cases[i].first_invalid);
    }
}

static void cut_cases(void) {
    static const char s[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z"; /* a é € 😀 z: 11 bytes */
    /* max bytes -> the cut: boundaries at 0, 1, 3, 6, 10, 11 */
    static const size_t want[] = {0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10, 11, 11};
    char case_[64];
    for (size_t max = 0; max < sizeof want / sizeof want[0]; max++) {
        snprintf(case_, sizeof case_, "'a\u00e9\u20ac\U0001F600z' at most %zu bytes", max);
        rb_unit_eq("rb_utf8_cut", case_, rb_utf8_cut(s, sizeof s - 1, max), want[max]);
    }
    rb_unit_eq("rb_utf8_cut", "empty input", rb_utf8_cut("", 0, 5), 0);
}

/* A value past 2^64 - 1 is out of range even for a parameter that takes every
 * 64-bit value: it must not be read as 2^64 - 1. */
static void param_cases(void) {
    static const rb_param_spec any = {"any", "every 64-bit value", 0, 0, UINT64_MAX, NULL};
    static const rb_algo algo = {.name = "fake"};
    rb_config cfg;
    rb_config_init(&cfg);
    rb_unit_eq("rb_config_set_param", "any=99999999999999999999",
               (uint64_t)(int64_t)rb_config_set_param(&cfg, "any=99999999999999999999"), 0);
    rb_unit_eq("rb_param_check_value", "99999999999999999999 against 0..2^64-1",
               (uint64_t)(int64_t)rb_param_check_value(&algo, &any, &cfg.params[0]),
               (uint64_t)(int64_t)RB_ERANGE);
    rb_unit_eq("rb_config_set_param", "max=18446744073709551615",
               (uint64_t)(int64_t)rb_config_set_param(&cfg, "max=18446744073709551615"), 0);
    rb_unit_eq("rb_param_check_value", "2^64-1 against 0..2^64-1",
               (uint64_t)(int64_t)rb_param_check_value(&algo, &any, &cfg.params[1]), 0);
}

int main(void) {
    check_cases();
    cut_cases();
    param_cases();
    return rb_unit_finish("test_utf8");
}
