#include "CliApp.hpp"

#include <iostream>

int main(int argc, char** argv) { return podscope::cli::run(argc, argv, std::cout, std::cerr); }
