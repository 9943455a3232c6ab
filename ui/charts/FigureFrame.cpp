#include "charts/FigureFrame.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"

#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QStringList>

namespace podscope::ui {
namespace {

// The chart's margins without the legend's band.
constexpr QMargins kMargins(8, 6, 12, 6);
// Room the title's text document keeps around its text, and a little more.
constexpr qreal kTitleSlack = 16;

// Words of `text` in lines no wider than `width` in `font` (a word longer than that on its own
// line: it would not fit anywhere, and is not cut).
QStringList wrap(const QString& text, const QFont& font, qreal width) {
    const QFontMetricsF metrics(font);
    QStringList lines;
    QString line;
    for (const QString& word : text.split(' ', Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + ' ' + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width) {
            lines << line;
            line = word;
        } else {
            line = longer;
        }
    }
    if (!line.isEmpty()) {
        lines << line;
    }
    return lines;
}

QStringList escaped(QStringList lines) {
    for (QString& line : lines) {
        line = line.toHtmlEscaped();
    }
    return lines;
}

} // namespace

FigureFrame::FigureFrame(QChart* chart)
    : QObject(chart)
    , chart_(chart)
    , legend_(new FigureLegend(chart)) {
    styleChart(chart);
    chart->setMargins(kMargins);
    connect(chart, &QChart::geometryChanged, this, &FigureFrame::fitToSize);
    connect(chart, &QChart::plotAreaChanged, this, &FigureFrame::fitAxes);
}

void FigureFrame::setTitle(const QString& title, const QString& subtitle) {
    title_ = title;
    subtitle_ = subtitle;
    fitToSize();
}

void FigureFrame::addAxis(FigureAxis* axis, Qt::Alignment alignment) {
    axis->setParent(this);
    chart_->addAxis(axis->axis(), alignment);
    axes_.push_back(
        {axis, alignment & (Qt::AlignLeft | Qt::AlignRight) ? Qt::Vertical : Qt::Horizontal});
}

void FigureFrame::refresh() {
    legend_->setEntries(FigureLegend::entriesOf(*chart_));
    fitToSize();
    fitAxes();
}

void FigureFrame::fitToSize() {
    const qreal width = chart_->size().width() - kMargins.left() - kMargins.right();
    if (width <= 0) {
        return;
    }
    const QStringList titleLines = wrap(title_, figureFont(FigureFont::Title), width - kTitleSlack);
    const QStringList subtitleLines =
        wrap(subtitle_, figureFont(FigureFont::Subtitle), width - kTitleSlack);
    QString html = "<div align=\"center\">" + escaped(titleLines).join("<br>");
    if (!subtitleLines.isEmpty()) {
        html += QString("<br><span style=\"font-size:%1px; font-weight:normal\">%2</span>")
                    .arg(figureFont(FigureFont::Subtitle).pixelSize())
                    .arg(escaped(subtitleLines).join("<br>"));
    }
    html += "</div>";
    if (chart_->title() != html) {
        chart_->setTitle(html);
    }
    const qreal legendHeight = legend_->entries().empty() ? 0 : legend_->layOut(width);
    const QMargins margins(kMargins.left(), kMargins.top(), kMargins.right(),
                           kMargins.bottom() + static_cast<int>(std::ceil(legendHeight)) +
                               (legendHeight > 0 ? 4 : 0));
    if (chart_->margins() != margins) {
        chart_->setMargins(margins);
    }
    legend_->setVisible(legendHeight > 0);
    legend_->setPos(kMargins.left(), chart_->size().height() - kMargins.bottom() - legendHeight);
}

void FigureFrame::fitAxes() {
    if (fitting_) {
        return;
    }
    fitting_ = true;
    const QRectF plot = chart_->plotArea();
    for (const auto& [axis, orientation] : axes_) {
        axis->fit(orientation == Qt::Horizontal ? plot.width() : plot.height());
    }
    fitting_ = false;
    emit plotAreaFitted();
}

} // namespace podscope::ui
