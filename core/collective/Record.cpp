#include "collective/Record.hpp"

namespace podscope {

std::size_t Record::memoryBytes() const {
    std::size_t bytes = rings.capacity() * sizeof(RingEntry) + linkIds.capacity() * sizeof(LinkId) +
                        linkDurationS.capacity() * sizeof(double) + transfers.capacity() * sizeof(Transfer);
    for (const auto& phase : phases) {
        bytes += sizeof(PhaseSpan) + phase.name.capacity();
    }
    return bytes;
}

} // namespace podscope
