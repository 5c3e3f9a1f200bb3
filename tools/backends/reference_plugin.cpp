// libfuncspec_reference_plugin.so: the reference engine behind the C entry point of
// include/funcspec/backend_plugin.h (`funcspec check --backend plugin:PATH`).
#include <cstring>
#include <exception>
#include <string>

#include "conformance/backend/protocol.h"
#include "conformance/backend/protocol_server.h"
#include "conformance/backend/reference_backend.h"
#include "funcspec/backend_plugin.h"

namespace {

using funcspec::conformance::ProtocolServer;
using funcspec::conformance::ReferenceBackend;

struct Instance {
  ReferenceBackend backend;
  ProtocolServer server{backend};
};

char* copy_of(const std::string& text) {
  char* out = new char[text.size() + 1];
  std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

void* open_instance() {
  try {
    return new Instance;
  } catch (const std::exception&) {
    return nullptr;
  }
}

const char* answer(void* instance, const char* request) {
  // No exception may cross the C boundary: anything unexpected becomes a rejection.
  try {
    const std::string reply = static_cast<Instance*>(instance)->server.answer(request).reply;
    return reply.empty() ? nullptr : copy_of(reply);
  } catch (const std::exception& e) {
    return copy_of(funcspec::conformance::to_line(funcspec::conformance::rejection_reply(std::nullopt, e.what())));
  }
}

void release(void* /*instance*/, const char* reply) { delete[] reply; }

void close_instance(void* instance) { delete static_cast<Instance*>(instance); }

}  // namespace

extern "C" const funcspec_backend_plugin_v1* funcspec_backend_plugin(void) {
  static const funcspec_backend_plugin_v1 plugin = {FUNCSPEC_PLUGIN_ABI_VERSION, &open_instance, &answer, &release,
                                                    &close_instance};
  return &plugin;
}
