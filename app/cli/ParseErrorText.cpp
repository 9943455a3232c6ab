#include "ParseErrorText.hpp"

#include "Suggestion.hpp"

#include <CLI/CLI.hpp>

namespace podscope::cli {
namespace {

std::string joined(const std::vector<std::string>& words) {
    std::string text;
    for (const auto& word : words) {
        if (!text.empty()) {
            text += ", "; // not `(c ? "" : ", ") + word`: GCC 12 at -O3 misreads that (-Wrestrict)
        }
        text += word;
    }
    return text;
}

// The command the user chose (or the program itself), where CLI11 left the words it could not use.
const CLI::App& chosenCommand(const CLI::App& app) {
    const auto chosen = app.get_subcommands();
    return chosen.empty() ? app : *chosen.front();
}

std::string unknownOption(const CLI::App& command, const std::string& word) {
    const std::string flag = word.substr(0, word.find('='));
    std::vector<std::string> flags;
    for (const CLI::Option* option : command.get_options()) {
        for (const auto& name : option->get_lnames()) {
            flags.push_back("--" + name);
        }
    }
    const std::string where = command.get_parent() ? " for '" + command.get_name() + "'" : "";
    if (const auto meant = closestMatch(flag, flags)) {
        return "unknown option '" + flag + "'" + where + "; did you mean '" + *meant + "'?";
    }
    const std::string program =
        command.get_parent() ? "podscope-cli " + command.get_name() : "podscope-cli";
    return "unknown option '" + flag + "'" + where + " (see: " + program + " --help)";
}

} // namespace

std::optional<std::string> unknownCommand(const std::vector<std::string>& names,
                                          const std::string& word) {
    if (std::find(names.begin(), names.end(), word) != names.end()) {
        return std::nullopt;
    }
    if (const auto meant = closestMatch(word, names)) {
        return "unknown command '" + word + "'; did you mean '" + *meant + "'?";
    }
    return "unknown command '" + word + "' (commands: " + joined(names) + ")";
}

std::string describeParseError(const CLI::App& app, const CLI::ParseError& error) {
    // A mistyped flag first: CLI11 reports a missing required option before the extras, and
    // "--chips is required" for "--chipz 64" hides the typo.
    const bool extras = dynamic_cast<const CLI::ExtrasError*>(&error) != nullptr;
    if (extras || dynamic_cast<const CLI::RequiredError*>(&error)) {
        const CLI::App& command = chosenCommand(app);
        const auto words = command.remaining();
        for (const auto& word : words) {
            if (word.size() > 1 && word.front() == '-') {
                return unknownOption(command, word);
            }
        }
        if (extras && !words.empty()) {
            return "unexpected argument '" + words.front() + "'";
        }
    }
    std::string text = error.what();
    // CLI11 names a flag as typed ("--chips: ..."); InputError names the field ("chips: ...").
    if (dynamic_cast<const CLI::ValidationError*>(&error) && text.rfind("--", 0) == 0) {
        text.erase(0, 2);
    }
    return text;
}

} // namespace podscope::cli
