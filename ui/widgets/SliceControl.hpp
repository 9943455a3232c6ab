#pragma once

#include "widgets/SettingControl.hpp"

#include <cstdint>
#include <optional>

class QComboBox;

namespace podscope::ui {

// The chip count of the standard slice whose grid is this scenario's, however the scenario
// names it ("tpu-v3-multipod", or "128x32" with wrap y); nullopt for any other grid.
std::optional<std::int64_t> standardSliceOf(const Scenario& scenario);

// The standard slices by chip count ("4096 chips"; the popup and the tooltip name the shape,
// "4096 chips (128x32, wrap y)"); another grid is shown as an entry of its own, kept until the
// user picks a slice.
class SliceControl : public SettingControl {
    Q_OBJECT
public:
    SliceControl(const Setting& setting, QWidget* parent);
    QComboBox* box() const;

    void show(const Scenario& scenario) override;
    void apply(Scenario& scenario) const override;
    QString editText() const override;

private:
    void listSlices(const std::string& hardware);
    std::string listed_; // the machine whose slices the box lists
};

} // namespace podscope::ui
