#pragma once

#include "search/TuneReport.hpp"

#include <QAbstractTableModel>

namespace podscope::ui {

// The ranked configurations of a search, one row each: the rank, every setting the search
// varies, the objective's value, the time to train and the step (at the report's fidelity).
// Qt::UserRole gives numbers where a column is numeric, so a proxy sorts 512 after 64.
class TuneResultsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    static constexpr int kRankColumn = 0;
    static constexpr int kFirstSettingColumn = 1;
    static constexpr int kObjectiveColumn = kFirstSettingColumn + search::kDimensionCount;
    static constexpr int kTimeToTrainColumn = kObjectiveColumn + 1;
    static constexpr int kStepColumn = kTimeToTrainColumn + 1;
    static constexpr int kColumnCount = kStepColumn + 1;

    explicit TuneResultsModel(QObject* parent = nullptr);

    void setReport(const search::TuneReport& report);
    const search::TuneReport& report() const { return report_; }
    const search::RankedConfiguration& configuration(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant sortValue(int row, int column) const;

    search::TuneReport report_;
};

// The time to train and the step of a ranked configuration at its report's fidelity.
double rankedTimeToTrainS(const search::RankedConfiguration& row);
double rankedStepS(const search::RankedConfiguration& row);

} // namespace podscope::ui
