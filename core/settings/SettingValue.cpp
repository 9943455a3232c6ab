#include "settings/SettingValue.hpp"

#include "common/InputError.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <string_view>
#include <system_error>

namespace podscope {
namespace {

using nlohmann::json;

// "a, b or c"
std::string listed(const std::vector<std::string>& words) {
    std::string text;
    for (std::size_t i = 0; i < words.size(); ++i) {
        text += i == 0 ? "" : i + 1 == words.size() ? " or " : ", ";
        text += words[i];
    }
    return text;
}

std::vector<std::string> choiceValues(const Setting& setting) {
    std::vector<std::string> values;
    if (setting.choices) {
        for (const auto& choice : setting.choices()) {
            values.push_back(choice.value);
        }
    }
    return values;
}

std::string rangeProblem(const Setting& s) {
    const std::string lo = formatSettingNumber(s.lowest);
    const std::string hi = formatSettingNumber(s.highest);
    if (s.type == SettingType::Integer) {
        return "must be between " + lo + " and " + hi;
    }
    if (s.lowestIncluded) {
        return "must be a number from " + lo + " to " + hi;
    }
    return s.lowest == 0 ? "must be a positive number up to " + hi
                         : "must be a number above " + lo + ", up to " + hi;
}

bool inRange(const Setting& s, double value) {
    return std::isfinite(value) && value <= s.highest &&
           (s.lowestIncluded ? value >= s.lowest : value > s.lowest);
}

// The text without one leading '+', which people (and CLI11) write for positive numbers.
std::string_view withoutPlus(const std::string& text) {
    std::string_view view(text);
    if (view.size() > 1 && view.front() == '+' && view[1] != '-') {
        view.remove_prefix(1);
    }
    return view;
}

} // namespace

std::string formatSettingNumber(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::abs(value) < 1e15) {
        return std::to_string(static_cast<long long>(value));
    }
    char text[32];
    std::snprintf(text, sizeof text, "%g", value);
    return text;
}

std::string problemWithValue(const Setting& s, const json& value) {
    switch (s.type) {
    case SettingType::Text:
        return value.is_string() ? "" : "must be a string";
    case SettingType::Choice: {
        if (!value.is_string()) {
            return "must be a string";
        }
        const auto values = choiceValues(s);
        if (std::find(values.begin(), values.end(), value.get<std::string>()) == values.end()) {
            return "'" + value.get<std::string>() + "' must be " + listed(values);
        }
        return "";
    }
    case SettingType::Switch:
        return value.is_boolean() ? "" : "must be true or false";
    case SettingType::Integer:
        if (!value.is_number_integer()) {
            return "must be an integer";
        }
        {
            // Past 2^53 a double rounds, but every range ends far below that.
            const double number = value.is_number_unsigned()
                                      ? static_cast<double>(value.get<std::uint64_t>())
                                      : static_cast<double>(value.get<std::int64_t>());
            if (number < s.lowest || number > s.highest) {
                return rangeProblem(s);
            }
        }
        return "";
    case SettingType::Number:
        if (!value.is_number()) {
            return "must be a number";
        }
        return inRange(s, value.get<double>()) ? "" : rangeProblem(s);
    }
    return "";
}

json valueOfText(const Setting& s, const std::string& text, const std::string& field) {
    auto fail = [&](const std::string& problem) -> json {
        throw InputError(field, "'" + text + "' " + problem);
    };
    json value;
    switch (s.type) {
    case SettingType::Text:
    case SettingType::Choice:
        value = text;
        break;
    case SettingType::Switch:
        if (text == "on" || text == "true" || text == "yes") {
            value = true;
        } else if (text == "off" || text == "false" || text == "no") {
            value = false;
        } else {
            return fail("is neither on nor off");
        }
        break;
    case SettingType::Integer: {
        const std::string_view digits = withoutPlus(text);
        std::int64_t number = 0;
        const auto [end, ec] =
            std::from_chars(digits.data(), digits.data() + digits.size(), number);
        if (ec == std::errc::result_out_of_range) {
            return fail(rangeProblem(s));
        }
        if (ec != std::errc() || end != digits.data() + digits.size()) {
            return fail("is not a whole number");
        }
        value = number;
        break;
    }
    case SettingType::Number: {
        const std::string_view digits = withoutPlus(text);
        double number = 0;
        const auto [end, ec] =
            std::from_chars(digits.data(), digits.data() + digits.size(), number);
        if (ec == std::errc::result_out_of_range) {
            return fail(rangeProblem(s));
        }
        if (ec != std::errc() || end != digits.data() + digits.size()) {
            return fail("is not a number");
        }
        value = number;
        break;
    }
    }
    const std::string problem = problemWithValue(s, value);
    if (!problem.empty()) {
        // Choices name the value themselves; ranges get it in front.
        throw InputError(field, problem.front() == '\'' ? problem : "'" + text + "' " + problem);
    }
    return value;
}

void writeSetting(const Setting& s, Scenario& scenario, const json& value, const std::string& field,
                  const std::string& where) {
    try {
        s.write(scenario, value);
    } catch (const InputError& e) {
        const std::string problem = std::string(e.what()).substr(e.field().size() + 2);
        throw InputError(field, problem + where);
    }
}

std::string typeName(SettingType type) {
    switch (type) {
    case SettingType::Text:
        return "text";
    case SettingType::Choice:
        return "choice";
    case SettingType::Switch:
        return "switch";
    case SettingType::Integer:
        return "integer";
    case SettingType::Number:
        return "number";
    }
    return "text";
}

std::string acceptedValues(const Setting& s) {
    const std::string unit = s.unit.empty() ? "" : " " + std::string(s.unit);
    switch (s.type) {
    case SettingType::Text:
        return "";
    case SettingType::Choice:
        return listed(choiceValues(s));
    case SettingType::Switch:
        return "on or off";
    case SettingType::Integer:
        return formatSettingNumber(s.lowest) + " to " + formatSettingNumber(s.highest) + unit;
    case SettingType::Number:
        return (s.lowestIncluded ? formatSettingNumber(s.lowest) + " to "
                                 : "above " + formatSettingNumber(s.lowest) + ", up to ") +
               formatSettingNumber(s.highest) + unit;
    }
    return "";
}

std::string defaultValue(const Setting& s) {
    if (s.required) {
        return s.standalone.empty()
                   ? "required"
                   : "required; " + std::string(s.standalone) + " for a model given alone";
    }
    const json value = s.read(Scenario{});
    if (value.is_null()) {
        return std::string(s.unset);
    }
    if (value.is_boolean()) {
        return value.get<bool>() ? "on" : "off";
    }
    if (value.is_number()) {
        return formatSettingNumber(value.get<double>());
    }
    return value.get<std::string>();
}

std::string settingHelp(const Setting& s) {
    std::string help(s.description);
    const std::string values = acceptedValues(s);
    if (!values.empty()) {
        help += ": " + values;
    }
    const std::string fallback = defaultValue(s);
    if (!s.required && !fallback.empty()) {
        help += " (default: " + fallback + ")";
    }
    return help;
}

std::string valueName(const Setting& s) {
    switch (s.type) {
    case SettingType::Integer:
        return "INT";
    case SettingType::Number:
        return "NUMBER";
    case SettingType::Switch:
        return "ON|OFF";
    default:
        return "TEXT";
    }
}

} // namespace podscope
