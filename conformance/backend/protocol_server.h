#pragma once
// The backend side of docs/protocol.md around an in-process Backend: one request line in, at most
// one reply line out. The reference executable and the reference plug-in are this server around
// ReferenceBackend; the deliberately broken backends of the tests wrap it.
#include <cstdio>
#include <string>
#include <string_view>

#include "conformance/backend/backend.h"

namespace funcspec::conformance {

struct ServerAnswer {
  std::string reply;      // one JSON line without the newline; empty when nothing is to be sent
  bool finished = false;  // the conversation is over: after a bye, or after refusing the handshake
  int exit_status = 0;    // for a process that exits when finished: 0 after a bye, 2 after a refusal
};

class ProtocolServer {
 public:
  explicit ProtocolServer(Backend& backend) : backend_(backend) {}
  ServerAnswer answer(std::string_view request_line);

 private:
  Backend& backend_;
  bool greeted_ = false;
};

// Serves `backend` on `in` and `out` until a bye, a refused handshake or the end of the input;
// returns the process's exit status.
int serve_protocol(Backend& backend, std::FILE* in, std::FILE* out);

}  // namespace funcspec::conformance
