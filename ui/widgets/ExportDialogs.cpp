#include "widgets/ExportDialogs.hpp"

#include "export/ChartExport.hpp"

#include <QCheckBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

namespace podscope::ui {
namespace {

const QString kFolderKey = QStringLiteral("export/folder");
const QString kChartSizeKey = QStringLiteral("export/chartSize");
const QString kChartDpiKey = QStringLiteral("export/chartDpi");

QString sizeName(const QString& name, ExportSize size) {
    return QObject::tr("%1 (%2 x %3 in)")
        .arg(name)
        .arg(size.pixels.width() / double(size.dpi), 0, 'g', 3)
        .arg(size.pixels.height() / double(size.dpi), 0, 'g', 3);
}

} // namespace

std::vector<std::pair<QString, ExportSize>> chartExportPresets(QSize onScreen) {
    std::vector<std::pair<QString, ExportSize>> presets{
        {sizeName(QObject::tr("Single column"), kSingleColumnSize), kSingleColumnSize},
        {sizeName(QObject::tr("Double column"), kDoubleColumnSize), kDoubleColumnSize},
        {sizeName(QObject::tr("Slide"), kSlideSize), kSlideSize},
        {sizeName(QObject::tr("Print"), kPrintSize), kPrintSize}};
    if (onScreen.width() >= kMinExportPixels && onScreen.height() >= kMinExportPixels) {
        presets.push_back(
            {QObject::tr("On-screen (%1x%2)").arg(onScreen.width()).arg(onScreen.height()),
             {onScreen, 96}});
    }
    return presets;
}

QString lastExportFolder() {
    const QString folder = QSettings().value(kFolderKey).toString();
    return !folder.isEmpty() && QDir(folder).exists() ? folder : QString();
}

void rememberExportFolder(const QString& fileOrFolder) {
    const QFileInfo info(fileOrFolder);
    QSettings().setValue(kFolderKey, info.isDir() ? info.absoluteFilePath() : info.absolutePath());
}

ExportSize lastChartExportSize() {
    const QSettings settings;
    const QSize pixels = settings.value(kChartSizeKey).toSize();
    const int dpi = settings.value(kChartDpiKey).toInt();
    const ExportSize last{pixels, dpi};
    if (checkExportSize(pixels).isEmpty() && checkExportDpi(dpi).isEmpty()) {
        return last;
    }
    return kDoubleColumnSize;
}

void rememberChartExportSize(ExportSize size) {
    QSettings settings;
    settings.setValue(kChartSizeKey, size.pixels);
    settings.setValue(kChartDpiKey, size.dpi);
}

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
    const QString folder = lastExportFolder();
    QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export the %1 chart").arg(name),
        folder.isEmpty() ? name + ".png" : QDir(folder).filePath(name + ".png"),
        QObject::tr("PNG image (*.png);;SVG (*.svg);;PDF (*.pdf)"), &filter);
    if (path.isEmpty()) {
        return std::nullopt;
    }
    if (!exportFormatOf(path)) {
        // No or another extension typed: take the one of the chosen filter.
        path += filter.contains("svg") ? ".svg" : filter.contains("pdf") ? ".pdf" : ".png";
    }
    rememberExportFolder(path);
    const QSize screen = onScreen && onScreen->isVisible() ? onScreen->size() : QSize();
    const auto size = askSize(parent, QObject::tr("Chart size"), lastChartExportSize(), true,
                              chartExportPresets(screen));
    if (!size) {
        return std::nullopt;
    }
    rememberChartExportSize(*size);
    return ChartExportRequest{path, *size};
}

} // namespace podscope::ui
