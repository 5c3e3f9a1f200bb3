#pragma once
// Cases and helpers shared by the backend tests.
#include <string>
#include <vector>

#include "conformance/backend/backend.h"
#include "conformance/case/case_json.h"

namespace funcspec::conformance::testing {

// y = OP(x, x) (binary) or y = OP(x) (unary) on a small float64 x, with the reference's answer
// as the expectation, so a correct backend passes it.
Case one_op_case(const std::string& op, bool binary);
inline Case add_case() { return one_op_case("add", true); }  // the healthy case
inline Case mul_case() { return one_op_case("mul", true); }  // the case broken backends misbehave on

// Every case file of fixtures/cases.
std::vector<Case> fixture_cases();
// One case per sample of the op sample database (the first `per_op` samples of each op), with a
// placeholder expectation: for comparing backends with each other, not for judging.
std::vector<Case> generated_cases(std::size_t per_op);

bool contains(const std::string& text, const std::string& fragment);

}  // namespace funcspec::conformance::testing
