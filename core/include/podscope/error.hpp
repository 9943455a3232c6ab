#pragma once

#include <stdexcept>
#include <string>

namespace podscope {

// Thrown at the edge (flags, files, the API's requests) when user input is invalid. The message
// names the offending field so that callers can print it as is; podscope-cli maps it to exit
// status 2 and the Python module to ValueError.
class InputError : public std::runtime_error {
public:
    InputError(const std::string& field, const std::string& problem)
        : std::runtime_error(field + ": " + problem)
        , field_(field) {}

    const std::string& field() const noexcept { return field_; }

private:
    std::string field_;
};

} // namespace podscope
