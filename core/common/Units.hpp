#pragma once

namespace podscope::units {

// Decimal units, as link datasheets and NCCL's bandwidth figures use them.
inline constexpr double kGB = 1e9;
inline constexpr double kMicrosecond = 1e-6;

} // namespace podscope::units
