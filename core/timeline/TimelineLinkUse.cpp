#include "timeline/TimelineLinkUse.hpp"

#include "collective/Schedule.hpp"

#include <algorithm>
#include <map>

namespace podscope {

namespace {

// One phase of an exchange's traffic: the links it uses and what each carries per byte of the
// exchange's payload; `secondsPerByte` is the phase's time per payload byte on its slowest link.
struct PhaseTraffic {
    std::vector<LinkId> links;
    std::vector<double> bytesPerPayloadByte;
    double secondsPerByte = 0;
};

// The traffic of one exchange shape (collective without its payload, or a halo swap).
struct Shape {
    std::vector<PhaseTraffic> phases;
    std::vector<LinkId> links; // every phase's, sorted
    double secondsPerByte = 0; // sum over phases
};

struct ItemTraffic {
    int item = -1;
    ChipActivity kind = ChipActivity::Idle;
    double startS = 0, endS = 0;
    double payload = 0;
    int shape = -1;
};

bool sameShape(const CollectiveSpec& a, const CollectiveSpec& b) {
    return a.op == b.op && a.element == b.element && a.groups.kind == b.groups.kind &&
           a.groups.tile == b.groups.tile && a.algorithm == b.algorithm && a.chunks == b.chunks &&
           a.dimOrder == b.dimOrder;
}

PhaseTraffic finish(const Topology& topology, std::map<LinkId, double>& bytes) {
    PhaseTraffic p;
    for (const auto& [link, b] : bytes) {
        p.links.push_back(link);
        p.bytesPerPayloadByte.push_back(b);
        p.secondsPerByte = std::max(p.secondsPerByte, b / topology.linkBandwidth(link));
    }
    return p;
}

Shape collectiveShape(const Topology& topology, const CollectiveSpec& spec) {
    const Schedule schedule = buildSchedule(topology, spec, ScheduleScope::Full);
    Shape shape;
    for (int k = 0; k < schedule.phaseCount(); ++k) {
        std::map<LinkId, double> bytes; // per byte of payload, over every stream's rings
        for (const Stream& stream : schedule.streams) {
            const Phase& phase = stream.phases[static_cast<std::size_t>(k)];
            const RingSet& rings = phase.rings;
            if (rings.ringSize < 2) {
                continue;
            }
            // ringSize - 1 steps of one segment (bytesPerMember / ringSize) on every hop.
            const double perHop = phase.bytesPerMember / spec.bytesPerChip *
                                  static_cast<double>(rings.ringSize - 1) / rings.ringSize;
            for (int r = 0; r < rings.ringCount(); ++r) {
                for (int i = 0; i < rings.ringSize; ++i) {
                    for (const LinkId link : rings.hop(r, i)) {
                        bytes[link] += perHop;
                    }
                }
            }
        }
        if (!bytes.empty()) {
            shape.phases.push_back(finish(topology, bytes));
        }
    }
    return shape;
}

// Halo swaps: every chip with each neighbour of its replica tile, both ways, the halo's bytes
// over each link.
Shape haloShape(const Topology& topology, const std::vector<int>& tile) {
    GroupLayout layout;
    layout.kind = GroupLayout::Kind::WithinTile;
    layout.tile = tile;
    std::map<LinkId, double> bytes;
    for (ChipId c = 0; c < topology.chipCount(); ++c) {
        const int group = groupOf(topology, layout, c);
        for (int d = 0; d < topology.rank(); ++d) {
            if (tile[static_cast<std::size_t>(d)] < 2) {
                continue;
            }
            for (const Direction dir : {Direction::Plus, Direction::Minus}) {
                const ChipId n = topology.neighbour(c, d, dir);
                if (n >= 0 && groupOf(topology, layout, n) == group) {
                    bytes[topology.linkId(c, d, dir)] = 1.0;
                }
            }
        }
    }
    Shape shape;
    if (!bytes.empty()) {
        shape.phases.push_back(finish(topology, bytes));
    }
    return shape;
}

} // namespace

struct TimelineLinkUse::Data {
    LinkId slots = 0;
    std::vector<double> bandwidth; // per link slot (0 where no link)
    std::vector<Shape> shapes;
    std::vector<ItemTraffic> traffic; // by start time
    std::vector<int> shapeOfItem;     // per timeline item, -1 without links
    std::vector<LinkId> none;

    // Calls f(link, utilisation during the phase, phase start, phase end) for every phase of
    // the items that overlap [from, to].
    template <typename F> void forEachPhase(double from, double to, F&& f) const {
        for (const ItemTraffic& it : traffic) {
            if (it.startS > to) {
                break;
            }
            if (it.endS < from || it.endS <= it.startS) {
                continue;
            }
            const Shape& shape = shapes[static_cast<std::size_t>(it.shape)];
            const double duration = it.endS - it.startS;
            double begin = it.startS;
            for (const PhaseTraffic& p : shape.phases) {
                const double length = duration * p.secondsPerByte / shape.secondsPerByte;
                const double end = begin + length;
                if (end >= from && begin <= to && length > 0) {
                    for (std::size_t l = 0; l < p.links.size(); ++l) {
                        const LinkId link = p.links[l];
                        const double use = p.bytesPerPayloadByte[l] * it.payload /
                                           (length * bandwidth[static_cast<std::size_t>(link)]);
                        f(it, link, std::min(use, 1.0), begin, end);
                    }
                }
                begin = end;
            }
        }
    }
};

TimelineLinkUse::TimelineLinkUse(const Topology& topology, const StepPlan& plan,
                                 const StepTimeline& timeline)
    : data_(std::make_unique<Data>()) {
    Data& d = *data_;
    d.slots = topology.linkSlotCount();
    d.bandwidth.assign(static_cast<std::size_t>(d.slots), 0.0);
    for (LinkId l = 0; l < d.slots; ++l) {
        if (topology.linkExists(l)) {
            d.bandwidth[static_cast<std::size_t>(l)] = topology.linkBandwidth(l);
        }
    }
    d.shapeOfItem.assign(timeline.items.size(), -1);
    std::vector<CollectiveSpec> known;
    int halo = -1;
    for (std::size_t i = 0; i < timeline.items.size(); ++i) {
        const TimelineItem& item = timeline.items[i];
        if (item.exchange < 0) {
            continue;
        }
        const Exchange& e = plan.exchanges[static_cast<std::size_t>(item.exchange)];
        ItemTraffic t;
        t.item = static_cast<int>(i);
        t.kind = item.activity;
        t.startS = item.common.startS;
        t.endS = item.common.endS;
        if (e.collective) {
            const auto k = std::find_if(known.begin(), known.end(), [&](const CollectiveSpec& s) {
                return sameShape(s, *e.collective);
            });
            t.shape = static_cast<int>(k - known.begin());
            if (k == known.end()) {
                known.push_back(*e.collective);
                d.shapes.push_back(collectiveShape(topology, *e.collective));
            }
            t.payload = e.collective->bytesPerChip;
        } else if (e.kind == ExchangeKind::Halo && e.iciBytes > 0 &&
                   plan.parallelism.chipsPerReplica > 1) {
            if (halo < 0) {
                halo = static_cast<int>(d.shapes.size());
                d.shapes.push_back(haloShape(topology, plan.parallelism.replicaTile));
            }
            t.shape = halo;
            t.payload = e.iciBytes;
        } else {
            continue; // between a chip's two cores, through HBM
        }
        Shape& shape = d.shapes[static_cast<std::size_t>(t.shape)];
        if (shape.phases.empty()) {
            continue;
        }
        if (shape.links.empty()) {
            for (const PhaseTraffic& p : shape.phases) {
                shape.links.insert(shape.links.end(), p.links.begin(), p.links.end());
                shape.secondsPerByte += p.secondsPerByte;
            }
            std::sort(shape.links.begin(), shape.links.end());
            shape.links.erase(std::unique(shape.links.begin(), shape.links.end()),
                              shape.links.end());
        }
        d.shapeOfItem[i] = t.shape;
        d.traffic.push_back(t);
    }
    std::stable_sort(
        d.traffic.begin(), d.traffic.end(),
        [](const ItemTraffic& a, const ItemTraffic& b) { return a.startS < b.startS; });
}

TimelineLinkUse::~TimelineLinkUse() = default;
TimelineLinkUse::TimelineLinkUse(TimelineLinkUse&&) noexcept = default;
TimelineLinkUse& TimelineLinkUse::operator=(TimelineLinkUse&&) noexcept = default;

void TimelineLinkUse::utilisation(double t, double windowS, std::vector<float>& out) const {
    const Data& d = *data_;
    std::vector<double> sum(static_cast<std::size_t>(d.slots), 0.0);
    if (windowS <= 0) {
        d.forEachPhase(t, t,
                       [&](const ItemTraffic&, LinkId link, double use, double begin, double end) {
                           if (begin <= t && t < end) {
                               sum[static_cast<std::size_t>(link)] += use;
                           }
                       });
    } else {
        const double from = t - windowS;
        d.forEachPhase(from, t,
                       [&](const ItemTraffic&, LinkId link, double use, double begin, double end) {
                           const double overlap = std::min(end, t) - std::max(begin, from);
                           if (overlap > 0) {
                               sum[static_cast<std::size_t>(link)] += use * overlap / windowS;
                           }
                       });
    }
    out.resize(sum.size());
    for (std::size_t l = 0; l < sum.size(); ++l) {
        out[l] = static_cast<float>(std::min(sum[l], 1.0));
    }
}

void TimelineLinkUse::kind(double t, std::vector<ChipActivity>& out) const {
    const Data& d = *data_;
    out.assign(static_cast<std::size_t>(d.slots), ChipActivity::Idle);
    std::vector<double> best(static_cast<std::size_t>(d.slots), 0.0);
    d.forEachPhase(t, t,
                   [&](const ItemTraffic& item, LinkId link, double use, double begin, double end) {
                       const auto l = static_cast<std::size_t>(link);
                       if (begin <= t && t < end && use > best[l]) {
                           best[l] = use;
                           out[l] = item.kind;
                       }
                   });
}

std::vector<int> TimelineLinkUse::exchangesAt(double t) const {
    std::vector<int> items;
    for (const ItemTraffic& it : data_->traffic) {
        if (it.startS <= t && t < it.endS) {
            items.push_back(it.item);
        }
    }
    std::sort(items.begin(), items.end());
    return items;
}

const std::vector<LinkId>& TimelineLinkUse::linksOf(int item) const {
    const Data& d = *data_;
    if (item < 0 || static_cast<std::size_t>(item) >= d.shapeOfItem.size() ||
        d.shapeOfItem[static_cast<std::size_t>(item)] < 0) {
        return d.none;
    }
    return d.shapes[static_cast<std::size_t>(d.shapeOfItem[static_cast<std::size_t>(item)])].links;
}

} // namespace podscope
