#pragma once

#include "search/SearchTally.hpp"

namespace podscope::cli {

// MPI for `tune --mpi`, when the build found it (docs/cli.md). Ranks split the space; the root
// gathers their tallies and writes the one result.
bool mpiAvailable();

class MpiSession {
public:
    MpiSession();  // MPI_Init; throws InputError naming mpi when the build has no MPI
    ~MpiSession(); // MPI_Finalize
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }
    // Every rank's tally merged on rank 0 (in rank order); other ranks get their own back.
    search::SearchTally gather(const search::SearchTally& mine) const;

private:
    int rank_ = 0;
    int size_ = 1;
};

} // namespace podscope::cli
