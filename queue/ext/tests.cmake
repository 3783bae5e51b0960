# queue/ext/tests.cmake — the `ringbench` extension's tests (label pg; included from
# queue/tests/CMakeLists.txt for its RB_PG_ENV). pg_ext_install builds the extension against
# this build folder and installs it (scripts/pg install-ext; SKIPPED when it cannot, e.g. not
# root); the others SKIP when the extension is not installed. Not in a sanitizer build: the
# server cannot load an ASan-instrumented library (the plain build covers the extension).
if(RINGBENCH_SANITIZE)
  return()
endif()
set(rb_ext_tests ${PROJECT_SOURCE_DIR}/queue/ext/tests)
add_test(NAME pg_ext_install COMMAND bash ${rb_ext_tests}/install.sh)
set_tests_properties(pg_ext_install PROPERTIES LABELS pg FIXTURES_REQUIRED pg_server
                     FIXTURES_SETUP pg_ext SKIP_RETURN_CODE 77 TIMEOUT 180
                     ENVIRONMENT "${RB_PG_ENV};RB_BUILD=${PROJECT_BINARY_DIR}")
foreach(t agree js)
  add_test(NAME pg_ext_${t} COMMAND bash ${rb_ext_tests}/${t}.sh)
  set_tests_properties(pg_ext_${t} PROPERTIES LABELS pg FIXTURES_REQUIRED "pg_server;pg_ext"
                       SKIP_RETURN_CODE 77 TIMEOUT 300 ENVIRONMENT "${RB_PG_ENV}")
endforeach()
