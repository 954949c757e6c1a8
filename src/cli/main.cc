// File: cli/main.cc
//
// The `wasched` binary: everything lives in cli::Run (cli/app.h) so tests can drive it in-process.
#include <iostream>

#include "cli/app.h"

int main(int argc, char** argv) {
  return wasched::cli::Run(argc, argv, std::cin, std::cout, std::cerr);
}
