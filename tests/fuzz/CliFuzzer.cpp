// libFuzzer target for the command line of podscope-cli: the input, split at whitespace, is the
// argument list given to podscope::cli::run. The CLI maps bad input to exit status 2 itself, so
// the fuzzer only needs to watch for crashes, sanitizer findings, exit status 1 (an internal
// error: some exception other than InputError) and timeouts.
//
// Two targets are built from this file. podscope_fuzz_cli_heavy runs every input but a
// calibration (tens of seconds). The fast podscope_fuzz_cli (PODSCOPE_FUZZ_CHEAP_ONLY) also
// skips inputs whose work would take long under the sanitizers (searches, timelines, event-engine
// collectives on big or default topologies, large sweeps); every command's flag parsing and
// scenario validation is still reached through the cheap inputs, many times a second.
#include "CliApp.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

namespace {

// Discards everything: the fuzzer must not spend its time on output.
class NullBuffer : public std::streambuf {
protected:
    int overflow(int c) override { return c; }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

std::vector<std::string> splitWords(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string word; in >> word;) {
        words.push_back(word);
    }
    return words;
}

bool isSafeName(const std::string& name) {
    for (const char c : name) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
        if (!ok) {
            return false;
        }
    }
    return !name.empty() && name.front() != '.';
}

// The fuzzer must not write files, nor read arbitrary ones (a FIFO or a device would block).
// --config may only name a file in the scratch directory, which holds copies of the presets.
bool confineFiles(std::vector<std::string>& words) {
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        if (w.find("save") != std::string::npos || w.find("out") != std::string::npos ||
            w.find('=') != std::string::npos) {
            return false; // a writer, or --option=value that could hide one
        }
        if (w == "--config") {
            if (i + 1 >= words.size() || !isSafeName(words[i + 1])) {
                return false;
            }
            words[i + 1] = std::string(PODSCOPE_FUZZ_SCRATCH) + "/" + words[i + 1];
            ++i;
        } else if (w.find("config") != std::string::npos) {
            return false; // abbreviations or flag clusters that could reach --config
        }
    }
    return true;
}

// calibrate replays every measured run and refits: tens of seconds under the sanitizers whatever
// the flags, past the fuzzer's timeout. Both targets run it only for its help (its work is
// tested as a CLI test, calibrate's flags are few).
bool isCalibrationRun(const std::vector<std::string>& words) {
    bool help = false;
    bool calibrate = false;
    for (const auto& w : words) {
        help = help || w == "-h" || w == "--help" || w == "--help-all" || w == "--version";
        calibrate = calibrate || w.find("cal") != std::string::npos; // or a prefix of it
    }
    return calibrate && !help;
}

#ifdef PODSCOPE_FUZZ_CHEAP_ONLY
// The most chips an expensive command may simulate in the fast target (the event engine and
// the timeline scale with the chip count).
constexpr long kCheapChips = 64;

// Positive integer, or -1 when the word is not one (then the CLI's own check rejects it cheaply).
long wholeNumber(const std::string& word) {
    if (word.empty() || word.size() > 9) {
        return -1;
    }
    long value = 0;
    for (const char c : word) {
        if (c < '0' || c > '9') {
            return -1;
        }
        value = value * 10 + (c - '0');
    }
    return value;
}

// Chips named by DIMS such as 16x16 or 4x4x4; -1 when the word is not DIMS.
long chipsOfDims(const std::string& word) {
    long chips = 1;
    std::size_t start = 0;
    while (start <= word.size()) {
        const std::size_t end = std::min(word.find('x', start), word.size());
        const long side = wholeNumber(word.substr(start, end - start));
        if (side < 0) {
            return -1;
        }
        chips *= side;
        if (chips > 1000000) {
            return chips;
        }
        start = end + 1;
    }
    return chips;
}

// Whether the input's work is small: the expensive commands and modes must name a small slice
// (--chips or DIMS) explicitly, since the presets' and the collective's defaults are multipods.
bool isCheap(const std::vector<std::string>& words) {
    bool help = false;
    bool heavyMode = false; // a command or flag whose work grows with the chips
    bool smallSlice = false;
    bool search = false;
    for (std::size_t i = 0; i < words.size(); ++i) {
        const std::string& w = words[i];
        const std::string next = i + 1 < words.size() ? words[i + 1] : std::string();
        if (w == "-h" || w == "--help" || w == "--help-all" || w == "--version") {
            help = true;
        } else if (w.find("tune") != std::string::npos) {
            search = true;
        } else if (w.find("timeline") != std::string::npos || w == "--engine" || w == "--verify" ||
                   w == "--fidelity" || w == "--threads") {
            heavyMode = true;
        } else if (w == "--steps" || w == "--top" || w == "--pareto") {
            const long count = wholeNumber(next);
            if (count > 10) {
                return help;
            }
        } else if (w == "--chips") {
            long chips = 0;
            for (std::size_t start = 0; start <= next.size();) { // sweep takes a list
                const std::size_t end = std::min(next.find(',', start), next.size());
                chips = std::max(chips, wholeNumber(next.substr(start, end - start)));
                start = end + 1;
            }
            smallSlice = chips >= 0 && chips <= kCheapChips;
            if (chips > 4096 || std::count(next.begin(), next.end(), ',') > 3) {
                return help;
            }
        } else if (w == "--topology") {
            const long chips = chipsOfDims(next);
            smallSlice = chips >= 0 && chips <= kCheapChips;
            if (chips > 4096) {
                return help;
            }
        } else if (w == "--global-batch" && std::count(next.begin(), next.end(), ',') > 3) {
            return help; // a sweep of more than 4 x 4 points
        }
    }
    if (search) {
        return help; // a search of even 16 chips evaluates thousands of plans: seconds
    }
    return help || !heavyMode || smallSlice;
}
#endif

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> words =
        splitWords(std::string(reinterpret_cast<const char*>(data), size));
    // No arguments runs the fixed main job (a verified all-reduce on the whole multipod): it
    // reads no input, takes seconds under the sanitizers and is tested as cli.main_job.
    if (words.empty() || words.size() > 64 || !confineFiles(words) || isCalibrationRun(words)) {
        return -1; // not added to the corpus
    }
#ifdef PODSCOPE_FUZZ_CHEAP_ONLY
    if (!isCheap(words)) {
        return -1; // podscope_fuzz_cli_heavy runs it
    }
#endif
    words.insert(words.begin(), "podscope-cli");
    std::vector<char*> argv;
    for (auto& w : words) {
        argv.push_back(w.data());
    }
    NullBuffer sink;
    std::ostream out(&sink);
    std::ostream err(&sink);
    const int status = podscope::cli::run(static_cast<int>(argv.size()), argv.data(), out, err);
    if (status == podscope::cli::kExitFailure) {
        std::abort(); // an internal error: bad input must give exit status 2
    }
    return 0;
}
