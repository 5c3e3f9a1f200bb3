#include "tools/interruption.h"

#include <fmt/format.h>

#include <csignal>
#include <cstring>

namespace funcspec::tools {

namespace {

volatile std::sig_atomic_t received = 0;

extern "C" void remember_signal(int signal) {
  if (received == 0) received = signal;
}

}  // namespace

void stop_on_interruption() {
  struct sigaction action {};
  action.sa_handler = remember_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

int interruption_signal() { return received; }

std::string signal_name(int signal) {
  const char* abbreviation = ::sigabbrev_np(signal);
  return abbreviation != nullptr ? fmt::format("SIG{}", abbreviation) : fmt::format("signal {}", signal);
}

}  // namespace funcspec::tools
