#include "widgets/SettingControl.hpp"

#include "widgets/SliceControl.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QStyleOptionSpinBox>
#include <algorithm>
#include <climits>
#include <cmath>

namespace podscope::ui {
namespace {

using nlohmann::json;

QString qt(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

// A value as a list's item holds it: whole numbers as int where they fit, text as QString.
QVariant itemValue(const json& value) {
    if (value.is_null()) {
        return {};
    }
    if (value.is_number_integer()) {
        const auto n = value.get<long long>();
        return n >= INT_MIN && n <= INT_MAX ? QVariant(static_cast<int>(n)) : QVariant(n);
    }
    return QString::fromStdString(value.get<std::string>());
}

json settingValue(const Setting& setting, const QVariant& item) {
    if (!item.isValid()) {
        return json();
    }
    if (setting.type == SettingType::Integer) {
        return item.toLongLong();
    }
    return item.toString().toStdString();
}

class CheckControl : public SettingControl {
public:
    CheckControl(const Setting& setting, QWidget* parent)
        : SettingControl(setting, new QCheckBox(qt(setting.panel.label), parent)) {
        connect(box(), &QCheckBox::toggled, this, &SettingControl::edited);
    }
    QCheckBox* box() const { return static_cast<QCheckBox*>(widget_); }
    void show(const Scenario& s) override { box()->setChecked(setting_.read(s).get<bool>()); }
    void apply(Scenario& s) const override { setting_.write(s, box()->isChecked()); }
};

// A number box as wide as a typical value needs, not its range's largest: a run length of up to
// 10^12 steps would otherwise widen the whole panel. Never narrower than its special value
// ("as the model does") needs whole: QAbstractSpinBox leaves 2 pixels for the cursor around the
// text, but its line edit draws the text 2 pixels inside each side, which cut the last letter.
class PanelDoubleSpinBox : public QDoubleSpinBox {
public:
    using QDoubleSpinBox::QDoubleSpinBox;
    QSize sizeHint() const override { return capped(QDoubleSpinBox::sizeHint()); }
    QSize minimumSizeHint() const override { return capped(QDoubleSpinBox::minimumSizeHint()); }

private:
    // The box's width around a text this wide, with the style's frame and arrows.
    int widthFor(int text, int height) const {
        QStyleOptionSpinBox option;
        initStyleOption(&option);
        constexpr int kLineEditMargins = 2 * 2 + 2; // both sides, and the cursor
        return style()
            ->sizeFromContents(QStyle::CT_SpinBox, &option, QSize(text + kLineEditMargins, height),
                               this)
            .width();
    }
    QSize capped(QSize size) const {
        const int typical = widthFor(
            fontMetrics().horizontalAdvance(QStringLiteral("as the model does")), size.height());
        const int special =
            widthFor(fontMetrics().horizontalAdvance(specialValueText()), size.height());
        return {std::max(std::min(size.width(), typical), special), size.height()};
    }
};

// Numbers, shown scaled (seconds as milliseconds) with a unit; an unset value shows the value
// the model uses where the scenario tells it (the hardware's), or else a special value below
// the range that says what unset means.
class DecimalControl : public SettingControl {
public:
    DecimalControl(const Setting& setting, QWidget* parent)
        : SettingControl(setting, new PanelDoubleSpinBox(parent)) {
        const PanelRow& row = setting.panel;
        const double step = std::pow(10.0, -row.decimals);
        const double lowest = setting.lowest * row.scale + (setting.lowestIncluded ? 0 : step);
        box()->setDecimals(row.decimals);
        box()->setRange(lowest, setting.highest * row.scale);
        const std::string_view unit = row.unit.empty() ? setting.unit : row.unit;
        if (!unit.empty()) {
            box()->setSuffix(" " + qt(unit));
        }
        // Below the range, what unset means: shown while unset when the scenario implies no
        // value (a machine that states no DCN bandwidth), and a way back to unset.
        if (!setting.unset.empty()) {
            special_ = lowest - step;
            box()->setMinimum(*special_);
            box()->setSpecialValueText(qt(setting.unset));
        }
        connect(box(), &QDoubleSpinBox::valueChanged, this, &SettingControl::edited);
    }
    QDoubleSpinBox* box() const { return static_cast<QDoubleSpinBox*>(widget_); }

    void show(const Scenario& s) override {
        const json value = setting_.read(s);
        if (!value.is_null()) {
            box()->setValue(value.get<double>() * setting_.panel.scale);
        } else if (const auto implied = setting_.implied ? setting_.implied(s) : std::nullopt) {
            box()->setValue(*implied * setting_.panel.scale);
        } else if (special_) {
            box()->setValue(*special_);
        }
    }
    void apply(Scenario& s) const override {
        if (special_ && box()->value() <= *special_) {
            setting_.write(s, json());
        } else {
            setting_.write(s, box()->value() / setting_.panel.scale);
        }
    }

private:
    std::optional<double> special_;
};

// Text applied with Enter, shown only for a grid that is no standard slice (the slice list
// names those).
class GridControl : public SettingControl {
public:
    GridControl(const Setting& setting, QWidget* parent)
        : SettingControl(setting, new QLineEdit(parent)) {
        edit()->setPlaceholderText(qt(setting.panel.hint));
        connect(edit(), &QLineEdit::editingFinished, this, [this] {
            if (edit()->text().trimmed() != shown_) {
                emit edited();
            }
        });
    }
    QLineEdit* edit() const { return static_cast<QLineEdit*>(widget_); }

    void show(const Scenario& s) override {
        const json value = setting_.read(s);
        shown_ = standardSliceOf(s) || value.is_null()
                     ? QString()
                     : QString::fromStdString(value.get<std::string>());
        edit()->setText(shown_);
    }
    void apply(Scenario& s) const override {
        const QString text = edit()->text().trimmed();
        if (!text.isEmpty() || !setting_.unset.empty()) {
            setting_.write(s, text.isEmpty() ? json() : json(text.toStdString()));
        }
    }
    QString editText() const override { return label() + " " + edit()->text().trimmed(); }

private:
    QString shown_;
};

} // namespace

void fitLongestEntry(QComboBox* box) {
    const QFontMetrics metrics = box->fontMetrics();
    const int cap = metrics.horizontalAdvance(QString(28, QLatin1Char('x')));
    int text = 0;
    for (int i = 0; i < box->count(); ++i) {
        text = std::max(text, std::min(cap, metrics.horizontalAdvance(box->itemText(i))));
    }
    QStyleOptionComboBox option;
    option.initFrom(box);
    option.editable = box->isEditable();
    option.frame = box->hasFrame();
    constexpr int kLabelInset = 2 * 1 + 2; // the style draws the label 1 px inside each side
    const QSize room(text + kLabelInset, metrics.height());
    box->setMinimumWidth(
        box->style()->sizeFromContents(QStyle::CT_ComboBox, &option, room, box).width());
}

SettingControl::SettingControl(const Setting& setting, QWidget* widget)
    : QObject(widget)
    , setting_(setting)
    , widget_(widget) {
    widget->setObjectName(qt(setting.key));
    QString tip = qt(setting.description);
    if (!setting.panel.details.empty()) {
        tip += ". " + qt(setting.panel.details);
    }
    widget->setToolTip(tip);
}

QString SettingControl::label() const {
    return qt(setting_.panel.label).toLower();
}

QString SettingControl::editText() const {
    return label();
}

ChoiceControl::ChoiceControl(const Setting& setting, QWidget* parent)
    : SettingControl(setting, new QComboBox(parent)) {
    if (setting.panel.control == PanelControl::Choice) {
        std::vector<Offer> offers;
        if (!setting.unset.empty()) {
            offers.push_back({qt(setting.unset), QVariant(), {}});
        }
        if (setting.type == SettingType::Integer) {
            for (double n = std::max(1.0, setting.lowest); n <= setting.highest; n *= 2) {
                offers.push_back({QString::number(n), itemValue(static_cast<long long>(n)), {}});
            }
        } else if (setting.choices) {
            for (const SettingChoice& choice : setting.choices()) {
                offers.push_back(
                    {QString::fromStdString(choice.label.empty() ? choice.value : choice.label),
                     QString::fromStdString(choice.value),
                     {}});
            }
        }
        setOffers(offers);
    }
    connect(box(), &QComboBox::currentIndexChanged, this, &SettingControl::edited);
}

QComboBox* ChoiceControl::box() const {
    return static_cast<QComboBox*>(widget_);
}

void ChoiceControl::setOffers(const std::vector<Offer>& offers) {
    const QSignalBlocker quiet(box());
    box()->clear();
    for (const Offer& offer : offers) {
        box()->addItem(offer.label, offer.value);
        if (!offer.toolTip.isEmpty()) {
            box()->setItemData(box()->count() - 1, offer.toolTip, Qt::ToolTipRole);
        }
    }
    select(shown_);
    fitLongestEntry(box());
}

void ChoiceControl::select(const QVariant& value) {
    int index = -1;
    for (int i = 0; i < box()->count() && index < 0; ++i) {
        const QVariant item = box()->itemData(i);
        // Invalid: the "unset" item. Numbers compare by value whatever their type.
        if (item.isValid() == value.isValid() && (!value.isValid() || item == value)) {
            index = i;
        }
    }
    if (index < 0 && value.isValid()) {
        // A value the list does not offer: kept and shown; a file by its name (a model opened
        // with File > Open model...), its path in the tooltip.
        const QString text = value.toString();
        const bool file = text.contains('/') || text.contains('\\');
        box()->addItem(file ? QFileInfo(text).fileName() : text, value);
        index = box()->count() - 1;
        if (file) {
            box()->setItemData(index, text, Qt::ToolTipRole);
        }
        fitLongestEntry(box());
    }
    box()->setCurrentIndex(index);
}

void ChoiceControl::show(const Scenario& s) {
    shown_ = itemValue(setting_.read(s));
    const QSignalBlocker quiet(box());
    select(shown_);
}

void ChoiceControl::apply(Scenario& s) const {
    if (box()->currentIndex() >= 0) {
        setting_.write(s, settingValue(setting_, box()->currentData()));
    }
}

QString ChoiceControl::editText() const {
    return label() + " " + box()->currentText();
}

SpinControl::SpinControl(const Setting& setting, QWidget* parent)
    : SettingControl(setting, new QSpinBox(parent)) {
    box()->setRange(static_cast<int>(setting.lowest), static_cast<int>(setting.highest));
    if (!setting.unit.empty()) {
        box()->setSuffix(" " + qt(setting.unit));
    }
    // A setting whose unset value is its lowest (one slice) says so there: "1 slice".
    if (setting.implied && !setting.unset.empty() &&
        setting.implied(Scenario{}) == std::optional<double>(setting.lowest)) {
        box()->setSpecialValueText(qt(setting.unset));
    }
    connect(box(), &QSpinBox::valueChanged, this, &SettingControl::edited);
}

QSpinBox* SpinControl::box() const {
    return static_cast<QSpinBox*>(widget_);
}

void SpinControl::setLimits(int lowest, int highest, std::optional<int> implied) {
    const QSignalBlocker quiet(box());
    implied_ = implied;
    box()->setRange(std::max(lowest, static_cast<int>(setting_.lowest)),
                    std::min(highest, static_cast<int>(setting_.highest)));
}

void SpinControl::show(const Scenario& s) {
    const json value = setting_.read(s);
    const QSignalBlocker quiet(box());
    if (!value.is_null()) {
        box()->setValue(value.get<int>());
    } else if (implied_) {
        box()->setValue(*implied_);
    } else if (const auto implied = setting_.implied ? setting_.implied(s) : std::nullopt) {
        box()->setValue(static_cast<int>(*implied));
    }
}

void SpinControl::apply(Scenario& s) const {
    setting_.write(s, box()->value());
}

SettingControl* makeSettingControl(const Setting& setting, QWidget* parent) {
    switch (setting.panel.control) {
    case PanelControl::Choice:
    case PanelControl::Offered:
        return new ChoiceControl(setting, parent);
    case PanelControl::Check:
        return new CheckControl(setting, parent);
    case PanelControl::Spin:
        return new SpinControl(setting, parent);
    case PanelControl::Decimal:
        return new DecimalControl(setting, parent);
    case PanelControl::Text:
    case PanelControl::Grid:
        return new GridControl(setting, parent);
    case PanelControl::Slice:
        return new SliceControl(setting, parent);
    case PanelControl::None:
        break;
    }
    return nullptr;
}

} // namespace podscope::ui
