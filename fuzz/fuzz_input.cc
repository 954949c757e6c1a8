// File: fuzz/fuzz_input.cc
#include "fuzz_input.h"

#include <cstdio>
#include <cstdlib>

namespace wasched::fuzz {

std::string Text(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

void CheckErrors(const InputErrors& errors) {
  if (errors.empty()) {
    std::fprintf(stderr, "fuzz: an error result holds no error\n");
    std::abort();
  }
  for (const InputError& e : errors) {
    if (e.ToString().empty()) {
      std::fprintf(stderr, "fuzz: an error without text\n");
      std::abort();
    }
  }
}

}  // namespace wasched::fuzz
