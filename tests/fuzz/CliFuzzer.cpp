// libFuzzer target for the command line of podscope-cli: the input, split at whitespace, is the
// argument list given to podscope::cli::run. The CLI maps bad input to exit status 2 itself, so
// the fuzzer only needs to watch for crashes, sanitizer findings, exit status 1 (an internal
// error: some exception other than InputError) and timeouts.
#include "CliApp.hpp"

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

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::vector<std::string> words =
        splitWords(std::string(reinterpret_cast<const char*>(data), size));
    // No arguments runs the fixed main job (a verified all-reduce on the whole multipod): it
    // reads no input, takes seconds under the sanitizers and is tested as cli.main_job.
    if (words.empty() || words.size() > 64 || !confineFiles(words)) {
        return -1; // not added to the corpus
    }
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
