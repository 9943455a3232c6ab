// tune --mpi (issue 14): ranks split the space and the root writes what one process writes, byte
// for byte. Skipped, saying why, where mpirun is missing or podscope-cli was built without MPI.
#include "ScratchDir.hpp"

#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

std::string findOnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::string folders = path ? path : "";
    std::size_t start = 0;
    while (start <= folders.size()) {
        const std::size_t end = std::min(folders.find(':', start), folders.size());
        const fs::path candidate = fs::path(folders.substr(start, end - start)) / program;
        if (!candidate.parent_path().empty() && ::access(candidate.c_str(), X_OK) == 0) {
            return candidate.string();
        }
        start = end + 1;
    }
    return {};
}

int exitStatus(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

const std::string kTune = std::string(PODSCOPE_CLI_PROGRAM) +
                          " tune --model transformer --chips 512,4096 --fix gradient.chunks=4 "
                          "--objective chip-seconds --top 5 --json";

TEST(TuneMpi, TwoRanksWriteWhatOneProcessWrites) {
    if (!PODSCOPE_CLI_HAS_MPI) {
        GTEST_SKIP() << "podscope-cli was built without MPI (no MPI found by CMake): tune --mpi is "
                        "unavailable, nothing to compare";
    }
    const std::string mpirun = findOnPath("mpirun");
    if (mpirun.empty()) {
        GTEST_SKIP() << "mpirun is not on PATH: install openmpi-bin to run the MPI comparison";
    }
    podscope::test::ScratchDir dir;
    // Root in containers: OpenMPI refuses to run as root unless told twice.
    const std::string env = "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                            "OMPI_MCA_rmaps_base_oversubscribe=1 ";
    const auto one = (dir.path / "one.json").string(), two = (dir.path / "two.json").string(),
               plain = (dir.path / "plain.json").string();
    ASSERT_EQ(exitStatus(env + mpirun + " -np 1 " + kTune + " --threads 1 --mpi --out " + one), 0);
    ASSERT_EQ(exitStatus(env + mpirun + " -np 2 --oversubscribe " + kTune +
                         " --threads 1 --mpi --out " + two),
              0);
    ASSERT_EQ(exitStatus(kTune + " --threads 2 --out " + plain), 0);
    const std::string a = podscope::test::readFile(one);
    ASSERT_FALSE(a.empty());
    EXPECT_EQ(a, podscope::test::readFile(two));
    EXPECT_EQ(a, podscope::test::readFile(plain));
}

TEST(TuneMpi, WithoutMpiTheFlagSaysItIsUnavailable) {
    if (PODSCOPE_CLI_HAS_MPI) {
        GTEST_SKIP() << "this podscope-cli has MPI; the unavailable message is for builds without";
    }
    EXPECT_EQ(exitStatus(kTune + " --mpi > /dev/null 2>&1"), 2);
}

} // namespace
