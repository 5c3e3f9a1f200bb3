# Project-wide compile flags: strict warnings (errors when FUNCSPEC_WERROR), and the sanitizer build.
add_library(funcspec_flags INTERFACE)
target_compile_options(funcspec_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
   -Woverloaded-virtual -Wimplicit-fallthrough>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${FUNCSPEC_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${FUNCSPEC_WERROR}>>:--Werror=all-warnings>)
# The sanitized build compiles at -O1 whatever its CMAKE_BUILD_TYPE (CI's is Debug, for assertions
# and full debug info): AddressSanitizer's own advice, and at -O0 the instrumented engine is slow
# enough that collecting the suite alone took half a minute per `funcspec check` process, most of
# CI's sanitized test time. -O1 keeps every instrumented access (it inlines little and keeps frames
# with -fno-omit-frame-pointer), so reports still name the line.
if(FUNCSPEC_SANITIZE)
  target_compile_options(funcspec_flags INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-O1 -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer>)
  target_link_options(funcspec_flags INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all)
endif()

# Every translation unit parses Boost.Multiprecision/Math and fmt (the oracle dtype is part of every
# kernel's type list); precompiling them roughly halves a clean build on CI's two cores. Configure
# with -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON to check that each file includes what it uses.
set(FUNCSPEC_PRECOMPILED_HEADERS
  <boost/multiprecision/cpp_bin_float.hpp> <boost/math/special_functions/erf.hpp>
  <boost/math/special_functions/expm1.hpp> <boost/math/special_functions/log1p.hpp>
  <fmt/format.h> <fmt/ranges.h> <functional> <map> <memory> <optional> <string> <variant> <vector>)
function(funcspec_precompile target)
  target_precompile_headers(${target} PRIVATE ${FUNCSPEC_PRECOMPILED_HEADERS} ${ARGN})
endfunction()

# The executables that link GoogleTest (the tests, and the funcspec command through the suite) share
# one precompiled header, the list above plus GoogleTest, compiled once (by funcspec_gtest_pch,
# tests/CMakeLists.txt) instead of once per executable. A header can only be reused under the same
# compile flags; these targets all compile as position-independent executables with funcspec_flags
# and GoogleTest's definitions (their own -D values do not appear in the header), and should that
# ever change, -Winvalid-pch (an error here) names the difference.
function(funcspec_precompile_with_gtest target)
  target_precompile_headers(${target} REUSE_FROM funcspec_gtest_pch)
  funcspec_test_code_optimization(${target})
endfunction()

# The code of the GoogleTest executables (and of the funcspec command, which shares their header)
# is compiled at -O1 in optimized builds: a quarter less compile time than -O2 for test code that
# mostly calls into the engine, which keeps -O2. One function, so that the precompiled header's
# owner and its users cannot disagree.
function(funcspec_test_code_optimization target)
  target_compile_options(${target} PRIVATE $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<CONFIG:Release,RelWithDebInfo>>:-O1>)
endfunction()
