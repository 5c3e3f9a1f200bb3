// Intentionally empty: funcspec_gtest_pch (tests/CMakeLists.txt) exists to compile the precompiled
// header that the executables linking GoogleTest reuse, and a target needs a source file.
