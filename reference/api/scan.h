#pragma once
#include "reference/ops/dispatch.h"

namespace funcspec::ops {}  // namespace funcspec::ops
