// Tools > Find the fastest... (issue 14): the results model passes Qt's model checks and sorts
// by number, the search runs off the UI thread and can be cancelled, and Apply is one undoable
// change of the document.
#include "widgets/TuneDialog.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/ParetoChart.hpp"
#include "search/Search.hpp"
#include "session/ScenarioDocument.hpp"
#include "training/Presets.hpp"
#include "training/StepModel.hpp"
#include "widgets/TuneResultsModel.hpp"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QFont>
#include <QImage>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <algorithm>

using namespace podscope;
using namespace podscope::ui;

namespace {

constexpr int kSearchTimeoutMs = 300000;

search::TuneReport smallReport(search::Objective objective) {
    search::SpaceRequest request;
    request.base = loadPreset("mlperf07-resnet50-tf2-16").scenario;
    request.chips = {16, 32};
    const search::SearchSpace space(request);
    search::SearchOptions options;
    options.objective = objective;
    options.keep = 13;
    search::TuneSettings settings;
    settings.objective = objective;
    settings.top = 12;
    return search::buildTuneReport(space, search::runSearch(space, options), settings);
}

// The proxy's rows in a column's sort role, top to bottom.
std::vector<double> columnValues(const QSortFilterProxyModel& proxy, int column) {
    std::vector<double> values;
    for (int row = 0; row < proxy.rowCount(); ++row) {
        values.push_back(proxy.index(row, column).data(Qt::UserRole).toDouble());
    }
    return values;
}

} // namespace

class TuneDialogTest : public QObject {
    Q_OBJECT

private slots:
    void modelPassesTheItemModelTesterAndSortsByNumber() {
        TuneResultsModel model;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(&model);
        proxy.setSortRole(Qt::UserRole);
        QAbstractItemModelTester tester(&model,
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);

        const search::TuneReport report = smallReport(search::Objective::Throughput);
        model.setReport(report);
        QCOMPARE(model.rowCount(), static_cast<int>(report.top.size()));
        QVERIFY(model.rowCount() >= 2);
        QCOMPARE(model.columnCount(), TuneResultsModel::kColumnCount);
        QCOMPARE(model.headerData(TuneResultsModel::kObjectiveColumn, Qt::Horizontal).toString(),
                 QStringLiteral("objective: throughput"));
        // The rank order is the objective's: highest throughput first.
        proxy.sort(TuneResultsModel::kRankColumn, Qt::AscendingOrder);
        const auto byRank = columnValues(proxy, TuneResultsModel::kObjectiveColumn);
        QVERIFY(std::is_sorted(byRank.rbegin(), byRank.rend()));
        // Sorting a column orders its numbers (not their text): chips 16 before 32, and the
        // time to train descending.
        proxy.sort(TuneResultsModel::kFirstSettingColumn + search::kChips, Qt::AscendingOrder);
        const auto chips =
            columnValues(proxy, TuneResultsModel::kFirstSettingColumn + search::kChips);
        QVERIFY(std::is_sorted(chips.begin(), chips.end()));
        proxy.sort(TuneResultsModel::kTimeToTrainColumn, Qt::DescendingOrder);
        const auto times = columnValues(proxy, TuneResultsModel::kTimeToTrainColumn);
        QVERIFY(std::is_sorted(times.rbegin(), times.rend()));
        QCOMPARE(times.front(), std::ranges::max(times));
        // Chips and batches read as the locale writes numbers, right-aligned; words left.
        const QModelIndex chipsCell =
            model.index(0, TuneResultsModel::kFirstSettingColumn + search::kChips);
        QCOMPARE(chipsCell.data().toString(),
                 QLocale().toString(chipsCell.data(Qt::UserRole).toLongLong()));
        QCOMPARE(chipsCell.data(Qt::TextAlignmentRole).toInt() & Qt::AlignRight, Qt::AlignRight);
        const QModelIndex precisionCell =
            model.index(0, TuneResultsModel::kFirstSettingColumn + search::kPrecision);
        QCOMPARE(precisionCell.data(Qt::TextAlignmentRole).toInt() & Qt::AlignLeft, Qt::AlignLeft);
        QCOMPARE(precisionCell.data().toString(),
                 QString::fromStdString(model.configuration(0).settings[search::kPrecision]));
        // Each row shows the analytic result of its configuration.
        for (int row = 0; row < model.rowCount(); ++row) {
            const auto& r = model.configuration(row);
            const TrainingResult again = simulateTraining(r.scenario);
            QCOMPARE(model.index(row, TuneResultsModel::kTimeToTrainColumn)
                         .data(Qt::UserRole)
                         .toDouble(),
                     again.timeToTrainS);
            QCOMPARE(model.index(row, TuneResultsModel::kStepColumn).data(Qt::UserRole).toDouble(),
                     again.trainStepS);
        }
        model.setReport(smallReport(search::Objective::TimeToTrain)); // a reset under the testers
        QCOMPARE(model.headerData(TuneResultsModel::kObjectiveColumn, Qt::Horizontal).toString(),
                 QStringLiteral("objective: time-to-train"));
    }

    void applyIsOneUndoableChange() {
        const Scenario before = loadPreset("mlperf07-resnet50-tf2-16").scenario;
        ScenarioDocument document(before);
        TuneDialog dialog(document);
        QSignalSpy finished(&dialog, &TuneDialog::searchFinished);
        dialog.run();
        QVERIFY(dialog.busy());
        // The UI thread is free while the search runs: the event loop delivers the signal.
        QVERIFY(finished.wait(kSearchTimeoutMs));
        QVERIFY(!dialog.busy());
        QVERIFY2(dialog.results()->rowCount() > 0, qPrintable(dialog.status()->text()));
        QVERIFY(dialog.results()->report().complete);
        QVERIFY(dialog.status()->text().contains(QStringLiteral("evaluated")));
        // The selected row's why is shown whole under the table.
        dialog.table()->selectRow(1);
        QVERIFY2(dialog.selectionWhy()->text().startsWith(QStringLiteral("#2 differs from #1 in ")),
                 qPrintable(dialog.selectionWhy()->text()));
        QVERIFY(dialog.selectionWhy()->text().contains(QStringLiteral("#2 beats #3 by ")) ||
                dialog.selectionWhy()->text().contains(QStringLiteral("#2 ties with #3")));

        // Apply the slowest row shown (not the first) after sorting by time to train.
        dialog.table()->sortByColumn(TuneResultsModel::kTimeToTrainColumn, Qt::DescendingOrder);
        dialog.table()->selectRow(0);
        const int sourceRow =
            dialog.sortedResults()->mapToSource(dialog.sortedResults()->index(0, 0)).row();
        const Scenario chosen = dialog.results()->configuration(sourceRow).scenario;
        QVERIFY(!sameScenario(chosen, before));
        const int steps = document.undoStack()->count();
        QVERIFY(dialog.applySelected());
        QVERIFY(sameScenario(document.scenario(), chosen));
        QCOMPARE(document.undoStack()->count(), steps + 1);
        document.undoStack()->undo();
        QVERIFY(sameScenario(document.scenario(), before));
        document.undoStack()->redo();
        QVERIFY(sameScenario(document.scenario(), chosen));
    }

    // Top rows often look alike (issue 23): each row names the settings in which it differs from
    // the rank above, those cells are bold, and the row says why it ranks above the next, as the
    // CLI does. Checked on a report whose neighbouring rows differ in one or more settings.
    void rowsShowWhatDiffersFromTheRankAboveAndWhy() {
        TuneResultsModel model;
        model.setReport(smallReport(search::Objective::TimeToTrain));
        QVERIFY(model.rowCount() >= 3);
        QVERIFY(model.index(0, TuneResultsModel::kChangedColumn).data().toString().isEmpty());
        int rowsWithChanges = 0;
        for (int row = 1; row < model.rowCount(); ++row) {
            const QString changed =
                model.index(row, TuneResultsModel::kChangedColumn).data().toString();
            int differing = 0;
            for (int d = 0; d < search::kDimensionCount; ++d) {
                const auto i = static_cast<std::size_t>(d);
                const QString key = QString::fromStdString(search::dimensionKeys()[i]);
                const bool differs = model.configuration(row).settings[i] !=
                                     model.configuration(row - 1).settings[i];
                differing += differs ? 1 : 0;
                const QVariant font =
                    model.index(row, TuneResultsModel::kFirstSettingColumn + d).data(Qt::FontRole);
                QCOMPARE(font.isValid() && font.value<QFont>().bold(), differs);
                // Named with both values: this row's and the rank above's.
                const QString named =
                    key + ' ' + QString::fromStdString(model.configuration(row).settings[i]) +
                    QStringLiteral(" (#%1: ").arg(row) +
                    QString::fromStdString(model.configuration(row - 1).settings[i]) + ')';
                QCOMPARE(changed.contains(named), differs);
            }
            rowsWithChanges += differing > 0 ? 1 : 0;
        }
        QVERIFY(rowsWithChanges > 0);
        // The first row's cells are never bold: there is no rank above.
        for (int d = 0; d < search::kDimensionCount; ++d) {
            QVERIFY(!model.index(0, TuneResultsModel::kFirstSettingColumn + d)
                         .data(Qt::FontRole)
                         .isValid());
        }
        // Every row says by how much it beats the next, in the CLI's words (the last one the
        // next configuration found, which the table does not list).
        for (int row = 0; row < model.rowCount(); ++row) {
            const QString why = model.index(row, TuneResultsModel::kWhyColumn).data().toString();
            QVERIFY2(why.startsWith(QStringLiteral("beats #%1 by ").arg(row + 2)) ||
                         why.startsWith(QStringLiteral("ties with #%1").arg(row + 2)) ||
                         (why.isEmpty() && row + 1 == model.rowCount()),
                     qPrintable(why));
        }
    }

    // The chart draws the report's front and rows, rings the selected row, selects the row of a
    // clicked marker, and exports as the window's charts do: every format, nothing written on a
    // refused export and an existing file left whole.
    void paretoChartFollowsTheTableAndExports() {
        ScenarioDocument document(loadPreset("mlperf07-resnet50-tf2-16").scenario);
        TuneDialog dialog(document);
        dialog.findChild<QComboBox*>(QStringLiteral("tuneChips"))->setCurrentIndex(0); // all
        if (qEnvironmentVariableIsSet("PODSCOPE_TUNE_SCREENSHOT")) {
            dialog.resize(1600, 720);
            dialog.show();
        }
        QSignalSpy finished(&dialog, &TuneDialog::searchFinished);
        dialog.run();
        QVERIFY(finished.wait(kSearchTimeoutMs));
        const search::TuneReport& report = dialog.results()->report();
        QVERIFY(report.front.size() >= 5); // the standard slices, 16 to 4,096 chips
        if (qEnvironmentVariableIsSet("PODSCOPE_TUNE_SCREENSHOT")) {
            QTest::qWait(200);
            QVERIFY(dialog.grab().save(qEnvironmentVariable("PODSCOPE_TUNE_SCREENSHOT")));
        }
        ParetoChart& chart = *dialog.paretoChart();
        QCOMPARE(chart.frontSeries()->count(), static_cast<int>(report.front.size()));
        QCOMPARE(chart.listedSeries()->count(), static_cast<int>(report.top.size()));
        for (int i = 0; i < chart.frontSeries()->count(); ++i) {
            const QPointF p = chart.frontSeries()->at(i);
            QCOMPARE(qRound(chart.costAxis().fromAxis(p.x())),
                     static_cast<int>(report.front[static_cast<std::size_t>(i)].chips));
            QVERIFY(qAbs(chart.timeAxis().fromAxis(p.y()) * chart.secondsPerTimeUnit() /
                             report.front[static_cast<std::size_t>(i)].timeToTrainS -
                         1) < 1e-9);
        }

        // Off the markers, the chart's tooltip is the figure's caption.
        QCOMPARE(chart.toolTip(), QString::fromStdString(caption(chart.figure())));
        QVERIFY(chart.toolTip().contains("buys the least"));

        // The selected row (the first, after the search) is ringed where its marker is.
        QCOMPARE(chart.selectedSeries()->count(), 1);
        QCOMPARE(chart.selected().value(), report.top.front().index);
        QCOMPARE(chart.selectedSeries()->at(0), chart.listedSeries()->at(0));
        dialog.table()->selectRow(2);
        const int third =
            dialog.sortedResults()->mapToSource(dialog.sortedResults()->index(2, 0)).row();
        QCOMPARE(chart.selected().value(), dialog.results()->configuration(third).index);
        QCOMPARE(chart.selectedSeries()->at(0), chart.listedSeries()->at(third));

        // A click on a marker selects its row in the table.
        const std::uint64_t last = report.top.back().index;
        emit chart.configurationClicked(last);
        const QModelIndexList rows = dialog.table()->selectionModel()->selectedRows();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(dialog.results()
                     ->configuration(dialog.sortedResults()->mapToSource(rows[0]).row())
                     .index,
                 last);
        QCOMPARE(chart.selected().value(), last);

        // A point of the front that the table does not list (the smallest slice): ringed, the
        // table's selection cleared, and Apply loads it as one undoable change.
        const search::FrontPoint& cheapest = report.front.front();
        QVERIFY(std::ranges::none_of(report.top, [&](const search::RankedConfiguration& r) {
            return r.index == cheapest.index;
        }));
        emit chart.configurationClicked(cheapest.index);
        QVERIFY(!dialog.table()->selectionModel()->hasSelection());
        QCOMPARE(chart.selected().value(), cheapest.index);
        QCOMPARE(chart.selectedSeries()->at(0), chart.frontSeries()->at(0));
        const Scenario unchanged = document.scenario();
        QVERIFY(dialog.applySelected());
        QVERIFY(sameScenario(document.scenario(), cheapest.scenario));
        QCOMPARE(simulateTraining(document.scenario()).chips, cheapest.chips);
        QCOMPARE(simulateTraining(document.scenario()).timeToTrainS, cheapest.timeToTrainS);
        document.undoStack()->undo();
        QVERIFY(sameScenario(document.scenario(), unchanged));
        // Selecting a row again takes the ring back to the row.
        dialog.table()->selectRow(0);
        QCOMPARE(
            chart.selected().value(),
            dialog.results()
                ->configuration(
                    dialog.sortedResults()->mapToSource(dialog.sortedResults()->index(0, 0)).row())
                .index);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char* name : {"pareto.png", "pareto.svg", "pareto.pdf"}) {
            const QString path = dir.filePath(name);
            const QString problem = dialog.exportParetoChart(path, {1600, 1000}, 200);
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY2(file.size() > 1000, name);
        }
        const QImage png(dir.filePath("pareto.png"));
        QCOMPARE(png.size(), QSize(1600, 1000));
        QFile svg(dir.filePath("pareto.svg"));
        QVERIFY(svg.open(QIODevice::ReadOnly));
        QVERIFY(svg.readAll().contains("Pareto front"));
        // Refused: an unknown format, a missing folder, a DPI beyond the limit; the existing
        // file is untouched.
        QFile before(dir.filePath("pareto.png"));
        QVERIFY(before.open(QIODevice::ReadOnly));
        const QByteArray original = before.readAll();
        before.close();
        QVERIFY(dialog.exportParetoChart(dir.filePath("pareto.gif"), {800, 500}, 96)
                    .contains(".png, .svg or .pdf"));
        QVERIFY(dialog.exportParetoChart(dir.filePath("missing/pareto.png"), {800, 500}, 96)
                    .contains("does not exist"));
        QVERIFY(!dialog.exportParetoChart(dir.filePath("pareto.png"), {800, 500}, 5000).isEmpty());
        QVERIFY(before.open(QIODevice::ReadOnly));
        QCOMPARE(before.readAll(), original);
        QVERIFY(!QFile::exists(dir.filePath("pareto.gif")));
    }

    void cancelKeepsWhatWasFound() {
        ScenarioDocument document(loadPreset("mlperf07-bert-tf-4096").scenario);
        TuneDialog dialog(document);
        auto* chips = dialog.findChild<QComboBox*>(QStringLiteral("tuneChips"));
        QVERIFY(chips);
        chips->setCurrentIndex(0); // every slice: many step plans
        QSignalSpy finished(&dialog, &TuneDialog::searchFinished);
        dialog.run();
        QVERIFY(dialog.busy());
        dialog.cancel();
        QVERIFY(finished.wait(kSearchTimeoutMs));
        const search::TuneReport& report = dialog.results()->report();
        QVERIFY(!report.complete);
        QVERIFY(report.evaluated + report.skipped.total() < report.configurations);
        QVERIFY2(dialog.status()->text().startsWith(QStringLiteral("Cancelled")),
                 qPrintable(dialog.status()->text()));
    }
};

QTEST_MAIN(TuneDialogTest)
#include "TuneDialogTest.moc"
