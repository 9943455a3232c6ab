#include "export/ViewFigure.hpp"

#include "charts/FigureStyle.hpp"
#include "charts/LinkStrokeSample.hpp"
#include "charts/WordWrap.hpp"
#include "figure/AxisTicks.hpp"
#include "figure/Palette.hpp"

#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace podscope::ui {
namespace {

// The overlays' sizes scale with the image: at 1000 px tall, text of 26 and 20 px, which reads
// on a projector and in print.
struct Metrics {
    double scale;
    QFont heading, text, legendTitle;
    double pad;

    explicit Metrics(QSize size)
        : scale(std::max(0.4, size.height() / 1000.0))
        , heading(figureFont(FigureFont::Title))
        , text(figureFont(FigureFont::Legend))
        , legendTitle(figureFont(FigureFont::Title))
        , pad(16 * scale) {
        heading.setPixelSize(static_cast<int>(std::lround(26 * scale)));
        text.setPixelSize(static_cast<int>(std::lround(20 * scale)));
        legendTitle.setPixelSize(static_cast<int>(std::lround(20 * scale)));
    }
};

QString secondLine(const ViewFigureContent& content) {
    QStringList parts;
    for (const QString& part : {content.phase, content.time}) {
        if (!part.isEmpty()) {
            parts << part;
        }
    }
    return parts.join(QString::fromUtf8("  \xC2\xB7  "));
}

double captionHeight(const ViewFigureContent& content, const Metrics& m, double width) {
    const double lines1 = wrapWords(content.configuration, m.heading, width).size();
    const double lines2 = wrapWords(secondLine(content), m.text, width).size();
    return m.pad + lines1 * QFontMetricsF(m.heading).lineSpacing() +
           lines2 * QFontMetricsF(m.text).lineSpacing() + m.pad / 2;
}

// The colour bar's ticks: round percentages that fit its height.
AxisTicks colorBarTicks(const Legend& links, double height, const Metrics& m) {
    const auto choices =
        linearTickChoices(links.minimum, links.maximum, true, NumberStyle::Decimal, 11);
    const double line = QFontMetricsF(m.text).height();
    for (const AxisTicks& choice : choices) {
        if (choice.high <= links.maximum * 1.0001 &&
            height / std::max<double>(1, choice.ticks.size() - 1) >= line * 2.5) {
            return choice;
        }
    }
    return {links.minimum,
            links.maximum,
            {{links.minimum, formatTick(links.minimum, NumberStyle::Decimal, 1)},
             {links.maximum, formatTick(links.maximum, NumberStyle::Decimal, 1)}}};
}

const QString kLinkKindsTitle = QStringLiteral("Links drawn");

bool showsLinkKinds(const ViewFigureContent& content, const ViewFigureOptions& options) {
    return options.legend && keyIsWorthShowing(content.linkKinds);
}

QString legendTitle(const Legend& legend) {
    const QString title = QString::fromStdString(legend.title);
    return legend.unit.empty() ? title : title + " (" + QString::fromStdString(legend.unit) + ")";
}

double columnWidth(const ViewFigureContent& content, const ViewFigureOptions& options,
                   const Metrics& m) {
    const QFontMetricsF text(m.text);
    const QFontMetricsF title(m.legendTitle);
    double width = 0;
    if (options.legend && !content.chips.categories.empty()) {
        width = std::max(width, title.horizontalAdvance(legendTitle(content.chips)));
        for (const auto& [name, colour] : content.chips.categories) {
            width = std::max(width, text.height() * 1.6 +
                                        text.horizontalAdvance(QString::fromStdString(name)));
        }
    }
    if (showsLinkKinds(content, options)) {
        width = std::max(width, title.horizontalAdvance(kLinkKindsTitle));
        for (const LinkKeyEntry& entry : content.linkKinds) {
            width = std::max(width, text.height() * 2.4 +
                                        text.horizontalAdvance(QString::fromStdString(entry.label)));
        }
    }
    if (options.colorBar) {
        width = std::max(width, title.horizontalAdvance(legendTitle(content.links)));
        width = std::max(width, 28 * m.scale + text.horizontalAdvance(QStringLiteral(" 100 ")) +
                                    8 * m.scale);
    }
    return width > 0 ? width + 2 * m.pad : 0;
}

} // namespace

Rgb viewBackground(bool light) {
    return light ? Rgb{255, 255, 255} : Rgb{31, 33, 43};
}

QRect viewFigureSceneRect(QSize size, const ViewFigureContent& content,
                          const ViewFigureOptions& options) {
    const Metrics m(size);
    const double column = std::min(columnWidth(content, options, m), size.width() * 0.4);
    const double top = options.caption ? captionHeight(content, m, size.width() - 2 * m.pad) : 0;
    return QRect(0, static_cast<int>(std::ceil(top)),
                 std::max(1, size.width() - static_cast<int>(std::ceil(column))),
                 std::max(1, size.height() - static_cast<int>(std::ceil(top))));
}

QImage composeViewFigure(const QImage& scene, QSize size, const ViewFigureContent& content,
                         const ViewFigureOptions& options) {
    const Metrics m(size);
    const QRect sceneRect = viewFigureSceneRect(size, content, options);
    const QColor background = toColor(viewBackground(options.lightBackground));
    const QColor ink = options.lightBackground ? toColor(palette::kText) : QColor(232, 234, 240);
    QImage figure(size, QImage::Format_RGB32);
    figure.fill(background);
    QPainter p(&figure);
    p.setRenderHint(QPainter::Antialiasing);
    p.setRenderHint(QPainter::TextAntialiasing);
    p.drawImage(sceneRect.topLeft(), scene);
    p.setPen(ink);

    if (options.caption) {
        double y = m.pad;
        const double width = size.width() - 2 * m.pad;
        for (const auto& [text, font] : {std::pair{content.configuration, m.heading},
                                         std::pair{secondLine(content), m.text}}) {
            const QFontMetricsF metrics(font);
            p.setFont(font);
            for (const QString& line : wrapWords(text, font, width)) {
                p.drawText(QPointF(m.pad, y + metrics.ascent()), line);
                y += metrics.lineSpacing();
            }
        }
    }

    const double left = sceneRect.right() + 1 + m.pad;
    double y = sceneRect.top() + m.pad;
    const QFontMetricsF text(m.text);
    const QFontMetricsF title(m.legendTitle);
    if (options.legend && !content.chips.categories.empty()) {
        p.setFont(m.legendTitle);
        p.drawText(QPointF(left, y + title.ascent()), legendTitle(content.chips));
        y += title.lineSpacing() * 1.2;
        p.setFont(m.text);
        const double swatch = text.height() * 0.8;
        for (const auto& [name, colour] : content.chips.categories) {
            p.setPen(QPen(ink, std::max(1.0, m.scale)));
            p.setBrush(toColor(colour));
            p.drawRect(QRectF(left, y + (text.height() - swatch) / 2, swatch, swatch));
            p.drawText(QPointF(left + text.height() * 1.6, y + text.ascent()),
                       QString::fromStdString(name));
            y += text.lineSpacing() * 1.15;
        }
        y += m.pad;
    }
    if (showsLinkKinds(content, options)) {
        p.setFont(m.legendTitle);
        p.setPen(ink);
        p.drawText(QPointF(left, y + title.ascent()), kLinkKindsTitle);
        y += title.lineSpacing() * 1.2;
        p.setFont(m.text);
        const double sample = text.height() * 1.8;
        for (const LinkKeyEntry& entry : content.linkKinds) {
            drawLinkStroke(p, entry.stroke,
                           QRectF(left, y + text.height() * 0.3, sample, text.height() * 0.4), ink,
                           std::max(1.5, 2.5 * m.scale));
            p.setPen(ink);
            p.drawText(QPointF(left + text.height() * 2.4, y + text.ascent()),
                       QString::fromStdString(entry.label));
            y += text.lineSpacing() * 1.15;
        }
        y += m.pad;
    }
    if (options.colorBar) {
        p.setFont(m.legendTitle);
        p.setPen(ink);
        p.drawText(QPointF(left, y + title.ascent()), legendTitle(content.links));
        y += title.lineSpacing() + text.height() / 2;
        const double barWidth = 28 * m.scale;
        const double barHeight =
            std::max(text.height() * 3,
                     std::min(sceneRect.height() * 0.45, sceneRect.bottom() - y - text.height()));
        const QRectF bar(left, y, barWidth, barHeight);
        QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
        for (int i = 0; i <= 20; ++i) {
            gradient.setColorAt(i / 20.0, toColor(utilizationColor(static_cast<float>(i / 20.0))));
        }
        p.setPen(QPen(ink, std::max(1.0, m.scale)));
        p.setBrush(gradient);
        p.drawRect(bar);
        p.setFont(m.text);
        const AxisTicks ticks = colorBarTicks(content.links, barHeight, m);
        const double span = content.links.maximum - content.links.minimum;
        for (const Tick& tick : ticks.ticks) {
            const double ty = bar.bottom() - (tick.value - content.links.minimum) /
                                                 (span > 0 ? span : 1) * bar.height();
            p.drawLine(QPointF(bar.right(), ty), QPointF(bar.right() + 6 * m.scale, ty));
            p.drawText(QPointF(bar.right() + 9 * m.scale, ty + text.ascent() / 2 - 1),
                       QString::fromStdString(tick.label));
        }
    }
    return figure;
}

} // namespace podscope::ui
