#include "UnsavedChangesPrompt.hpp"

#include <QMessageBox>
#include <QPushButton>

namespace podscope::ui {

void askAboutUnsavedChanges(QWidget& window, const QString& documentName,
                            std::function<void(UnsavedAnswer)> answered) {
    auto* box =
        new QMessageBox(QMessageBox::Question, QObject::tr("Unsaved changes"),
                        QObject::tr("Save the changes to %1 before quitting?").arg(documentName),
                        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, &window);
    box->setObjectName("unsavedChangesPrompt");
    box->setInformativeText(QObject::tr("Without saving, the changes are lost."));
    box->setDefaultButton(QMessageBox::Save);
    box->setEscapeButton(QMessageBox::Cancel);
    box->setWindowModality(Qt::WindowModal);
    box->setAttribute(Qt::WA_DeleteOnClose);
    QObject::connect(box, &QMessageBox::finished, box, [box, answered = std::move(answered)] {
        const auto button = box->standardButton(box->clickedButton());
        answered(button == QMessageBox::Save      ? UnsavedAnswer::Save
                 : button == QMessageBox::Discard ? UnsavedAnswer::Discard
                                                  : UnsavedAnswer::Cancel);
    });
    box->open();
}

} // namespace podscope::ui
