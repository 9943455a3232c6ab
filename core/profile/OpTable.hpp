#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace podscope {

enum class ProfileBound { Compute, Hbm, Unknown };

// One row of a profiler's per-op table: XProf / TensorBoard "HLO op stats" exported as CSV
// (the columns of google/paragraph's hlo_after_optimizations_*_stats.csv). Times are summed
// over every core that ran the op during the capture window.
struct ProfileOp {
    std::string category; // XProf's class ("convolution fusion", "loop fusion" ...)
    std::string hloOp;    // the HLO instruction text
    std::string tfOp;     // the framework op it came from ("" when none)
    double occurrences = 0;
    double totalSelfUs = 0;
    double gflopsPerS = 0;    // measured
    double memoryGibPerS = 0; // the profiler's bytes over the measured time
    ProfileBound bound = ProfileBound::Unknown;
    std::size_t line = 0; // in the file, for messages
};

// Largest table read: the biggest of the ParaGraph tables is 1.9 MB with 4,700 rows.
inline constexpr std::size_t kMaxOpTableBytes = 64u << 20;

// Parses the CSV text (RFC 4180 quoting; columns found by their header names, others ignored).
// Throws InputError naming `origin`, the line and the column for a missing column, a row with
// the wrong number of fields, an unterminated quote, a number that is not a finite number >= 0,
// or an unknown "Bound by" value.
std::vector<ProfileOp> parseOpTable(const std::string& text, const std::string& origin);

const char* toString(ProfileBound bound);

} // namespace podscope
