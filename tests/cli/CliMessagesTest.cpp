// What a person reads from podscope-cli (issue 15): a mistyped command or flag gets a
// suggestion, a value that is not a number is named in the house style, an output path that
// cannot be written fails before any work, counts agree with their nouns, and microseconds are
// "µs" as in the app.
#include "CliRunner.hpp"
#include "OutputPaths.hpp"
#include "ScratchDir.hpp"
#include "Suggestion.hpp"
#include "TextFormat.hpp"
#include "common/InputError.hpp"
#include "training/Presets.hpp"

#include <filesystem>
#include <fstream>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace podscope::cli {
namespace {

namespace fs = std::filesystem;
using podscope::test::ScratchDir;
using test::runCli;

std::string errorLine(const std::string& message) {
    return "podscope-cli: error: " + message + "\n";
}

// The CLI builds only the command named on the line; each command the top-level help lists
// must still be found by its own name, with its own options.
TEST(CliMessages, EveryListedCommandRunsByItsName) {
    const auto help = runCli({"--help"});
    ASSERT_EQ(help.status, kExitOk) << help.err;
    std::istringstream lines(help.out.substr(help.out.find("Subcommands:")));
    std::vector<std::string> commands;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("  ", 0) == 0 && line.size() > 2 && line[2] != ' ') {
            commands.push_back(line.substr(2, line.find(' ', 2) - 2));
        }
    }
    ASSERT_GE(commands.size(), 13u) << help.out;
    for (const auto& command : commands) {
        const auto r = runCli({command, "--help"});
        EXPECT_EQ(r.status, kExitOk) << command << ": " << r.err;
        EXPECT_NE(r.out.find("podscope-cli " + command), std::string::npos) << r.out;
        const auto bad = runCli({command, "--no-such-flag"});
        EXPECT_EQ(bad.status, kExitBadInput) << command;
        EXPECT_NE(bad.err.find("--no-such-flag"), std::string::npos) << command << ": " << bad.err;
    }
}

TEST(CliMessages, AMistypedCommandGetsASuggestion) {
    const std::vector<std::pair<std::string, std::string>> typos = {
        {"simulte", "simulate"},     {"simualte", "simulate"}, {"sweeep", "sweep"},
        {"colective", "collective"}, {"reprot", "report"},     {"pre", "presets"}};
    for (const auto& [typo, meant] : typos) {
        const auto r = runCli({typo, "--preset", "mlperf07-bert-tf-4096"});
        EXPECT_EQ(r.status, kExitBadInput) << typo;
        EXPECT_EQ(r.err,
                  errorLine("unknown command '" + typo + "'; did you mean '" + meant + "'?"));
        EXPECT_TRUE(r.out.empty()) << typo;
    }
    // Nothing close: the list of commands instead of a guess.
    const auto r = runCli({"benchmark"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
    for (const char* command : {"collective", "presets", "simulate", "sweep", "trace", "report"}) {
        EXPECT_NE(r.err.find(command), std::string::npos) << command << ": " << r.err;
    }
}

TEST(CliMessages, AMistypedFlagGetsASuggestion) {
    auto r = runCli({"simulate", "--preset", "mlperf07-bert-tf-4096", "--chip", "64"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_EQ(r.err, errorLine("unknown option '--chip' for 'simulate'; did you mean '--chips'?"));
    r = runCli({"collective", "--algoritm=ring"});
    EXPECT_EQ(
        r.err,
        errorLine("unknown option '--algoritm' for 'collective'; did you mean '--algorithm'?"));
    r = runCli({"sweep", "--preset", "mlperf07-bert-tf-4096", "--chips", "16", "--xyzzy"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_EQ(r.err,
              errorLine("unknown option '--xyzzy' for 'sweep' (see: podscope-cli sweep --help)"));
}

TEST(CliMessages, ValuesThatAreNotNumbersAreNamedInTheHouseStyle) {
    const std::string preset = "mlperf07-resnet50-tf-4096";
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"simulate", "--preset", preset, "--chips", "abc"}, "chips: 'abc' is not a whole number"},
        {{"simulate", "--preset", preset, "--chips", "64.5"},
         "chips: '64.5' is not a whole number"},
        {{"simulate", "--preset", preset, "--global-batch", "1e5"},
         "global-batch: '1e5' is not a whole number"},
        {{"simulate", "--preset", preset, "--model-parallel", "two"},
         "model-parallel: 'two' is not a whole number"},
        {{"simulate", "--preset", preset, "--link-bw", "fast"}, "link-bw: 'fast' is not a number"},
        {{"trace", "--preset", preset, "--out", "t.json", "--bins", "x"},
         "bins: 'x' is not a whole number"},
        {{"sweep", "--preset", preset, "--chips", "16,abc"}, "chips: 'abc' is not a whole number"},
        {{"collective", "--chunks", "many"}, "chunks: 'many' is not a whole number"},
        {{"collective", "--chunks", "99999999999"}, "chunks: '99999999999' is out of range"},
        {{"collective", "--latency-us", "1e400"}, "latency-us: '1e400' is out of range"},
        {{"collective", "--link-bw", "82GB"}, "link-bw: '82GB' is not a number"},
    };
    for (const auto& [args, message] : cases) {
        const auto r = runCli(args);
        EXPECT_EQ(r.status, kExitBadInput) << message;
        EXPECT_EQ(r.err, errorLine(message));
        EXPECT_TRUE(r.out.empty()) << message;
    }
    // The values still convert as before.
    const auto r = runCli({"collective", "--topology", "16", "--wrap", "x", "--chunks", "+2",
                           "--latency-us", "0.5", "--link-bw", "1e2", "--json"});
    EXPECT_EQ(r.status, 0) << r.err;
    // The byte size is the command's own parser: its message has the same shape.
    const auto bytes = runCli({"collective", "--bytes", "12XB"});
    EXPECT_EQ(bytes.status, kExitBadInput);
    EXPECT_EQ(bytes.err, errorLine("bytes: '12XB' is not a size: unknown unit 'XB' (use B, KB, MB, GB, KiB, "
                                   "MiB, GiB)"));
    EXPECT_EQ(runCli({"collective", "--bytes", "-64"}).err, errorLine("bytes: '-64' is not a positive size"));
}

// /proc takes no new files, for root as for anyone: a path there cannot be written.
TEST(CliMessages, OutputPathsAreCheckedBeforeAnyWork) {
    auto r = runCli({"report", "--preset", "mlperf07-resnet50-tf-4096", "--out", "/proc/x"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_EQ(r.err.rfind("podscope-cli: error: out: cannot write into '/proc/x'", 0), 0u) << r.err;
    EXPECT_EQ(r.err.find("report: "), std::string::npos) << "started simulating: " << r.err;

    r = runCli({"trace", "--preset", "mlperf07-resnet50-tf-4096", "--out", "/proc/x/step.json"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("out: cannot write '/proc/x/step.json'"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("trace: simulating"), std::string::npos) << r.err;

    r = runCli(
        {"simulate", "--preset", "mlperf07-resnet50-tf-4096", "--save-config", "/proc/run.json"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("save-config: cannot write '/proc/run.json'"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());

    r = runCli({"collective", "--engine", "event", "--trace", "/proc/t.json"});
    EXPECT_EQ(r.status, kExitBadInput);
    EXPECT_NE(r.err.find("trace: cannot write '/proc/t.json'"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CliMessages, OutputChecksAcceptWhatCanBeWrittenAndLeaveNothingBehind) {
    ScratchDir dir;
    const auto file = dir.path / "file.txt";
    std::ofstream(file) << "old";

    EXPECT_NO_THROW(checkOutputFolder((dir.path / "a" / "b").string(), "out")); // created later
    EXPECT_NO_THROW(checkOutputFolder(dir.path.string(), "out"));
    EXPECT_NO_THROW(checkOutputFile((dir.path / "new.json").string(), "out"));
    EXPECT_NO_THROW(checkOutputFile(file.string(), "out")); // replaced later
    EXPECT_THROW(checkOutputFolder((file / "sub").string(), "out"), InputError);
    EXPECT_THROW(checkOutputFolder(file.string(), "out"), InputError);
    EXPECT_THROW(checkOutputFile(dir.path.string(), "out"), InputError);
    EXPECT_THROW(checkOutputFile((dir.path / "missing" / "x.json").string(), "out"), InputError);
    try {
        checkOutputFile((dir.path / "missing" / "x.json").string(), "save-config");
        ADD_FAILURE();
    } catch (const InputError& e) {
        EXPECT_EQ(e.field(), "save-config");
        EXPECT_NE(std::string(e.what()).find((dir.path / "missing").string()), std::string::npos)
            << e.what();
    }

    // Only the file that was there before: no folders made, no probe files left.
    std::vector<fs::path> entries(fs::directory_iterator(dir.path), fs::directory_iterator());
    ASSERT_EQ(entries.size(), 1u);
    EXPECT_EQ(entries.front(), file);
}

TEST(CliMessages, CountsAgreeWithTheirNouns) {
    EXPECT_EQ(formatCount(1, "step"), "1 step");
    EXPECT_EQ(formatCount(0, "step"), "0 steps");
    EXPECT_EQ(formatCount(2, "link occupancy", "link occupancies"), "2 link occupancies");
    EXPECT_EQ(formatCount(1, "link occupancy", "link occupancies"), "1 link occupancy");

    // One pod, one chunk: the pod's collective says so in the singular.
    const auto pod = runCli({"collective", "--topology", "tpu-v3-pod", "--chunks", "1"});
    ASSERT_EQ(pod.status, 0) << pod.err;
    EXPECT_NE(pod.out.find("1024 chips, 128 hosts, 1 pod\n"), std::string::npos) << pod.out;
    EXPECT_NE(pod.out.find(", 1 chunk,"), std::string::npos) << pod.out;
    const auto multipod = runCli({"collective", "--chunks", "4"});
    EXPECT_NE(multipod.out.find(", 4 pods\n"), std::string::npos) << multipod.out;

    // No "1 steps", "1 hosts" ... in any preset's summary, at its own size or the smallest slice.
    const std::regex singularAsPlural(
        R"((^|[^0-9.])1 (steps|evaluations|hosts|replicas|cores|chips|pods|chunks)\b)");
    for (const auto& name : presetNames()) {
        for (const std::vector<std::string>& extra :
             {std::vector<std::string>{}, {"--chips", "16"}}) {
            std::vector<std::string> args = {"simulate", "--preset", name};
            args.insert(args.end(), extra.begin(), extra.end());
            const auto r = runCli(args);
            if (r.status != 0) {
                continue; // a preset whose batch does not fit 16 chips
            }
            std::smatch match;
            EXPECT_FALSE(std::regex_search(r.out, match, singularAsPlural))
                << name << ": '" << match.str() << "'";
        }
    }
}

TEST(CliMessages, MicrosecondsAreWrittenAsInTheApp) {
    EXPECT_EQ(formatDuration(812.4e-6), "812.4 µs");
    EXPECT_EQ(formatDuration(3.21e-3), "3.210 ms");
    const auto r = runCli({"collective", "--topology", "16", "--wrap", "x", "--bytes", "1KiB"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"([0-9] µs per hop)"))) << r.out;
    EXPECT_FALSE(std::regex_search(r.out, std::regex(R"([0-9] us\b)"))) << r.out;
    // JSON keys keep their names.
    const auto json = runCli({"collective", "--topology", "16", "--wrap", "x", "--json"});
    EXPECT_NE(json.out.find("\"latency_us\""), std::string::npos) << json.out.substr(0, 400);
}

TEST(CliMessages, SuggestionsComeOnlyForNearMisses) {
    const std::vector<std::string> words = {"simulate",   "sweep", "presets",
                                            "collective", "trace", "report"};
    EXPECT_EQ(editDistance("simulte", "simulate"), 1u);
    EXPECT_EQ(editDistance("simualte", "simulate"), 1u); // two letters swapped
    EXPECT_EQ(editDistance("", "trace"), 5u);
    EXPECT_EQ(closestMatch("trcae", words), "trace");
    EXPECT_EQ(closestMatch("s", words), std::nullopt);   // two commands start with s
    EXPECT_EQ(closestMatch("sw", words), "sweep");       // only one starts with sw
    EXPECT_EQ(closestMatch("run", words), std::nullopt); // a different word
    EXPECT_EQ(closestMatch("plot", words), std::nullopt);
}

} // namespace
} // namespace podscope::cli
