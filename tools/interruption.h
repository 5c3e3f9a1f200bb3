#pragma once
// SIGINT and SIGTERM during `funcspec check`: the run stops at the next test boundary and writes its
// reports of the tests finished so far, marked interrupted (docs/report-format.md), then exits with
// 128 + the signal's number (130 for SIGINT, 143 for SIGTERM), as a shell reports a killed command.
#include <string>

namespace funcspec::tools {

// Installs the handlers (without SA_RESTART, so that a wait for a worker's output returns at once).
void stop_on_interruption();
// 0 until SIGINT or SIGTERM arrives, then its number.
int interruption_signal();
// "SIGINT", "SIGTERM".
std::string signal_name(int signal);

}  // namespace funcspec::tools
