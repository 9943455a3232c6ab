#pragma once

#include "search/TuneReport.hpp"

#include <QAbstractTableModel>

namespace podscope::ui {

// The ranked configurations of a search, one row each: the rank, the objective's value, the time
// to train and the step (at the report's fidelity), the settings that differ from the rank above,
// every setting the search varies, and why the row ranks above the next (the CLI's text).
// Qt::UserRole gives numbers where a column is numeric, so a proxy sorts 512 after 64; a setting
// that differs from the rank above is bold (Qt::FontRole), since the top rows often look alike.
class TuneResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    // The results first (a wide table scrolls), then the settings in --fix order.
    static constexpr int kRankColumn = 0;
    static constexpr int kObjectiveColumn = 1;
    static constexpr int kTimeToTrainColumn = 2;
    static constexpr int kStepColumn = 3;
    static constexpr int kChangedColumn = 4;
    static constexpr int kFirstSettingColumn = 5;
    static constexpr int kWhyColumn = kFirstSettingColumn + search::kDimensionCount;
    static constexpr int kColumnCount = kWhyColumn + 1;

    explicit TuneResultsModel(QObject* parent = nullptr);

    void setReport(const search::TuneReport& report);
    const search::TuneReport& report() const { return report_; }
    const search::RankedConfiguration& configuration(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // "chunks 8 (#1: 16), wus on (#1: off)": the settings of `row` that differ from the rank
    // above; empty for the first row.
    QString changedFromRankAbove(int row) const;

private:
    QVariant sortValue(int row, int column) const;
    bool differsFromRankAbove(int row, int dimension) const;

    search::TuneReport report_;
};

// The time to train and the step of a ranked configuration at its report's fidelity.
double rankedTimeToTrainS(const search::RankedConfiguration& row);
double rankedStepS(const search::RankedConfiguration& row);

} // namespace podscope::ui
