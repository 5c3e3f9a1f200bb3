#pragma once
// The C++ API of the op catalogue: one thin, typed wrapper per op, grouped by family. Each wrapper
// is a call() through the dispatcher (NOTE: [dispatch]), so wrappers add no semantics of their own.
#include "reference/api/binary.h"
#include "reference/api/composite.h"
#include "reference/api/conversion.h"
#include "reference/api/creation.h"
#include "reference/api/dynamic.h"
#include "reference/api/index.h"
#include "reference/api/linalg.h"
#include "reference/api/random.h"
#include "reference/api/reduce.h"
#include "reference/api/scan.h"
#include "reference/api/unary.h"
#include "reference/api/view.h"
