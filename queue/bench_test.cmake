# ctest pg_bench_smoke (label pg): `ringbench pg bench --smoke` must report duplicates == 0 and
# lost == 0 (correctness, not speed). Included from queue/tests/CMakeLists.txt, where the
# pg_server fixture and RB_PG_ENV are defined.
add_test(NAME pg_bench_smoke COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/bench_smoke.sh)
set_tests_properties(pg_bench_smoke PROPERTIES LABELS pg FIXTURES_REQUIRED pg_server
                     SKIP_RETURN_CODE 77 TIMEOUT 180 ENVIRONMENT "${RB_PG_ENV}")

# ctest pg_bench_quick (label pg): the same checks on the --quick profile (about 2.5 minutes), the
# profile issue #6 asks CI to run. Release builds only: under the sanitizers it takes far longer
# and measures nothing the smoke profile does not already check there.
if(NOT RINGBENCH_SANITIZE)
  add_test(NAME pg_bench_quick COMMAND bash ${CMAKE_CURRENT_LIST_DIR}/bench_smoke.sh quick)
  set_tests_properties(pg_bench_quick PROPERTIES LABELS pg FIXTURES_REQUIRED pg_server
                       SKIP_RETURN_CODE 77 TIMEOUT 600 ENVIRONMENT "${RB_PG_ENV}")
endif()
