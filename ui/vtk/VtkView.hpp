#pragma once

#include "color/ColorScale.hpp"
#include "scene/SceneLayout.hpp"

#include <QImage>
#include <QOpenGLWidget>

#include <memory>
#include <vector>

namespace podscope::ui {

// The 3-D view: a QOpenGLWidget hosting a VTK render window in Qt's OpenGL context (Debian's
// VTK Qt module is built for Qt 5, so this is our own bridge; see shared notes/toolchain.md).
// This class and its .cpp are the only place that includes VTK headers.
class VtkView : public QOpenGLWidget {
    Q_OBJECT
public:
    explicit VtkView(QWidget* parent = nullptr);
    ~VtkView() override;

    // Replaces what is drawn; colours reset to neutral and the camera frames the scene.
    void setScene(const SceneGeometry& scene);
    // One colour per chip (ChipId order) and per link (SceneGeometry::links order).
    void setChipColors(const std::vector<Rgb>& colors);
    void setLinkColors(const std::vector<Rgb>& colors);
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

    // Median and last VTK render time in milliseconds (the part inside paintGL).
    double lastRenderMs() const;
    void setMultiSamples(int samples);

signals:
    void chipHovered(int chip);
    void chipClicked(int chip);
    void frameSwappedAfterRender();

protected:
    void initializeGL() override;
    void resizeGL(int width, int height) override;
    void paintGL() override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void fitCamera();

    struct Impl;
    std::unique_ptr<Impl> impl_;
    QPoint pressPosition_;
};

} // namespace podscope::ui
