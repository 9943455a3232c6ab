#include "widgets/ExportDialogs.hpp"

#include "export/ChartExport.hpp"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

namespace podscope::ui {

std::optional<ExportSize> askSize(QWidget* parent, const QString& title, ExportSize initial,
                                  bool withDpi,
                                  const std::vector<std::pair<QString, ExportSize>>& presets,
                                  ViewFigureOptions* figure) {
    QDialog dialog(parent);
    dialog.setWindowTitle(title);
    auto* form = new QFormLayout(&dialog);
    auto* width = new QSpinBox;
    auto* height = new QSpinBox;
    auto* dpi = new QSpinBox(&dialog); // owned by the dialog even when not shown
    for (QSpinBox* side : {width, height}) {
        side->setRange(kMinExportPixels, kMaxExportPixels);
        side->setSuffix(QObject::tr(" px"));
    }
    dpi->setRange(kMinExportDpi, kMaxExportDpi);
    auto* printed = new QLabel(&dialog);
    dpi->setVisible(withDpi);
    printed->setVisible(withDpi);
    auto fill = [=](const ExportSize& size) {
        width->setValue(size.pixels.width());
        height->setValue(size.pixels.height());
        dpi->setValue(size.dpi);
    };
    auto describe = [=] {
        printed->setText(QObject::tr("%1 x %2 in")
                             .arg(width->value() / double(dpi->value()), 0, 'f', 2)
                             .arg(height->value() / double(dpi->value()), 0, 'f', 2));
    };
    fill(initial);
    form->addRow(QObject::tr("Width"), width);
    form->addRow(QObject::tr("Height"), height);
    if (withDpi) {
        form->addRow(QObject::tr("DPI"), dpi);
        form->addRow(QObject::tr("Printed size"), printed);
        for (QSpinBox* box : {width, height, dpi}) {
            QObject::connect(box, &QSpinBox::valueChanged, &dialog, describe);
        }
        describe();
    }
    auto* presetRow = new QHBoxLayout;
    for (const auto& [name, size] : presets) {
        auto* button = new QPushButton(name);
        QObject::connect(button, &QPushButton::clicked, &dialog, [fill, size] { fill(size); });
        presetRow->addWidget(button);
    }
    form->addRow(presetRow);
    std::vector<std::pair<QCheckBox*, bool ViewFigureOptions::*>> overlays;
    if (figure) {
        for (const auto& [label, option] :
             {std::pair{QObject::tr("&Legend of the chip colours"), &ViewFigureOptions::legend},
              std::pair{QObject::tr("&Colour bar of the link utilisation"),
                        &ViewFigureOptions::colorBar},
              std::pair{QObject::tr("Ca&ption: configuration, phase, time"),
                        &ViewFigureOptions::caption},
              std::pair{QObject::tr("Light &background (for print)"),
                        &ViewFigureOptions::lightBackground}}) {
            auto* box = new QCheckBox(label);
            box->setChecked(figure->*option);
            form->addRow(box);
            overlays.push_back({box, option});
        }
    }
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    form->addRow(buttons);
    if (dialog.exec() != QDialog::Accepted) {
        return std::nullopt;
    }
    for (const auto& [box, option] : overlays) {
        figure->*option = box->isChecked();
    }
    return ExportSize{{width->value(), height->value()}, withDpi ? dpi->value() : 96};
}

std::optional<ChartExportRequest> askChartExport(QWidget* parent, const QString& name,
                                                 const QWidget* onScreen) {
    QString filter;
    QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export the %1 chart").arg(name), name + ".png",
        QObject::tr("PNG image (*.png);;SVG (*.svg);;PDF (*.pdf)"), &filter);
    if (path.isEmpty()) {
        return std::nullopt;
    }
    if (!exportFormatOf(path)) {
        // No or another extension typed: take the one of the chosen filter.
        path += filter.contains("svg") ? ".svg" : filter.contains("pdf") ? ".pdf" : ".png";
    }
    QSize screen = onScreen ? onScreen->size() : QSize();
    if (!onScreen || !onScreen->isVisible() || screen.width() < kMinExportPixels ||
        screen.height() < kMinExportPixels) {
        screen = QSize(800, 500);
    }
    const auto size =
        askSize(parent, QObject::tr("Chart size"), {screen, 96}, true,
                {{QObject::tr("On-screen (%1x%2, 96 DPI)").arg(screen.width()).arg(screen.height()),
                  {screen, 96}},
                 {QObject::tr("Print (1600x1000, 200 DPI)"), kPrintSize}});
    if (!size) {
        return std::nullopt;
    }
    return ChartExportRequest{path, *size};
}

} // namespace podscope::ui
