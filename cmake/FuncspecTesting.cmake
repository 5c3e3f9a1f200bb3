# Registering a GoogleTest executable with ctest. A normal build gives each test its own ctest entry
# (a failure names the test, and ctest -R selects one). The sanitizer build runs each executable
# once (or in a few shards, SANITIZED_SHARDS) instead: a sanitized process takes a tenth of a
# second to start, which over ~1700 tests would cost CI minutes, and the normal build has already
# named any failing test.
# SANITIZED_COST: about how many seconds that one sanitized run takes on CI. ctest -j starts the
# costliest tests first, and a clean tree (CI's) has no times measured by an earlier run, so without
# it a long executable declared late would start last and run on one core after the others finish.
function(funcspec_add_gtest target label)
  cmake_parse_arguments(ARG "" "SANITIZED_COST;SANITIZED_SHARDS" "ENVIRONMENT" ${ARGN})
  if(FUNCSPEC_SANITIZE)
    # A sanitized executable runs as one test, or as SANITIZED_SHARDS tests that each run a share of
    # its cases (GoogleTest's GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX): a large executable then fits
    # ctest's per-test timeout and its shards run on every core.
    if(NOT ARG_SANITIZED_SHARDS)
      set(ARG_SANITIZED_SHARDS 1)
    endif()
    math(EXPR last_shard "${ARG_SANITIZED_SHARDS} - 1")
    foreach(shard RANGE ${last_shard})
      if(ARG_SANITIZED_SHARDS EQUAL 1)
        set(name ${target})
        set(environment ${ARG_ENVIRONMENT})
      else()
        set(name ${target}.shard${shard})
        set(environment ${ARG_ENVIRONMENT} GTEST_TOTAL_SHARDS=${ARG_SANITIZED_SHARDS} GTEST_SHARD_INDEX=${shard})
      endif()
      add_test(NAME ${name} COMMAND ${target})
      set_tests_properties(${name} PROPERTIES LABELS "${label}")
      if(ARG_SANITIZED_COST)
        set_tests_properties(${name} PROPERTIES COST ${ARG_SANITIZED_COST})
      endif()
      if(environment)
        set_tests_properties(${name} PROPERTIES ENVIRONMENT "${environment}")
      endif()
    endforeach()
  elseif(ARG_ENVIRONMENT)
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${label}" ENVIRONMENT "${ARG_ENVIRONMENT}")
  else()
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${label}")
  endif()
endfunction()
