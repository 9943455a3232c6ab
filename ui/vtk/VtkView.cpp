#include "vtk/VtkView.hpp"

#include "scene/LinkKey.hpp"

#include <QKeyEvent>
#include <QMouseEvent>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWindow>
#include <QSurfaceFormat>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <vtkActor.h>
#include <vtkCallbackCommand.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkCubeSource.h>
#include <vtkGenericOpenGLRenderWindow.h>
#include <vtkGenericRenderWindowInteractor.h>
#include <vtkGlyph3DMapper.h>
#include <vtkIdTypeArray.h>
#include <vtkInteractorStyleTrackballCamera.h>
#include <vtkNew.h>
#include <vtkOpenGLState.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkSmartPointer.h>
#include <vtkUnsignedCharArray.h>

namespace podscope::ui {
namespace {

constexpr unsigned char kNeutralChip[3] = {150, 156, 166};
constexpr unsigned char kNeutralLink[3] = {70, 76, 90};
// Marks of a straight link leaving its block (scene/LinkKey.hpp: dashed between blocks, dotted
// wrap-around); on arcs, dashes are every other segment and dots the first part of each.
constexpr int kStraightDashes = 3;
constexpr int kStraightDots = 6;
constexpr double kDotShare = 0.3; // of a dot's period (or an arc's segment) that is drawn

vtkSmartPointer<vtkUnsignedCharArray> colorArray(vtkIdType count, const unsigned char rgb[3]) {
    auto colors = vtkSmartPointer<vtkUnsignedCharArray>::New();
    colors->SetName("colors");
    colors->SetNumberOfComponents(3);
    colors->SetNumberOfTuples(count);
    for (vtkIdType i = 0; i < count; ++i) {
        colors->SetTypedTuple(i, rgb);
    }
    return colors;
}

constexpr int kCubeCorners = 8;
// Brightness (of 256) per corner, by corner index bits (x, y, z): a fixed light from above
// and the front instead of lighting, which keeps the software rasteriser's shaders trivial
// and lets the cubes share corners (the vertex stage runs on the UI thread under llvmpipe).
constexpr int kCornerShade[8] = {110, 140, 150, 180, 190, 225, 230, 256};

// Corners of axis-aligned cubes centred on the chips; corner k has offsets from its bits.
vtkSmartPointer<vtkPoints> cubeMesh(const std::vector<Vec3>& centres, double size) {
    auto points = vtkSmartPointer<vtkPoints>::New();
    points->SetDataTypeToFloat();
    points->SetNumberOfPoints(static_cast<vtkIdType>(centres.size()) * kCubeCorners);
    const double half = size / 2;
    vtkIdType id = 0;
    for (const Vec3& c : centres) {
        for (int k = 0; k < kCubeCorners; ++k, ++id) {
            points->SetPoint(id, c.x + ((k & 1) ? half : -half), c.y + ((k & 2) ? half : -half),
                             c.z + ((k & 4) ? half : -half));
        }
    }
    return points;
}

// The faces of each cube that can be seen from `eye`: at most three of six. Building only
// those halves the triangles the software rasteriser sets up; rebuilt when the camera moves.
void visibleCubeFaces(const std::vector<Vec3>& centres, double size, const double eye[3],
                      vtkCellArray* polys) {
    // Faces by corner index (bits x, y, z), wound outwards, with the axis and side they face.
    static const vtkIdType faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                          {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    static const int faceAxis[6] = {2, 2, 1, 1, 0, 0};
    static const int faceSide[6] = {-1, 1, -1, 1, -1, 1};
    const double half = size / 2;
    polys->Reset();
    polys->AllocateExact(static_cast<vtkIdType>(centres.size()) * 3,
                         static_cast<vtkIdType>(centres.size()) * 12);
    for (std::size_t c = 0; c < centres.size(); ++c) {
        const double centre[3] = {centres[c].x, centres[c].y, centres[c].z};
        const auto base = static_cast<vtkIdType>(c) * kCubeCorners;
        for (int f = 0; f < 6; ++f) {
            const int axis = faceAxis[f];
            // Seen when the eye lies beyond the face's plane.
            if ((eye[axis] - (centre[axis] + faceSide[f] * half)) * faceSide[f] <= 0) {
                continue;
            }
            const vtkIdType quad[4] = {base + faces[f][0], base + faces[f][1], base + faces[f][2],
                                       base + faces[f][3]};
            polys->InsertNextCell(4, quad);
        }
    }
    polys->Modified();
}

} // namespace

struct VtkView::Impl {
    vtkNew<vtkGenericOpenGLRenderWindow> window;
    vtkNew<vtkRenderer> renderer;
    vtkNew<vtkGenericRenderWindowInteractor> interactor;
    vtkNew<vtkInteractorStyleTrackballCamera> style;
    vtkNew<vtkCallbackCommand> windowEvents;

    // Chips are one mesh of cubes rather than glyphs: recolouring then re-uploads one colour
    // array, where a glyph mapper rebuilds every instance.
    vtkNew<vtkPolyData> chips;
    vtkNew<vtkPolyDataMapper> chipMapper;
    vtkNew<vtkActor> chipActor;
    vtkSmartPointer<vtkUnsignedCharArray> chipColors;
    vtkNew<vtkCellArray> chipFaces;
    vtkMTimeType facesCameraTime = 0; // camera MTime the faces were built for

    vtkNew<vtkPolyData> links;
    vtkNew<vtkPolyDataMapper> linkMapper;
    vtkNew<vtkActor> linkActor;
    vtkSmartPointer<vtkUnsignedCharArray> linkColors;
    // Links leaving a block (between blocks, wrap-around: the optical ones where a machine
    // joins cubes by switches) are drawn dashed, several cells each: the link of every cell.
    std::vector<std::int32_t> linkOfCell;

    // Multislice: the data-centre network between the slices, one colour for all.
    vtkNew<vtkPolyData> dcnLinks;
    vtkNew<vtkPolyDataMapper> dcnMapper;
    vtkNew<vtkActor> dcnActor;

    // Chunks in flight can number thousands on the multipod: points, not glyphs.
    vtkNew<vtkPolyData> markers;
    vtkNew<vtkPolyDataMapper> markerMapper;
    vtkNew<vtkPoints> markerPoints;       // float coordinates, refilled per frame
    vtkNew<vtkIdTypeArray> markerOffsets; // vertex cells: 0, 1, ..., n
    vtkNew<vtkIdTypeArray> markerConnectivity;
    vtkNew<vtkCellArray> markerVertices;
    vtkNew<vtkActor> markerActor;

    vtkNew<vtkPolyData> highlight;
    vtkNew<vtkGlyph3DMapper> highlightMapper;
    vtkNew<vtkCubeSource> highlightCube;
    vtkNew<vtkActor> highlightActor;

    bool inPaint = false;
    std::vector<Vec3> chipPositions;
    std::size_t sliceChips = 0;      // chips of one slice: every slice shows the same colours
    std::vector<Vec3> linkMidpoints; // where each link is picked
    double chipSize = 0.6;
    std::vector<double> renderTimesMs;
    double lastRenderMs = 0;
    bool fitPending = false;
    bool userMovedCamera = false; // until then, the camera refits when the view is resized
};

// The native window VTK renders into; it hands everything to its VtkView.
class VtkRenderSurface : public QOpenGLWindow {
public:
    explicit VtkRenderSurface(VtkView& view)
        : QOpenGLWindow(QOpenGLWindow::NoPartialUpdate)
        , view_(view) {}

protected:
    void initializeGL() override { view_.initializeGL(); }
    void resizeGL(int w, int h) override { view_.resizeGL(w, h); }
    void paintGL() override { view_.paintGL(); }
    void mousePressEvent(QMouseEvent* event) override { view_.mousePressEvent(event); }
    void mouseReleaseEvent(QMouseEvent* event) override { view_.mouseReleaseEvent(event); }
    void mouseMoveEvent(QMouseEvent* event) override { view_.mouseMoveEvent(event); }
    void wheelEvent(QWheelEvent* event) override { view_.wheelEvent(event); }
    void keyPressEvent(QKeyEvent* event) override { view_.keyPressEvent(event); }

private:
    VtkView& view_;
};

VtkView::VtkView(QWidget* parent)
    : QWidget(parent)
    , impl_(std::make_unique<Impl>()) {
    surface_ = new VtkRenderSurface(*this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* container = QWidget::createWindowContainer(surface_, this);
    container->setFocusPolicy(Qt::StrongFocus);
    layout->addWidget(container);
    connect(surface_, &QOpenGLWindow::frameSwapped, this, &VtkView::frameSwapped);
    auto& d = *impl_;
    d.window->AddRenderer(d.renderer);
    d.window->SetMultiSamples(0); // software rendering: MSAA costs 4-6x on llvmpipe
    d.interactor->SetRenderWindow(d.window);
    d.interactor->SetInteractorStyle(d.style);
    d.interactor->EnableRenderOff(); // Qt decides when to paint
    d.renderer->SetBackground(0.12, 0.13, 0.17);
    d.renderer->SetBackgroundAlpha(1.0); // opaque, so grabbed frames match the screen

    d.windowEvents->SetClientData(this);
    d.windowEvents->SetCallback([](vtkObject*, unsigned long event, void* client, void* callData) {
        auto* self = static_cast<VtkView*>(client);
        auto& impl = *self->impl_;
        switch (event) {
        case vtkCommand::WindowMakeCurrentEvent:
            // QOpenGLWindow::makeCurrent() would rebind its framebuffer behind VTK's state cache.
            if (self->surface_->context()) {
                self->surface_->context()->makeCurrent(self->surface_);
            }
            break;
        case vtkCommand::WindowIsCurrentEvent:
            *static_cast<bool*>(callData) =
                self->surface_->context() &&
                QOpenGLContext::currentContext() == self->surface_->context();
            break;
        case vtkCommand::WindowFrameEvent:
            if (!impl.inPaint) {
                self->requestRender();
            }
            break;
        default:
            break;
        }
    });
    d.window->AddObserver(vtkCommand::WindowMakeCurrentEvent, d.windowEvents);
    d.window->AddObserver(vtkCommand::WindowIsCurrentEvent, d.windowEvents);
    d.window->AddObserver(vtkCommand::WindowFrameEvent, d.windowEvents);

    d.chipMapper->SetInputData(d.chips);
    d.chipMapper->SetScalarModeToUsePointFieldData();
    d.chipMapper->SelectColorArray("colors");
    d.chipMapper->SetColorModeToDirectScalars();
    d.chipActor->SetMapper(d.chipMapper);
    d.chipActor->GetProperty()->LightingOff();
    d.chipActor->GetProperty()->BackfaceCullingOn();
    d.renderer->AddActor(d.chipActor);

    d.linkMapper->SetInputData(d.links);
    d.linkMapper->SetScalarModeToUseCellFieldData();
    d.linkMapper->SelectColorArray("colors");
    d.linkMapper->SetColorModeToDirectScalars();
    d.linkActor->SetMapper(d.linkMapper);
    d.linkActor->GetProperty()->SetLineWidth(
        1.0f); // wider lines need a geometry shader: slow in software
    d.linkActor->GetProperty()->LightingOff();
    d.renderer->AddActor(d.linkActor);

    d.dcnMapper->SetInputData(d.dcnLinks);
    d.dcnMapper->ScalarVisibilityOff();
    d.dcnActor->SetMapper(d.dcnMapper);
    d.dcnActor->GetProperty()->LightingOff();
    d.dcnActor->GetProperty()->SetColor(kNeutralLink[0] / 255.0, kNeutralLink[1] / 255.0,
                                        kNeutralLink[2] / 255.0);
    d.renderer->AddActor(d.dcnActor);

    d.markerPoints->SetDataTypeToFloat();
    d.markerMapper->SetInputData(d.markers);
    d.markerMapper->ScalarVisibilityOff();
    d.markerActor->SetMapper(d.markerMapper);
    d.markerActor->GetProperty()->SetColor(1.0, 0.35, 0.25);
    d.markerActor->GetProperty()->SetPointSize(5.0f);
    d.markerActor->GetProperty()->LightingOff();
    d.renderer->AddActor(d.markerActor);

    d.highlightMapper->SetInputData(d.highlight);
    d.highlightMapper->SetSourceConnection(d.highlightCube->GetOutputPort());
    d.highlightMapper->ScalingOff();
    d.highlightMapper->ScalarVisibilityOff();
    d.highlightActor->SetMapper(d.highlightMapper);
    d.highlightActor->GetProperty()->SetRepresentationToWireframe();
    d.highlightActor->GetProperty()->SetColor(1.0, 1.0, 1.0);
    d.highlightActor->GetProperty()->SetLineWidth(2.0f);
    d.highlightActor->GetProperty()->LightingOff();
    d.renderer->AddActor(d.highlightActor);
}

VtkView::~VtkView() {
    if (surface_->context()) {
        surface_->makeCurrent();
        impl_->window->Finalize();
        surface_->doneCurrent();
    }
}

void VtkView::requestRender() {
    surface_->update();
}

QImage VtkView::grabFramebuffer() {
    // QOpenGLWindow::grabFramebuffer reads whatever the back buffer holds after the last swap,
    // which is undefined: render a fresh frame and read it before it is swapped.
    if (!surface_->isExposed() || !surface_->context()) {
        return {};
    }
    surface_->makeCurrent();
    paintGL();
    const double ratio = devicePixelRatioF();
    const int w = static_cast<int>(surface_->width() * ratio);
    const int h = static_cast<int>(surface_->height() * ratio);
    QImage image(w, h, QImage::Format_RGBA8888);
    auto* gl = surface_->context()->functions();
    gl->glBindFramebuffer(GL_READ_FRAMEBUFFER, surface_->defaultFramebufferObject());
    gl->glPixelStorei(GL_PACK_ALIGNMENT, 4);
    gl->glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, image.bits());
    surface_->doneCurrent();
    return image.mirrored().convertToFormat(QImage::Format_RGB32); // OpenGL rows run bottom-up
}

QImage VtkView::renderImage(QSize size, std::optional<Rgb> background) {
    auto& d = *impl_;
    if (!surface_->context() || size.isEmpty()) {
        return {};
    }
    GLint largest[2] = {0, 0};
    surface_->makeCurrent();
    surface_->context()->functions()->glGetIntegerv(GL_MAX_VIEWPORT_DIMS, largest);
    if (size.width() > largest[0] || size.height() > largest[1]) {
        surface_->doneCurrent();
        return {};
    }
    // VTK renders into framebuffers of its own, sized by the render window: resize it, render,
    // read, and put everything back so that the next frame on screen is as before.
    const int screenWidth = d.window->GetSize()[0];
    const int screenHeight = d.window->GetSize()[1];
    vtkNew<vtkCamera> screenCamera;
    screenCamera->DeepCopy(d.renderer->GetActiveCamera());
    const bool screenFitPending = d.fitPending;
    double screenBackground[3];
    d.renderer->GetBackground(screenBackground);
    double screenHighlight[3];
    d.highlightActor->GetProperty()->GetColor(screenHighlight);
    if (background) {
        d.renderer->SetBackground(background->r / 255.0, background->g / 255.0,
                                  background->b / 255.0);
        const bool light = background->r + background->g + background->b > 3 * 128;
        const double outline = light ? 0.0 : 1.0;
        d.highlightActor->GetProperty()->SetColor(outline, outline, outline);
    }
    d.window->SetSize(size.width(), size.height());
    if (!d.userMovedCamera) {
        d.fitPending = true; // frame the scene for the export's shape, as a resize would
    }
    renderScene();
    vtkNew<vtkUnsignedCharArray> pixels;
    d.window->SetReadyForRendering(true); // VTK refuses to read pixels otherwise
    const bool read = d.window->GetRGBACharPixelData(0, 0, size.width() - 1, size.height() - 1,
                                                     1 /* the display framebuffer */, pixels) != 0;
    d.window->SetReadyForRendering(false);
    QImage image;
    const auto expected = static_cast<vtkIdType>(size.width()) * size.height() * 4; // RGBA
    if (read && pixels->GetNumberOfValues() == expected) {
        image = QImage(pixels->GetPointer(0), size.width(), size.height(), size.width() * 4,
                       QImage::Format_RGBA8888)
                    .mirrored() // OpenGL rows run bottom-up; mirrored() also copies the pixels
                    .convertToFormat(QImage::Format_RGB32); // the view is opaque on screen
    }
    d.window->SetSize(screenWidth, screenHeight);
    d.renderer->SetBackground(screenBackground);
    d.highlightActor->GetProperty()->SetColor(screenHighlight);
    d.renderer->GetActiveCamera()->DeepCopy(screenCamera);
    d.fitPending = screenFitPending;
    surface_->doneCurrent();
    requestRender();
    return image;
}

void VtkView::useDefaultSurfaceFormat() {
    QSurfaceFormat format;
    format.setRenderableType(QSurfaceFormat::OpenGL);
    format.setVersion(3, 2);
    format.setProfile(QSurfaceFormat::CoreProfile);
    format.setDepthBufferSize(24);
    format.setStencilBufferSize(8);
    format.setAlphaBufferSize(8);
    format.setSwapBehavior(QSurfaceFormat::DoubleBuffer);
    format.setSamples(0);
    QSurfaceFormat::setDefaultFormat(format);
}

QWindow* VtkView::renderWindow() const {
    return surface_;
}

double VtkView::devicePixelRatioF() const {
    return surface_->devicePixelRatio();
}

void VtkView::setMultiSamples(int samples) {
    impl_->window->SetMultiSamples(samples);
}

void VtkView::setScene(const SceneGeometry& scene) {
    auto& d = *impl_;
    d.chipPositions = scene.chipPositions;
    d.sliceChips = scene.chipPositions.size() / static_cast<std::size_t>(std::max(scene.slices, 1));
    d.chipSize = scene.chipSize;

    d.chips->Initialize();
    d.chips->SetPoints(cubeMesh(scene.chipPositions, scene.chipSize));
    // Faces for the new points now: the previous scene's faces may name points that no longer
    // exist, and VTK reads them (out of bounds, corrupting the heap) as soon as the camera is
    // fitted to the bounds below.
    visibleCubeFaces(d.chipPositions, d.chipSize, d.renderer->GetActiveCamera()->GetPosition(),
                     d.chipFaces);
    d.chips->SetPolys(d.chipFaces);
    d.facesCameraTime = 0; // faces follow the camera at the next render
    d.chipColors =
        colorArray(static_cast<vtkIdType>(scene.chipPositions.size()) * kCubeCorners, kNeutralChip);
    d.chips->GetPointData()->AddArray(d.chipColors);
    d.highlightCube->SetXLength(scene.chipSize * 1.5);
    d.highlightCube->SetYLength(scene.chipSize * 1.5);
    d.highlightCube->SetZLength(scene.chipSize * 1.5);

    vtkNew<vtkPoints> linkPoints;
    linkPoints->SetDataTypeToDouble();
    linkPoints->SetNumberOfPoints(static_cast<vtkIdType>(scene.linkPoints.size()));
    for (std::size_t i = 0; i < scene.linkPoints.size(); ++i) {
        const Vec3& p = scene.linkPoints[i];
        linkPoints->SetPoint(static_cast<vtkIdType>(i), p.x, p.y, p.z);
    }
    vtkNew<vtkCellArray> lines;
    d.linkOfCell.clear();
    d.linkOfCell.reserve(scene.links.size());
    for (std::size_t l = 0; l < scene.links.size(); ++l) {
        const auto begin = scene.linkPointBegin[l];
        const auto end = scene.linkPointBegin[l + 1];
        const LinkStroke stroke =
            l < scene.linkKinds.size() ? strokeOf(scene.linkKinds[l]) : LinkStroke::Solid;
        // A piece from t0 to t1 of the segment a-b, as a cell of its own.
        auto piece = [&](const Vec3& a, const Vec3& b, double t0, double t1) {
            lines->InsertNextCell(2);
            for (const double t : {t0, t1}) {
                lines->InsertCellPoint(linkPoints->InsertNextPoint(
                    a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t));
            }
            d.linkOfCell.push_back(static_cast<std::int32_t>(l));
        };
        if (stroke == LinkStroke::Solid) {
            lines->InsertNextCell(end - begin);
            for (auto p = begin; p < end; ++p) {
                lines->InsertCellPoint(p);
            }
            d.linkOfCell.push_back(static_cast<std::int32_t>(l));
            continue;
        }
        const bool dotted = stroke == LinkStroke::Dotted;
        if (end - begin > 2) {
            // An arc. Dashed: every other segment, no new points (fewer primitives than the
            // whole arc). Dotted: the first part of every segment.
            for (auto p = begin; p + 1 < end; p += dotted ? 1 : 2) {
                if (dotted) {
                    piece(scene.linkPoints[static_cast<std::size_t>(p)],
                          scene.linkPoints[static_cast<std::size_t>(p + 1)], 0, kDotShare);
                    continue;
                }
                lines->InsertNextCell(2);
                lines->InsertCellPoint(p);
                lines->InsertCellPoint(p + 1);
                d.linkOfCell.push_back(static_cast<std::int32_t>(l));
            }
            continue;
        }
        // A straight link: kStraightDashes dashes with gaps as long between them, or
        // kStraightDots dots with longer gaps.
        const Vec3& a = scene.linkPoints[static_cast<std::size_t>(begin)];
        const Vec3& b = scene.linkPoints[static_cast<std::size_t>(begin + 1)];
        const int marks = dotted ? kStraightDots : kStraightDashes;
        const double share = dotted ? kDotShare : 0.5;
        // Periods so that the last mark ends at b: marks - 1 whole periods and one mark.
        const double period = 1.0 / (marks - 1 + share);
        for (int k = 0; k < marks; ++k) {
            piece(a, b, k * period, (k + share) * period);
        }
    }
    d.linkMidpoints.clear();
    d.linkMidpoints.reserve(scene.links.size());
    for (std::size_t l = 0; l < scene.links.size(); ++l) {
        const auto begin = scene.linkPointBegin[l];
        const auto end = scene.linkPointBegin[l + 1];
        const Vec3& a = scene.linkPoints[static_cast<std::size_t>(begin + (end - begin - 1) / 2)];
        const Vec3& b = scene.linkPoints[static_cast<std::size_t>(begin + (end - begin) / 2)];
        d.linkMidpoints.push_back({(a.x + b.x) / 2, (a.y + b.y) / 2, (a.z + b.z) / 2});
    }
    d.links->SetPoints(linkPoints);
    d.links->SetLines(lines);
    d.linkColors = colorArray(static_cast<vtkIdType>(d.linkOfCell.size()), kNeutralLink);
    d.links->GetCellData()->AddArray(d.linkColors);

    vtkNew<vtkPoints> dcnPoints;
    dcnPoints->SetDataTypeToDouble();
    dcnPoints->SetNumberOfPoints(static_cast<vtkIdType>(scene.dcnPoints.size()));
    for (std::size_t i = 0; i < scene.dcnPoints.size(); ++i) {
        const Vec3& p = scene.dcnPoints[i];
        dcnPoints->SetPoint(static_cast<vtkIdType>(i), p.x, p.y, p.z);
    }
    vtkNew<vtkCellArray> dcnLines;
    for (std::size_t l = 0; l < scene.dcnLinks.size(); ++l) {
        dcnLines->InsertNextCell(scene.dcnPointBegin[l + 1] - scene.dcnPointBegin[l]);
        for (auto p = scene.dcnPointBegin[l]; p < scene.dcnPointBegin[l + 1]; ++p) {
            dcnLines->InsertCellPoint(p);
        }
    }
    d.dcnLinks->SetPoints(dcnPoints);
    d.dcnLinks->SetLines(dcnLines);
    d.dcnLinks->Modified();

    setMarkers({});
    setHighlighted({});
    setCamera(CameraPreset::Isometric);
    requestRender();
}

void VtkView::setChipColors(const std::vector<Rgb>& colors) {
    if (impl_->chipColors) {
        // Every corner of a chip's cube takes the chip's colour, shaded by the corner.
        auto* out = impl_->chipColors->GetPointer(0);
        const auto cubes =
            static_cast<std::size_t>(impl_->chipColors->GetNumberOfTuples() / kCubeCorners);
        // One slice's colours, repeated on every slice's copy (multislice).
        const std::size_t perSlice = std::max<std::size_t>(impl_->sliceChips, 1);
        for (std::size_t i = 0; i < cubes; ++i) {
            const std::size_t c = i % perSlice;
            if (c >= colors.size()) {
                out += 3 * kCubeCorners;
                continue;
            }
            for (int k = 0; k < kCubeCorners; ++k, out += 3) {
                const int shade = kCornerShade[k];
                out[0] = static_cast<unsigned char>(colors[c].r * shade / 256);
                out[1] = static_cast<unsigned char>(colors[c].g * shade / 256);
                out[2] = static_cast<unsigned char>(colors[c].b * shade / 256);
            }
        }
        impl_->chipColors->Modified();
        impl_->chips->Modified();
        requestRender();
    }
}

void VtkView::setLinkColors(const std::vector<Rgb>& colors) {
    if (impl_->linkColors) {
        // Per cell: a dashed link's dashes all take its colour.
        const auto& owner = impl_->linkOfCell;
        unsigned char* out = impl_->linkColors->GetPointer(0);
        for (std::size_t cell = 0; cell < owner.size(); ++cell, out += 3) {
            const auto link = static_cast<std::size_t>(owner[cell]);
            if (link < colors.size()) {
                out[0] = colors[link].r;
                out[1] = colors[link].g;
                out[2] = colors[link].b;
            }
        }
        impl_->linkColors->Modified();
        impl_->links->Modified();
        requestRender();
    }
}

void VtkView::setDcnLinkColor(Rgb color) {
    impl_->dcnActor->GetProperty()->SetColor(color.r / 255.0, color.g / 255.0, color.b / 255.0);
    requestRender();
}

void VtkView::setMarkers(const std::vector<Vec3>& positions) {
    // Called every frame with thousands of points: reuse the arrays, refill in place.
    auto& d = *impl_;
    const auto count = static_cast<vtkIdType>(positions.size());
    d.markerPoints->SetNumberOfPoints(count);
    auto* xyz = static_cast<float*>(d.markerPoints->GetVoidPointer(0));
    for (std::size_t i = 0; i < positions.size(); ++i) {
        xyz[3 * i] = static_cast<float>(positions[i].x);
        xyz[3 * i + 1] = static_cast<float>(positions[i].y);
        xyz[3 * i + 2] = static_cast<float>(positions[i].z);
    }
    d.markerPoints->Modified();
    const vtkIdType built = d.markerConnectivity->GetNumberOfValues();
    d.markerOffsets->SetNumberOfValues(count + 1);
    d.markerConnectivity->SetNumberOfValues(count);
    for (vtkIdType i = built; i < count; ++i) {
        d.markerConnectivity->SetValue(i, i);
    }
    for (vtkIdType i = std::min(built, count); i <= count; ++i) {
        d.markerOffsets->SetValue(i, i);
    }
    d.markerVertices->SetData(d.markerOffsets, d.markerConnectivity);
    d.markers->SetPoints(d.markerPoints);
    d.markers->SetVerts(d.markerVertices);
    d.markers->Modified();
    requestRender();
}

void VtkView::setHighlighted(const std::vector<ChipId>& chips) {
    vtkNew<vtkPoints> points;
    points->SetDataTypeToDouble();
    for (ChipId chip : chips) {
        if (chip >= 0 && static_cast<std::size_t>(chip) < impl_->chipPositions.size()) {
            const Vec3& p = impl_->chipPositions[static_cast<std::size_t>(chip)];
            points->InsertNextPoint(p.x, p.y, p.z);
        }
    }
    impl_->highlight->SetPoints(points);
    impl_->highlightActor->SetVisibility(points->GetNumberOfPoints() > 0);
    requestRender();
}

void VtkView::setCamera(CameraPreset preset) {
    auto& d = *impl_;
    d.userMovedCamera = false;
    vtkCamera* camera = d.renderer->GetActiveCamera();
    double bounds[6] = {0, 1, 0, 1, 0, 1};
    d.chips->GetBounds(bounds);
    const double center[3] = {(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2,
                              (bounds[4] + bounds[5]) / 2};
    double direction[3] = {0.55, -1.0, 0.9};
    double up[3] = {0, 0, 1};
    switch (preset) {
    case CameraPreset::Top:
        direction[0] = 0, direction[1] = 0, direction[2] = 1;
        up[0] = 0, up[1] = 1, up[2] = 0;
        break;
    case CameraPreset::Side:
        direction[0] = 0, direction[1] = -1, direction[2] = 0.05;
        break;
    case CameraPreset::Isometric:
    case CameraPreset::Reset:
        break;
    }
    camera->SetFocalPoint(center);
    camera->SetPosition(center[0] + direction[0], center[1] + direction[1],
                        center[2] + direction[2]);
    camera->SetViewUp(up);
    d.fitPending = true;
    if (d.window->GetSize()[0] > 0 && d.window->GetSize()[1] > 0) {
        fitCamera();
    }
    d.renderer->ResetCameraClippingRange();
    requestRender();
}

// ResetCamera fits the bounding sphere, which leaves long shapes such as the 128x32 multipod
// small; zoom until the projected bounding box nearly fills the view. Needs the window size.
void VtkView::fitCamera() {
    auto& d = *impl_;
    d.fitPending = false;
    double bounds[6];
    d.chips->GetBounds(bounds);
    d.renderer->ResetCamera(bounds);
    vtkCamera* camera = d.renderer->GetActiveCamera();
    // Perspective makes the near side project larger: centre the projected box, then zoom to
    // fit it, twice so that the second pass corrects what the first one's zoom moved.
    for (int pass = 0; pass < 2; ++pass) {
        double low[2] = {1e300, 1e300}, high[2] = {-1e300, -1e300};
        for (int corner = 0; corner < 8; ++corner) {
            d.renderer->SetWorldPoint(bounds[corner & 1], bounds[2 + ((corner >> 1) & 1)],
                                      bounds[4 + ((corner >> 2) & 1)], 1.0);
            d.renderer->WorldToView();
            double view[3];
            d.renderer->GetViewPoint(view);
            for (int axis = 0; axis < 2; ++axis) {
                low[axis] = std::min(low[axis], view[axis]);
                high[axis] = std::max(high[axis], view[axis]);
            }
        }
        // Move the camera sideways so that the box's centre is the view's centre.
        double focal[4];
        camera->GetFocalPoint(focal);
        d.renderer->SetWorldPoint(focal[0], focal[1], focal[2], 1.0);
        d.renderer->WorldToView();
        double focalView[3];
        d.renderer->GetViewPoint(focalView);
        d.renderer->SetViewPoint((low[0] + high[0]) / 2, (low[1] + high[1]) / 2, focalView[2]);
        d.renderer->ViewToWorld();
        double target[4];
        d.renderer->GetWorldPoint(target);
        if (target[3] != 0) {
            double position[3];
            camera->GetPosition(position);
            double shift[3];
            for (int axis = 0; axis < 3; ++axis) {
                shift[axis] = target[axis] / target[3] - focal[axis];
            }
            camera->SetFocalPoint(focal[0] + shift[0], focal[1] + shift[1], focal[2] + shift[2]);
            camera->SetPosition(position[0] + shift[0], position[1] + shift[1],
                                position[2] + shift[2]);
        }
        // View coordinates span -1..1 across the viewport.
        const double covered = std::max(high[0] - low[0], high[1] - low[1]) / 2;
        if (covered > 0) {
            camera->Zoom(0.9 / covered);
        }
    }
    d.renderer->ResetCameraClippingRange();
}

QPoint VtkView::widgetPositionOfLink(int link) const {
    if (link < 0 || static_cast<std::size_t>(link) >= impl_->linkMidpoints.size()) {
        return {-1, -1};
    }
    return project(impl_->linkMidpoints[static_cast<std::size_t>(link)]);
}

int VtkView::linkAt(QPoint position) const {
    constexpr double kRadius = 5; // pixels
    int found = -1;
    double best = kRadius * kRadius;
    for (std::size_t l = 0; l < impl_->linkMidpoints.size(); ++l) {
        const QPoint at = project(impl_->linkMidpoints[l]);
        const double dx = at.x() - position.x();
        const double dy = at.y() - position.y();
        if (dx * dx + dy * dy <= best) {
            best = dx * dx + dy * dy;
            found = static_cast<int>(l);
        }
    }
    return found;
}

QPoint VtkView::widgetPositionOf(ChipId chip) const {
    if (chip < 0 || static_cast<std::size_t>(chip) >= impl_->chipPositions.size()) {
        return {-1, -1};
    }
    return project(impl_->chipPositions[static_cast<std::size_t>(chip)]);
}

QPoint VtkView::project(const Vec3& p) const {
    auto& d = *impl_;
    d.renderer->SetWorldPoint(p.x, p.y, p.z, 1.0);
    d.renderer->WorldToDisplay();
    double display[3];
    d.renderer->GetDisplayPoint(display);
    const double ratio = devicePixelRatioF();
    // VTK's display origin is bottom-left in device pixels.
    return {static_cast<int>(std::lround(display[0] / ratio)),
            static_cast<int>(std::lround((d.window->GetSize()[1] - display[1]) / ratio))};
}

ChipId VtkView::chipAt(QPoint position) const {
    auto& d = *impl_;
    if (d.chipPositions.empty() || d.window->GetSize()[0] <= 0) {
        return -1;
    }
    // Pixel radius of a chip: project a point one chip-size away from the view's focal point.
    vtkCamera* camera = d.renderer->GetActiveCamera();
    const double* focal = camera->GetFocalPoint();
    double up[3];
    camera->GetViewUp(up);
    auto project = [&](double x, double y, double z) {
        d.renderer->SetWorldPoint(x, y, z, 1.0);
        d.renderer->WorldToDisplay();
        double display[3];
        d.renderer->GetDisplayPoint(display);
        return std::pair<double, double>(display[0], display[1]);
    };
    const auto a = project(focal[0], focal[1], focal[2]);
    const auto b = project(focal[0] + up[0] * d.chipSize, focal[1] + up[1] * d.chipSize,
                           focal[2] + up[2] * d.chipSize);
    const double ratio = devicePixelRatioF();
    // About half the cube's diagonal, so that a click between two chips reaches the link.
    const double radius =
        std::max(3.0, 0.6 * std::hypot(a.first - b.first, a.second - b.second) / ratio);

    // Among the chips under the cursor, the one nearest the viewer wins.
    ChipId found = -1;
    double nearestDepth = 2; // display depth runs from 0 (near) to 1 (far)
    for (std::size_t i = 0; i < d.chipPositions.size(); ++i) {
        const Vec3& p = d.chipPositions[i];
        d.renderer->SetWorldPoint(p.x, p.y, p.z, 1.0);
        d.renderer->WorldToDisplay();
        double display[3];
        d.renderer->GetDisplayPoint(display);
        const double dx = display[0] / ratio - position.x();
        const double dy = (d.window->GetSize()[1] - display[1]) / ratio - position.y();
        if (dx * dx + dy * dy <= radius * radius && display[2] < nearestDepth) {
            nearestDepth = display[2];
            // Every slice's copy of a chip is that chip.
            found = static_cast<ChipId>(i % std::max<std::size_t>(d.sliceChips, 1));
        }
    }
    return found;
}

double VtkView::pixelsPerUnit() const {
    auto& d = *impl_;
    if (d.window->GetSize()[0] <= 0 || d.window->GetSize()[1] <= 0) {
        return 0;
    }
    vtkCamera* camera = d.renderer->GetActiveCamera();
    const double* focal = camera->GetFocalPoint();
    double up[3];
    camera->GetViewUp(up);
    double a[3], b[3];
    d.renderer->SetWorldPoint(focal[0], focal[1], focal[2], 1.0);
    d.renderer->WorldToDisplay();
    d.renderer->GetDisplayPoint(a);
    d.renderer->SetWorldPoint(focal[0] + up[0], focal[1] + up[1], focal[2] + up[2], 1.0);
    d.renderer->WorldToDisplay();
    d.renderer->GetDisplayPoint(b);
    return std::hypot(a[0] - b[0], a[1] - b[1]);
}

// Chunk markers are points of a fixed pixel size: where neighbouring chips are a few pixels
// apart (the whole multipod in view), thousands of them covered every chip and link in one
// colour. They are drawn in proportion to the chips' spacing, and only where a link is long
// enough on screen to see one travel along it.
void VtkView::showMarkersAtThisScale() {
    auto& d = *impl_;
    const double pitch = pixelsPerUnit();
    constexpr double kLeastPitchPx = 14;
    constexpr double kMarkerShareOfPitch = 0.25;
    constexpr double kLargestMarkerPx = 5;
    d.markerActor->SetVisibility(pitch >= kLeastPitchPx);
    d.markerActor->GetProperty()->SetPointSize(
        static_cast<float>(std::min(kLargestMarkerPx, kMarkerShareOfPitch * pitch)));
}

bool VtkView::markersShown() const {
    return impl_->markerActor->GetVisibility() != 0;
}

double VtkView::lastRenderMs() const {
    return impl_->lastRenderMs;
}

void VtkView::initializeGL() {
    auto& d = *impl_;
    d.window->SetOwnContext(0);
    d.window->OpenGLInitContext();
    d.window->SetFrameBlitModeToNoBlit();
    const double ratio = devicePixelRatioF();
    const int w = static_cast<int>(surface_->width() * ratio);
    const int h = static_cast<int>(surface_->height() * ratio);
    d.window->SetSize(w, h);
    d.interactor->SetSize(w, h);
}

void VtkView::resizeGL(int w, int h) {
    if (!impl_->userMovedCamera) {
        impl_->fitPending = true;
    }
    const double ratio = devicePixelRatioF();
    const int pw = static_cast<int>(w * ratio);
    const int ph = static_cast<int>(h * ratio);
    impl_->window->SetSize(pw, ph);
    impl_->interactor->SetSize(pw, ph);
    impl_->interactor->ConfigureEvent();
}

void VtkView::renderScene() {
    auto& d = *impl_;
    const bool wasInPaint = d.inPaint;
    d.inPaint = true;
    if (d.fitPending) {
        fitCamera();
    }
    vtkCamera* camera = d.renderer->GetActiveCamera();
    showMarkersAtThisScale();
    if (camera->GetMTime() != d.facesCameraTime) {
        visibleCubeFaces(d.chipPositions, d.chipSize, camera->GetPosition(), d.chipFaces);
        d.chips->Modified();
        d.facesCameraTime = camera->GetMTime();
    }
    d.window->SetReadyForRendering(true);
    d.window->Render();
    d.window->SetReadyForRendering(false);
    d.inPaint = wasInPaint;
}

void VtkView::paintGL() {
    auto& d = *impl_;
    d.inPaint = true;
    const auto began = std::chrono::steady_clock::now();
    renderScene();

    // Copy VTK's display framebuffer into the widget's framebuffer.
    vtkOpenGLState* state = d.window->GetState();
    state->PushDrawFramebufferBinding();
    state->vtkglBindFramebuffer(GL_DRAW_FRAMEBUFFER, surface_->defaultFramebufferObject());
    const int* size = d.window->GetSize();
    d.window->BlitDisplayFramebuffer(0, 0, 0, size[0], size[1], 0, 0, size[0], size[1],
                                     GL_COLOR_BUFFER_BIT, GL_NEAREST);
    state->PopDrawFramebufferBinding();
    d.lastRenderMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
    d.inPaint = false;
}

namespace {

void setEventInformation(vtkGenericRenderWindowInteractor* interactor, QWidget* widget,
                         QPointF position, Qt::KeyboardModifiers modifiers, int repeat = 0) {
    const double ratio = widget->devicePixelRatioF();
    interactor->SetEventInformationFlipY(static_cast<int>(position.x() * ratio),
                                         static_cast<int>(position.y() * ratio),
                                         (modifiers & Qt::ControlModifier) ? 1 : 0,
                                         (modifiers & Qt::ShiftModifier) ? 1 : 0, 0, repeat);
}

} // namespace

void VtkView::mousePressEvent(QMouseEvent* event) {
    auto* interactor = impl_->interactor.Get();
    setEventInformation(interactor, this, event->position(), event->modifiers(),
                        event->type() == QEvent::MouseButtonDblClick ? 1 : 0);
    switch (event->button()) {
    case Qt::LeftButton:
        interactor->InvokeEvent(vtkCommand::LeftButtonPressEvent);
        break;
    case Qt::MiddleButton:
        interactor->InvokeEvent(vtkCommand::MiddleButtonPressEvent);
        break;
    case Qt::RightButton:
        interactor->InvokeEvent(vtkCommand::RightButtonPressEvent);
        break;
    default:
        break;
    }
    pressPosition_ = event->position().toPoint();
    impl_->userMovedCamera = true;
    requestRender();
}

void VtkView::mouseReleaseEvent(QMouseEvent* event) {
    auto* interactor = impl_->interactor.Get();
    setEventInformation(interactor, this, event->position(), event->modifiers());
    switch (event->button()) {
    case Qt::LeftButton:
        interactor->InvokeEvent(vtkCommand::LeftButtonReleaseEvent);
        // A click, not a drag: select.
        if ((event->position().toPoint() - pressPosition_).manhattanLength() < 4) {
            const ChipId chip = chipAt(event->position().toPoint());
            const int link = chip < 0 ? linkAt(event->position().toPoint()) : -1;
            if (link >= 0) {
                emit linkClicked(link);
            } else {
                emit chipClicked(chip);
            }
        }
        break;
    case Qt::MiddleButton:
        interactor->InvokeEvent(vtkCommand::MiddleButtonReleaseEvent);
        break;
    case Qt::RightButton:
        interactor->InvokeEvent(vtkCommand::RightButtonReleaseEvent);
        break;
    default:
        break;
    }
    requestRender();
}

void VtkView::mouseMoveEvent(QMouseEvent* event) {
    auto* interactor = impl_->interactor.Get();
    setEventInformation(interactor, this, event->position(), event->modifiers());
    interactor->InvokeEvent(vtkCommand::MouseMoveEvent);
    if (event->buttons() == Qt::NoButton) {
        emit chipHovered(chipAt(event->position().toPoint()));
    } else {
        requestRender();
    }
}

void VtkView::wheelEvent(QWheelEvent* event) {
    auto* interactor = impl_->interactor.Get();
    setEventInformation(interactor, this, event->position(), event->modifiers());
    impl_->userMovedCamera = true;
    interactor->InvokeEvent(event->angleDelta().y() > 0 ? vtkCommand::MouseWheelForwardEvent
                                                        : vtkCommand::MouseWheelBackwardEvent);
    requestRender();
}

void VtkView::keyPressEvent(QKeyEvent* event) {
    switch (event->key()) {
    case Qt::Key_R:
        setCamera(CameraPreset::Reset);
        break;
    case Qt::Key_T:
        setCamera(CameraPreset::Top);
        break;
    case Qt::Key_S:
        setCamera(CameraPreset::Side);
        break;
    case Qt::Key_I:
        setCamera(CameraPreset::Isometric);
        break;
    default:
        QWidget::keyPressEvent(event);
    }
}

} // namespace podscope::ui
