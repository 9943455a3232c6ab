#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace podscope::test {

// A folder of its own for the running test, removed afterwards.
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& prefix = "podscope-test-") {
        const auto* unit = ::testing::UnitTest::GetInstance();
        path = std::filesystem::temp_directory_path() /
               (prefix + std::to_string(unit->random_seed()) + "-" + unit->current_test_info()->name());
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ignored;
        std::filesystem::remove_all(path, ignored);
    }
};

inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void writeFile(const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text;
}

} // namespace podscope::test
