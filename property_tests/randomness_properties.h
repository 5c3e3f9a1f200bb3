#pragma once
// The randomness properties (randomness_properties.cpp) as their tests need them: the draws
// property built with a wider choice of stacks than the suite runs.
#include "property_tests/property.h"

namespace funcspec::properties {

struct DrawsPropertyOptions {
  // Whether jacfwd levels may take randomness='different'. Off in the suite: the reference's jacfwd
  // returns the primal output through its vmap with out_dim None, which a 'different' draw makes
  // batched, so jacfwd(f, randomness='different') raises vmap_invalid_dims whenever f's result
  // depends on the draw (AD-3.3 says the flag is that vmap's, VMAP-2.3). A test pins that bug.
  bool jacfwd_different = false;
};

// PROP-RANDOM/same-and-different-draws.
PropertyDef same_and_different_draws_property(const DrawsPropertyOptions& options);

}  // namespace funcspec::properties
