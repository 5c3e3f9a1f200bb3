// make_backend and the splitting of exec: commands into words.
#include <gtest/gtest.h>

#include "conformance/backend/backend.h"
#include "tests/backend/backend_test_support.h"

namespace funcspec::conformance {
namespace {

using testing::contains;

std::string error_of(const std::string& spec) {
  try {
    make_backend(spec);
  } catch (const BackendError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SplitCommandWords, SplitsOnBlanks) {
  EXPECT_EQ(split_command_words("  a  b\tc "), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(SplitCommandWords, SingleQuotesKeepEverything) {
  EXPECT_EQ(split_command_words(R"(run 'a b "c" \d')"), (std::vector<std::string>{"run", R"(a b "c" \d)"}));
}

TEST(SplitCommandWords, DoubleQuotesUnescapeOnlyTheirSpecials) {
  EXPECT_EQ(split_command_words(R"("a \"b\" \\ \n $x")"), (std::vector<std::string>{R"(a "b" \ \n $x)"}));
}

TEST(SplitCommandWords, BackslashQuotesTheNextCharacter) {
  EXPECT_EQ(split_command_words(R"(a\ b c\'d)"), (std::vector<std::string>{"a b", "c'd"}));
}

TEST(SplitCommandWords, AdjacentQuotedPartsFormOneWordAndEmptyQuotesAWord) {
  EXPECT_EQ(split_command_words(R"(x'y'"z" '')"), (std::vector<std::string>{"xyz", ""}));
}

TEST(SplitCommandWords, UnbalancedQuotesAreErrors) {
  EXPECT_THROW(split_command_words("run 'abc"), BackendError);
  EXPECT_THROW(split_command_words("run \"abc"), BackendError);
  EXPECT_THROW(split_command_words("run abc\\"), BackendError);
}

TEST(MakeBackend, Reference) {
  const auto backend = make_backend("reference");
  EXPECT_EQ(backend->spec(), "reference");
  EXPECT_EQ(backend->capabilities().name, "funcspec-reference");
}

TEST(MakeBackend, ExecWithQuotedCommand) {
  const std::string spec = "exec:'" FUNCSPEC_REFERENCE_BACKEND "'";
  const auto backend = make_backend(spec);
  EXPECT_EQ(backend->spec(), spec);
  EXPECT_EQ(backend->capabilities().name, "funcspec-reference");
}

TEST(MakeBackend, Plugin) {
  const auto backend = make_backend("plugin:" FUNCSPEC_REFERENCE_PLUGIN);
  EXPECT_EQ(backend->spec(), "plugin:" FUNCSPEC_REFERENCE_PLUGIN);
  EXPECT_EQ(backend->capabilities().name, "funcspec-reference");
}

TEST(MakeBackend, UnknownSchemeIsNamed) {
  const std::string error = error_of("torch:cuda");
  EXPECT_TRUE(contains(error, "unknown backend 'torch:cuda'")) << error;
}

TEST(MakeBackend, EmptyCommand) {
  EXPECT_TRUE(contains(error_of("exec:"), "names no command"));
  EXPECT_TRUE(contains(error_of("exec:   "), "names no command"));
}

TEST(MakeBackend, UnbalancedQuotesInCommand) {
  EXPECT_TRUE(contains(error_of("exec:run 'x"), "unterminated single quote"));
}

TEST(MakeBackend, CommandThatDoesNotExist) {
  const std::string error = error_of("exec:/nonexistent/funcspec-backend --flag");
  EXPECT_TRUE(contains(error, "cannot run '/nonexistent/funcspec-backend'")) << error;
  EXPECT_TRUE(contains(error, "No such file or directory")) << error;
}

TEST(MakeBackend, MissingLibrary) {
  const std::string error = error_of("plugin:/nonexistent/libbackend.so");
  EXPECT_TRUE(contains(error, "cannot load the plug-in '/nonexistent/libbackend.so'")) << error;
}

TEST(MakeBackend, LibraryWithoutEntryPoint) {
  const std::string error = error_of("plugin:" FUNCSPEC_NO_ENTRY_PLUGIN);
  EXPECT_TRUE(contains(error, "has no entry point funcspec_backend_plugin")) << error;
}

TEST(MakeBackend, WrongAbiVersion) {
  const std::string error = error_of("plugin:" FUNCSPEC_WRONG_ABI_PLUGIN);
  EXPECT_TRUE(contains(error, "built for plug-in ABI version 2")) << error;
}

TEST(MakeBackend, FailedHandshakeNamesCommandStatusAndStderr) {
  const std::string error = error_of("exec:" FUNCSPEC_BROKEN_BACKEND " --fail-handshake");
  EXPECT_TRUE(contains(error, FUNCSPEC_BROKEN_BACKEND " --fail-handshake' failed the handshake")) << error;
  EXPECT_TRUE(contains(error, "this backend refuses every handshake")) << error;
  EXPECT_TRUE(contains(error, "refusing the handshake on purpose")) << error;
}

TEST(MakeBackend, CommandThatIsNotABackend) {
  // `true` exits at once without a word: a handshake failure naming its exit status.
  const std::string error = error_of("exec:true");
  EXPECT_TRUE(contains(error, "'true' failed the handshake: it exited with status 0 before answering the hello"))
      << error;
}

TEST(MakeBackend, HelloInAnotherProtocolVersion) {
  const std::string error = error_of("exec:" FUNCSPEC_BROKEN_BACKEND " --bad-hello");
  EXPECT_TRUE(contains(error, "speaks 'funcspec-protocol/9'")) << error;
}

}  // namespace
}  // namespace funcspec::conformance
