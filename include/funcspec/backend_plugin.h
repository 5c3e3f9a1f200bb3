/*
 * The C entry point of a funcspec backend plug-in (`funcspec check --backend plugin:PATH`).
 *
 * A plug-in speaks the same messages as an external-process backend (docs/protocol.md,
 * funcspec-protocol/1): it receives each request as one line of JSON and returns one line of JSON.
 * Only the transport differs, so a plug-in author writes the same code as a process author.
 *
 * The suite loads the library with dlopen in its own process, checks `abi_version`, and then runs
 * the plug-in in a worker process forked from the suite, which relays the protocol over pipes. A
 * crash or a hang therefore costs one case: the worker is killed and forked again. Consequences for
 * the plug-in:
 *   - it must tolerate being forked after it was loaded: do nothing at load time (static
 *     initialisers, constructors) that a fork breaks, such as starting threads or opening device
 *     contexts; do that in `open`, which runs in the worker after the fork;
 *   - `open` may run many times over the suite's life, each time in a fresh worker;
 *   - stdout belongs to the protocol: log to stderr (the suite keeps its last lines to explain a
 *     crash).
 *
 * This header is C89 and has no dependencies, so a plug-in can be written in C, C++, Rust (through
 * a C ABI) or anything else that produces a shared library.
 */
#ifndef FUNCSPEC_BACKEND_PLUGIN_H
#define FUNCSPEC_BACKEND_PLUGIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* The version of the struct below. The suite refuses a plug-in built for another version. */
#define FUNCSPEC_PLUGIN_ABI_VERSION 1

/* The name of the function every plug-in exports. */
#define FUNCSPEC_PLUGIN_ENTRY_POINT "funcspec_backend_plugin"

typedef struct funcspec_backend_plugin_v1 {
  /* FUNCSPEC_PLUGIN_ABI_VERSION. The suite reads this field first and nothing else when it differs. */
  unsigned long abi_version;

  /* Creates an instance of the backend, in the worker process. Returns NULL on failure (after
   * writing the reason to stderr): the suite then reports the plug-in as unusable. */
  void *(*open)(void);

  /* Answers one request. `request` is one JSON message of funcspec-protocol/1 (hello, evaluate or
   * bye) as a NUL-terminated UTF-8 string without the newline. Returns the reply, one JSON message
   * as a NUL-terminated string without a newline, which stays valid until `release` is called on
   * it. Returns NULL for a bye (no reply is sent); NULL for any other request counts as a crash of
   * the plug-in. */
  const char *(*answer)(void *instance, const char *request);

  /* Frees a reply returned by `answer`. */
  void (*release)(void *instance, const char *reply);

  /* Destroys the instance; called after a bye, before the worker exits. */
  void (*close)(void *instance);
} funcspec_backend_plugin_v1;

/* The entry point: returns a pointer to a plug-in description that stays valid while the library
 * is loaded. Declared here so that the plug-in's definition is checked against it. */
const funcspec_backend_plugin_v1 *funcspec_backend_plugin(void);

#ifdef __cplusplus
}
#endif

#endif /* FUNCSPEC_BACKEND_PLUGIN_H */
