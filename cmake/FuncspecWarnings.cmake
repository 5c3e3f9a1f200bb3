# Project-wide compile flags: strict warnings (errors when FUNCSPEC_WERROR), and the sanitizer build.
add_library(funcspec_flags INTERFACE)
target_compile_options(funcspec_flags INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
   -Woverloaded-virtual -Wimplicit-fallthrough>
  $<$<AND:$<COMPILE_LANGUAGE:CXX>,$<BOOL:${FUNCSPEC_WERROR}>>:-Werror>
  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<BOOL:${FUNCSPEC_WERROR}>>:--Werror=all-warnings>)
if(FUNCSPEC_SANITIZE)
  target_compile_options(funcspec_flags INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer>)
  target_link_options(funcspec_flags INTERFACE -fsanitize=address,undefined -fno-sanitize-recover=all)
endif()
