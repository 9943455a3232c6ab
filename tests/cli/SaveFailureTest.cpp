// Nothing lost (issue 7): when podscope-cli cannot write a configuration, the file it was to
// replace stays as it was, and no temporary file is left behind.
#include "CliRunner.hpp"
#include "common/InputError.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <string>
#include <sys/resource.h>
#include <unistd.h>

namespace podscope::cli {
namespace {

namespace fs = std::filesystem;
using test::runCli;

const std::string kOld = "{\"preset\": \"mlperf07-bert-jax-4096\"}\n";

struct Folder {
    fs::path path;
    explicit Folder(const std::string& name) {
        path = fs::temp_directory_path() / ("podscope-save-" + name + "-" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
        std::ofstream(path / "run.json") << kOld;
    }
    ~Folder() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::string contents(const std::string& name) const {
        std::ifstream in(path / name);
        std::stringstream s;
        s << in.rdbuf();
        return s.str();
    }
    int files() const {
        int count = 0;
        for ([[maybe_unused]] const auto& entry : fs::directory_iterator(path)) {
            ++count;
        }
        return count;
    }
};

// Makes every write past `bytes` into any file fail (EFBIG), as a full disk would; works for
// root too, unlike a read-only directory.
struct FileSizeLimit {
    rlimit saved{};
    void (*savedHandler)(int) = nullptr;
    explicit FileSizeLimit(rlim_t bytes) {
        savedHandler = std::signal(SIGXFSZ, SIG_IGN);
        ::getrlimit(RLIMIT_FSIZE, &saved);
        rlimit small = saved;
        small.rlim_cur = bytes;
        ::setrlimit(RLIMIT_FSIZE, &small);
    }
    ~FileSizeLimit() {
        ::setrlimit(RLIMIT_FSIZE, &saved);
        std::signal(SIGXFSZ, savedHandler);
    }
};

TEST(SaveFailure, AFailingWriteLeavesTheOldFileWhole) {
    const Folder folder("full");
    const std::string target = (folder.path / "run.json").string();
    int status = 0;
    std::string err;
    {
        const FileSizeLimit limit(64); // the new file is several hundred bytes
        const auto r = runCli({"simulate", "--preset", "mlperf07-resnet50-tf-4096",
                               "--save-config", target});
        status = r.status;
        err = r.err;
    }
    EXPECT_EQ(status, kExitBadInput) << err;
    EXPECT_NE(err.find("save-config"), std::string::npos) << err;
    EXPECT_EQ(folder.contents("run.json"), kOld);
    EXPECT_EQ(folder.files(), 1) << "a temporary file was left behind";
}

TEST(SaveFailure, AnInvalidScenarioWritesNothing) {
    const Folder folder("invalid");
    const auto r = runCli({"simulate", "--preset", "mlperf07-resnet50-tf-4096", "--global-batch",
                           "3", "--save-config", (folder.path / "run.json").string()});
    EXPECT_EQ(r.status, kExitBadInput) << r.err;
    EXPECT_EQ(folder.contents("run.json"), kOld);
    EXPECT_EQ(folder.files(), 1);
}

TEST(SaveFailure, ATargetThatCannotBeReplacedKeepsItsContents) {
    const Folder folder("blocked");
    fs::create_directories(folder.path / "taken" / "inside"); // rename cannot replace a directory
    const auto r = runCli({"simulate", "--preset", "mlperf07-resnet50-tf-4096", "--save-config",
                           (folder.path / "taken").string()});
    EXPECT_EQ(r.status, kExitBadInput) << r.err;
    EXPECT_TRUE(fs::is_directory(folder.path / "taken" / "inside"));
    EXPECT_EQ(folder.contents("run.json"), kOld);
    EXPECT_EQ(folder.files(), 2) << "a temporary file was left behind";
}

TEST(SaveFailure, ASuccessfulSaveReplacesTheFileWhole) {
    const Folder folder("ok");
    const auto r = runCli({"simulate", "--preset", "mlperf07-resnet50-tf-4096", "--save-config",
                           (folder.path / "run.json").string()});
    ASSERT_EQ(r.status, kExitOk) << r.err;
    EXPECT_NO_THROW(loadScenarioFile((folder.path / "run.json").string()));
    EXPECT_EQ(folder.files(), 1);
}

} // namespace
} // namespace podscope::cli
