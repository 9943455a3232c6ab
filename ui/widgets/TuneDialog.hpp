#pragma once

#include "search/TuneReport.hpp"

#include <QDialog>
#include <QFutureWatcher>
#include <QTimer>
#include <atomic>
#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;

namespace podscope::ui {

class ScenarioDocument;
class TuneResultsModel;

// Tools > Find the fastest...: searches the configurations of a model on one or all slices
// (core/search, as podscope-cli tune does) off the UI thread, with progress and Cancel, lists
// the best in a sortable table and applies one to the document as one undoable change.
class TuneDialog : public QDialog {
    Q_OBJECT
public:
    explicit TuneDialog(ScenarioDocument& document, QWidget* parent = nullptr);
    ~TuneDialog() override;

    // Starts a search with the chosen settings; a setting the search refuses is shown, not run.
    void run();
    // Stops the search after the step plans under way; the table shows what it found.
    void cancel();
    // Loads the selected row's scenario into the document (one undo step); false without one.
    bool applySelected();
    bool busy() const { return watcher_ != nullptr; }

    TuneResultsModel* results() const { return results_; }
    QSortFilterProxyModel* sortedResults() const { return sorted_; }
    QTableView* table() const { return table_; }
    QLabel* status() const { return status_; }

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

    ScenarioDocument& document_;
    QComboBox* model_;
    QComboBox* chips_;
    QComboBox* objective_;
    QComboBox* fidelity_;
    QPushButton* run_;
    QPushButton* cancel_;
    QPushButton* apply_;
    QProgressBar* progress_;
    QLabel* status_;
    TuneResultsModel* results_;
    QSortFilterProxyModel* sorted_;
    QTableView* table_;
    QTimer progressTimer_;
    QFutureWatcher<Outcome>* watcher_ = nullptr;
    std::shared_ptr<std::atomic<bool>> cancelFlag_;
    std::shared_ptr<std::atomic<std::uint64_t>> done_;
    std::uint64_t total_ = 0;
};

} // namespace podscope::ui
