// Plug-ins the loader must refuse: built with FUNCSPEC_ODD_PLUGIN_NO_ENTRY, a library without the
// entry point; otherwise one built for another ABI version.
#include "funcspec/backend_plugin.h"

#ifdef FUNCSPEC_ODD_PLUGIN_NO_ENTRY
extern "C" int funcspec_some_other_function(void) { return 42; }
#else
extern "C" const funcspec_backend_plugin_v1* funcspec_backend_plugin(void) {
  static const funcspec_backend_plugin_v1 plugin = {FUNCSPEC_PLUGIN_ABI_VERSION + 1, nullptr, nullptr, nullptr,
                                                    nullptr};
  return &plugin;
}
#endif
