# CUDA is optional: when nvcc is found (Debian's CUDA toolkit lives in /usr/local/cuda) the CUDA
# backend is compiled for Hopper (sm_90; -DCMAKE_CUDA_ARCHITECTURES="80;90" adds Ampere); otherwise a stand-in reports
# `cuda_not_available` at run time. Either way the build succeeds.
# FUNCSPEC_ENABLE_CUDA=OFF builds the stand-in even where nvcc exists (how the no-nvcc path is tested).
# FUNCSPEC_CUDA_EMULATOR=ON compiles the backend's .cu files with the C++ compiler against the host
# emulator (reference/backends/cuda/emulator, docs/cuda.md) instead: no nvcc, no GPU, and the
# kernels run on the cpu, sanitizers included. CI's sanitizer build uses it.
option(FUNCSPEC_ENABLE_CUDA "Compile the CUDA backend when nvcc is found" ON)
option(FUNCSPEC_CUDA_EMULATOR "Build the CUDA backend against the host emulator instead of nvcc" OFF)
include(CheckLanguage)
if(FUNCSPEC_ENABLE_CUDA AND NOT FUNCSPEC_CUDA_EMULATOR)
  if(NOT CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  check_language(CUDA)
endif()
set(FUNCSPEC_CUDA_EMULATED OFF)
if(FUNCSPEC_ENABLE_CUDA AND FUNCSPEC_CUDA_EMULATOR)
  set(FUNCSPEC_HAVE_CUDA ON)
  set(FUNCSPEC_CUDA_EMULATED ON)
  message(STATUS "funcspec: CUDA backend on the host emulator (kernels run on the cpu; no GPU is used)")
elseif(FUNCSPEC_ENABLE_CUDA AND CMAKE_CUDA_COMPILER)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90)  # Hopper (the H200 the project is run on); add 80 for Ampere
  endif()
  enable_language(CUDA)
  set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 cannot ask nvcc for C++20; the .cu files need only 17
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  find_package(CUDAToolkit REQUIRED)
  set(FUNCSPEC_HAVE_CUDA ON)
  message(STATUS "funcspec: CUDA backend enabled (nvcc ${CMAKE_CUDA_COMPILER_VERSION}, archs ${CMAKE_CUDA_ARCHITECTURES})")
else()
  set(FUNCSPEC_HAVE_CUDA OFF)
  message(STATUS "funcspec: no CUDA backend (nvcc not found or FUNCSPEC_ENABLE_CUDA=OFF); building the stand-in")
endif()
