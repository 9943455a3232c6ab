#include "search/SearchTally.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

namespace podscope::search {

bool rankedBefore(const Candidate& a, const Candidate& b) {
    return std::tie(a.score, a.index) < std::tie(b.score, b.index);
}

namespace {

bool fasterThan(const Candidate& a, const Candidate& b) {
    return std::tie(a.timeToTrainS, a.index) < std::tie(b.timeToTrainS, b.index);
}

// The points no other point beats in both chip-seconds and time to train (equal points: the
// lowest index stays).
std::vector<Candidate> nonDominated(std::vector<Candidate> points) {
    std::sort(points.begin(), points.end(), [](const Candidate& a, const Candidate& b) {
        const double ca = a.chipSeconds(), cb = b.chipSeconds();
        return std::tie(ca, a.timeToTrainS, a.index) < std::tie(cb, b.timeToTrainS, b.index);
    });
    std::vector<Candidate> front;
    for (const Candidate& p : points) {
        if (front.empty() || p.timeToTrainS < front.back().timeToTrainS) {
            front.push_back(p);
        }
    }
    return front;
}

} // namespace

void SearchTally::add(const Candidate& c) {
    ++evaluated_;
    if (best_.size() < keep_ || rankedBefore(c, best_.back())) {
        best_.insert(std::upper_bound(best_.begin(), best_.end(), c, rankedBefore), c);
        if (best_.size() > keep_) {
            best_.pop_back();
        }
    }
    const auto [it, inserted] = fastestPerChips_.emplace(c.chips, c);
    if (!inserted && fasterThan(c, it->second)) {
        it->second = c;
    }
    front_.push_back(c);
    if (front_.size() >= 2 * compactedSize_ + 1024) {
        compactFront();
    }
}

void SearchTally::compactFront() const {
    front_ = nonDominated(std::move(front_));
    compactedSize_ = front_.size();
}

std::vector<Candidate> SearchTally::chipSecondsFront() const {
    compactFront();
    return front_;
}

void SearchTally::merge(const SearchTally& other) {
    evaluated_ += other.evaluated_;
    skipped_.hbm += other.skipped_.hbm;
    skipped_.uneven += other.skipped_.uneven;
    skipped_.unsupported += other.skipped_.unsupported;
    for (const Candidate& c : other.best_) {
        best_.push_back(c);
    }
    std::sort(best_.begin(), best_.end(), rankedBefore);
    if (best_.size() > keep_) {
        best_.resize(keep_);
    }
    for (const auto& [chips, c] : other.fastestPerChips_) {
        const auto [it, inserted] = fastestPerChips_.emplace(chips, c);
        if (!inserted && fasterThan(c, it->second)) {
            it->second = c;
        }
    }
    front_.insert(front_.end(), other.front_.begin(), other.front_.end());
    compactFront();
}

namespace {

nlohmann::json candidatesJson(const std::vector<Candidate>& list) {
    nlohmann::json array = nlohmann::json::array();
    for (const Candidate& c : list) {
        array.push_back({c.index, c.score, c.timeToTrainS, c.throughputExamplesPerS, c.chips});
    }
    return array;
}

std::vector<Candidate> candidatesFrom(const nlohmann::json& array) {
    std::vector<Candidate> list;
    for (const auto& item : array) {
        list.push_back({item.at(0).get<std::uint64_t>(), item.at(1).get<double>(),
                        item.at(2).get<double>(), item.at(3).get<double>(),
                        item.at(4).get<std::int64_t>()});
    }
    return list;
}

} // namespace

nlohmann::json SearchTally::toJson() const {
    compactFront();
    std::vector<Candidate> fastest;
    for (const auto& [chips, c] : fastestPerChips_) {
        fastest.push_back(c);
    }
    return {{"keep", keep_},
            {"evaluated", evaluated_},
            {"skipped", {skipped_.hbm, skipped_.uneven, skipped_.unsupported}},
            {"best", candidatesJson(best_)},
            {"fastest", candidatesJson(fastest)},
            {"front", candidatesJson(front_)}};
}

SearchTally SearchTally::fromJson(const nlohmann::json& json) {
    SearchTally t(json.at("keep").get<std::size_t>());
    t.evaluated_ = json.at("evaluated").get<std::uint64_t>();
    t.skipped_.hbm = json.at("skipped").at(0).get<std::uint64_t>();
    t.skipped_.uneven = json.at("skipped").at(1).get<std::uint64_t>();
    t.skipped_.unsupported = json.at("skipped").at(2).get<std::uint64_t>();
    t.best_ = candidatesFrom(json.at("best"));
    for (const Candidate& c : candidatesFrom(json.at("fastest"))) {
        t.fastestPerChips_.emplace(c.chips, c);
    }
    t.front_ = candidatesFrom(json.at("front"));
    t.compactedSize_ = t.front_.size();
    return t;
}

} // namespace podscope::search
