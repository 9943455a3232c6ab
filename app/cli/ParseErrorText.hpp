#pragma once

#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
class ParseError;
} // namespace CLI

namespace podscope::cli {

// "unknown command 'simulte'; did you mean 'simulate'?" when `word` is none of `names`;
// nothing when it is one.
std::optional<std::string> unknownCommand(const std::vector<std::string>& names,
                                          const std::string& word);

// What CLI11 refused, in the house style of InputError ("chips: 'abc' is not a whole number"),
// with a suggestion where an option looks mistyped. `app` has just failed to parse.
std::string describeParseError(const CLI::App& app, const CLI::ParseError& error);

} // namespace podscope::cli
