# Registering a GoogleTest executable with ctest. A normal build gives each test its own ctest entry
# (a failure names the test, and ctest -R selects one). The sanitizer build runs each executable
# once instead: a sanitized process takes a tenth of a second to start, which over ~1700 tests
# would cost CI minutes, and the normal build has already named any failing test.
function(funcspec_add_gtest target label)
  cmake_parse_arguments(ARG "" "" "ENVIRONMENT" ${ARGN})
  if(FUNCSPEC_SANITIZE)
    add_test(NAME ${target} COMMAND ${target})
    set_tests_properties(${target} PROPERTIES LABELS "${label}")
    if(ARG_ENVIRONMENT)
      set_tests_properties(${target} PROPERTIES ENVIRONMENT "${ARG_ENVIRONMENT}")
    endif()
  elseif(ARG_ENVIRONMENT)
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${label}" ENVIRONMENT "${ARG_ENVIRONMENT}")
  else()
    gtest_discover_tests(${target} DISCOVERY_MODE PRE_TEST PROPERTIES LABELS "${label}")
  endif()
endfunction()
