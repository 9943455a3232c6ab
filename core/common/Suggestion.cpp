#include "common/Suggestion.hpp"

#include <algorithm>

namespace podscope {

std::size_t editDistance(const std::string& a, const std::string& b) {
    // d[i][j]: the distance between the first i letters of a and the first j of b.
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) {
        d[i][0] = i;
    }
    for (std::size_t j = 0; j <= b.size(); ++j) {
        d[0][j] = j;
    }
    for (std::size_t i = 1; i <= a.size(); ++i) {
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t change = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + change});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
                d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
            }
        }
    }
    return d[a.size()][b.size()];
}

std::optional<std::string> closestMatch(const std::string& word,
                                        const std::vector<std::string>& candidates) {
    if (word.empty()) {
        return std::nullopt;
    }
    std::vector<std::string> extended;
    for (const auto& candidate : candidates) {
        if (candidate.size() > word.size() && candidate.compare(0, word.size(), word) == 0) {
            extended.push_back(candidate);
        }
    }
    if (extended.size() == 1 && word.size() >= 2) {
        return extended.front();
    }
    // Two edits in a word of three letters or fewer is a different word, not a typo.
    const std::size_t allowed = word.size() <= 3 ? 1 : 2;
    std::optional<std::string> best;
    std::size_t bestDistance = allowed + 1;
    for (const auto& candidate : candidates) {
        const std::size_t distance = editDistance(word, candidate);
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace podscope
