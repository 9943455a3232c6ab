#pragma once

#include "color/ColorScale.hpp"
#include "scene/LinkKey.hpp"

#include <QImage>
#include <QRect>
#include <QString>
#include <QStringList>
#include <optional>

namespace podscope::ui {

// What a figure of the 3-D view adds to the bare render; all off by default (the render alone,
// as before). On the command line: --export-legend, --export-colorbar, --export-caption,
// --export-light; in File > Export > 3-D view, four check boxes.
struct ViewFigureOptions {
    bool legend = false; // the chip colours (state, group, host or pod) and the link kinds drawn
    bool colorBar = false;        // the link-utilisation scale with ticks and unit
    bool caption = false;         // configuration, phase and time above the scene
    bool lightBackground = false; // white behind the scene and the overlays, for print
    bool any() const { return legend || colorBar || caption || lightBackground; }
};

// What the overlays say, from the window at the moment of the export.
struct ViewFigureContent {
    QString configuration; // first caption line: model, framework, slice, batch, collective
    QString phase;         // "reduce-scatter along Y, chunk 3 of 4"
    QString time;          // "t = 412 µs of 1,230 µs"
    Legend chips;          // categories
    Legend links;          // continuous, 0..100 %
    std::vector<LinkKeyEntry> linkKinds; // the view's key of link kinds (keyIsWorthShowing)
};

// The background colours: the view's own dark blue-grey, or white for print.
Rgb viewBackground(bool light);

// Where the scene goes in a figure of `size` pixels: below the caption band, left of the legend
// column; the whole image when no overlay is asked for. Render the scene at this rect's size.
QRect viewFigureSceneRect(QSize size, const ViewFigureContent& content,
                          const ViewFigureOptions& options);

// The figure: `scene` (rendered at viewFigureSceneRect's size, on viewBackground) with the
// caption, legend and colour bar drawn around it in the figures' font, sized to the image.
QImage composeViewFigure(const QImage& scene, QSize size, const ViewFigureContent& content,
                         const ViewFigureOptions& options);

} // namespace podscope::ui
