#include "widgets/ControlPanel.hpp"

#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Framework.hpp"
#include "training/ScenarioJson.hpp"
#include "view/ConfigurationProblem.hpp"
#include "widgets/MemoryBar.hpp"
#include "workload/Workload.hpp"

#include <algorithm>
#include <cmath>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTimer>
#include <QVBoxLayout>

namespace podscope::ui {
namespace {

constexpr std::int64_t kSlices[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
// The longest sequence a configuration file takes (ScenarioJson).
constexpr double kLongestSequence = 65536;

QString batchNormTip() {
    return QObject::tr(
        "Replicas that share batch-norm statistics: each batch-norm layer sums its mean and "
        "variance over the group, forward and backward (MLPerf ResNet-50: 8, SSD: 16)");
}

} // namespace

ControlPanel::ControlPanel(QWidget* parent)
    : QWidget(parent) {
    build();
}

void ControlPanel::build() {
    auto* column = new QVBoxLayout(this);
    auto group = [&](const QString& key, const QString& title) {
        auto* box = new QGroupBox(title, this);
        box->setObjectName(key);
        auto* form = new QFormLayout(box);
        form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
        // Labels above their fields when the panel is narrow, so that no field is cut.
        form->setRowWrapPolicy(QFormLayout::WrapLongRows);
        column->addWidget(box);
        return form;
    };

    problemBox_ = new QFrame(this);
    problemBox_->setObjectName("problem");
    problemBox_->setStyleSheet(
        "QFrame#problem { border-left: 3px solid #c0392b; background: rgba(192, 57, 43, 0.08); }");
    auto* problemColumn = new QVBoxLayout(problemBox_);
    problemColumn->setContentsMargins(8, 4, 4, 4);
    problemText_ = new QLabel(problemBox_);
    problemText_->setWordWrap(true);
    problemText_->setStyleSheet("color: #a93226;");
    problemText_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    suggestion_ = new QPushButton(problemBox_);
    suggestion_->setToolTip(tr("Apply this value (Edit > Undo takes it back)"));
    problemColumn->addWidget(problemText_);
    problemColumn->addWidget(suggestion_, 0, Qt::AlignLeft);
    problemBox_->setVisible(false);
    connect(suggestion_, &QPushButton::clicked, this, [this] {
        if (suggested_) {
            emit edited(*suggested_, suggestion_->text().replace(tr("Use "), tr("use ")));
        }
    });

    auto* model = group("model", tr("Model"));
    workload_ = new QComboBox(this);
    for (const auto& name : workloadNames()) {
        workload_->addItem(QString::fromStdString(name));
    }
    workload_->setToolTip(tr("The MLPerf v0.7 model: its FLOPs, parameters, convergence and input cost come from resources/workloads"));
    framework_ = new QComboBox(this);
    for (const auto& name : frameworkNames()) {
        framework_->addItem(QString::fromStdString(name));
    }
    framework_->setToolTip(tr("TF: one controller for all hosts (longer start-up, host round trips per loop). "
                              "JAX: one process per host, the whole loop compiled to the device"));
    evalMode_ = new QComboBox(this);
    evalMode_->addItems({tr("as the model does"), "sync", "async"});
    evalMode_->setToolTip(tr("Distributed evaluation: synchronous (training waits) or overlapped with training"));
    model->addRow(tr("Model"), workload_);
    model->addRow(tr("Framework"), framework_);
    model->addRow(tr("Evaluation"), evalMode_);
    evalEvery_ = new QDoubleSpinBox(this);
    evalEvery_->setRange(0, 100); // 0: the special "as the model does"; the model needs at least 0.1
    evalEvery_->setDecimals(1);
    evalEvery_->setSuffix(tr(" epochs"));
    evalEvery_->setSpecialValueText(tr("as the model does"));
    evalEvery_->setToolTip(tr("Evaluation cadence: evaluate every this many epochs (MLPerf ResNet-50: 4)"));
    model->addRow(tr("Evaluate every"), evalEvery_);
    sequenceLength_ = new QSpinBox(this);
    sequenceLength_->setObjectName("sequenceLength");
    sequenceLength_->setSuffix(tr(" tokens"));
    sequenceLength_->setToolTip(
        tr("Tokens per example (BERT, Transformer) or padded sentence length (GNMT): every layer's "
           "shapes follow it. Models without a sequence (images) leave it off"));
    model->addRow(tr("Sequence length"), sequenceLength_);

    auto* topology = group("topology", tr("Topology"));
    topology_ = new QComboBox(this);
    for (std::int64_t chips : kSlices) {
        const auto slice = standardSlice(chips);
        QString wrap;
        for (std::size_t d = 0; d < slice.wrap.size(); ++d) {
            wrap += slice.wrap[d] ? QString("xy"[d]) : "";
        }
        topology_->addItem(tr("%1 chips (%2x%3, wrap %4)")
                               .arg(chips)
                               .arg(slice.dims[0])
                               .arg(slice.dims[1])
                               .arg(wrap.isEmpty() ? tr("none") : wrap),
                           QVariant::fromValue<qlonglong>(chips));
    }
    topology_->setToolTip(tr("Standard TPU-v3 slices by chip count; 4096 is the multipod (four 32x32 pods "
                             "joined along X, wrap-around in Y only)"));
    linkBandwidth_ = new QDoubleSpinBox(this);
    linkBandwidth_->setRange(1, 10000);
    linkBandwidth_->setDecimals(1);
    linkBandwidth_->setSuffix(" GB/s");
    linkBandwidth_->setToolTip(tr("Inter-chip link bandwidth per direction (TPU-v3: 82 GB/s = 656 Gbit/s)"));
    customDims_ = new QLineEdit(this);
    customDims_->setPlaceholderText(tr("or dimensions, e.g. 16x16x16"));
    customDims_->setToolTip(tr("A custom grid of chips (X first); Enter applies it"));
    customWrap_ = new QLineEdit(this);
    customWrap_->setPlaceholderText(tr("wrap: x, y, xy, none"));
    customWrap_->setToolTip(tr("Dimensions with wrap-around links for the custom grid"));
    latency_ = new QDoubleSpinBox(this);
    latency_->setRange(0, 1000);
    latency_->setDecimals(3);
    latency_->setSuffix(" µs");
    latency_->setToolTip(tr("Latency per hop between chips (TPU-v3: not published; the default is "
                            "the calibrated value, docs/training-model.md)"));
    crossPodBandwidth_ = new QDoubleSpinBox(this);
    crossPodBandwidth_->setRange(0, 10000);
    crossPodBandwidth_->setDecimals(1);
    crossPodBandwidth_->setSuffix(" GB/s");
    crossPodBandwidth_->setSpecialValueText(tr("as the other links"));
    crossPodBandwidth_->setToolTip(tr("Bandwidth of the links that join pods along X (not published)"));
    topology->addRow(tr("Slice"), topology_);
    topology->addRow(tr("Custom grid"), customDims_);
    topology->addRow(tr("Wrap-around"), customWrap_);
    topology->addRow(tr("Link bandwidth"), linkBandwidth_);
    topology->addRow(tr("Hop latency"), latency_);
    topology->addRow(tr("Between pods"), crossPodBandwidth_);

    auto* parallelism = group("parallelism", tr("Parallelism"));
    globalBatch_ = new QComboBox(this);
    globalBatch_->setToolTip(
        tr("Global batch (examples per step), shared by the replicas. Only values that give "
           "every replica the same whole number of examples are offered; larger batches need "
           "more epochs"));
    modelParallel_ = new QComboBox(this);
    for (int m : {1, 2, 4, 8, 16}) {
        modelParallel_->addItem(QString::number(m), m);
    }
    modelParallel_->setToolTip(
        tr("Cores per replica (the model-parallel degree): a replica is one copy of the "
           "model; it takes one core, the two cores of a chip, or a block of chips"));
    modelParallelKind_ = new QComboBox(this);
    modelParallelKind_->addItems({"none", "spatial", "tensor"});
    modelParallelKind_->setToolTip(
        tr("How a replica of several cores splits the model: spatial partitioning "
           "(images split across its cores, halo exchange) or tensor partitioning "
           "(Megatron-style splits, activation all-reduces)"));
    parallelism->addRow(tr("Global batch"), globalBatch_);
    parallelism->addRow(tr("Cores per replica"), modelParallel_);
    parallelism->addRow(tr("Model parallelism"), modelParallelKind_);
    batchNormGroup_ = new QComboBox(this);
    batchNormGroup_->setObjectName("batchNormGroup");
    batchNormGroup_->setToolTip(batchNormTip());
    parallelism->addRow(tr("Batch-norm group"), batchNormGroup_);
    // In the panel's column, right under the settings that fill it, scrolling with them: the
    // panel keeps its height for the controls on a small screen.
    memory_ = new MemoryBar(this);
    column->addWidget(memory_);

    auto* gradients = group("gradients", tr("Gradient summation"));
    weightUpdateSharding_ = new QCheckBox(tr("Weight-update sharding"), this);
    weightUpdateSharding_->setToolTip(tr("Reduce-scatter the gradients, update a shard of the weights on each "
                                         "replica, all-gather them back, instead of all-reduce plus a replicated update"));
    precision_ = new QComboBox(this);
    precision_->addItems({"bf16", "fp32"});
    precision_->setToolTip(tr("Element type of the summed gradients (bytes on the links)"));
    algorithm_ = new QComboBox(this);
    algorithm_->addItems({"2d", "2d-dual", "ring", "bidir-ring", "flat-ring"});
    algorithm_->setToolTip(
        tr("2d: reduce-scatter along one dimension then the other, bidirectional rings where "
           "a dimension wraps; 2d-dual: 2d in both dimension orders at once on shares of the "
           "data, so every link works in every phase; flat-ring: one ring over all chips"));
    chunks_ = new QSpinBox(this);
    chunks_->setObjectName("chunks");
    chunks_->setRange(1, 64);
    chunks_->setToolTip(tr("Chunks that pipeline through the ring steps"));
    gradients->addRow(weightUpdateSharding_);
    gradients->addRow(tr("Precision"), precision_);
    gradients->addRow(tr("Algorithm"), algorithm_);
    gradients->addRow(tr("Chunks"), chunks_);
    dimOrder_ = new QComboBox(this);
    dimOrder_->addItem(tr("wrapped first"), QString());
    for (const char* order : {"xy", "yx", "xyz", "xzy", "yxz", "yzx", "zxy", "zyx"}) {
        dimOrder_->addItem(order, QString(order));
    }
    dimOrder_->setToolTip(tr("Order in which the reduce-scatter visits the dimensions (the all-gather runs back). "
                             "The dimension with wrap-around goes first by default: it carries the full payload "
                             "at twice the bandwidth"));
    gradients->addRow(tr("Dimension order"), dimOrder_);
    overlap_ = new QComboBox(this);
    overlap_->setObjectName("overlap");
    overlap_->addItem(tr("after the backward pass"), QString("after-backward"));
    overlap_->addItem(tr("bucketed, during the backward pass"), QString("bucketed"));
    overlap_->setToolTip(
        tr("When the gradient sum starts: after the whole backward pass (XLA's all-reduce "
           "combiner, what the 2020 TPU code did: fully exposed), or in buckets as the backward "
           "pass makes the last layers' gradients ready (overlapped; what ends after the "
           "backward pass is exposed)"));
    gradients->addRow(tr("Overlap"), overlap_);
    bucket_ = new QDoubleSpinBox(this);
    bucket_->setObjectName("bucket");
    bucket_->setRange(0.25, 65536);
    bucket_->setDecimals(2);
    bucket_->setSuffix(tr(" MiB"));
    bucket_->setToolTip(tr("Bucketed overlap: gradient bytes per chip in one bucket; smaller "
                           "buckets start sooner but pay the collective's latency more often"));
    gradients->addRow(tr("Bucket size"), bucket_);

    auto* input = group("input", tr("Host input pipeline"));
    hostCores_ = new QDoubleSpinBox(this);
    hostCores_->setRange(0, 1024);
    hostCores_->setDecimals(0);
    hostCores_->setSpecialValueText(tr("platform default"));
    hostCores_->setToolTip(tr("CPU cores per host for reading, decoding, augmenting and batching (8 chips per host)"));
    decodedCache_ = new QCheckBox(tr("Decoded-example cache"), this);
    decodedCache_->setToolTip(
        tr("Decoded examples cached in host RAM: skip decoding each step (the paper caches "
           "decoded JPEGs above 2048 replicas)"));
    input->addRow(tr("CPU cores"), hostCores_);
    input->addRow(decodedCache_);
    const char* stages[] = {"read", "decode", "augment", "batch"};
    for (std::size_t i = 0; i < stageCosts_.size(); ++i) {
        auto* cost = new QDoubleSpinBox(this);
        cost->setRange(-0.001, 10000);
        cost->setDecimals(3);
        cost->setSuffix(tr(" ms/example"));
        cost->setSpecialValueText(tr("as the model"));
        cost->setValue(-0.001);
        cost->setToolTip(tr("CPU time per example of the %1 stage on one host core").arg(stages[i]));
        stageCosts_[i] = cost;
        input->addRow(tr("%1 cost").arg(QString(stages[i]).replace(0, 1, QString(stages[i]).at(0).toUpper())), cost);
        connect(cost, &QDoubleSpinBox::valueChanged, this,
                [this, cost, stage = stages[i]] { emitEdit(cost, tr("%1 cost").arg(stage)); });
    }
    column->addStretch(1);
    // Long entries ("4096 chips (128x32, wrap y)") are elided rather than widening the panel:
    // the window fits a 1024-pixel screen.
    for (auto* box : findChildren<QComboBox*>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }

    auto comboEdit = [this](QComboBox* box, const QString& what) {
        connect(box, &QComboBox::currentIndexChanged, this,
                [this, box, what] { emitEdit(box, what + " " + box->currentText()); });
    };
    comboEdit(workload_, tr("model"));
    comboEdit(framework_, tr("framework"));
    comboEdit(evalMode_, tr("evaluation"));
    // Picking a slice replaces a custom grid (connected first: slots run in order).
    connect(topology_, &QComboBox::currentIndexChanged, this, [this] {
        if (!updating_) {
            customDims_->clear();
            customWrap_->clear();
        }
    });
    comboEdit(topology_, tr("slice"));
    comboEdit(globalBatch_, tr("global batch"));
    comboEdit(modelParallel_, tr("cores per replica"));
    comboEdit(modelParallelKind_, tr("model parallelism"));
    comboEdit(precision_, tr("precision"));
    comboEdit(algorithm_, tr("algorithm"));
    connect(linkBandwidth_, &QDoubleSpinBox::valueChanged, this,
            [this] { emitEdit(linkBandwidth_, tr("link bandwidth")); });
    connect(chunks_, &QSpinBox::valueChanged, this, [this] { emitEdit(chunks_, tr("chunks")); });
    connect(latency_, &QDoubleSpinBox::valueChanged, this,
            [this] { emitEdit(latency_, tr("hop latency")); });
    connect(crossPodBandwidth_, &QDoubleSpinBox::valueChanged, this,
            [this] { emitEdit(crossPodBandwidth_, tr("bandwidth between pods")); });
    connect(evalEvery_, &QDoubleSpinBox::valueChanged, this,
            [this] { emitEdit(evalEvery_, tr("evaluation cadence")); });
    comboEdit(dimOrder_, tr("dimension order"));
    auto applyCustom = [this](QWidget* control) {
        if (!customDims_->text().trimmed().isEmpty()) {
            emitEdit(control, tr("grid %1").arg(customDims_->text().trimmed()));
        }
    };
    connect(customDims_, &QLineEdit::editingFinished, this,
            [this, applyCustom] { applyCustom(customDims_); });
    connect(customWrap_, &QLineEdit::editingFinished, this,
            [this, applyCustom] { applyCustom(customWrap_); });
    connect(hostCores_, &QDoubleSpinBox::valueChanged, this,
            [this] { emitEdit(hostCores_, tr("host CPU cores")); });
    connect(weightUpdateSharding_, &QCheckBox::toggled, this,
            [this] { emitEdit(weightUpdateSharding_, tr("weight-update sharding")); });
    connect(decodedCache_, &QCheckBox::toggled, this,
            [this] { emitEdit(decodedCache_, tr("decoded cache")); });
    comboEdit(overlap_, tr("gradient overlap"));
    comboEdit(batchNormGroup_, tr("batch-norm group"));
    connect(bucket_, &QDoubleSpinBox::valueChanged, this,
            [this] { emitEdit(bucket_, tr("bucket size")); });
    connect(sequenceLength_, &QSpinBox::valueChanged, this,
            [this] { emitEdit(sequenceLength_, tr("sequence length")); });
}

void ControlPanel::emitEdit(QWidget* control, const QString& what) {
    if (!updating_) {
        lastEdited_ = control;
        editing_ = true;
        emit edited(read(), what);
        editing_ = false;
    }
}

Scenario ControlPanel::read() const {
    Scenario s = shown_;
    s.workload = workload_->currentText().toStdString();
    s.framework = framework_->currentText().toStdString();
    s.evalMode = evalMode_->currentIndex() == 0 ? std::nullopt
                 : evalMode_->currentIndex() == 1 ? std::optional<EvalMode>(EvalMode::Sync)
                                                 : std::optional<EvalMode>(EvalMode::Async);
    const auto chips = topology_->currentData().toLongLong();
    if (chips > 0 && topology_->currentIndex() != shownSlice_) {
        useStandardSlice(s, chips); // only when the user picked another slice: keeps the file's naming
    }
    const QString dims = customDims_->text().trimmed();
    if (!dims.isEmpty()) {
        // A custom grid; the model checks it and names any problem next to the topology.
        s.topology = dims.toStdString();
        const QString wrap = customWrap_->text().trimmed();
        s.wrap = wrap.isEmpty() ? std::optional<std::string>("none") : std::optional<std::string>(wrap.toStdString());
    }
    s.linkBandwidthGBps = linkBandwidth_->value();
    // The default latency is the calibrated one (more digits than the box shows): a box left at
    // its rounded default keeps the default rather than writing the rounded value.
    const double defaultLatencyUs = loadHardware(s.hardware).linkLatencyS * 1e6;
    const double shownDefault = std::round(defaultLatencyUs * 1000) / 1000;
    if (s.linkLatencyUs || std::abs(latency_->value() - shownDefault) > 1e-9) {
        s.linkLatencyUs = latency_->value();
    }
    s.crossPodBandwidthGBps = crossPodBandwidth_->value() > 0 ? std::optional<double>(crossPodBandwidth_->value())
                                                               : std::nullopt;
    s.gradient.dimOrder = dimOrder_->currentData().toString().toStdString();
    s.evalEveryEpochs = evalEvery_->value() > 0 ? std::optional<double>(evalEvery_->value()) : std::nullopt;
    std::optional<double>* overrides[] = {&s.inputCost.readS, &s.inputCost.decodeS, &s.inputCost.augmentS,
                                          &s.inputCost.batchS};
    for (std::size_t i = 0; i < stageCosts_.size(); ++i) {
        const double ms = stageCosts_[i]->value();
        *overrides[i] = ms >= 0 ? std::optional<double>(ms / 1e3) : std::nullopt;
    }
    if (globalBatch_->currentIndex() >= 0) {
        s.globalBatch = globalBatch_->currentData().toLongLong();
    }
    s.modelParallel = modelParallel_->currentData().toInt();
    s.modelParallelKind = parseModelParallelKind(modelParallelKind_->currentText().toStdString(), "model_parallel.kind");
    s.weightUpdateSharding = weightUpdateSharding_->isChecked();
    s.gradient.precision = parseElementType(precision_->currentText().toStdString());
    s.gradient.algorithm = parseAlgorithm(algorithm_->currentText().toStdString());
    s.gradient.chunks = chunks_->value();
    s.input.cpuCores = hostCores_->value();
    s.input.decodedCache = decodedCache_->isChecked();
    s.gradient.overlap =
        parseGradientOverlap(overlap_->currentData().toString().toStdString(), "gradient.overlap");
    s.gradient.bucketMiB = bucket_->value();
    if (batchNormGroup_->currentIndex() >= 0) {
        const int group = batchNormGroup_->currentData().toInt();
        s.batchNormGroup = group > 0 ? std::optional<int>(group) : std::nullopt;
    }
    if (s.workload != shown_.workload) {
        s.sequenceLength.reset(); // another model: its own default length (or none)
    } else if (sequenceLength_->isEnabled() && defaultSequenceLength_ &&
               (s.sequenceLength || sequenceLength_->value() != *defaultSequenceLength_)) {
        // Left at the model's default, the file keeps no sequence_length.
        s.sequenceLength = sequenceLength_->value();
    }
    return s;
}

void ControlPanel::setScenario(const Scenario& s) {
    if (!editing_) {
        lastEdited_ = nullptr; // undo, a file, a preset or a demo: no control was edited
    }
    updating_ = true;
    shown_ = s;
    workload_->setCurrentText(QString::fromStdString(s.workload));
    framework_->setCurrentText(QString::fromStdString(s.framework));
    evalMode_->setCurrentIndex(!s.evalMode ? 0 : *s.evalMode == EvalMode::Sync ? 1 : 2);
    // The slice whose grid is this scenario's, however the scenario names it.
    auto grid = [](const Scenario& scenario) {
        try {
            const TopologySpec spec = resolveTopology(scenario.topology, scenario.wrap, loadHardware(scenario.hardware));
            return std::make_pair(spec.dims, spec.wrap);
        } catch (const std::exception&) {
            return std::make_pair(std::vector<int>{}, std::vector<bool>{});
        }
    };
    const auto wanted = grid(s);
    int slice = -1;
    for (int i = 0; i < topology_->count() && slice < 0; ++i) {
        const auto chips = topology_->itemData(i).toLongLong();
        if (chips > 0) {
            Scenario probe = s;
            useStandardSlice(probe, chips);
            if (grid(probe) == wanted) {
                slice = i;
            }
        } else if (topology_->itemText(i).toStdString() == s.topology) {
            slice = i;
        }
    }
    if (slice < 0) {
        // A topology that is no standard slice (a file or a custom grid): shown, kept until changed.
        slice = topology_->findText(QString::fromStdString(s.topology));
        if (slice < 0) {
            topology_->addItem(QString::fromStdString(s.topology), QVariant::fromValue<qlonglong>(0));
            slice = topology_->count() - 1;
        }
    }
    topology_->setCurrentIndex(slice);
    shownSlice_ = slice;
    const Hardware hardware = loadHardware(s.hardware);
    linkBandwidth_->setValue(s.linkBandwidthGBps ? *s.linkBandwidthGBps : hardware.linkBandwidthBps / 1e9);
    latency_->setValue(s.linkLatencyUs ? *s.linkLatencyUs : hardware.linkLatencyS * 1e6);
    crossPodBandwidth_->setValue(s.crossPodBandwidthGBps ? *s.crossPodBandwidthGBps : 0.0);
    const bool custom = slice >= 0 && topology_->itemData(slice).toLongLong() == 0;
    customDims_->setText(custom ? QString::fromStdString(s.topology) : QString());
    customWrap_->setText(custom && s.wrap ? QString::fromStdString(*s.wrap) : QString());
    dimOrder_->setCurrentIndex(std::max(0, dimOrder_->findData(QString::fromStdString(s.gradient.dimOrder))));
    evalEvery_->setValue(s.evalEveryEpochs ? *s.evalEveryEpochs : 0.0);
    const std::optional<double> overrides[] = {s.inputCost.readS, s.inputCost.decodeS, s.inputCost.augmentS,
                                               s.inputCost.batchS};
    for (std::size_t i = 0; i < stageCosts_.size(); ++i) {
        stageCosts_[i]->setValue(overrides[i] ? *overrides[i] * 1e3 : -0.001);
    }
    if (globalBatch_->findData(QVariant::fromValue<qlonglong>(s.globalBatch)) < 0) {
        globalBatch_->addItem(QString::number(s.globalBatch), QVariant::fromValue<qlonglong>(s.globalBatch));
    }
    globalBatch_->setCurrentIndex(globalBatch_->findData(QVariant::fromValue<qlonglong>(s.globalBatch)));
    modelParallel_->setCurrentIndex(modelParallel_->findData(s.modelParallel));
    modelParallelKind_->setCurrentText(QString::fromStdString(toString(s.modelParallelKind)));
    weightUpdateSharding_->setChecked(s.weightUpdateSharding);
    precision_->setCurrentText(QString::fromStdString(toString(s.gradient.precision)));
    algorithm_->setCurrentText(QString::fromStdString(toString(s.gradient.algorithm)));
    chunks_->setValue(s.gradient.chunks);
    hostCores_->setValue(s.input.cpuCores);
    decodedCache_->setChecked(s.input.decodedCache);
    overlap_->setCurrentIndex(
        std::max(0, overlap_->findData(QString::fromStdString(toString(s.gradient.overlap)))));
    bucket_->setValue(s.gradient.bucketMiB);
    bucket_->setEnabled(s.gradient.overlap == GradientOverlap::Bucketed);
    const QVariant group(s.batchNormGroup.value_or(0));
    if (batchNormGroup_->findData(group) < 0) {
        batchNormGroup_->addItem(s.batchNormGroup ? QString::number(*s.batchNormGroup) + tr(" replicas")
                                                  : tr("1 replica (default)"),
                                 group);
    }
    batchNormGroup_->setCurrentIndex(batchNormGroup_->findData(group));
    if (s.sequenceLength) {
        sequenceLength_->setValue(*s.sequenceLength);
    } else if (defaultSequenceLength_ && s.workload == analysedWorkload_) {
        sequenceLength_->setValue(*defaultSequenceLength_);
    }
    updating_ = false;
}

void ControlPanel::setAnalysis(const TrainingAnalysis& analysis) {
    updating_ = true;
    globalBatch_->clear();
    for (const auto& point : analysis.byBatch) {
        const auto batch = static_cast<qlonglong>(point.x);
        // Batches that do not fit stay on offer, marked: picking one explains the refusal.
        globalBatch_->addItem(point.exceedsHbm ? tr("%1 (does not fit in HBM)").arg(batch)
                                               : QString::number(batch),
                              QVariant::fromValue(batch));
        if (point.exceedsHbm) {
            globalBatch_->setItemData(globalBatch_->count() - 1,
                                      tr("Needs %1 GiB of HBM per core, has %2 GiB")
                                          .arg(point.memory.total() / (1024.0 * 1024 * 1024), 0, 'f', 1)
                                          .arg(point.memory.capacity / (1024.0 * 1024 * 1024), 0, 'f', 1),
                                      Qt::ToolTipRole);
        }
    }
    const auto current = QVariant::fromValue<qlonglong>(analysis.scenario.globalBatch);
    if (globalBatch_->findData(current) < 0) {
        globalBatch_->addItem(QString::number(analysis.scenario.globalBatch), current);
    }
    globalBatch_->setCurrentIndex(globalBatch_->findData(current));

    // Batch-norm groups: powers of two up to the replicas, where the model has batch norm.
    batchNormGroup_->clear();
    batchNormGroup_->addItem(tr("1 replica (default)"), 0);
    for (std::int64_t group = 2; group <= analysis.replicas; group *= 2) {
        batchNormGroup_->addItem(tr("%1 replicas").arg(group), static_cast<int>(group));
    }
    const QVariant group(analysis.scenario.batchNormGroup.value_or(0));
    if (batchNormGroup_->findData(group) < 0) {
        batchNormGroup_->addItem(tr("%1 replicas").arg(group.toInt()), group);
    }
    batchNormGroup_->setCurrentIndex(batchNormGroup_->findData(group));
    batchNormGroup_->setEnabled(analysis.hasBatchNorm);
    batchNormGroup_->setToolTip(
        analysis.hasBatchNorm
            ? batchNormTip()
            : tr("%1 has no batch norm").arg(QString::fromStdString(analysis.scenario.workload)));

    analysedWorkload_ = analysis.scenario.workload;
    if (analysis.sequenceLength) {
        const ShapeVariable& length = *analysis.sequenceLength;
        defaultSequenceLength_ = static_cast<int>(length.value);
        sequenceLength_->setRange(static_cast<int>(std::clamp(length.min, 1.0, kLongestSequence)),
                                  static_cast<int>(std::clamp(length.max, 1.0, kLongestSequence)));
        sequenceLength_->setValue(analysis.scenario.sequenceLength.value_or(*defaultSequenceLength_));
        sequenceLength_->setSpecialValueText({});
    } else {
        defaultSequenceLength_.reset();
        sequenceLength_->setRange(0, 0);
        sequenceLength_->setSpecialValueText(tr("none"));
    }
    sequenceLength_->setEnabled(analysis.sequenceLength.has_value());
    updating_ = false;
}

QWidget* ControlPanel::controlFor(const std::string& field) const {
    const std::pair<const char*, QWidget*> controls[] = {
        {"global_batch", globalBatch_},
        {"model_parallel.kind", modelParallelKind_},
        {"model_parallel", modelParallel_},
        {"groups", modelParallel_},
        {"topology",
         customDims_->text().isEmpty() ? static_cast<QWidget*>(topology_) : customDims_},
        {"chips", topology_},
        {"wrap", customWrap_},
        {"link_bandwidth", linkBandwidth_},
        {"link-bw", linkBandwidth_},
        {"link_latency", latency_},
        {"latency", latency_},
        {"cross", crossPodBandwidth_},
        {"gradient.dim_order", dimOrder_},
        {"dim-order", dimOrder_},
        {"gradient.chunks", chunks_},
        {"chunks", chunks_},
        {"gradient.algorithm", algorithm_},
        {"gradient.precision", precision_},
        {"eval_every", evalEvery_},
        {"eval_mode", evalMode_},
        {"input.read", stageCosts_[0]},
        {"input.decode", stageCosts_[1]},
        {"input.augment", stageCosts_[2]},
        {"input.batch", stageCosts_[3]},
        {"input.host_cpu_cores", hostCores_},
        {"framework", framework_},
        {"gradient.overlap", overlap_},
        {"gradient.bucket_MiB", bucket_},
        {"batch_norm_group", batchNormGroup_},
        {"sequence_length", sequenceLength_},
    };
    for (const auto& [prefix, control] : controls) {
        if (field.rfind(prefix, 0) == 0) {
            return control;
        }
    }
    return workload_;
}

void ControlPanel::placeProblemBelow(QWidget* control) {
    if (auto* form = problemBox_->parentWidget()
                         ? qobject_cast<QFormLayout*>(problemBox_->parentWidget()->layout())
                         : nullptr) {
        int row = -1;
        QFormLayout::ItemRole role{};
        form->getWidgetPosition(problemBox_, &row, &role);
        if (row >= 0) {
            const auto taken = form->takeRow(row); // the layout items, not the widget
            delete taken.labelItem;
            delete taken.fieldItem;
        }
    }
    auto* form = qobject_cast<QFormLayout*>(control->parentWidget()->layout());
    int row = -1;
    QFormLayout::ItemRole role{};
    if (form) {
        form->getWidgetPosition(control, &row, &role);
    }
    if (!form || row < 0) {
        return;
    }
    form->insertRow(row + 1, problemBox_);
    problemControl_ = control;
}

void ControlPanel::showProblem(const QString& message) {
    if (message.isEmpty()) {
        problemBox_->setVisible(false);
        problemText_->clear();
        suggested_.reset();
        problemControl_ = nullptr;
        return;
    }
    const ConfigurationProblem problem = explainProblem(shown_, message.toStdString());
    QString text = QString::fromStdString(problem.explanation);
    if (problem.suggestion) {
        text += " " + QString::fromStdString(problem.suggestion->text);
        suggested_ = problem.suggestion->scenario;
        suggestion_->setText(QString::fromStdString(problem.suggestion->action));
    } else {
        suggested_.reset();
    }
    suggestion_->setVisible(problem.suggestion.has_value());
    problemText_->setText(text);
    // Below the control just changed; otherwise (undo, a file, a demo) below the one named.
    QWidget* control =
        lastEdited_ && lastEdited_->isVisibleTo(this) ? lastEdited_ : controlFor(problem.field);
    placeProblemBelow(control);
    problemBox_->setVisible(true);
    // In sight: the panel scrolls to the explanation once it is laid out.
    QTimer::singleShot(0, this, [this] {
        for (QWidget* w = parentWidget(); w; w = w->parentWidget()) {
            if (auto* area = qobject_cast<QScrollArea*>(w)) {
                if (problemControl_) {
                    area->ensureWidgetVisible(problemControl_, 10, 10);
                }
                area->ensureWidgetVisible(problemBox_, 10, 10);
                break;
            }
        }
    });
}

QString ControlPanel::problemShown() const {
    return problemBox_->isHidden() ? QString() : problemText_->text();
}

} // namespace podscope::ui
