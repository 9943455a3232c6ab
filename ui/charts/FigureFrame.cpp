#include "charts/FigureFrame.hpp"

#include "charts/FigureAxis.hpp"
#include "charts/FigureLegend.hpp"
#include "charts/FigureStyle.hpp"
#include "charts/WordWrap.hpp"

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
// Charts shorter than this (logical pixels) put title and subtitle on one line when they fit.
constexpr qreal kShortChart = 320;

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
    const QFont titleFont = figureFont(FigureFont::Title);
    const QFont subtitleFont = figureFont(FigureFont::Subtitle);
    const QString separator = QString::fromUtf8("  \xC2\xB7  ");
    const QString subtitleSpan =
        QString("<span style=\"font-size:%1px; font-weight:normal\">%2</span>")
            .arg(subtitleFont.pixelSize());
    QString html = "<div align=\"center\">";
    // A short chart (the app's chart dock) keeps its plot tall enough by putting the subtitle
    // beside the title when the line has room for both.
    const bool oneLine =
        chart_->size().height() < kShortChart && !subtitle_.isEmpty() &&
        QFontMetricsF(titleFont).horizontalAdvance(title_) +
                QFontMetricsF(subtitleFont).horizontalAdvance(separator + subtitle_) <=
            width - kTitleSlack;
    if (oneLine) {
        html += title_.toHtmlEscaped() + subtitleSpan.arg((separator + subtitle_).toHtmlEscaped());
    } else {
        html += escaped(wrapWords(title_, titleFont, width - kTitleSlack)).join("<br>");
        const QStringList subtitleLines = wrapWords(subtitle_, subtitleFont, width - kTitleSlack);
        if (!subtitleLines.isEmpty()) {
            html += "<br>" + subtitleSpan.arg(escaped(subtitleLines).join("<br>"));
        }
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
