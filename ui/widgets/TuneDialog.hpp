#pragma once

#include "search/TuneReport.hpp"

#include <QDialog>
#include <QFutureWatcher>
#include <QTimer>
#include <atomic>
#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSize;
class QTableView;

namespace podscope::ui {

class ParetoChart;
class ScenarioDocument;
class TuneResultsModel;

// Tools > Find the fastest...: searches the configurations of a model on one or all slices
// (core/search, as podscope-cli tune does) off the UI thread, with progress and Cancel, lists
// the best in a sortable table beside the Pareto chart of time to train against chips (the
// selected row ringed; clicking a marker selects its row), and applies one to the document as one
// undoable change. The chart exports as PNG, SVG or PDF like the window's charts.
class TuneDialog : public QDialog {
    Q_OBJECT
public:
    explicit TuneDialog(ScenarioDocument& document, QWidget* parent = nullptr);
    ~TuneDialog() override;

    // Starts a search with the chosen settings; a setting the search refuses is shown, not run.
    void run();
    // Stops the search after the step plans under way; the table shows what it found.
    void cancel();
    // Loads the selected row's scenario, or the point of the Pareto front clicked on the chart,
    // into the document (one undo step); false without either.
    bool applySelected();
    bool busy() const { return watcher_ != nullptr; }
    // Writes the Pareto chart as it shows now (with the selected row ringed) to `path` (.png,
    // .svg or .pdf), laid out afresh at that size; the problem, or empty on success.
    QString exportParetoChart(const QString& path, QSize pixels, int dpi) const;

    TuneResultsModel* results() const { return results_; }
    QSortFilterProxyModel* sortedResults() const { return sorted_; }
    QTableView* table() const { return table_; }
    ParetoChart* paretoChart() const { return chart_; }
    QLabel* status() const { return status_; }
    // The selected row's settings that differ from the rank above and why it ranks where it does.
    QLabel* selectionWhy() const { return selectionWhy_; }

signals:
    void searchFinished();

private:
    struct Outcome {
        std::shared_ptr<const search::TuneReport> report;
        QString error;
    };

    void finish();
    void showProgress();
    void updateButtons();
    void showSelectionOnChart();
    void selectConfiguration(std::uint64_t index);
    void exportParetoChartInteractively();

    ScenarioDocument& document_;
    QComboBox* model_;
    QComboBox* chips_;
    QComboBox* objective_;
    QComboBox* fidelity_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* apply_;
    QPushButton* exportChart_;
    QProgressBar* progress_;
    QLabel* status_;
    QLabel* selectionWhy_;
    TuneResultsModel* results_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
    ParetoChart* chart_;
    QTimer progressTimer_;
    QFutureWatcher<Outcome>* watcher_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancelFlag_;
    std::shared_ptr<std::atomic<std::uint64_t>> done_;
    std::uint64_t total_ = 0;
    QString summary_; // what the last search found, kept when an export adds its line
    // A point of the front clicked on the chart that the table does not list (its index).
    std::optional<std::uint64_t> frontChoice_;
};

} // namespace podscope::ui
