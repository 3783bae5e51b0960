/* consumer.c — a program that uses an installed ringbench (cmake/test_install.sh builds it
 * once with pkg-config and once with find_package). Prints the version, then for each key
 * argument: key, bucket (fnv1a32, B = 1024) and owner among worker-1..3 (binary ring). */
#include <ringbench/ringbench.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    rb_config cfg;
    rb_config_init(&cfg);
    cfg.ring_hash = cfg.bucket_hash = rb_hash_by_name("fnv1a32");
    rb_member m[3] = {{"worker-1", 8, 1}, {"worker-2", 8, 1}, {"worker-3", 8, 1}};
    rb_ring *ring;
    if (rb_ring_build(rb_algo_by_name("binary"), &cfg, m, 3, &ring)) {
        fprintf(stderr, "consumer: %s\n", rb_error_detail());
        return 1;
    }
    printf("ringbench %s (%d.%d.%d)\n", RINGBENCH_VERSION, RINGBENCH_VERSION_MAJOR,
           RINGBENCH_VERSION_MINOR, RINGBENCH_VERSION_PATCH);
    for (int i = 1; i < argc; i++) {
        size_t len;
        const char *owner =
            rb_ring_member_id(ring, rb_ring_owner_key(ring, argv[i], strlen(argv[i])), &len);
        printf("%s\t%u\t%.*s\n", argv[i], rb_bucket_of(&cfg, argv[i], strlen(argv[i])), (int)len,
               owner);
    }
    rb_ring_destroy(ring);
    return 0;
}
