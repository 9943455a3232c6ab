#pragma once

#include "settings/Setting.hpp"

#include <QObject>
#include <QString>
#include <QVariant>
#include <optional>
#include <vector>

class QComboBox;
class QSpinBox;

namespace podscope::ui {

// One setting's control in the configuration panel, built from its entry of the settings table
// (PanelRow): it shows a scenario's value, and writes the user's edit into a scenario.
class SettingControl : public QObject {
    Q_OBJECT
public:
    const Setting& setting() const { return setting_; }
    QWidget* widget() const { return widget_; }
    // A check box carries its label: its row has none.
    bool labelled() const { return setting_.panel.control != PanelControl::Check; }

    // Shows the scenario's value; emits nothing.
    virtual void show(const Scenario& scenario) = 0;
    // Writes the value shown into the scenario; InputError when the setting refuses it.
    virtual void apply(Scenario& scenario) const = 0;
    // How the undo stack names the edit: "chunks", "model resnet50".
    virtual QString editText() const;

signals:
    void edited(); // by the user

protected:
    SettingControl(const Setting& setting, QWidget* widget);
    QString label() const;

    const Setting& setting_;
    QWidget* widget_;
};

// Keeps a list at least as wide as its longest entry needs whole (up to 28 characters; a longer
// one, such as a file's name, is elided with the whole name in its tooltip), so that a narrow
// panel puts the label above the field rather than cut the entry.
void fitLongestEntry(QComboBox* box);

// The configuration panel's control for this setting (by its PanelRow's control kind).
SettingControl* makeSettingControl(const Setting& setting, QWidget* parent);

// A list of values: the setting's choices, or (Offered) those the panel sets from the analysis.
class ChoiceControl : public SettingControl {
    Q_OBJECT
public:
    ChoiceControl(const Setting& setting, QWidget* parent);
    QComboBox* box() const;

    struct Offer {
        QString label;
        QVariant value; // a number or a string; invalid: unset
        QString toolTip;
    };
    // Replaces the list; the value shown stays (added when it is not on offer).
    void setOffers(const std::vector<Offer>& offers);

    void show(const Scenario& scenario) override;
    void apply(Scenario& scenario) const override;
    QString editText() const override;

private:
    void select(const QVariant& value);
    QVariant shown_;
};

// Whole numbers; the panel may narrow the range and name the model's default (sequence length).
class SpinControl : public SettingControl {
    Q_OBJECT
public:
    SpinControl(const Setting& setting, QWidget* parent);
    QSpinBox* box() const;
    // The range the model takes now, and the value it uses while the setting is unset.
    void setLimits(int lowest, int highest, std::optional<int> implied);

    void show(const Scenario& scenario) override;
    void apply(Scenario& scenario) const override;

private:
    std::optional<int> implied_;
};

} // namespace podscope::ui
