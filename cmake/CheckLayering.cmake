# The engine's layers point one way (docs/overview.md): each folder of reference/ below may include
# only the folders listed for it. Run by ctest (tests/CMakeLists.txt) as
#   cmake -DSOURCE_DIR=<repository root> -P cmake/CheckLayering.cmake
# and fails naming every include that crosses a layer the wrong way.
set(layers
    "reference/core|reference/core"
    "reference/random|reference/core reference/random"
    "reference/backends/common|reference/core reference/random reference/backends/common"
    "reference/backends/cpu|reference/core reference/random reference/backends/common reference/backends/cpu"
    "reference/backends/cuda|reference/core reference/random reference/backends/common reference/backends/cuda")

set(violations "")
foreach(layer IN LISTS layers)
  string(REPLACE "|" ";" parts "${layer}")
  list(GET parts 0 folder)
  list(GET parts 1 allowed)
  string(REPLACE " " ";" allowed "${allowed}")
  file(GLOB_RECURSE sources "${SOURCE_DIR}/${folder}/*.h" "${SOURCE_DIR}/${folder}/*.cpp" "${SOURCE_DIR}/${folder}/*.cu"
       "${SOURCE_DIR}/${folder}/*.cuh")
  foreach(source IN LISTS sources)
    file(STRINGS "${source}" includes REGEX "^[ \t]*#[ \t]*include[ \t]+\"reference/")
    foreach(line IN LISTS includes)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*" "\\1" included "${line}")
      set(permitted FALSE)
      foreach(prefix IN LISTS allowed)
        string(FIND "${included}" "${prefix}/" at)
        if(at EQUAL 0)
          set(permitted TRUE)
        endif()
      endforeach()
      if(NOT permitted)
        file(RELATIVE_PATH relative "${SOURCE_DIR}" "${source}")
        list(JOIN allowed ", " allowed_folders)
        string(APPEND violations "\n  ${relative} includes ${included} (${folder}/ may include ${allowed_folders})")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  message(FATAL_ERROR "includes against the engine's layering:${violations}")
endif()
message(STATUS "the engine's layers point one way")
