// The configuration side of the window, on the offscreen platform (no 3-D view).
#include "widgets/Explorer.hpp"

#include "charts/BatchChart.hpp"
#include "charts/BreakdownChart.hpp"
#include "charts/FigureAxis.hpp"
#include "charts/FigureStyle.hpp"
#include "charts/LayerTimeChart.hpp"
#include "charts/MachinesChart.hpp"
#include "charts/RooflineChart.hpp"
#include "charts/ThroughputChart.hpp"
#include "machine/Machine.hpp"
#include "session/ScenarioDocument.hpp"
#include "settings/ScenarioSettings.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/Presets.hpp"
#include "training/ScenarioJson.hpp"
#include "training/StepModel.hpp"
#include "widgets/ControlPanel.hpp"
#include "widgets/LinkKeyWidget.hpp"
#include "widgets/MainWindow.hpp"
#include "widgets/MemoryBar.hpp"
#include "widgets/WhatIfPanel.hpp"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QFrame>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStackedBarSeries>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QUndoStack>
#include <cmath>

using namespace podscope;
using namespace podscope::ui;

class ExplorerTest : public QObject {
    Q_OBJECT

private:
    void answerUnsavedChangesPrompt(QMessageBox::StandardButton button) {
        QMessageBox* prompt = nullptr;
        QTRY_VERIFY((prompt = window_->findChild<QMessageBox*>("unsavedChangesPrompt")));
        QVERIFY(prompt->button(button));
        prompt->button(button)->click();
        QTRY_VERIFY(!window_->findChild<QMessageBox*>("unsavedChangesPrompt"));
    }

    std::unique_ptr<MainWindow> window_;
    Explorer* explorer_ = nullptr;

    bool waitForAnalysis() {
        QSignalSpy shown(explorer_, &Explorer::analysisShown);
        return shown.wait(20000);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init() {
        window_ =
            std::make_unique<MainWindow>(loadPreset("mlperf07-resnet50-tf-4096").scenario, false);
        explorer_ = window_->explorer();
        QSignalSpy shown(explorer_, &Explorer::analysisShown);
        window_->show();
        QVERIFY(shown.wait(20000));
    }

    void cleanup() { window_.reset(); }

    void changingTheBatchChangesTheCharts() {
        const auto before = explorer_->throughputChart()->modelSeries()->points();
        const auto batchBefore = explorer_->batchChart()->timeSeries()->points();
        QVERIFY(before.size() >= 5);
        QComboBox* batch = explorer_->controls()->globalBatchBox();
        const int smaller = batch->findData(QVariant::fromValue<qlonglong>(16384));
        QVERIFY(smaller >= 0);
        batch->setCurrentIndex(smaller);
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().globalBatch, 16384);
        QVERIFY(explorer_->throughputChart()->modelSeries()->points() != before);
        // A smaller batch on 4096 chips runs less efficiently per core: lower throughput there.
        QVERIFY(explorer_->throughputChart()->modelSeries()->points().back().y() <
                before.back().y());
        // The batch chart marks the current batch and the fastest one.
        QCOMPARE(explorer_->batchChart()->fastestSeries()->count(), 1);
        QVERIFY(explorer_->batchChart()->timeSeries()->points() ==
                batchBefore); // same slice, same sweep
    }

    void everyPresetLoads() {
        for (const std::string& name : presetNames()) {
            explorer_->loadPreset(name);
            QVERIFY2(waitForAnalysis(), name.c_str());
            const TrainingAnalysis* analysis = explorer_->analysis();
            QCOMPARE(analysis->scenario.workload, loadPreset(name).scenario.workload);
            QVERIFY2(!analysis->byChips.empty(), name.c_str());
            QVERIFY2(!analysis->measured.empty(),
                     name.c_str()); // every preset has a measured point
            QVERIFY(explorer_->breakdownChart()->series()->count() ==
                    static_cast<int>(std::size(kBreakdownParts)));
        }
    }

    void saveThenOpenRoundTrips() {
        QTemporaryDir dir;
        const QString file = dir.filePath("run.podscope.json");
        explorer_->loadPreset("mlperf07-transformer-jax-4096");
        QVERIFY(waitForAnalysis());
        const Scenario saved = explorer_->document().scenario();
        QCOMPARE(explorer_->saveFile(file), QString());
        QVERIFY(!explorer_->document().isModified());
        explorer_->loadPreset("mlperf07-gnmt-tf-512");
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->openFile(file), QString());
        QVERIFY(sameScenario(explorer_->document().scenario(), saved));
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->analysis()->scenario.workload, std::string("transformer"));
    }

    void undoRestoresThePreviousState() {
        const Scenario first = explorer_->document().scenario();
        explorer_->loadPreset("mlperf07-bert-jax-4096");
        QVERIFY(waitForAnalysis());
        QVERIFY(!sameScenario(explorer_->document().scenario(), first));
        explorer_->document().undoStack()->undo();
        QVERIFY(sameScenario(explorer_->document().scenario(), first));
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->analysis()->scenario.workload, std::string("resnet50"));
        explorer_->document().undoStack()->redo();
        QCOMPARE(explorer_->document().scenario().workload, std::string("bert"));
    }

    void openModelSetsTheWorkloadToTheFileAsOneUndoStep() {
        const QString config =
            QStringLiteral(PODSCOPE_SOURCE_DIR) + "/tests/data/hf/gpt2/config.json";
        explorer_->loadPreset("mlperf07-bert-jax-4096");
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->openModel(config), QString());
        QCOMPARE(explorer_->document().scenario().workload, config.toStdString());
        QCOMPARE(explorer_->controls()->workloadBox()->currentText(), QString("config.json"));
        QVERIFY(waitForAnalysis());
        // No convergence data: the headline says why there is no time to train.
        const TrainingAnalysis* analysis = explorer_->analysis();
        QVERIFY(!analysis->result.timeToTrainKnown);
        QVERIFY(analysis->result.stepTimeS > 0);
        // The headline names the control to set, short enough for the status bar; the core's
        // whole sentence is its tooltip. The what-ifs compare step times instead.
        QLabel* headline = window_->headline();
        QVERIFY2(headline->text().startsWith("Time to train unknown (set Train steps)"),
                 qPrintable(headline->text()));
        QVERIFY2(headline->toolTip().contains("has no convergence data"),
                 qPrintable(headline->toolTip()));
        WhatIfPanel* whatIfs = explorer_->whatIfPanel();
        QCOMPARE(whatIfs->title(), QString("What if: step time"));
        for (const QString& line : whatIfs->lines()) {
            QVERIFY2(!line.endsWith(": -"), qPrintable(line));
        }
        // Train steps in the panel gives the model a time to train.
        auto* steps = window_->findChild<QDoubleSpinBox*>("train_steps");
        QVERIFY(steps);
        steps->setValue(10000);
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().trainSteps.value_or(0), 10000);
        QVERIFY(explorer_->analysis()->result.timeToTrainKnown);
        QVERIFY2(headline->text().startsWith("Time to train "), qPrintable(headline->text()));
        QVERIFY(!headline->text().contains("unknown"));
        QCOMPARE(whatIfs->title(), QString("What if: time to train"));
        explorer_->document().undoStack()->undo();
        explorer_->document().undoStack()->undo();
        QCOMPARE(explorer_->document().scenario().workload, std::string("bert"));
        // A bad file is refused by name and changes nothing.
        QTemporaryDir dir;
        const QString bad = dir.filePath("mymodel.json");
        QFile out(bad);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(R"({"name": "m", "graph": {"layers": [{"name": "fc", "type": "dense"}]}})");
        out.close();
        const QString problem = explorer_->openModel(bad);
        QVERIFY2(problem.contains("layer 'fc' (index 0): field 'rows' is missing"),
                 qPrintable(problem));
        QCOMPARE(explorer_->document().scenario().workload, std::string("bert"));
    }

    void aBadFileIsRefusedAndNothingChanges() {
        QTemporaryDir dir;
        const QString file = dir.filePath("bad.podscope.json");
        QFile out(file);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(
            "{\n  \"preset\": \"mlperf07-resnet50-tf-4096\",\n  \"global_batch\": \"lots\"\n}\n");
        out.close();
        const Scenario before = explorer_->document().scenario();
        const QString problem = explorer_->openFile(file);
        QVERIFY2(problem.contains("global_batch"), qPrintable(problem));
        QVERIFY(sameScenario(explorer_->document().scenario(), before));
        QVERIFY(explorer_->document().path() != file);
    }

    void anImpossibleCombinationIsExplainedNotClamped() {
        const auto before = explorer_->throughputChart()->modelSeries()->points();
        Scenario impossible = explorer_->document().scenario();
        impossible.globalBatch = 1000; // 8192 replicas cannot share 1000 examples
        QSignalSpy failed(explorer_, &Explorer::analysisFailed);
        explorer_->document().edit(impossible, "global batch 1000");
        QVERIFY(failed.wait(20000));
        QVERIFY2(explorer_->controls()->problemShown().contains("batch"),
                 qPrintable(explorer_->controls()->problemShown()));
        QCOMPARE(explorer_->document().scenario().globalBatch, 1000); // kept as typed, not clamped
        QVERIFY(explorer_->throughputChart()->modelSeries()->points() ==
                before); // charts keep the last valid one
    }

    void theAutosaveOutlivesACrashAndRestores() {
        Explorer::removeAutosave();
        Scenario changed = explorer_->document().scenario();
        changed.globalBatch = 16384;
        explorer_->document().edit(changed, "global batch 16384");
        QTRY_VERIFY_WITH_TIMEOUT(Explorer::hasUnsavedSession(),
                                 5000); // written shortly after the edit
        window_.reset();                // the process "dies": no close event, so the autosave stays
        QVERIFY(Explorer::hasUnsavedSession());

        init(); // the next session starts on the default configuration...
        QCOMPARE(explorer_->document().scenario().globalBatch, 65536);
        QCOMPARE(explorer_->restoreAutosave(), QString()); // ...and the user restores
        QCOMPARE(explorer_->document().scenario().globalBatch, 16384);
        window_->close(); // restored changes are unsaved: the window asks first
        answerUnsavedChangesPrompt(QMessageBox::Discard);
        QVERIFY(!Explorer::hasUnsavedSession()); // a clean exit removes the autosave
    }

    // The tooltip names the data point nearest the pointer, not the pointer's place on the line
    // ("996.427 chips, 6.826e+04 examples/s" was the pointer just left of 1024 chips).
    void hoveringTheScalingLineNamesTheNearestPoint() {
        const ThroughputChart* chart = explorer_->throughputChart();
        const QList<QPointF> points = chart->modelSeries()->points();
        const FigureAxis& x = chart->chipsAxis();
        int at = -1;
        for (int i = 0; i + 1 < points.size(); ++i) {
            if (std::lround(x.fromAxis(points[i].x())) == 1024) {
                at = i;
            }
        }
        QVERIFY2(at >= 0, "the scaling line has a 1024-chip point");
        const QPointF hovered = points[at] + 0.2 * (points[at + 1] - points[at]);
        const QStringList lines = valuesAtNearestPoint(*chart->modelSeries(), hovered, x, "chips",
                                                       chart->throughputAxis(), "examples/s")
                                      .split('\n');
        QCOMPARE(lines.size(), 3);
        QCOMPARE(lines[1], QString("1,024 chips"));
        QCOMPARE(lines[2],
                 readableNumber(chart->throughputAxis().fromAxis(points[at].y())) + " examples/s");
        QVERIFY2(
            QRegularExpression("^[0-9]{1,3}(,[0-9]{3})+ examples/s$").match(lines[2]).hasMatch(),
            qPrintable(lines[2]));
    }

    // Issue 23: every chart in the window answers a hover at a data point with that point's
    // values, numbers and units (the batch, layers and roofline charts had none). Each series with
    // data is hovered at its first point (a bar series at its first bar); every chart must show a
    // tooltip with a number for at least one of its series, and none may show an empty one.
    void everyChartShowsValuesAtItsDataPoints() {
        explorer_->showChart(ChartKind::Roofline); // builds the Layers tab's charts too
        const QList<QChartView*> views = window_->findChildren<QChartView*>();
        const QRegularExpression number("[0-9]");
        int chartsWithData = 0;
        for (QChartView* view : views) {
            const QString title =
                view->chart()->title().isEmpty() ? view->objectName() : view->chart()->title();
            int answered = 0;
            bool hasData = false;
            for (QAbstractSeries* series : view->chart()->series()) {
                QToolTip::hideText();
                bool hovered = false;
                if (auto* xy = qobject_cast<QXYSeries*>(series); xy && xy->count() > 0) {
                    emit xy->hovered(xy->at(0), true);
                    hovered = true;
                } else if (auto* area = qobject_cast<QAreaSeries*>(series);
                           area && area->upperSeries() && area->upperSeries()->count() > 0) {
                    emit area->hovered(area->upperSeries()->at(0), true);
                    hovered = true;
                } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series);
                           bars && bars->count() > 0 && bars->barSets().front()->count() > 0) {
                    emit bars->hovered(true, 0, bars->barSets().front());
                    hovered = true;
                }
                hasData = hasData || hovered;
                if (!hovered || !QToolTip::isVisible()) {
                    continue;
                }
                const QString text = QToolTip::text();
                QVERIFY2(!text.trimmed().isEmpty(), qPrintable(title + ": " + series->name()));
                answered += text.contains(number) ? 1 : 0;
            }
            // A chart with nothing drawn yet (the link chart before a replay) has no point to
            // hover.
            QVERIFY2(answered > 0 || !hasData, qPrintable(title + " shows no values on hover"));
            chartsWithData += hasData ? 1 : 0;
        }
        QToolTip::hideText();
        // Scaling, batch, breakdown, layer times and roofline at least.
        QVERIFY2(chartsWithData >= 5, qPrintable(QString::number(chartsWithData)));
    }

    // Issue 20: the Machines tab compares the configuration on every machine (podscope-cli
    // compare): one column per machine, the configuration's own machine at 1, each other one
    // at its own simulated step over the own machine's (on copies of a smaller slice over the
    // DCN where its pods are smaller, named in the caption), and a machine that is refused
    // marked, with no bars, and named in the caption.
    void theMachinesTabComparesEveryMachineRelativeToItsOwn() {
        explorer_->showChart(ChartKind::Machines);
        QCOMPARE(explorer_->chartTabs()->tabText(explorer_->chartTabs()->currentIndex()),
                 QString("Machines"));
        QVERIFY(explorer_->currentChart() == ChartKind::Machines);
        const auto check = [&](const std::string& own) {
            MachinesChart* chart = explorer_->machinesChart();
            const MachinesFigure& figure = chart->figure();
            QCOMPARE(figure.ownMachine, own);
            QCOMPARE(figure.machines.size(), machineNames().size());
            const QList<QBarSet*> sets = chart->series()->barSets();
            QCOMPARE(sets.size(), 3);
            const Scenario base = explorer_->analysis()->scenario;
            const double ownStep = explorer_->analysis()->result.stepTimeS;
            for (std::size_t i = 0; i < figure.machines.size(); ++i) {
                const auto& m = figure.machines[i];
                const auto column = static_cast<qsizetype>(i);
                Scenario there = base;
                there.hardware = m.name;
                const auto counts = standardChipCounts(m.name);
                const std::int64_t chips = explorer_->analysis()->result.chips;
                if (std::find(counts.begin(), counts.end(), chips) == counts.end()) {
                    // Smaller pods: copies of a standard slice over the DCN, or refused (no
                    // slice divides the chips, or no DCN bandwidth stated) with no bars.
                    if (!m.refusal.empty()) {
                        QCOMPARE(sets[0]->at(column), 0.0);
                        QVERIFY(caption(figure).find("No bars for " + m.name) != std::string::npos);
                        continue;
                    }
                    QVERIFY2(m.slices > 1 && chips % m.slices == 0, m.name.c_str());
                    useStandardSlice(there, chips / m.slices);
                    there.slices = m.slices;
                    QCOMPARE(there.topology, m.slice);
                    QVERIFY(caption(figure).find(m.name + " runs " + std::to_string(m.slices) +
                                                 " slices of " + m.slice) != std::string::npos);
                    // The column is starred, and the axis title says what the star means.
                    QVERIFY(chart->categories()->at(column).endsWith("*"));
                    QVERIFY(chart->categories()->titleText().contains("* multislice"));
                } else {
                    QCOMPARE(m.slices, 1);
                    useStandardSlice(there, chips);
                }
                const double step = simulateTraining(there).stepTimeS;
                QVERIFY2(std::abs(sets[0]->at(column) - step / ownStep) < 1e-9, m.name.c_str());
                if (m.name == own) {
                    for (QBarSet* set : sets) {
                        QCOMPARE(set->at(column), 1.0);
                    }
                }
            }
        };
        check("tpu-v3");
        // Another machine's configuration: the chart is relative to it.
        Scenario v4 = explorer_->document().scenario();
        v4.hardware = "tpu-v4";
        useStandardSlice(v4, 256);
        v4.globalBatch = 8192;
        explorer_->document().edit(v4, "tpu-v4");
        QVERIFY(waitForAnalysis());
        check("tpu-v4");
    }

    // Quitting with unsaved changes asks; Cancel keeps the window and the changes, Discard
    // closes. An unchanged configuration closes without asking.
    void quittingWithUnsavedChangesAsksFirst() {
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
        QVERIFY(window_->close()); // nothing changed: closes at once
        QVERIFY(!window_->findChild<QMessageBox*>("unsavedChangesPrompt"));

        window_->show();
        Scenario changed = explorer_->document().scenario();
        changed.globalBatch = 16384;
        explorer_->document().edit(changed, "global batch 16384");
        QVERIFY(!window_->close());
        answerUnsavedChangesPrompt(QMessageBox::Cancel);
        QVERIFY(window_->isVisible());
        QCOMPARE(explorer_->document().scenario().globalBatch, 16384);

        QVERIFY(!window_->close()); // asked again: Cancel decided nothing for later
        answerUnsavedChangesPrompt(QMessageBox::Discard);
        QTRY_VERIFY(!window_->isVisible());
    }

    void everySettingOfThePanelReachesTheModel() {
        const double base = explorer_->analysis()->result.stepTimeS;
        auto stepWith = [&](auto change) {
            Scenario s = loadPreset("mlperf07-resnet50-tf-4096").scenario;
            change(s);
            explorer_->document().edit(s, "test");
            if (!waitForAnalysis()) {
                return -1.0;
            }
            return explorer_->analysis()->result.stepTimeS;
        };
        QVERIFY(stepWith([](Scenario& s) { s.linkLatencyUs = 50; }) > base); // 127 hops along X
        QVERIFY(stepWith([](Scenario& s) { s.gradient.dimOrder = "xy"; }) >
                base); // folded X first: slower
        QVERIFY(stepWith([](Scenario& s) { s.crossPodBandwidthGBps = 5; }) >
                base); // X crosses 3 pod seams
        QVERIFY(stepWith([](Scenario& s) { s.evalEveryEpochs = 1; }) > base); // more evaluations
        QVERIFY(stepWith([](Scenario& s) {
                    s.input.decodedCache = false;
                    s.inputCost.decodeS = 0.05; // 50 ms per image: input-bound
                }) > 2 * base);
        QCOMPARE(QString::fromStdString(explorer_->analysis()->result.bottleneck),
                 QString("input"));
        // The panel shows what the document holds, and reading it back changes nothing.
        QCOMPARE(explorer_->document().scenario().inputCost.decodeS.value_or(0), 0.05);
    }

    // Issue 20: the key of the link kinds follows the machine and the slices: a v4 slice of full
    // cubes names its optical links, a v3 pod its wrap-around, four v5e slices their DCN.
    void theLinkKeyNamesTheLinksTheViewDraws() {
        const auto labels = [this] {
            QStringList out;
            for (const LinkKeyEntry& entry : window_->linkKey()->key()) {
                out << QString::fromStdString(entry.label);
            }
            return out;
        };
        // The v3 multipod: a plain torus, whose key would say nothing the view does not.
        QTRY_COMPARE(labels(), (QStringList{"ICI link", "wrap-around"}));
        QVERIFY(window_->linkKey()->isHidden());
        Scenario v4 = explorer_->document().scenario();
        v4.hardware = "tpu-v4";
        useStandardSlice(v4, 128);
        v4.globalBatch = 4096;
        explorer_->document().edit(v4, "tpu-v4");
        QVERIFY(waitForAnalysis());
        QTRY_COMPARE(labels(), (QStringList{"in a 4x4x4 cube (electrical)", "between cubes (optical)",
                                            "wrap-around (optical)"}));
        QVERIFY(!window_->linkKey()->isHidden());
        Scenario v5e = v4;
        v5e.hardware = "tpu-v5e";
        useStandardSlice(v5e, 256);
        v5e.slices = 4;
        explorer_->document().edit(v5e, "tpu-v5e");
        QVERIFY(waitForAnalysis());
        QTRY_VERIFY(!labels().isEmpty() && labels().back() == "DCN, one per host");
    }

    // Issue 20: the slices and the DCN bandwidth are rows of the panel, from the settings table;
    // more slices at the same global batch change the step (less compute per replica, a DCN
    // stage in the gradient sum), and the DCN bandwidth is the machine's until given.
    void slicesAndDcnBandwidthFromThePanelReachTheModel() {
        Scenario s = loadPreset("mlperf07-resnet50-tf2-16").scenario;
        s.hardware = "tpu-v5e";
        s.topology = "4x4";
        s.wrap.reset();
        explorer_->document().edit(s, "test");
        QVERIFY(waitForAnalysis());
        const TrainingResult one = explorer_->analysis()->result;
        QCOMPARE(one.slices, 1);
        ControlPanel* panel = explorer_->controls();
        auto* slices = qobject_cast<QSpinBox*>(panel->control("slices"));
        auto* dcn = qobject_cast<QDoubleSpinBox*>(panel->control("dcn_bandwidth_GBps"));
        QVERIFY(slices && dcn);
        QCOMPARE(slices->text(), QString("1 slice"));
        QVERIFY(!dcn->isEnabled());   // it matters only across slices
        QCOMPARE(dcn->value(), 25.0); // the machine file's, shown while unset

        slices->setValue(4);
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().slices, 4);
        const TrainingResult four = explorer_->analysis()->result;
        QCOMPARE(four.slices, 4);
        QCOMPARE(four.chips, 4 * one.chips);
        QCOMPARE(four.replicasPerSlice, static_cast<std::int64_t>(one.plan.replicas));
        QVERIFY(four.dcnSyncS > 0);
        QVERIFY2(std::abs(four.stepTimeS - one.stepTimeS) > 0.01 * one.stepTimeS,
                 qPrintable(QString("%1 s and %2 s").arg(four.stepTimeS).arg(one.stepTimeS)));
        QVERIFY(dcn->isEnabled());
        QVERIFY(!explorer_->document().scenario().dcnBandwidthGBps); // still the machine's

        dcn->setValue(12.5);
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().dcnBandwidthGBps.value_or(0), 12.5);
        const TrainingResult slow = explorer_->analysis()->result;
        // Bandwidth-bound: half the bandwidth, about twice the DCN stage and a longer step.
        QVERIFY(std::abs(slow.dcnSyncS / four.dcnSyncS - 2) < 0.05);
        QVERIFY(slow.stepTimeS > four.stepTimeS);
        explorer_->document().undoStack()->undo();
        QVERIFY(waitForAnalysis());
        QVERIFY(!explorer_->document().scenario().dcnBandwidthGBps);
        QCOMPARE(dcn->value(), 25.0);
    }

    // Issue 23: kind "none" on a replica of several cores takes the workload's split, as
    // podscope-cli --model-parallel 4 --model-parallel-kind none does, in either order of edits.
    void aReplicaOfSeveralCoresWithNoKindTakesTheWorkloadsSplitAsInTheCli() {
        ControlPanel* panel = explorer_->controls();
        auto* degree = qobject_cast<QComboBox*>(panel->control("model_parallel.degree"));
        auto* kind = qobject_cast<QComboBox*>(panel->control("model_parallel.kind"));
        QVERIFY(degree && kind);
        const auto pick = [](QComboBox* box, const QString& text) {
            for (int i = 0; i < box->count(); ++i) {
                if (box->itemData(i).toString() == text) {
                    box->setCurrentIndex(i);
                    return true;
                }
            }
            return false;
        };
        const TrainingResult dataParallel = explorer_->analysis()->result;
        QVERIFY(pick(degree, "4"));
        QVERIFY(waitForAnalysis());
        QCOMPARE(kind->currentData().toString(), QString("spatial")); // the degree named it
        QSignalSpy failed(explorer_, &Explorer::analysisFailed);
        QVERIFY(pick(kind, "none")); // then none is chosen
        QVERIFY2(waitForAnalysis(), qPrintable(QString("failed %1: %2, kind %3")
                                                   .arg(failed.count())
                                                   .arg(panel->problemShown())
                                                   .arg(kind->currentText())));
        QCOMPARE(failed.count(), 0);
        QVERIFY2(panel->problemShown().isEmpty(), qPrintable(panel->problemShown()));
        const TrainingResult none = explorer_->analysis()->result;
        Scenario cli = loadPreset("mlperf07-resnet50-tf-4096").scenario;
        cli.modelParallel = 4;
        cli.modelParallelKind = ModelParallelKind::Spatial; // ResNet-50's only split
        QCOMPARE(none.plan.modelParallel, 4);
        QVERIFY(none.plan.kind == ModelParallelKind::Spatial);
        QCOMPARE(none.stepTimeS, simulateTraining(cli).stepTimeS);
        QVERIFY(none.stepTimeS != dataParallel.stepTimeS);
    }

    // Issue 15: a configuration the model refuses is explained under the control just edited,
    // in the panel's words, with a value that works; the charts say they show the last valid
    // result until the configuration is valid again.
    void aRefusalIsExplainedAtTheEditedControlWithASuggestion() {
        // A small window: the panel scrolls, and using the suggestion must keep its place.
        window_->resize(1024, 768);
        ControlPanel* panel = explorer_->controls();
        QScrollArea* area = nullptr;
        for (QWidget* w = panel->parentWidget(); w && !area; w = w->parentWidget()) {
            area = qobject_cast<QScrollArea*>(w);
        }
        QVERIFY(area);
        QLineEdit* grid = panel->customGridEdit();
        QSignalSpy failed(explorer_, &Explorer::analysisFailed);
        grid->setFocus();
        QTest::keyClicks(grid, "6x6"); // 36 chips: 72 replicas cannot share 65536 examples
        QTest::keyClick(grid, Qt::Key_Return);
        QVERIFY(failed.wait(20000));
        const QString problem = panel->problemShown();
        QVERIFY2(problem.startsWith("Global batch: "), qPrintable(problem));
        QVERIFY2(!problem.contains(QRegularExpression("[a-z]_[a-z]")),
                 qPrintable(problem)); // no field names
        // Right below the grid field, in its group, and in sight.
        QCOMPARE(panel->problemControl(), static_cast<QWidget*>(grid));
        auto* form = qobject_cast<QFormLayout*>(grid->parentWidget()->layout());
        QVERIFY(form);
        int gridRow = -1, boxRow = -1;
        QFormLayout::ItemRole role{};
        form->getWidgetPosition(grid, &gridRow, &role);
        form->getWidgetPosition(panel->problemBox(), &boxRow, &role);
        QCOMPARE(boxRow, gridRow + 1);
        QTRY_VERIFY(!panel->problemBox()->visibleRegion().isEmpty());
        // The suggestion: the nearest batch that divides over the 72 replicas and fits in HBM
        // (65520: 910 images per core fit in 16 GiB by recomputing some layers).
        QVERIFY(panel->suggestionButton()->isVisible());
        const QString suggested = panel->suggestionButton()->text().mid(4);
        QVERIFY(panel->suggestionButton()->text().startsWith("Use "));
        QCOMPARE(suggested.toLongLong() % 72, 0);
        QCOMPARE(suggested.toLongLong(), 65520LL);
        QVERIFY(problem.contains(suggested));
        // The charts and the headline say they show the last valid result.
        QVERIFY(explorer_->showingStaleResult());
        QVERIFY(!explorer_->staleMark()->visibleRegion().isEmpty());
        QVERIFY(window_->showsStaleMark());
        QVERIFY(window_->headline()->text().startsWith("Last valid result"));
        QCOMPARE(explorer_->analysis()->scenario.globalBatch, 65536); // what the charts still show
        // Using it: valid again, the grid kept, the marks gone, and the panel where it was (it
        // once jumped to the top as the button that had the focus was hidden).
        QTRY_VERIFY(!grid->visibleRegion().isEmpty());
        const int scrolledTo = area->verticalScrollBar()->value();
        panel->suggestionButton()->setFocus();
        panel->suggestionButton()->click();
        QVERIFY(waitForAnalysis());
        QTest::qWait(50); // a deferred scroll would land by now
        QVERIFY2(!grid->visibleRegion().isEmpty(),
                 qPrintable(QString("scrolled from %1 to %2")
                                .arg(scrolledTo)
                                .arg(area->verticalScrollBar()->value())));
        QVERIFY(area->verticalScrollBar()->value() >=
                scrolledTo - panel->problemBox()->sizeHint().height());
        QCOMPARE(explorer_->document().scenario().globalBatch, suggested.toLongLong());
        QCOMPARE(explorer_->document().scenario().topology, std::string("6x6"));
        QVERIFY(panel->problemShown().isEmpty());
        QVERIFY(!explorer_->showingStaleResult());
        QVERIFY(!window_->showsStaleMark());
        QVERIFY(!window_->headline()->text().startsWith("Last valid result"));
        // One undo step takes the suggestion back (to the refused configuration, explained again).
        QSignalSpy refusedAgain(explorer_, &Explorer::analysisFailed);
        explorer_->document().undoStack()->undo();
        QVERIFY(refusedAgain.wait(20000));
        QCOMPARE(explorer_->document().scenario().globalBatch, 65536);
        QVERIFY(panel->problemShown().startsWith("Global batch: "));
    }

    // Issue 12: a batch that does not fit in HBM stays on offer, marked; picking it is refused
    // under the batch control with the numbers and a batch that fits, and the memory bar shows
    // what it would need.
    void aBatchThatDoesNotFitInHbmIsExplainedAtTheBatchControl() {
        explorer_->loadPreset("mlperf07-bert-jax-4096");
        QVERIFY(waitForAnalysis());
        ControlPanel* panel = explorer_->controls();
        QComboBox* batch = panel->globalBatchBox();
        int tooLarge = -1;
        for (int i = 0; i < batch->count() && tooLarge < 0; ++i) {
            if (batch->itemText(i).endsWith("(does not fit in HBM)")) {
                tooLarge = i;
            }
        }
        QVERIFY(tooLarge >= 0);
        QVERIFY(batch->itemData(tooLarge, Qt::ToolTipRole).toString().contains("has 16.0 GiB"));
        QSignalSpy failed(explorer_, &Explorer::analysisFailed);
        batch->setCurrentIndex(tooLarge);
        QVERIFY(failed.wait(20000));
        const QString problem = panel->problemShown();
        QVERIFY2(problem.startsWith("Global batch: needs "), qPrintable(problem));
        QVERIFY2(
            problem.contains(QRegularExpression("needs [0-9.]+ GiB of HBM per core, has 16.0 GiB")),
            qPrintable(problem));
        QVERIFY2(!problem.contains("same whole number"), qPrintable(problem));
        QCOMPARE(panel->problemControl(), static_cast<QWidget*>(batch));
        QVERIFY(panel->suggestionButton()->isVisible());
        const qlonglong suggested = panel->suggestionButton()->text().mid(4).toLongLong();
        QVERIFY(suggested > 0 && suggested < batch->itemData(tooLarge).toLongLong());
        // The memory bar: over the capacity, in red words.
        MemoryBar* memory = explorer_->memoryBar();
        QVERIFY(memory->memory() && !memory->memory()->fits());
        QVERIFY2(memory->summary().contains("does not fit"), qPrintable(memory->summary()));
        panel->suggestionButton()->click();
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().globalBatch, suggested);
        QVERIFY(memory->memory()->fits());
    }

    // Issue 12: the memory bar is the step plan's memory, part by part, against the capacity.
    void theMemoryBarShowsThePlansHbmUse() {
        const MemoryUse& m = explorer_->analysis()->result.memory;
        MemoryBar* memory = explorer_->memoryBar();
        QVERIFY(memory->memory());
        double sum = 0;
        QStringList labels;
        for (const auto& part : memory->parts()) {
            sum += part.bytes;
            labels << QString::fromStdString(part.label);
        }
        QCOMPARE(sum, m.total());
        QCOMPARE(labels, QStringList({"weights", "gradients", "optimizer state", "activations",
                                      "workspace"}));
        QCOMPARE(memory->memory()->capacity, 16.0 * 1024 * 1024 * 1024);
        QVERIFY2(memory->summary().contains(QRegularExpression("^[0-9.]+ GiB of 16.0 GiB used")),
                 qPrintable(memory->summary()));
        QVERIFY(memory->legendText().contains("activations&nbsp;"));
        // In the configuration panel, under the parallelism settings, in sight when scrolled to.
        QVERIFY(explorer_->controls()->isAncestorOf(memory));
        QScrollArea* scroll = nullptr;
        for (QWidget* w = memory->parentWidget(); w && !scroll; w = w->parentWidget()) {
            scroll = qobject_cast<QScrollArea*>(w);
        }
        QVERIFY(scroll);
        scroll->ensureWidgetVisible(memory);
        QTRY_VERIFY(!memory->visibleRegion().isEmpty());
    }

    // Issue 12: the new scenario fields have controls; each change is an undo step, and undo
    // restores both the document and the control.
    void theGradientOverlapBucketBatchNormAndSequenceControlsRoundTrip() {
        ControlPanel* panel = explorer_->controls();
        const Scenario first = explorer_->document().scenario();
        const double exposedBefore = explorer_->analysis()->result.breakdown.gradientSyncExposed;
        QVERIFY(first.gradient.overlap == GradientOverlap::AfterBackward);
        QVERIFY(!panel->bucketBox()->isEnabled()); // only for bucketed overlap
        panel->overlapBox()->setCurrentIndex(panel->overlapBox()->findData(QString("bucketed")));
        QVERIFY(waitForAnalysis());
        QVERIFY(explorer_->document().scenario().gradient.overlap == GradientOverlap::Bucketed);
        QVERIFY(panel->bucketBox()->isEnabled());
        // Overlapping the sum with the backward pass exposes no more of it.
        QVERIFY(explorer_->analysis()->result.breakdown.gradientSyncExposed <= exposedBefore);
        panel->bucketBox()->setValue(8);
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().gradient.bucketMiB, 8.0);
        // ResNet has batch norm: groups are powers of two up to the replicas; the preset's 8.
        QComboBox* group = panel->batchNormGroupBox();
        QVERIFY(group->isEnabled());
        QCOMPARE(group->currentData().toInt(), 8);
        group->setCurrentIndex(group->findData(16));
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().batchNormGroup.value_or(0), 16);
        // ResNet has no sequence.
        QVERIFY(!panel->sequenceLengthBox()->isEnabled());
        QUndoStack* undo = explorer_->document().undoStack();
        undo->undo();
        QCOMPARE(explorer_->document().scenario().batchNormGroup.value_or(0), 8);
        QCOMPARE(group->currentData().toInt(), 8);
        undo->undo();
        QCOMPARE(explorer_->document().scenario().gradient.bucketMiB, first.gradient.bucketMiB);
        QCOMPARE(panel->bucketBox()->value(), first.gradient.bucketMiB);
        undo->undo();
        QVERIFY(sameScenario(explorer_->document().scenario(), first));
        QCOMPARE(panel->overlapBox()->currentData().toString(), QString("after-backward"));
        QVERIFY(!panel->bucketBox()->isEnabled());
        QVERIFY(waitForAnalysis());

        // BERT: a sequence length (its default, 512, unset in the file) and no batch norm.
        explorer_->loadPreset("mlperf07-bert-jax-4096");
        QVERIFY(waitForAnalysis());
        QSpinBox* length = panel->sequenceLengthBox();
        QVERIFY(length->isEnabled());
        QCOMPARE(length->value(), 512);
        QVERIFY(!explorer_->document().scenario().sequenceLength);
        QVERIFY(!group->isEnabled());
        const double computeAt512 = explorer_->analysis()->result.breakdown.compute;
        length->setValue(384);
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->document().scenario().sequenceLength.value_or(0), 384);
        QVERIFY(explorer_->analysis()->result.breakdown.compute < computeAt512);
        undo->undo();
        QVERIFY(!explorer_->document().scenario().sequenceLength);
        QCOMPARE(length->value(), 512);
        QVERIFY(waitForAnalysis());
        // Another model: the length goes with it (ResNet would refuse one).
        length->setValue(256);
        QVERIFY(waitForAnalysis());
        panel->workloadBox()->setCurrentText("resnet50");
        QVERIFY(waitForAnalysis());
        QVERIFY(!explorer_->document().scenario().sequenceLength);
    }

    // Issue 22: the panel is built from the settings table: each setting with a panel row has a
    // control, and changing it is one undo step of that setting alone, which undo takes back
    // (the document and the control).
    void eachControlOfTheTableIsOneUndoableEdit() {
        ControlPanel* panel = explorer_->controls();
        QUndoStack* undo = explorer_->document().undoStack();
        int controls = 0;
        for (const Setting& setting : scenarioSettings()) {
            if (setting.panel.control == PanelControl::None) {
                continue;
            }
            const QString key =
                QString::fromUtf8(setting.key.data(), static_cast<qsizetype>(setting.key.size()));
            QWidget* control = panel->control(setting.key);
            QVERIFY2(control, qPrintable(key));
            ++controls;
            auto* box = qobject_cast<QComboBox*>(control);
            if (!control->isEnabled() || (box && box->count() < 2)) {
                continue; // bucket size (after-backward), sequence length (ResNet), one machine
            }
            auto state = [&] {
                if (box) {
                    return box->currentText();
                }
                if (auto* check = qobject_cast<QCheckBox*>(control)) {
                    return QString::number(check->isChecked());
                }
                if (auto* spin = qobject_cast<QAbstractSpinBox*>(control)) {
                    return spin->text();
                }
                return qobject_cast<QLineEdit*>(control)->text();
            };
            const Scenario before = explorer_->document().scenario();
            const QString shown = state();
            const int steps = undo->index();
            if (box) {
                box->setCurrentIndex((box->currentIndex() + 1) % box->count());
            } else if (auto* check = qobject_cast<QCheckBox*>(control)) {
                check->toggle();
            } else if (auto* spin = qobject_cast<QSpinBox*>(control)) {
                spin->setValue(spin->value() < spin->maximum() ? spin->value() + 1
                                                               : spin->value() - 1);
            } else if (auto* decimal = qobject_cast<QDoubleSpinBox*>(control)) {
                decimal->setValue(decimal->value() + decimal->singleStep());
            } else {
                auto* edit = qobject_cast<QLineEdit*>(control);
                edit->setText(QString::fromUtf8(setting.example.data(),
                                                static_cast<qsizetype>(setting.example.size())));
                emit edit->editingFinished();
            }
            QVERIFY2(undo->index() == steps + 1, qPrintable(key));
            const Scenario after = explorer_->document().scenario();
            QVERIFY2(!sameScenario(after, before), qPrintable(key));
            QVERIFY2(setting.read(after) != setting.read(before) || setting.key == "chips",
                     qPrintable(key));
            undo->undo();
            QVERIFY2(sameScenario(explorer_->document().scenario(), before), qPrintable(key));
            QVERIFY2(state() == shown, qPrintable(key + ": " + state() + " / " + shown));
        }
        QVERIFY(controls >= 25);
    }

    // Issue 12: the Layers tab shows podscope-cli layers' table as bars and a roofline.
    void theLayersTabShowsTheLayerTimesAndTheRoofline() {
        explorer_->showChart(ChartKind::Roofline);
        QCOMPARE(explorer_->chartTabs()->tabText(explorer_->chartTabs()->currentIndex()),
                 QString("Layers"));
        QVERIFY(explorer_->currentChart() == ChartKind::Layers);
        const TrainingAnalysis* analysis = explorer_->analysis();
        // ResNet-50: 53 convolutions, the max-pool, the average pool, fc, the loss and the
        // infeed's relayout.
        QCOMPARE(analysis->layers.size(), std::size_t(58));
        QCOMPARE(explorer_->layerTimeChart()->figure().layers.size(), std::size_t(58));
        QCOMPARE(explorer_->rooflineChart()->figure().layers.size(), std::size_t(58));
        // The charts' viewports (the views themselves are covered by them).
        QTRY_VERIFY(!explorer_->layerTimeChart()->viewport()->visibleRegion().isEmpty());
        QTRY_VERIFY(!explorer_->rooflineChart()->viewport()->visibleRegion().isEmpty());
        explorer_->loadPreset("mlperf07-bert-jax-4096");
        QVERIFY(waitForAnalysis());
        QCOMPARE(explorer_->layerTimeChart()->figure().layers.size(), std::size_t(179));
    }

    void theWhatIfsOfTheCliShowInTheWindow() {
        WhatIfPanel* panel = explorer_->whatIfPanel();
        const auto expected = whatIfs(explorer_->document().scenario());
        const QStringList lines = panel->lines();
        QCOMPARE(lines.size(), static_cast<qsizetype>(expected.size()));
        QCOMPARE(lines.size(), 3); // link bandwidth, cache, weight-update sharding
        const TrainingResult& now = explorer_->analysis()->result;
        for (std::size_t i = 0; i < expected.size(); ++i) {
            const double change =
                100.0 * (expected[i].result.timeToTrainS - now.timeToTrainS) / now.timeToTrainS;
            const QString percent =
                QString::number(std::abs(change), 'f', std::abs(change) < 10 ? 1 : 0);
            QVERIFY2(
                lines[static_cast<qsizetype>(i)].endsWith(": " +
                                                          QString(change < -0.05  ? "−"
                                                                  : change > 0.05 ? "+"
                                                                                  : "") +
                                                          percent + QString("\u00a0%")),
                qPrintable(lines[static_cast<qsizetype>(i)] + " / " + QString::number(change)));
        }
        // Try applies the what-if as an edit of its own.
        const auto buttons = panel->findChildren<QPushButton*>();
        QCOMPARE(buttons.size(), 3);
        const int sharding =
            static_cast<int>(std::find_if(expected.begin(), expected.end(),
                                          [](const WhatIf& w) { return w.key == "wus_off"; }) -
                             expected.begin());
        QVERIFY(sharding < 3);
        QVERIFY(lines[sharding].startsWith("Weight-update sharding off"));
        for (QPushButton* button : buttons) {
            if (button->toolTip().contains("weight-update sharding off")) {
                button->click();
            }
        }
        QVERIFY(waitForAnalysis());
        QVERIFY(!explorer_->document().scenario().weightUpdateSharding);
        QCOMPARE(explorer_->analysis()->result.timeToTrainS,
                 expected[static_cast<std::size_t>(sharding)].result.timeToTrainS);
        QVERIFY(panel->lines()[sharding].startsWith(
            "Weight-update sharding on")); // the what-ifs of the new one
    }

    void pinningABaselineShowsDeltas() {
        explorer_->pinBaseline();
        QVERIFY(explorer_->deltas().contains("+0.0 %"));
        Scenario doubled = explorer_->document().scenario();
        doubled.linkBandwidthGBps = 164;
        explorer_->document().edit(doubled, "link bandwidth");
        QVERIFY(waitForAnalysis());
        QVERIFY2(explorer_->deltas().contains("time to train -"), qPrintable(explorer_->deltas()));
    }
};

QTEST_MAIN(ExplorerTest)
#include "ExplorerTest.moc"
