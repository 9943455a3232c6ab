#pragma once

#include "workload/BeamSearchDecode.hpp"

namespace podscope {

struct StepPlan;

// How one evaluation batches its beam search over the replicas.
struct DecodeShape {
    double sentencesPerReplica = 0;
    double batches = 0; // evaluation steps, one after another on every replica
    double tokens = 0;  // decoded per batch
    double beamWidth = 0;
};

// One beam-search evaluation on one replica (docs/training-model.md, "Evaluation").
struct DecodeTime {
    DecodeShape shape;
    double encoderS = 0; // the encoder of one batch
    double tokenS = 0;   // one decoder step of one batch (every hypothesis of the batch)
    double seconds = 0;  // batches x (encoder + tokens x step)
};

DecodeShape decodeShape(const BeamSearchDecode& decode, double evalExamples, double replicas);

// Times the decode with the plan's core, split and replicas. Throws InputError naming
// "eval_decode" when the decode's beam width or length is outside its graphs' ranges.
DecodeTime beamSearchTime(const BeamSearchDecode& decode, const StepPlan& plan,
                          double evalExamples);

} // namespace podscope
