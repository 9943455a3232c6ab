#pragma once

#include "color/ColorScale.hpp"
#include "scene/SceneLayout.hpp"

#include <QImage>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

namespace podscope::ui {

class VtkRenderSurface;

// The 3-D view: a VTK render window drawing into Qt's OpenGL context (Debian's VTK Qt module
// is built for Qt 5, so this is our own bridge; see shared notes/toolchain.md). VTK draws into
// a native child window (a QOpenGLWindow in a window container) rather than a QOpenGLWidget:
// under software OpenGL, a QOpenGLWidget makes Qt compose the whole top-level window through
// OpenGL on every frame, which halves the frame rate. This class and its .cpp are the only
// place that includes VTK headers.
class VtkView : public QWidget {
    Q_OBJECT
public:
    explicit VtkView(QWidget* parent = nullptr);
    // The OpenGL format VTK needs (3.2 core profile; no multisampling, which costs 4-6x under
    // software rendering). Call before the QApplication exists.
    static void useDefaultSurfaceFormat();
    ~VtkView() override;

    // Replaces what is drawn; colours reset to neutral and the camera frames the scene.
    void setScene(const SceneGeometry& scene);
    // One colour per chip (ChipId order) and per link (SceneGeometry::links order).
    void setChipColors(const std::vector<Rgb>& colors);
    void setLinkColors(const std::vector<Rgb>& colors);
    // Multislice: the colour of every DCN link between the slices.
    void setDcnLinkColor(Rgb color);
    // Small markers for chunks in flight.
    void setMarkers(const std::vector<Vec3>& positions);
    // Chips drawn enlarged and outlined (the selection and its ring or group).
    void setHighlighted(const std::vector<ChipId>& chips);

    enum class CameraPreset { Reset, Top, Side, Isometric };
    void setCamera(CameraPreset preset);

    // The chip drawn nearest to a widget position (within a few pixels of its cube), or -1.
    ChipId chipAt(QPoint position) const;
    // Where a chip appears in widget coordinates (for tests and tooltips).
    QPoint widgetPositionOf(ChipId chip) const;
    // The link (index into SceneGeometry::links) whose drawn midpoint is nearest a widget
    // position, within a few pixels, or -1; and where a link's midpoint appears.
    int linkAt(QPoint position) const;
    QPoint widgetPositionOfLink(int link) const;

    // Screen pixels per scene unit (the distance between neighbouring chips) at the camera's
    // focal point; 0 before the view has a size.
    double pixelsPerUnit() const;
    // Whether the chunk markers are drawn at the last render's scale.
    bool markersShown() const;

    // Median and last VTK render time in milliseconds (the part inside paintGL).
    double lastRenderMs() const;
    void setMultiSamples(int samples);

    // Schedules a repaint of the 3-D scene (not of the surrounding widgets).
    void requestRender();
    // The rendered scene as an image, at the view's size.
    QImage grabFramebuffer();
    // The scene rendered afresh at `size` pixels into VTK's off-screen framebuffers (not a
    // scaled screen grab), with the camera refitted to that shape unless the user moved it;
    // the view on screen is left as it was. Null when there is no OpenGL context yet (the
    // view has never been shown) or the size is beyond what the OpenGL driver renders.
    // `background`, when given, replaces the view's dark background for this image only (a
    // light one for print); the selection outline turns black on a light background.
    QImage renderImage(QSize size, std::optional<Rgb> background = std::nullopt);
    // The native window VTK draws into (for sending synthetic input in tests).
    QWindow* renderWindow() const;

signals:
    void chipHovered(int chip);
    void chipClicked(int chip);
    // A click that hit no chip but a link (index into SceneGeometry::links).
    void linkClicked(int link);
    // A frame has been rendered and swapped to the screen.
    void frameSwapped();

private:
    friend class VtkRenderSurface;
    void initializeGL();
    void resizeGL(int width, int height);
    void paintGL();
    // Renders the scene into VTK's framebuffers at the render window's current size.
    void renderScene();
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void fitCamera();
    void showMarkersAtThisScale();
    double devicePixelRatioF() const;
    QPoint project(const Vec3& point) const;

    struct Impl;
    std::unique_ptr<Impl> impl_;
    VtkRenderSurface* surface_ = nullptr;
    QPoint pressPosition_;
};

} // namespace podscope::ui
