#include "widgets/SliceControl.hpp"

#include "topology/Hardware.hpp"
#include "topology/TopologyPresets.hpp"
#include "training/ScenarioJson.hpp"

#include <QComboBox>

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
        box()->addItem(sliceLabel(hardware, chips), QVariant::fromValue<qlonglong>(chips));
    }
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
        return;
    }
    // Another grid (a file's, or typed in the grid field): an entry of its own.
    const QString name = QString::fromStdString(s.topology);
    int index = box()->findText(name);
    if (index < 0) {
        box()->addItem(name, QVariant::fromValue<qlonglong>(0));
        index = box()->count() - 1;
    }
    box()->setCurrentIndex(index);
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
