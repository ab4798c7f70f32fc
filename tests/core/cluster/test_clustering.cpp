#include "core/cluster/kmeans.h"
#include "core/cluster/modularity_clustering.h"
#include "core/cluster/spectral_clustering.h"

#include <QtTest>

using namespace meridian::cluster;

class TestClustering : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void kMeansSeparatesTwoBlobs()
    {
        Eigen::MatrixXd points(6, 2);
        points << 0, 0, 1, 0, 0, 1, 50, 50, 51, 50, 50, 51;
        const auto r = kMeans(points, 2, 3);
        QCOMPARE(r.label[0], r.label[1]);
        QCOMPARE(r.label[0], r.label[2]);
        QCOMPARE(r.label[3], r.label[4]);
        QVERIFY(r.label[0] != r.label[3]);
        QVERIFY(std::abs(r.inertia - 4 * 2.0 / 3.0) < 1e-9);
    }

    void kMeansKeepsEveryClusterNonEmpty()
    {
        Eigen::MatrixXd points(4, 2);
        points << 0, 0, 0, 0, 0, 0, 10, 10; // duplicates force an empty Forgy cluster
        for (std::uint64_t seed = 0; seed < 20; ++seed) {
            const auto r = kMeans(points, 3, seed);
            std::vector<int> size(3, 0);
            for (int l : r.label)
                ++size[l];
            QVERIFY(std::count(size.begin(), size.end(), 0) == 0);
        }
    }

    void spectralClusteringFindsTheContinents()
    {
        // Two groups of three nodes: 1 ms inside a group, 100 ms across.
        Eigen::MatrixXd lat = Eigen::MatrixXd::Constant(6, 6, 100.0);
        for (int i = 0; i < 6; ++i)
            for (int j = 0; j < 6; ++j)
                if (i / 3 == j / 3)
                    lat(i, j) = i == j ? 0.1 : 1.0;
        const auto r = spectralClustering(lat, 0, 1);
        QCOMPARE(r.clusters, 2);
        QCOMPARE(r.label[0], r.label[2]);
        QCOMPARE(r.label[3], r.label[5]);
        QVERIFY(r.label[0] != r.label[3]);
    }

    void modularityClusteringFindsCliquesJoinedByOneEdge()
    {
        WeightedGraph g(8);
        const auto edge = [&](int a, int b, double w) {
            g[a].emplace_back(b, w);
            g[b].emplace_back(a, w);
        };
        for (int c = 0; c < 2; ++c)
            for (int a = 0; a < 4; ++a)
                for (int b = a + 1; b < 4; ++b)
                    edge(4 * c + a, 4 * c + b, 10.0);
        edge(3, 4, 1.0);
        const auto r = modularityClustering(g);
        QCOMPARE(r.clusters, 2);
        for (int v = 0; v < 4; ++v) {
            QCOMPARE(r.label[v], r.label[0]);
            QCOMPARE(r.label[4 + v], r.label[4]);
        }
        QVERIFY(r.modularity > 0.4);
        QVERIFY(std::abs(r.modularity - modularity(g, r.label)) < 1e-12);
        const auto one = mergeClusters(g, r.label, 1);
        QCOMPARE(std::count(one.begin(), one.end(), 0), 8L);
    }

    void modularityClusteringOfAnEmptyGraphIsOneGroup()
    {
        const auto r = modularityClustering(WeightedGraph(5));
        QCOMPARE(r.clusters, 1);
    }
};

QTEST_GUILESS_MAIN(TestClustering)
#include "test_clustering.moc"
