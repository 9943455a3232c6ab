// The ring demo's data-blocks view, painted on the offscreen platform: what the image shows
// is what the block timeline (the functional check's run) computed.
#include "widgets/DataBlocksView.hpp"

#include "collective/BlockTimeline.hpp"
#include "topology/TopologyPresets.hpp"

#include <QDir>
#include <QImage>
#include <QSignalSpy>
#include <QTest>
#include <set>

using namespace podscope;
using namespace podscope::ui;

namespace {

BlockTimeline timelineOf(const std::string& dims, const std::string& wrap, Algorithm algorithm) {
    const Topology topology(resolveTopology(dims, wrap, loadHardware("tpu-v3")));
    CollectiveSpec spec;
    spec.algorithm = algorithm;
    spec.bytesPerChip = 64.0 * 1024 * 1024;
    return blockTimeline(topology, spec);
}

// The members whose colours appear among the pixels of `area`.
std::set<int> membersPainted(const QImage& image, QRect area, int members) {
    std::set<QRgb> seen;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            seen.insert(image.pixel(x, y) & 0xFFFFFF);
        }
    }
    std::set<int> found;
    for (int m = 0; m < members; ++m) {
        if (seen.count(DataBlocksView::memberColor(m).rgb() & 0xFFFFFF)) {
            found.insert(m);
        }
    }
    return found;
}

} // namespace

class DataBlocksViewTest : public QObject {
    Q_OBJECT

private:
    // Set PODSCOPE_DATABLOCKS_PNG to a folder to keep the rendered frames for a look.
    void keep(DataBlocksView& view, const QString& name) {
        const QString folder = qEnvironmentVariable("PODSCOPE_DATABLOCKS_PNG");
        if (!folder.isEmpty()) {
            QDir().mkpath(folder);
            QVERIFY(view.grab().save(folder + "/" + name + ".png"));
        }
    }

private slots:
    void framesFollowTheTimeline() {
        DataBlocksView view;
        QSignalSpy frames(&view, &DataBlocksView::frameChanged);
        view.setTimeline(timelineOf("8", "x", Algorithm::Ring));
        QCOMPARE(view.frameCount(), 15);
        QCOMPARE(view.frame(), 0);
        view.nextFrame();
        QCOMPARE(view.frame(), 1);
        view.setFrame(99);
        QCOMPARE(view.frame(), 14);
        view.nextFrame();
        QCOMPARE(view.frame(), 14);
        view.setFrame(-3);
        QCOMPARE(view.frame(), 0);
        view.previousFrame();
        QCOMPARE(view.frame(), 0);
        QCOMPARE(frames.count(), 4); // setTimeline, 1, 14, 0
    }

    // Frame 0: each chip holds only its own data, in its own colour. Last frame: every block
    // on every chip is the sum of all 8, so every row shows all 8 colours.
    void coloursShowWhoseDataIsSummed() {
        for (auto algorithm : {Algorithm::Ring, Algorithm::BidirRing}) {
            DataBlocksView view;
            view.resize(500, 300);
            view.setTimeline(timelineOf("8", "x", algorithm));
            const QString name = algorithm == Algorithm::Ring ? "ring" : "bidir";
            QImage first = view.grab().toImage();
            for (int row = 0; row < 8; ++row) {
                QCOMPARE(membersPainted(first, view.blocksRect(row), 8), std::set<int>{row});
            }
            keep(view, name + "-frame00-500x300");
            view.setFrame(3);
            keep(view, name + "-frame03-500x300");
            view.setFrame(7);
            const QImage owned = view.grab().toImage();
            keep(view, name + "-frame07-500x300");
            for (int row = 0; row < 8; ++row) {
                QCOMPARE(membersPainted(owned, view.blocksRect(row), 8).size(), std::size_t{8});
            }
            view.setFrame(view.frameCount() - 1);
            const QImage last = view.grab().toImage();
            keep(view, name + "-frame14-500x300");
            for (int row = 0; row < 8; ++row) {
                QCOMPARE(membersPainted(last, view.blocksRect(row), 8).size(), std::size_t{8});
            }
            view.resize(1200, 700);
            view.setFrame(10);
            keep(view, name + "-frame10-1200x700");
        }
    }

    void twoDimensionalTorusFits() {
        DataBlocksView view;
        view.resize(640, 400);
        view.setTimeline(timelineOf("4x4", "xy", Algorithm::TwoD));
        QCOMPARE(view.frameCount(), 13);
        view.setFrame(3);
        keep(view, "2d-4x4-frame03-640x400");
        view.setFrame(12);
        const QImage last = view.grab().toImage();
        for (int row = 0; row < 16; ++row) {
            QCOMPARE(membersPainted(last, view.blocksRect(row), 16).size(), std::size_t{16});
        }
        keep(view, "2d-4x4-frame12-640x400");
    }

    void emptyViewPaints() {
        DataBlocksView view;
        view.resize(300, 200);
        QCOMPARE(view.frameCount(), 0);
        view.setFrame(2);
        QCOMPARE(view.frame(), 0);
        QVERIFY(!view.grab().isNull());
    }
};

QTEST_MAIN(DataBlocksViewTest)
#include "DataBlocksViewTest.moc"
