#include "widgets/MemoryBar.hpp"

#include "charts/FigureStyle.hpp"
#include "figure/Palette.hpp"

#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <algorithm>

namespace podscope::ui {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// The parts' colours, in the bar's order (the figures' colour-blind-safe palette).
constexpr Rgb kPartColours[] = {palette::kBlue, palette::kSkyBlue, palette::kBluishGreen,
                                palette::kOrange, palette::kReddishPurple};

constexpr double kMiB = 1024.0 * 1024.0;

QString gib(double bytes) {
    return QString::number(bytes / kGiB, 'f', 1) + QStringLiteral(" GiB");
}

// A part of the bar: GiB from one GiB up, MiB below (ResNet's weights are 146 MiB).
QString partSize(double bytes) {
    if (bytes >= kGiB) {
        return gib(bytes);
    }
    if (bytes > 0 && bytes < kMiB) {
        return QStringLiteral("< 1 MiB");
    }
    return QString::number(bytes / kMiB, 'f', 0) + QStringLiteral(" MiB");
}

// The bar itself: the parts side by side on a scale that holds the capacity and the total, the
// free HBM light grey, a line at the capacity, and what does not fit hatched.
class Strip : public QWidget {
public:
    explicit Strip(const MemoryBar& bar, QWidget* parent)
        : QWidget(parent)
        , bar_(bar) {
        setMinimumHeight(18);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    }
    QSize sizeHint() const override { return {160, 18}; }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        const QRectF area = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
        const auto memory = bar_.memory();
        painter.fillRect(area, toColor(palette::kLightGrey));
        if (!memory || !(memory->capacity > 0)) {
            return;
        }
        const double scale = std::max(memory->capacity, memory->total());
        double x = area.left();
        std::size_t i = 0;
        for (const MemoryBar::Part& part : bar_.parts()) {
            const double width = part.bytes / scale * area.width();
            painter.fillRect(QRectF(x, area.top(), width, area.height()),
                             toColor(kPartColours[i++ % std::size(kPartColours)]));
            x += width;
        }
        const double capacityX = area.left() + memory->capacity / scale * area.width();
        if (!memory->fits()) {
            painter.fillRect(QRectF(capacityX, area.top(), x - capacityX, area.height()),
                             QBrush(Qt::black, Qt::BDiagPattern));
        }
        painter.setPen(figurePen(palette::kText, 2));
        painter.drawLine(QPointF(capacityX, area.top()), QPointF(capacityX, area.bottom()));
        painter.setPen(figurePen(palette::kGrey, 1));
        painter.drawRect(area);
    }

private:
    const MemoryBar& bar_;
};

} // namespace

MemoryBar::MemoryBar(QWidget* parent)
    : QGroupBox(tr("HBM per core"), parent)
    , summary_(new QLabel(this))
    , strip_(new Strip(*this, this))
    , legend_(new QLabel(this)) {
    setObjectName("memoryBar");
    auto* column = new QVBoxLayout(this);
    summary_->setWordWrap(true);
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::RichText);
    column->addWidget(summary_);
    column->addWidget(strip_);
    column->addWidget(legend_);
    setToolTip(tr("What one core keeps in HBM for a training step, from the step plan: fp32 "
                  "weights and their bf16 copies, fp32 gradients, the optimizer's state, the "
                  "activations each layer keeps for its backward pass and the largest layer's "
                  "workspace. Where the activations would not fit, layers are recomputed in the "
                  "backward pass instead of kept (remat auto), as the summary says. The line "
                  "marks the capacity; a configuration over it is refused"));
    clear();
}

void MemoryBar::clear() {
    memory_.reset();
    parts_.clear();
    summary_->setText(tr("No configuration analysed yet."));
    legend_->clear();
    strip_->update();
}

void MemoryBar::setMemory(const MemoryUse& memory, bool refused) {
    memory_ = memory;
    parts_ = {{"weights", memory.weights},
              {"gradients", memory.gradients},
              {"optimizer state", memory.optimizerState},
              {"activations", memory.activations},
              {"workspace", memory.workspace}};
    summary_->setText(summary());
    summary_->setStyleSheet(memory.fits() && !refused ? QString()
                                                      : QStringLiteral("color: #a93226;"));
    legend_->setText(legendText());
    strip_->update();
}

QString MemoryBar::summary() const {
    if (!memory_) {
        return tr("No configuration analysed yet.");
    }
    const double share = memory_->capacity > 0 ? 100 * memory_->total() / memory_->capacity : 0;
    const Recompute& recompute = memory_->recompute;
    const QString recomputed =
        recompute.layers > 0
            ? tr(", recomputing %n layer(s) (%1 ms per step) spares %2 of activations", "",
                 recompute.layers)
                  .arg(recompute.seconds * 1e3, 0, 'f', 1)
                  .arg(partSize(recompute.savedBytes))
            : QString();
    if (!memory_->fits()) {
        return tr("Needs %1 of %2: does not fit (%3 %)%4")
            .arg(gib(memory_->total()), gib(memory_->capacity))
            .arg(share, 0, 'f', 0)
            .arg(recomputed);
    }
    return tr("%1 of %2 used (%3 %)%4")
        .arg(gib(memory_->total()), gib(memory_->capacity))
        .arg(share, 0, 'f', 0)
        .arg(recomputed);
}

QString MemoryBar::legendText() const {
    QStringList entries;
    std::size_t i = 0;
    for (const Part& part : parts_) {
        entries << QString("<span style=\"color:%1\">&#9632;</span>&nbsp;%2&nbsp;%3")
                       .arg(toColor(kPartColours[i++ % std::size(kPartColours)]).name(),
                            QString::fromStdString(part.label).replace(' ', "&nbsp;"),
                            partSize(part.bytes).toHtmlEscaped().replace(' ', "&nbsp;"));
    }
    return entries.join(QStringLiteral(" &nbsp; "));
}

} // namespace podscope::ui
