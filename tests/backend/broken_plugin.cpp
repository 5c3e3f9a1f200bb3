// libfuncspec_broken_plugin.so: the reference behind the plug-in entry point, misbehaving as the
// environment variable FUNCSPEC_BROKEN_PLUGIN says (tests/backend/misbehaviour.h).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>

#include "funcspec/backend_plugin.h"
#include "tests/backend/misbehaviour.h"

namespace {

using namespace funcspec::conformance;

void* open_instance() {
  try {
    const char* words = std::getenv("FUNCSPEC_BROKEN_PLUGIN");
    return new testing::BrokenServer(testing::parse_misbehaviour(testing::split_blanks(words ? words : "")));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "broken plug-in: %s\n", e.what());
    return nullptr;
  }
}

const char* answer(void* instance, const char* request) {
  const ServerAnswer answer = static_cast<testing::BrokenServer*>(instance)->answer(request);
  if (answer.reply.empty()) return nullptr;
  char* out = new char[answer.reply.size() + 1];
  std::memcpy(out, answer.reply.c_str(), answer.reply.size() + 1);
  return out;
}

void release(void* /*instance*/, const char* reply) { delete[] reply; }

void close_instance(void* instance) { delete static_cast<testing::BrokenServer*>(instance); }

}  // namespace

extern "C" const funcspec_backend_plugin_v1* funcspec_backend_plugin(void) {
  static const funcspec_backend_plugin_v1 plugin = {FUNCSPEC_PLUGIN_ABI_VERSION, &open_instance, &answer, &release,
                                                    &close_instance};
  return &plugin;
}
