#pragma once
// Case files (docs/case-format.md): read and validated by case_reader.h, written by case_writer.h.
#include "conformance/case/case_reader.h"
#include "conformance/case/case_writer.h"
