#include "conformance/backend/plugin_backend.h"

#include <dlfcn.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "conformance/backend/protocol.h"

namespace funcspec::conformance {

namespace {

// The loaded library; unloaded when the last worker launcher that needs it is gone.
class PluginLibrary {
 public:
  explicit PluginLibrary(const std::string& path) : path_(path) {
    handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle_ == nullptr) throw BackendError(fmt::format("cannot load the plug-in '{}': {}", path, last_error()));
    ::dlerror();
    void* symbol = ::dlsym(handle_, FUNCSPEC_PLUGIN_ENTRY_POINT);
    if (symbol == nullptr) {
      const std::string error = last_error();
      ::dlclose(handle_);
      throw BackendError(
          fmt::format("the plug-in '{}' has no entry point {} ({}); see include/funcspec/backend_plugin.h", path,
                      FUNCSPEC_PLUGIN_ENTRY_POINT, error));
    }
    using Entry = const funcspec_backend_plugin_v1* (*)();
    const auto entry = reinterpret_cast<Entry>(symbol);
    plugin_ = entry();
    if (plugin_ == nullptr) {
      ::dlclose(handle_);
      throw BackendError(fmt::format("the plug-in '{}': {} returned NULL", path, FUNCSPEC_PLUGIN_ENTRY_POINT));
    }
    if (plugin_->abi_version != FUNCSPEC_PLUGIN_ABI_VERSION) {
      const unsigned long version = plugin_->abi_version;
      ::dlclose(handle_);
      throw BackendError(
          fmt::format("the plug-in '{}' was built for plug-in ABI version {}, but this suite loads "
                      "version {} (include/funcspec/backend_plugin.h)",
                      path, version, FUNCSPEC_PLUGIN_ABI_VERSION));
    }
    if (plugin_->open == nullptr || plugin_->answer == nullptr || plugin_->release == nullptr ||
        plugin_->close == nullptr) {
      ::dlclose(handle_);
      throw BackendError(fmt::format("the plug-in '{}' leaves a function of its entry point NULL", path));
    }
  }
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;
  ~PluginLibrary() { ::dlclose(handle_); }

  const funcspec_backend_plugin_v1& plugin() const { return *plugin_; }

 private:
  static std::string last_error() {
    const char* error = ::dlerror();
    return error != nullptr ? error : "unknown error";
  }

  std::string path_;
  void* handle_ = nullptr;
  const funcspec_backend_plugin_v1* plugin_ = nullptr;
};

bool write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool has_type(std::string_view line, std::string_view type) {
  const Json message = Json::parse(line, nullptr, false);
  return message.is_object() && message.contains("type") && message["type"] == type;
}

void report(const char* message) { write_all(STDERR_FILENO, message, std::strlen(message)); }

}  // namespace

int serve_plugin(const funcspec_backend_plugin_v1& plugin) {
  void* instance = plugin.open();
  if (instance == nullptr) {
    report("funcspec plug-in worker: the plug-in's open() returned NULL\n");
    return 3;
  }
  std::string buffer;
  char chunk[64 * 1024];
  for (;;) {
    std::size_t newline = buffer.find('\n');
    while (newline == std::string::npos) {
      const ssize_t got = ::read(STDIN_FILENO, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        plugin.close(instance);  // the suite went away without a bye
        return 0;
      }
      buffer.append(chunk, static_cast<std::size_t>(got));
      newline = buffer.find('\n');
    }
    const std::string line = buffer.substr(0, newline);
    buffer.erase(0, newline + 1);
    const char* reply = plugin.answer(instance, line.c_str());
    if (reply == nullptr) {
      if (has_type(line, "bye")) {
        plugin.close(instance);
        return 0;
      }
      report("funcspec plug-in worker: the plug-in's answer() returned NULL for a request that needs a reply\n");
      return 3;
    }
    const bool sent = write_all(STDOUT_FILENO, reply, std::strlen(reply)) && write_all(STDOUT_FILENO, "\n", 1);
    // A refused hello ends the conversation, as it ends an external process.
    const bool refused = has_type(line, "hello") && has_type(reply, "error");
    plugin.release(instance, reply);
    if (!sent || refused) {
      plugin.close(instance);
      return refused ? 2 : 0;
    }
  }
}

std::unique_ptr<Backend> make_plugin_backend(const std::string& spec, const std::string& path, ProcessOptions options) {
  auto library = std::make_shared<PluginLibrary>(path);
  const std::string description = fmt::format("the plug-in '{}'", path);
  return std::make_unique<ProcessBackend>(
      spec, description,
      [library] { return ChildProcess::fork_function([library] { return serve_plugin(library->plugin()); }); },
      options);
}

}  // namespace funcspec::conformance
