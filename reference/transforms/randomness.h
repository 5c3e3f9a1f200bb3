#pragma once
// vmap's randomness flag (NOTE: [vmap randomness]), shared by the engine and the case model.
#include <string_view>

namespace funcspec::transforms {

enum class Randomness { Error, Same, Different };

// "error", "same", "different": the spelling of torch.func and of case files.
constexpr std::string_view randomness_name(Randomness randomness) {
  switch (randomness) {
    case Randomness::Error: return "error";
    case Randomness::Same: return "same";
    case Randomness::Different: return "different";
  }
  return "error";
}

}  // namespace funcspec::transforms
