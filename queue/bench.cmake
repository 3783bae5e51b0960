# `ringbench pg bench` (issue 6, queue/BENCH.md): compiled into the CLI beside
# the queue library. Included from queue/CMakeLists.txt; its smoke test is
# registered by bench_test.cmake (included from queue/tests, for the fixture).
set(RINGBENCH_PG_BENCH_SOURCES
  ${CMAKE_CURRENT_LIST_DIR}/bench.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_db.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_events.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_keys.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_pgbench.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_queue.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_report.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_run.c
  ${CMAKE_CURRENT_LIST_DIR}/bench_stats.c)
target_sources(ringbench-cli PRIVATE ${RINGBENCH_PG_BENCH_SOURCES})
target_link_libraries(ringbench-cli PRIVATE ringbench_keygen) # datasets/keygen.h
# bench.c finds scripts/machine-record and the CMake cache it reads.
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/bench.c TARGET_DIRECTORY ringbench-cli
  PROPERTIES COMPILE_DEFINITIONS
  "RINGBENCH_SOURCE_DIR=\"${PROJECT_SOURCE_DIR}\";RINGBENCH_BINARY_DIR=\"${PROJECT_BINARY_DIR}\"")
