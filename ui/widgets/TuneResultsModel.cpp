#include "widgets/TuneResultsModel.hpp"

#include <QLocale>

namespace podscope::ui {

using search::TuneReport;

double rankedTimeToTrainS(const search::RankedConfiguration& row) {
    return row.confirmed ? row.timelineTimeToTrainS : row.result.timeToTrainS;
}

double rankedStepS(const search::RankedConfiguration& row) {
    return row.confirmed ? row.timelineStepS : row.result.trainStepS;
}

TuneResultsModel::TuneResultsModel(QObject* parent)
    : QAbstractTableModel(parent) {}

void TuneResultsModel::setReport(const TuneReport& report) {
    beginResetModel();
    report_ = report;
    endResetModel();
}

const search::RankedConfiguration& TuneResultsModel::configuration(int row) const {
    return report_.top.at(static_cast<std::size_t>(row));
}

int TuneResultsModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(report_.top.size());
}

int TuneResultsModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : kColumnCount;
}

QVariant TuneResultsModel::sortValue(int row, int column) const {
    const auto& r = configuration(row);
    if (column == kRankColumn) {
        return row + 1;
    }
    if (column >= kFirstSettingColumn) {
        const QString text = QString::fromStdString(
            r.settings[static_cast<std::size_t>(column - kFirstSettingColumn)]);
        bool isNumber = false;
        const double number = text.toDouble(&isNumber);
        return isNumber ? QVariant(number) : QVariant(text);
    }
    if (column == kObjectiveColumn) {
        return search::objectiveValue(report_.settings.objective, r.score);
    }
    if (column == kTimeToTrainColumn) {
        return rankedTimeToTrainS(r);
    }
    return rankedStepS(r);
}

QVariant TuneResultsModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
        return {};
    }
    const int row = index.row();
    const int column = index.column();
    if (role == Qt::UserRole) {
        return sortValue(row, column);
    }
    if (role == Qt::TextAlignmentRole) {
        // Numbers (the results, chips, batches, chunks) right-aligned; words left.
        return column < kFirstSettingColumn || sortValue(row, column).typeId() == QMetaType::Double
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    const auto& r = configuration(row);
    if (role == Qt::ToolTipRole) {
        return QString::fromStdString(r.whyBeatsNext + (r.timelineDifference.empty()
                                                            ? std::string()
                                                            : "\n" + r.timelineDifference));
    }
    if (role != Qt::DisplayRole) {
        return {};
    }
    // One decimal more than the core's three digits: the top rows often differ by less.
    const QLocale locale;
    if (column == kObjectiveColumn) {
        const double value = search::objectiveValue(report_.settings.objective, r.score);
        return locale.toString(value, 'f', 1) + QChar(' ') +
               QString::fromStdString(search::objectiveUnit(report_.settings.objective));
    }
    if (column == kTimeToTrainColumn) {
        return locale.toString(rankedTimeToTrainS(r), 'f', 1) + QStringLiteral(" s");
    }
    if (column == kStepColumn) {
        return locale.toString(rankedStepS(r) * 1e3, 'f', 2) + QStringLiteral(" ms");
    }
    if (column == kRankColumn) {
        return row + 1;
    }
    // Whole numbers as the locale writes them (4,096 chips, a batch of 65,536).
    const QString text =
        QString::fromStdString(r.settings[static_cast<std::size_t>(column - kFirstSettingColumn)]);
    bool whole = false;
    const qlonglong number = text.toLongLong(&whole);
    return whole ? locale.toString(number) : text;
}

QVariant TuneResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (role != Qt::DisplayRole || orientation != Qt::Horizontal || section < 0 ||
        section >= kColumnCount) {
        return QAbstractTableModel::headerData(section, orientation, role);
    }
    if (section == kRankColumn) {
        return tr("rank");
    }
    if (section >= kFirstSettingColumn) {
        return QString::fromStdString(
            search::dimensionKeys()[static_cast<std::size_t>(section - kFirstSettingColumn)]);
    }
    if (section == kObjectiveColumn) {
        return tr("objective: %1")
            .arg(QString::fromStdString(search::toString(report_.settings.objective)));
    }
    if (section == kTimeToTrainColumn) {
        return tr("time to train");
    }
    return tr("training step");
}

} // namespace podscope::ui
