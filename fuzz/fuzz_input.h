// File: fuzz/fuzz_input.h
//
// What every libFuzzer target of wasched shares: the bytes as a manifest text, and the check that
// an error report is a clean InputError list (issue 10: any input gets an answer — objects or
// located errors — never a crash, an abort, a leak or undefined behaviour; those the sanitizers
// and libFuzzer catch themselves).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "util/field_error.h"

namespace wasched::fuzz {

// Text: the fuzzer's bytes as a std::string (may hold NUL bytes and invalid UTF-8). O(size).
[[nodiscard]] std::string Text(const uint8_t* data, size_t size);

// CheckErrors: aborts (a finding) when an error list is empty or an error has no message —
// a failure must always say what is wrong. O(errors).
void CheckErrors(const InputErrors& errors);

}  // namespace wasched::fuzz
