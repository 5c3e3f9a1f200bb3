// funcspec-reference-backend: the reference engine as an external-process backend
// (`funcspec check --backend exec:funcspec-reference-backend`), speaking docs/protocol.md on stdin
// and stdout. It exists so that the whole suite can pass through the protocol, and as a working
// example for backend authors.
#include <cstdio>
#include <exception>

#include "conformance/backend/protocol_server.h"
#include "conformance/backend/reference_backend.h"

int main() {
  try {
    funcspec::conformance::ReferenceBackend backend;
    return funcspec::conformance::serve_protocol(backend, stdin, stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "funcspec-reference-backend: %s\n", e.what());
    return 1;
  }
}
