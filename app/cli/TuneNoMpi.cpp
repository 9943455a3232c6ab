#include "TuneMpi.hpp"
#include "common/InputError.hpp"

namespace podscope::cli {

// This build has no MPI (find_package(MPI COMPONENTS CXX) found none, or PODSCOPE_WITH_MPI=OFF).
bool mpiAvailable() {
    return false;
}

MpiSession::MpiSession() {
    throw InputError("mpi", "this podscope-cli was built without MPI; install libopenmpi-dev and "
                            "rebuild, or run without --mpi (one process, all its threads)");
}

MpiSession::~MpiSession() = default;

search::SearchTally MpiSession::gather(const search::SearchTally& mine) const {
    return mine;
}

} // namespace podscope::cli
