#pragma once
// `funcspec replay FILE --backend SPEC`: one case file, judged on one backend, with everything the
// judge saw printed. Exit status 0 on a pass, 1 otherwise, 2 when the case or backend is unusable.
#include <string>

namespace funcspec::tools {

int run_replay(const std::string& case_file, const std::string& backend_spec, double timeout_seconds);

}  // namespace funcspec::tools
