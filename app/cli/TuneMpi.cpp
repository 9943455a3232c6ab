#include "TuneMpi.hpp"

#include "common/InputError.hpp"

#include <mpi.h>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace podscope::cli {

bool mpiAvailable() {
    return true;
}

MpiSession::MpiSession() {
    int provided = 0;
    // Only the main thread calls MPI; the search threads never do.
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
    MPI_Finalize();
}

search::SearchTally MpiSession::gather(const search::SearchTally& mine) const {
    const std::string text = mine.toJson().dump();
    int length = static_cast<int>(text.size());
    std::vector<int> lengths(static_cast<std::size_t>(size_));
    MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
    int total = 0;
    for (std::size_t r = 0; r < lengths.size(); ++r) {
        offsets[r] = total;
        total += lengths[r];
    }
    std::string all(rank_ == 0 ? static_cast<std::size_t>(total) : 0, '\0');
    MPI_Gatherv(text.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
                0, MPI_COMM_WORLD);
    if (rank_ != 0) {
        return mine;
    }
    search::SearchTally merged = search::SearchTally::fromJson(
        nlohmann::json::parse(all.substr(0, static_cast<std::size_t>(lengths[0]))));
    for (std::size_t r = 1; r < lengths.size(); ++r) {
        merged.merge(search::SearchTally::fromJson(nlohmann::json::parse(all.substr(
            static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lengths[r])))));
    }
    return merged;
}

} // namespace podscope::cli
