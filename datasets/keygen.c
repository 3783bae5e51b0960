/* keygen.c — splitmix64, uniform doubles and the Zipf sampler (keygen.h). */
#include "keygen.h"

#include <math.h>
#include <stdlib.h>

int rb_zipf_init(rb_zipf *z, uint32_t n, double s) {
    z->cum_weight = NULL;
    z->n = 0;
    z->total = 0;
    if (n == 0) return -1;
    z->cum_weight = malloc((size_t)n * sizeof *z->cum_weight);
    if (!z->cum_weight) return -1;
    double total = 0.0;
    for (uint32_t r = 0; r < n; r++) {
        total += pow((double)r + 1.0, -s);
        z->cum_weight[r] = total;
    }
    z->n = n;
    z->total = total;
    return 0;
}

uint32_t rb_zipf_next(const rb_zipf *z, uint64_t *state) {
    double target = rb_unit_double(state) * z->total;
    /* the first rank whose cumulative weight exceeds target; target < total,
     * so the answer is in [0, n - 1] */
    uint32_t lo = 0, hi = z->n - 1;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (z->cum_weight[mid] > target)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

void rb_zipf_free(rb_zipf *z) {
    free(z->cum_weight);
    z->cum_weight = NULL;
    z->n = 0;
}
