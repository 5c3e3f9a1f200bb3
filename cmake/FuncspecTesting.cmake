# Registering a GoogleTest executable with ctest. A normal build gives each test its own ctest entry
# (a failure names the test, and ctest -R selects one). The sanitizer build runs each executable
# once instead: a sanitized process takes a tenth of a second to start, which over ~1700 tests
# would cost CI minutes, and the normal build has already named any failing test.
# SANITIZED_COST: about how many seconds that one sanitized run takes on CI. ctest -j starts the
# costliest tests first, and a clean tree (CI's) has no times measured by an earlier run, so without
# it a long executable declared late would start last and run on one core after the others finish.
function(funcspec_add_gtest target label)
  cmake_parse_arguments(ARG "" "SANITIZED_COST" "ENVIRONMENT" ${ARGN})
  if(FUNCSPEC_SANITIZE)
    add_test(NAME ${target} COMMAND ${target})
    set_tests_properties(${target} PROPERTIES LABELS "${label}")
    if(ARG_SANITIZED_COST)
      set_tests_properties(${target} PROPERTIES COST ${ARG_SANITIZED_COST})
    endif()
    if(ARG_ENVIRONMENT)
      set_tests_properties(${target} PROPERTIES ENVIRONMENT "${ARG_ENVIRONMENT}")
    endif()
  elseif(ARG_ENVIRONMENT)
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${label}" ENVIRONMENT "${ARG_ENVIRONMENT}")
  else()
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${label}")
  endif()
endfunction()
