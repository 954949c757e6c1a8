# cmake/test_build.cmake: how the test programs and the sanitizer / fuzz builds are compiled, sized
# for CI time on 2 cores (.ci/run must stay under 15 minutes). Included by the top-level
# CMakeLists.txt after src/, tests/ and fuzz/ are added.
#
# Measured (CPU seconds of one compile, gcc 12 / clang 14, 2026-11-29):
#   test TU           gcc -O3 | gcc -O0 | gcc -O0 + PCH || clang -O1 ASan+UBSan+fuzzer-no-link | clang -O0 ASan+UBSan + PCH
#   scheduler_test.cc   10.4  |   5.2   |      4.3      ||              12.4                     |           3.6
#   scenario_test.cc    10.7  |   5.4   |      4.7      ||              15.0                     |           4.8
#   pod_test.cc          2.8  |   1.8   |      1.1      ||               3.6                     |           1.1
# The test sources are checks, not the code under test: they are compiled with
# WASCHED_TEST_COMPILE_OPTIONS (default -O0) and a precompiled header, while the libraries they
# link keep the build type's flags (-O3 in Release, -O1 in the fuzz build). Test run time does not
# change measurably (the whole suite's CPU time is a few seconds; the work is in the libraries).

set(WASCHED_TEST_COMPILE_OPTIONS "-O0" CACHE STRING
    "Extra compile options for the test programs' own sources (the libraries keep the build type's flags)")
option(WASCHED_TEST_PCH "Precompile gtest/gmock, fmt and the common standard headers for the test programs" ON)

foreach(_target wasched_unit_tests wasched_integration_tests)
  if(NOT TARGET ${_target})
    continue()
  endif()
  target_compile_options(${_target} PRIVATE ${WASCHED_TEST_COMPILE_OPTIONS})
  if(WASCHED_TEST_PCH)
    target_precompile_headers(${_target} PRIVATE
      <algorithm> <cstdint> <functional> <map> <memory> <optional> <set> <sstream> <string>
      <string_view> <utility> <vector>
      <fmt/format.h> <gtest/gtest.h> <gmock/gmock.h>)
  endif()
endforeach()

# Fuzz build (WASCHED_FUZZ, clang): every target is compiled with ASan + UBSan (top-level
# CMakeLists.txt); only the libraries the fuzz targets exercise also get libFuzzer's coverage
# instrumentation (-fsanitize=fuzzer-no-link). The same build runs the unit and integration tests
# under the sanitizers (scripts/sanitize.sh): the tests link the ASan/UBSan runtime, whose weak
# no-op coverage hooks satisfy the instrumented libraries.
if(WASCHED_FUZZ)
  get_property(_src_targets DIRECTORY ${PROJECT_SOURCE_DIR}/src PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_target ${_src_targets})
    get_target_property(_type ${_target} TYPE)
    if(_type STREQUAL "STATIC_LIBRARY")
      target_compile_options(${_target} PRIVATE -fsanitize=fuzzer-no-link)
    endif()
  endforeach()
endif()
