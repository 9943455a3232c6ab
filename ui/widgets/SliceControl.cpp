#include "widgets/SliceControl.hpp"

#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/ScenarioJson.hpp"

#include <QAbstractItemView>
#include <QComboBox>
#include <QStyledItemDelegate>

namespace podscope::ui {
namespace {

// The grid a scenario names; empty when it names none.
std::pair<std::vector<int>, std::vector<bool>> gridOf(const Scenario& s) {
    try {
        const TopologySpec spec = resolveTopology(s.topology, s.wrap, loadHardware(s.hardware));
        return {spec.dims, spec.wrap};
    } catch (const std::exception&) {
        return {};
    }
}

// The popup's entries name the shape; the closed box shows the chip count alone, which fits the
// panel on a 1024-pixel screen (the shape is in its tooltip and one click away).
constexpr int kShapeRole = Qt::UserRole + 1;

class ShapeDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override {
        QStyledItemDelegate::initStyleOption(option, index);
        const QString shape = index.data(kShapeRole).toString();
        if (!shape.isEmpty()) {
            option->text = shape;
        }
    }
};

QString sliceLabel(const std::string& hardware, std::int64_t chips) {
    const TopologyPreset slice = standardSlice(hardware, chips);
    QString dims, wrap;
    for (std::size_t d = 0; d < slice.dims.size(); ++d) {
        dims += (d ? "x" : "") + QString::number(slice.dims[d]);
        wrap += slice.wrap[d] ? QString("xyzw"[d]) : QString();
    }
    return QObject::tr("%1 chips (%2, wrap %3)")
        .arg(chips)
        .arg(dims, wrap.isEmpty() ? QObject::tr("none") : wrap);
}

} // namespace

std::optional<std::int64_t> standardSliceOf(const Scenario& s) {
    const auto wanted = gridOf(s);
    if (wanted.first.empty()) {
        return std::nullopt;
    }
    for (const std::int64_t chips : standardChipCounts(s.hardware)) {
        Scenario probe = s;
        useStandardSlice(probe, chips);
        if (gridOf(probe) == wanted) {
            return chips;
        }
    }
    return std::nullopt;
}

SliceControl::SliceControl(const Setting& setting, QWidget* parent)
    : SettingControl(setting, new QComboBox(parent)) {
    box()->setItemDelegate(new ShapeDelegate(box()));
    listSlices(defaultMachineName());
    connect(box(), &QComboBox::currentIndexChanged, this, &SettingControl::edited);
}

QComboBox* SliceControl::box() const {
    return static_cast<QComboBox*>(widget_);
}

// The machine's standard slices, and nothing else: a grid entry of an earlier configuration
// does not stay behind.
void SliceControl::listSlices(const std::string& hardware) {
    const QSignalBlocker quiet(box());
    box()->clear();
    for (const std::int64_t chips : standardChipCounts(hardware)) {
        const QString shape = sliceLabel(hardware, chips);
        box()->addItem(QObject::tr("%1 chips").arg(chips), QVariant::fromValue<qlonglong>(chips));
        box()->setItemData(box()->count() - 1, shape, kShapeRole);
        box()->setItemData(box()->count() - 1, shape, Qt::ToolTipRole);
    }
    // The popup is as wide as its longest entry, not as the box.
    box()->view()->setMinimumWidth(box()->view()->sizeHintForColumn(0) + 24);
    fitLongestEntry(box());
    listed_ = hardware;
}

void SliceControl::show(const Scenario& s) {
    const QSignalBlocker quiet(box());
    if (s.hardware != listed_ || box()->findData(QVariant::fromValue<qlonglong>(0)) >= 0) {
        try {
            listSlices(s.hardware);
        } catch (const std::exception&) {
            // an unknown machine: the configuration is refused and explained elsewhere
        }
    }
    if (const auto chips = standardSliceOf(s)) {
        box()->setCurrentIndex(box()->findData(QVariant::fromValue<qlonglong>(*chips)));
        box()->setToolTip(box()->currentData(kShapeRole).toString());
        return;
    }
    // Another grid (a file's, or typed in the grid field): an entry of its own.
    const QString name = QString::fromStdString(s.topology);
    int index = box()->findText(name);
    if (index < 0) {
        box()->addItem(name, QVariant::fromValue<qlonglong>(0));
        index = box()->count() - 1;
        fitLongestEntry(box());
    }
    box()->setCurrentIndex(index);
    box()->setToolTip(name);
}

void SliceControl::apply(Scenario& s) const {
    const auto chips = box()->currentData().toLongLong();
    if (chips > 0) {
        setting_.write(s, chips);
    }
}

QString SliceControl::editText() const {
    return label() + " " + box()->currentText();
}

} // namespace podscope::ui
