// Kills podscope-cli while it saves a configuration over an existing file, many times at
// different moments: the file must always be either the old configuration or the new one,
// whole, never a half-written mix.
#include "training/ScenarioJson.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fcntl.h>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>

extern char** environ;

namespace {

namespace fs = std::filesystem;

pid_t startSave(const std::string& program, const std::string& preset, const std::string& path) {
    std::vector<std::string> args = {program, "simulate", "--preset", preset, "--save-config", path};
    std::vector<char*> argv;
    for (auto& a : args) {
        argv.push_back(a.data());
    }
    argv.push_back(nullptr);
    pid_t pid = -1;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    EXPECT_EQ(posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);
    return pid;
}

TEST(KillMidSave, TheOldFileSurvivesOrTheNewOneIsComplete) {
    const fs::path dir = fs::temp_directory_path() / ("podscope-kill-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path file = dir / "run.podscope.json";
    const std::string program = PODSCOPE_CLI_PROGRAM;
    ASSERT_EQ(std::system((program + " simulate --preset mlperf07-resnet50-tf-4096 --save-config " + file.string() +
                          " > /dev/null").c_str()),
              0);
    const std::string before = podscope::toJson(podscope::loadScenarioFile(file.string())).dump();

    std::mt19937 random(12345);
    std::uniform_int_distribution<int> delayUs(0, 20000);
    int replaced = 0;
    for (int attempt = 0; attempt < 40; ++attempt) {
        const pid_t pid = startSave(program, "mlperf07-bert-jax-4096", file.string());
        std::this_thread::sleep_for(std::chrono::microseconds(delayUs(random)));
        ::kill(pid, SIGKILL);
        int status = 0;
        ::waitpid(pid, &status, 0);
        // Whatever moment the writer died at, the file loads, and is one of the two versions.
        const auto loaded = podscope::loadScenarioFile(file.string());
        const std::string now = podscope::toJson(loaded).dump();
        if (now != before) {
            EXPECT_EQ(loaded.workload, "bert") << "attempt " << attempt;
            ++replaced;
            // Put the old one back for the next attempt.
            ASSERT_EQ(std::system((program + " simulate --preset mlperf07-resnet50-tf-4096 --save-config " +
                                   file.string() + " > /dev/null").c_str()),
                      0);
        }
    }
    RecordProperty("replaced", replaced);
    fs::remove_all(dir);
}

} // namespace
