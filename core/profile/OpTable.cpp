#include "profile/OpTable.hpp"

#include "common/InputError.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <string_view>

namespace podscope {

namespace {

// Splits RFC 4180 CSV into records of fields; records keep the line they start on.
struct Record {
    std::vector<std::string> fields;
    std::size_t line = 0;
};

std::vector<Record> splitCsv(const std::string& text, const std::string& origin) {
    std::vector<Record> records;
    Record current;
    std::string field;
    std::size_t line = 1;
    current.line = 1;
    bool quoted = false, fieldStarted = false, afterQuote = false;
    std::size_t quoteLine = 0;
    auto endField = [&] {
        current.fields.push_back(std::move(field));
        field.clear();
        fieldStarted = false;
        afterQuote = false;
    };
    auto endRecord = [&] {
        endField();
        const bool blank = current.fields.size() == 1 && current.fields[0].empty();
        if (!blank) {
            records.push_back(std::move(current));
        }
        current = Record{};
        current.line = line;
    };
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') {
                    field += '"';
                    ++i;
                } else {
                    quoted = false;
                    afterQuote = true;
                }
            } else {
                line += c == '\n' ? 1 : 0;
                field += c;
            }
            continue;
        }
        if (c == ',') {
            endField();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
                ++i;
            }
            ++line;
            endRecord();
        } else if (c == '"' && !fieldStarted) {
            quoted = true;
            fieldStarted = true;
            quoteLine = line;
        } else if (afterQuote) {
            throw InputError(origin, "line " + std::to_string(line) +
                                         ": text after the closing quote of a field");
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    if (quoted) {
        throw InputError(origin, "line " + std::to_string(quoteLine) +
                                     ": a quoted field is not closed before the end of the file");
    }
    if (fieldStarted || !current.fields.empty()) {
        endRecord();
    }
    return records;
}

enum Column { kCategory, kHlo, kTf, kOccurrences, kSelfTime, kGflops, kMemoryBw, kBound, kColumns };
constexpr std::array<std::string_view, kColumns> kColumnNames = {"Category",
                                                                 "HLO op",
                                                                 "TF op",
                                                                 "#Occurrences",
                                                                 "Total self time (us)",
                                                                 "Measured GFLOP/s",
                                                                 "Measured Memory BW (GiB/s)",
                                                                 "Bound by"};

double number(const std::string& text, const std::string& where) {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || ec != std::errc() || ptr != end) {
        throw InputError(where, "'" + text.substr(0, 40) + "' is not a number");
    }
    if (!std::isfinite(value) || value < 0) {
        throw InputError(where, "'" + text.substr(0, 40) + "' must be a finite number >= 0");
    }
    return value;
}

} // namespace

const char* toString(ProfileBound bound) {
    switch (bound) {
    case ProfileBound::Compute:
        return "compute";
    case ProfileBound::Hbm:
        return "hbm";
    case ProfileBound::Unknown:
        break;
    }
    return "unknown";
}

std::vector<ProfileOp> parseOpTable(const std::string& text, const std::string& origin) {
    if (text.size() > kMaxOpTableBytes) {
        throw InputError(origin, "larger than " + std::to_string(kMaxOpTableBytes >> 20) +
                                     " MiB; not a profiler op table");
    }
    std::vector<Record> records = splitCsv(text, origin);
    if (records.empty()) {
        throw InputError(origin, "empty; expected a CSV op table with a header line");
    }
    const Record& header = records.front();
    std::array<std::size_t, kColumns> at{};
    for (std::size_t c = 0; c < kColumns; ++c) {
        std::size_t found = header.fields.size();
        for (std::size_t f = 0; f < header.fields.size(); ++f) {
            if (header.fields[f] == kColumnNames[c]) {
                if (found != header.fields.size()) {
                    throw InputError(origin, "line " + std::to_string(header.line) + ": column '" +
                                                 std::string(kColumnNames[c]) + "' appears twice");
                }
                found = f;
            }
        }
        if (found == header.fields.size()) {
            throw InputError(origin, "line " + std::to_string(header.line) + ": no column '" +
                                         std::string(kColumnNames[c]) +
                                         "' (an XProf \"HLO op stats\" CSV has it)");
        }
        at[c] = found;
    }
    std::vector<ProfileOp> ops;
    ops.reserve(records.size() - 1);
    for (std::size_t r = 1; r < records.size(); ++r) {
        Record& rec = records[r];
        const std::string lineText = origin + " line " + std::to_string(rec.line);
        if (rec.fields.size() != header.fields.size()) {
            throw InputError(lineText, "has " + std::to_string(rec.fields.size()) +
                                           " fields, the header " +
                                           std::to_string(header.fields.size()));
        }
        auto where = [&](Column c) {
            return lineText + ", column '" + std::string(kColumnNames[c]) + "'";
        };
        ProfileOp op;
        op.line = rec.line;
        op.category = std::move(rec.fields[at[kCategory]]);
        op.hloOp = std::move(rec.fields[at[kHlo]]);
        op.tfOp = std::move(rec.fields[at[kTf]]);
        op.occurrences = number(rec.fields[at[kOccurrences]], where(kOccurrences));
        if (op.occurrences != std::floor(op.occurrences)) {
            throw InputError(where(kOccurrences), "must be a whole number");
        }
        op.totalSelfUs = number(rec.fields[at[kSelfTime]], where(kSelfTime));
        op.gflopsPerS = number(rec.fields[at[kGflops]], where(kGflops));
        op.memoryGibPerS = number(rec.fields[at[kMemoryBw]], where(kMemoryBw));
        const std::string& bound = rec.fields[at[kBound]];
        if (bound == "Compute") {
            op.bound = ProfileBound::Compute;
        } else if (bound == "HBM") {
            op.bound = ProfileBound::Hbm;
        } else if (bound == "Unknown" || bound.empty()) {
            op.bound = ProfileBound::Unknown;
        } else {
            throw InputError(where(kBound),
                             "'" + bound.substr(0, 40) + "' is not one of Compute, HBM, Unknown");
        }
        if (op.occurrences == 0 && op.totalSelfUs > 0) {
            throw InputError(where(kOccurrences), "0 occurrences with a self time above 0");
        }
        ops.push_back(std::move(op));
    }
    return ops;
}

} // namespace podscope
