#include "widgets/TuneDialog.hpp"

#include "charts/ParetoChart.hpp"
#include "export/ChartExport.hpp"
#include "figure/ParetoFigure.hpp"
#include "search/Search.hpp"
#include "search/StartingScenario.hpp"
#include "session/ScenarioDocument.hpp"
#include "topology/TopologyPresets.hpp"
#include "widgets/ExportDialogs.hpp"
#include "widgets/TuneResultsModel.hpp"
#include "workload/Workload.hpp"

#include <QApplication>
#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace podscope::ui {
namespace {

constexpr int kTop = 20;       // configurations listed
constexpr int kAllSlices = -1; // the chips box's "every standard slice"
constexpr int kProgressScale = 1000;

// The chip count of the scenario's slice, or 0 when it is not a standard slice.
std::int64_t standardChipsOf(const Scenario& scenario) {
    for (const auto n : standardChipCounts(scenario.hardware)) {
        const TopologyPreset slice = standardSlice(scenario.hardware, n);
        QStringList dims;
        for (const int d : slice.dims) {
            dims << QString::number(d);
        }
        if (scenario.topology == slice.name ||
            QString::fromStdString(scenario.topology) == dims.join('x')) {
            return n;
        }
    }
    return 0;
}

} // namespace

TuneDialog::TuneDialog(ScenarioDocument& document, QWidget* parent)
    : QDialog(parent)
    , document_(document) {
    setWindowTitle(tr("Find the fastest configuration"));
    const Scenario& current = document_.scenario();

    model_ = new QComboBox(this);
    model_->setObjectName(QStringLiteral("tuneModel"));
    for (const auto& name : workloadNames()) {
        if (search::startingScenario(name)) {
            model_->addItem(QString::fromStdString(name));
        }
    }
    model_->setCurrentText(QString::fromStdString(current.workload));

    chips_ = new QComboBox(this);
    chips_->setObjectName(QStringLiteral("tuneChips"));
    const auto counts = standardChipCounts(current.hardware);
    chips_->addItem(tr("every slice (%1 to %2)").arg(counts.front()).arg(counts.back()),
                    kAllSlices);
    for (const auto n : counts) {
        chips_->addItem(QLocale().toString(static_cast<qlonglong>(n)), static_cast<qlonglong>(n));
    }
    const int currentChips = chips_->findData(static_cast<qlonglong>(standardChipsOf(current)));
    chips_->setCurrentIndex(currentChips >= 0 ? currentChips : 0);

    objective_ = new QComboBox(this);
    objective_->setObjectName(QStringLiteral("tuneObjective"));
    for (const auto& name : search::objectiveNames()) {
        objective_->addItem(QString::fromStdString(name));
    }
    fidelity_ = new QComboBox(this);
    fidelity_->setObjectName(QStringLiteral("tuneFidelity"));
    fidelity_->addItem(tr("analytic"), static_cast<int>(search::Fidelity::Analytic));
    fidelity_->addItem(tr("timeline (confirms the best %1)").arg(kTop),
                       static_cast<int>(search::Fidelity::Timeline));

    auto* form = new QFormLayout;
    form->addRow(tr("&Model"), model_);
    form->addRow(tr("&Chips"), chips_);
    form->addRow(tr("&Objective"), objective_);
    form->addRow(tr("&Fidelity"), fidelity_);

    run_ = new QPushButton(tr("&Run"), this);
    cancel_ = new QPushButton(tr("Cance&l"), this);
    apply_ = new QPushButton(tr("&Apply"), this);
    apply_->setToolTip(
        tr("Load the selected configuration into the window (Edit > Undo reverts it)"));
    progress_ = new QProgressBar(this);
    progress_->setRange(0, kProgressScale);
    progress_->setValue(0);
    status_ = new QLabel(tr("Choose a model and the chips, then Run."), this);
    status_->setWordWrap(true);

    results_ = new TuneResultsModel(this);
    sorted_ = new QSortFilterProxyModel(this);
    sorted_->setSourceModel(results_);
    sorted_->setSortRole(Qt::UserRole);
    table_ = new QTableView(this);
    table_->setModel(sorted_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(TuneResultsModel::kRankColumn, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TuneDialog::updateButtons);
    connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &TuneDialog::showSelectionOnChart);
    connect(table_, &QTableView::doubleClicked, this, [this] { applySelected(); });
    selectionWhy_ = new QLabel(this);
    selectionWhy_->setWordWrap(true);
    selectionWhy_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    chart_ = new ParetoChart(this);
    chart_->setMinimumSize(360, 240);
    connect(chart_, &ParetoChart::configurationClicked, this, &TuneDialog::selectConfiguration);
    exportChart_ = new QPushButton(tr("Export c&hart..."), this);
    exportChart_->setToolTip(tr("Write the Pareto chart as PNG, SVG or PDF"));
    connect(exportChart_, &QPushButton::clicked, this, &TuneDialog::exportParetoChartInteractively);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    buttons->addWidget(apply_);
    buttons->addWidget(exportChart_);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addLayout(buttons);
    layout->addWidget(status_);
    // The table and the chart side by side: a row's ring moves as the selection does.
    auto* results = new QSplitter(Qt::Horizontal, this);
    // Under the table, the selected row's "why" whole: the table's column of it scrolls.
    auto* tableAndWhy = new QWidget(this);
    auto* tableLayout = new QVBoxLayout(tableAndWhy);
    tableLayout->setContentsMargins(0, 0, 0, 0);
    tableLayout->addWidget(table_, 1);
    tableLayout->addWidget(selectionWhy_);
    results->addWidget(tableAndWhy);
    results->addWidget(chart_);
    results->setStretchFactor(0, 1);
    results->setStretchFactor(1, 1);
    // The chart needs room for its title and a legend of three entries.
    results->setSizes({820, 580});
    results->setChildrenCollapsible(false);
    layout->addWidget(results, 1);

    connect(run_, &QPushButton::clicked, this, &TuneDialog::run);
    connect(cancel_, &QPushButton::clicked, this, &TuneDialog::cancel);
    connect(apply_, &QPushButton::clicked, this, [this] { applySelected(); });
    progressTimer_.setInterval(100);
    connect(&progressTimer_, &QTimer::timeout, this, &TuneDialog::showProgress);
    updateButtons();
    resize(1400, 680);
}

TuneDialog::~TuneDialog() {
    // The search holds only shared state; stop it rather than leave it running unseen.
    if (watcher_) {
        cancelFlag_->store(true);
        watcher_->waitForFinished();
    }
}

void TuneDialog::run() {
    if (busy()) {
        return;
    }
    const std::string model = model_->currentText().toStdString();
    // The window's scenario when it runs this model (its framework, pipeline, evaluation),
    // otherwise the model's preset.
    const Scenario& current = document_.scenario();
    search::SpaceRequest request;
    request.base = current.workload == model ? current : *search::startingScenario(model);
    const qlonglong chips = chips_->currentData().toLongLong();
    if (chips == kAllSlices) {
        request.chips = standardChipCounts(request.base.hardware);
    } else {
        request.chips = {chips};
    }
    search::TuneSettings settings;
    settings.objective = search::parseObjective(objective_->currentText().toStdString());
    settings.fidelity = static_cast<search::Fidelity>(fidelity_->currentData().toInt());
    settings.top = kTop;
    settings.threads = std::max(1, QThread::idealThreadCount());

    std::shared_ptr<const search::SearchSpace> space;
    try {
        space = std::make_shared<const search::SearchSpace>(request);
    } catch (const std::exception& e) {
        status_->setText(tr("Cannot search: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    cancelFlag_ = std::make_shared<std::atomic<bool>>(false);
    done_ = std::make_shared<std::atomic<std::uint64_t>>(0);
    total_ = space->configurationCount();
    search::SearchOptions options;
    options.objective = settings.objective;
    options.keep = settings.top + 1; // one more, to say why the last row beats the next
    options.threads = settings.threads;

    watcher_ = new QFutureWatcher<Outcome>(this);
    connect(watcher_, &QFutureWatcherBase::finished, this, &TuneDialog::finish);
    watcher_->setFuture(QtConcurrent::run(
        [space, settings, options, cancel = cancelFlag_, done = done_]() mutable -> Outcome {
            // The job shares the flags, so they outlive the dialog if it closes first.
            options.cancel = cancel.get();
            options.progress = done.get();
            try {
                const search::SearchTally tally = search::runSearch(*space, options);
                return {std::make_shared<const search::TuneReport>(
                            search::buildTuneReport(*space, tally, settings)),
                        {}};
            } catch (const std::exception& e) {
                return {nullptr, QString::fromUtf8(e.what())};
            }
        }));
    progress_->setValue(0);
    status_->setText(tr("Searching %L1 configurations of %2 ...")
                         .arg(static_cast<qulonglong>(total_))
                         .arg(QString::fromStdString(model)));
    progressTimer_.start();
    updateButtons();
}

void TuneDialog::cancel() {
    if (cancelFlag_) {
        cancelFlag_->store(true);
    }
}

void TuneDialog::showProgress() {
    if (done_ && total_ > 0) {
        progress_->setValue(
            static_cast<int>(kProgressScale * std::min(done_->load(), total_) / total_));
    }
}

void TuneDialog::finish() {
    const Outcome outcome = watcher_->result();
    watcher_->deleteLater();
    watcher_ = nullptr;
    progressTimer_.stop();
    showProgress();
    if (!outcome.report) {
        status_->setText(tr("Search failed: %1").arg(outcome.error));
    } else {
        const search::TuneReport& report = *outcome.report;
        frontChoice_.reset();
        results_->setReport(report);
        chart_->setFigure(paretoFigure(report));
        const auto covered = static_cast<qulonglong>(report.evaluated + report.skipped.total());
        QString text = tr("%L1 configurations evaluated; %L2 skipped (%L3 do not fit in HBM, %L4 "
                          "do not divide "
                          "evenly, %L5 unsupported).")
                           .arg(static_cast<qulonglong>(report.evaluated))
                           .arg(static_cast<qulonglong>(report.skipped.total()))
                           .arg(static_cast<qulonglong>(report.skipped.hbm))
                           .arg(static_cast<qulonglong>(report.skipped.uneven))
                           .arg(static_cast<qulonglong>(report.skipped.unsupported));
        if (!report.complete) {
            text = tr("Cancelled after %L1 of %L2 configurations: the best of those. ")
                       .arg(covered)
                       .arg(static_cast<qulonglong>(report.configurations)) +
                   text;
        }
        if (!report.orderChanges.empty()) {
            text += tr(" The timeline reorders %n row(s).", nullptr,
                       static_cast<int>(report.orderChanges.size()));
        }
        summary_ = text + tr(" Select a row, or click a point of the front on the chart, and "
                             "Apply to load it (undoable).");
        status_->setText(summary_);
        if (results_->rowCount() > 0) {
            table_->selectRow(sorted_->mapFromSource(results_->index(0, 0)).row());
        }
    }
    updateButtons();
    emit searchFinished();
}

bool TuneDialog::applySelected() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    if (rows.isEmpty() && frontChoice_) {
        const auto& front = results_->report().front;
        const auto point = std::ranges::find(front, *frontChoice_, &search::FrontPoint::index);
        if (point == front.end()) {
            return false;
        }
        document_.edit(
            point->scenario,
            tr("Pareto front: fastest on %L1 chips").arg(static_cast<qlonglong>(point->chips)));
        return true;
    }
    if (rows.isEmpty()) {
        return false;
    }
    const int row = sorted_->mapToSource(rows.front()).row();
    const search::RankedConfiguration& chosen = results_->configuration(row);
    document_.edit(
        chosen.scenario,
        tr("fastest configuration #%1 (%2)")
            .arg(row + 1)
            .arg(QString::fromStdString(search::toString(results_->report().settings.objective))));
    return true;
}

void TuneDialog::updateButtons() {
    run_->setEnabled(!busy());
    cancel_->setEnabled(busy());
    apply_->setEnabled(!busy() && (table_->selectionModel()->hasSelection() || frontChoice_));
    exportChart_->setEnabled(!chart_->figure().front.empty());
    for (QComboBox* box : {model_, chips_, objective_, fidelity_}) {
        box->setEnabled(!busy());
    }
}

void TuneDialog::showSelectionOnChart() {
    const QModelIndexList rows = table_->selectionModel()->selectedRows();
    selectionWhy_->clear();
    if (!rows.isEmpty()) {
        const int row = sorted_->mapToSource(rows.front()).row();
        QStringList lines;
        const QString changed = results_->changedFromRankAbove(row);
        lines << (row == 0 ? tr("#1 ranks first.")
                           : tr("#%1 differs from #%2 in %3.").arg(row + 1).arg(row).arg(changed));
        const auto& chosen = results_->configuration(row);
        if (!chosen.whyBeatsNext.empty()) {
            lines << tr("#%1 %2.").arg(row + 1).arg(QString::fromStdString(chosen.whyBeatsNext));
        }
        if (!chosen.timelineDifference.empty()) {
            lines << QString::fromStdString(chosen.timelineDifference);
        }
        selectionWhy_->setText(lines.join('\n'));
    }
    if (rows.isEmpty()) {
        chart_->setSelected(frontChoice_);
        return;
    }
    frontChoice_.reset();
    chart_->setSelected(results_->configuration(sorted_->mapToSource(rows.front()).row()).index);
}

void TuneDialog::selectConfiguration(std::uint64_t index) {
    for (int row = 0; row < results_->rowCount(); ++row) {
        if (results_->configuration(row).index == index) {
            table_->selectRow(sorted_->mapFromSource(results_->index(row, 0)).row());
            return;
        }
    }
    // A point of the front that the table does not list: ringed on the chart, for Apply.
    frontChoice_ = index;
    table_->clearSelection();
    chart_->setSelected(index);
    updateButtons();
}

QString TuneDialog::exportParetoChart(const QString& path, QSize pixels, int dpi) const {
    ParetoChart chart;
    chart.setFigure(chart_->figure());
    chart.setSelected(chart_->selected());
    return exportChartView(chart, path, pixels, dpi);
}

void TuneDialog::exportParetoChartInteractively() {
    const auto request = askChartExport(this, QStringLiteral("pareto"), chart_);
    if (!request) {
        return;
    }
    QApplication::setOverrideCursor(Qt::WaitCursor); // laid out and drawn anew: a moment
    const QString problem =
        exportParetoChart(request->path, request->size.pixels, request->size.dpi);
    QApplication::restoreOverrideCursor();
    if (!problem.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot export"), problem);
    } else {
        status_->setText(summary_ + ' ' +
                         tr("Wrote %1 (%2x%3 px, %4 DPI).")
                             .arg(request->path)
                             .arg(request->size.pixels.width())
                             .arg(request->size.pixels.height())
                             .arg(request->size.dpi));
    }
}

} // namespace podscope::ui
