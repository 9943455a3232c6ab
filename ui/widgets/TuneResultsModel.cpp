#include "widgets/TuneResultsModel.hpp"

#include <QFont>
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

bool TuneResultsModel::differsFromRankAbove(int row, int dimension) const {
    const auto d = static_cast<std::size_t>(dimension);
    return row > 0 && configuration(row).settings[d] != configuration(row - 1).settings[d];
}

QString TuneResultsModel::changedFromRankAbove(int row) const {
    QStringList changes;
    for (int d = 0; d < search::kDimensionCount; ++d) {
        if (differsFromRankAbove(row, d)) {
            const auto i = static_cast<std::size_t>(d);
            changes << QStringLiteral("%1 %2 (#%3: %4)")
                           .arg(QString::fromStdString(search::dimensionKeys()[i]),
                                QString::fromStdString(configuration(row).settings[i]))
                           .arg(row)
                           .arg(QString::fromStdString(configuration(row - 1).settings[i]));
        }
    }
    return changes.join(QStringLiteral(", "));
}

QVariant TuneResultsModel::sortValue(int row, int column) const {
    const auto& r = configuration(row);
    if (column == kRankColumn) {
        return row + 1;
    }
    if (column == kChangedColumn) {
        return changedFromRankAbove(row);
    }
    if (column == kWhyColumn) {
        return QString::fromStdString(r.whyBeatsNext);
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
        return column < kChangedColumn || sortValue(row, column).typeId() == QMetaType::Double
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    }
    const auto& r = configuration(row);
    const bool isSetting = column >= kFirstSettingColumn && column < kWhyColumn;
    if (role == Qt::FontRole) {
        if (!isSetting || !differsFromRankAbove(row, column - kFirstSettingColumn)) {
            return {};
        }
        QFont bold;
        bold.setBold(true);
        return bold;
    }
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
    if (column == kChangedColumn || column == kWhyColumn) {
        return sortValue(row, column);
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
    if (section == kChangedColumn) {
        return tr("differs from the rank above");
    }
    if (section == kWhyColumn) {
        return tr("why it ranks above the next");
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
