#pragma once

#include <array>
#include <string_view>

namespace podscope {

// The parts a step is split into when a profiler's op table is set beside PodScope's layers.
enum class ProfileCategory {
    Matmul,         // convolution and matmul fusions (with their fused epilogues)
    Elementwise,    // loop fusions and plain elementwise ops
    Reduction,      // reduce ops, input fusions and loop fusions that shrink their operand
    DataFormatting, // transposes, copies, layout changes
    GatherScatter,  // gathers, scatters, select-and-scatter, embedding-gradient fusions
    Collective,     // all-reduce and the other cross-core collectives
    Infeed,         // infeed and outfeed
    Other,          // sort, loops' control, custom calls, anything the profiler did not class
};
inline constexpr std::size_t kProfileCategoryCount = 8;
inline constexpr std::array<ProfileCategory, kProfileCategoryCount> kProfileCategories = {
    ProfileCategory::Matmul,         ProfileCategory::Elementwise,   ProfileCategory::Reduction,
    ProfileCategory::DataFormatting, ProfileCategory::GatherScatter, ProfileCategory::Collective,
    ProfileCategory::Infeed,         ProfileCategory::Other};

// The key in summary files ("matmul", "data_formatting" ...) and the label for people.
std::string_view key(ProfileCategory category);
std::string_view label(ProfileCategory category);

// The category of one op of an XProf / TensorBoard "HLO op stats" table, from its "Category"
// column and, for loop fusions, the shapes in its "HLO op" text: a loop fusion whose largest
// output has at most 1/8 the elements of its largest operand is a reduction (batch-norm
// statistics, softmax sums), since XProf files those under "loop fusion" too.
ProfileCategory classifyProfileOp(std::string_view xprofCategory, std::string_view hloText);

} // namespace podscope
