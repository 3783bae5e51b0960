# ctest pg_bench_smoke (label pg): `ringbench pg bench --smoke` must report duplicates == 0 and
# lost == 0 (correctness, not speed). Included from queue/tests/CMakeLists.txt, where the
# pg_server fixture and RB_PG_ENV are defined.
add_test(NAME pg_bench_smoke COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/bench_smoke.sh)
set_tests_properties(pg_bench_smoke PROPERTIES LABELS pg FIXTURES_REQUIRED pg_server
                     SKIP_RETURN_CODE 77 TIMEOUT 180 ENVIRONMENT "${RB_PG_ENV}")
