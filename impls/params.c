/*
 * params.c — per-algorithm parameters (`--param NAME=VALUE`) and the
 * properties an algorithm has under a configuration (rb_algo_flags). The
 * algorithm declares its parameters (rb_algo.params); a config carries the
 * values set; everything here only validates, looks up and formats.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ring_impl.h"
#include "ringbench/utf8.h"

unsigned rb_algo_flags(const rb_algo *algo, const rb_config *cfg) {
    return (cfg && algo->flags_for) ? algo->flags_for(cfg) : algo->flags;
}

size_t rb_algo_flags_format(unsigned flags, char *buf, size_t size) {
    static const char *const names[] = {"positional",    "order_free", "vnodes",   "monotone",
                                        "monotone_last", "control",    "weighted", "own_hash"};
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(flags & (1u << i))) continue;
        int w = snprintf(used < size ? buf + used : NULL, used < size ? size - used : 0, "%s%s",
                         used ? "," : "", names[i]);
        if (w > 0) used += (size_t)w;
    }
    return used;
}

const rb_param_spec *rb_algo_param_spec(const rb_algo *algo, const char *name) {
    for (size_t i = 0; algo->params && i < algo->n_params; i++)
        if (strcmp(algo->params[i].name, name) == 0) return &algo->params[i];
    return NULL;
}

static const rb_param *find_set(const rb_config *cfg, const char *name) {
    for (uint32_t i = 0; i < cfg->n_params && i < RB_MAX_PARAMS; i++)
        if (strcmp(cfg->params[i].name, name) == 0) return &cfg->params[i];
    return NULL;
}

int rb_config_set_param(rb_config *cfg, const char *assign) {
    const char *eq = strchr(assign, '=');
    if (!eq) return rb_set_error(RB_EINVAL, "--param '%s' is not NAME=VALUE", assign);
    size_t len = (size_t)(eq - assign);
    if (len == 0 || len >= RB_MAX_PARAM_NAME)
        return rb_set_error(RB_EINVAL, "--param '%s': the name must be 1 to %u bytes", assign,
                            RB_MAX_PARAM_NAME - 1);
    const char *v = eq + 1;
    size_t v_len = strlen(v), digits = strspn(v, "0123456789");
    if (v_len == 0 || digits != v_len) { /* strtoull would take " 3", "+3", "-3" */
        size_t cut = rb_utf8_cut(v, v_len, 60);
        return rb_set_error(RB_EINVAL, "--param %.*s: '%.*s%s' is not a whole number", (int)len,
                            assign, (int)cut, v, cut < v_len ? "..." : "");
    }
    errno = 0;
    rb_param p = {.value = strtoull(v, NULL, 10), .past_u64 = errno == ERANGE};
    memcpy(p.name, assign, len);
    p.name[len] = '\0';
    if (v_len < RB_MAX_PARAM_TEXT) /* digits: ASCII, cut anywhere */
        memcpy(p.text, v, v_len + 1);
    else
        snprintf(p.text, sizeof p.text, "%.*s...", (int)RB_MAX_PARAM_TEXT - 4, v);
    if (find_set(cfg, p.name)) return rb_set_error(RB_EINVAL, "--param %s given twice", p.name);
    if (cfg->n_params >= RB_MAX_PARAMS)
        return rb_set_error(RB_EINVAL, "more than %u --param", RB_MAX_PARAMS);
    cfg->params[cfg->n_params++] = p;
    return 0;
}

int rb_param_check_value(const rb_algo *algo, const rb_param_spec *sp, const rb_param *p) {
    uint64_t value = p->value;
    if (p->past_u64 || value < sp->min || value > sp->max) {
        char given[RB_MAX_PARAM_TEXT];
        if (p->text[0]) /* as written: '007' is not 7 to its writer */
            snprintf(given, sizeof given, "%s", p->text);
        else /* set in code, not by rb_config_set_param */
            snprintf(given, sizeof given, "%llu", (unsigned long long)value);
        return rb_set_error(RB_ERANGE, "%s: --param %s: '%s' is out of range (%llu..%llu)",
                            algo->name, sp->name, given, (unsigned long long)sp->min,
                            (unsigned long long)sp->max);
    }
    int rc = sp->check ? sp->check(value) : 0;
    if (rc) {
        char why[160];
        snprintf(why, sizeof why, "%s", rb_error_detail());
        return rb_set_error(rc, "%s: --param %s=%llu: %s", algo->name, sp->name,
                            (unsigned long long)value, why);
    }
    return 0;
}

/* "a, b" of the parameters the algorithms declare, into buf. */
static void declared_names(const rb_algo *const *algos, size_t n, char *buf, size_t size) {
    size_t used = 0;
    buf[0] = '\0';
    for (size_t a = 0; a < n; a++)
        for (size_t i = 0; algos[a]->params && i < algos[a]->n_params && used < size; i++) {
            int w = snprintf(buf + used, size - used, "%s%s %s", used ? ", " : "", algos[a]->name,
                             algos[a]->params[i].name);
            if (w > 0) used += (size_t)w;
        }
    if (!used) snprintf(buf, size, "none");
}

int rb_algo_check_params(const rb_algo *const *algos, size_t n, const rb_config *cfg) {
    for (uint32_t i = 0; i < cfg->n_params; i++) {
        const rb_param *p = &cfg->params[i];
        size_t n_declaring = 0;
        for (size_t a = 0; a < n; a++) {
            const rb_param_spec *sp = rb_algo_param_spec(algos[a], p->name);
            if (!sp) continue;
            n_declaring++;
            int rc = rb_param_check_value(algos[a], sp, p);
            if (rc) return rc;
        }
        if (!n_declaring) {
            char list[256];
            declared_names(algos, n, list, sizeof list);
            return rb_set_error(RB_EUNKNOWN, "unknown parameter '%s' (parameters: %s)", p->name,
                                list);
        }
    }
    return 0;
}

uint64_t rb_config_param(const rb_algo *algo, const rb_config *cfg, const char *name) {
    const rb_param_spec *sp = rb_algo_param_spec(algo, name);
    if (!sp) return 0;
    const rb_param *p = find_set(cfg, name);
    return p ? p->value : sp->def;
}

size_t rb_params_format(const rb_algo *algo, const rb_config *cfg, char *buf, size_t size) {
    size_t used = 0;
    if (size) buf[0] = '\0';
    for (size_t i = 0; algo->params && i < algo->n_params; i++) {
        const char *name = algo->params[i].name;
        int w =
            snprintf(used < size ? buf + used : NULL, used < size ? size - used : 0, "%s%s=%llu",
                     used ? "," : "", name, (unsigned long long)rb_config_param(algo, cfg, name));
        if (w > 0) used += (size_t)w;
    }
    for (uint32_t i = 0; i < cfg->n_params; i++) {
        if (rb_algo_param_spec(algo, cfg->params[i].name)) continue; /* written above */
        int w = snprintf(used < size ? buf + used : NULL, used < size ? size - used : 0,
                         "%s%s=%llu", used ? "," : "", cfg->params[i].name,
                         (unsigned long long)cfg->params[i].value);
        if (w > 0) used += (size_t)w;
    }
    return used;
}
