#pragma once
// The deliberately broken backends of the isolation tests: the reference's protocol server, with
// misbehaviour on request. The executable funcspec-broken-backend takes the requests as
// command-line words; the plug-in libfuncspec_broken_plugin.so reads them from the environment
// variable FUNCSPEC_BROKEN_PLUGIN (words separated by blanks), at open() in each worker.
//
//   --crash-on=OP          abort() when a case calls OP
//   --segv-on=OP           die of SIGSEGV when a case calls OP
//   --hang-on=OP           never answer a case that calls OP
//   --exit-on=OP           exit 0 without answering a case that calls OP
//   --garbage-on=OP        answer a line that is not JSON
//   --malformed-on=OP:HOW  answer JSON of the wrong shape; HOW is one of missing-outputs, wrong-id,
//                          unknown-type, unknown-field, unknown-dtype, byte-count, extra-output,
//                          missing-output, unknown-error-kind, not-object
//   --lie-on=OP            answer well-formed but wrong values (every element off by one)
//   --flood-stderr-on=OP   write 4 MiB to stderr, then answer correctly
//   --fail-handshake       refuse the hello with an error and exit 2
//   --bad-hello            answer the hello in another protocol version
//   --exit-after-handshake answer the hello, then exit 0
//   --refuse-restart=FILE  answer the first hello (creating FILE), refuse every later one (FILE exists)
//   --rename-on-restart=FILE  the same, but later hellos state another name
//   --refuse-first-restart=FILE  answer the first hello, refuse the second (the first restart),
//                          answer every later one (FILE counts the hellos)
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "conformance/backend/protocol_server.h"
#include "conformance/backend/reference_backend.h"

namespace funcspec::conformance::testing {

struct Misbehaviour {
  std::map<std::string, std::string, std::less<>> on_op;  // "crash", "hang", ... -> op ("malformed" -> "op:how")
  bool fail_handshake = false;
  bool bad_hello = false;
  bool exit_after_handshake = false;
  std::string refuse_restart_marker;
  std::string rename_on_restart_marker;
  std::string refuse_first_restart_counter;
};

// Throws std::invalid_argument for an unknown word.
Misbehaviour parse_misbehaviour(const std::vector<std::string>& words);
std::vector<std::string> split_blanks(std::string_view text);

class BrokenServer {
 public:
  explicit BrokenServer(Misbehaviour misbehaviour) : misbehaviour_(std::move(misbehaviour)) {}
  // Like ProtocolServer::answer, or misbehaves (possibly never returning).
  ServerAnswer answer(std::string_view line);

 private:
  Misbehaviour misbehaviour_;
  ReferenceBackend backend_;
  ProtocolServer server_{backend_};
};

}  // namespace funcspec::conformance::testing
