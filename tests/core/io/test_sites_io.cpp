#include "core/io/sites_io.h"
#include "test_support.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace meridian;
using meridian::test::data;

class TestSitesIo : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsColumnsQuotedNamesAndEmptyOptionalCells()
    {
        auto sites = io::readSitesCsv(data("sites.csv"));
        QVERIFY2(sites, sites ? "" : sites.error().toString().c_str());
        QCOMPARE(sites->size(), std::size_t(3));
        QCOMPARE((*sites)[1].name, std::string("beta, east"));
        QCOMPARE((*sites)[0].uplinkMBps, 100.0);
        QCOMPARE((*sites)[2].egressUsdPerGB, 0.09);
        QVERIFY(std::isnan((*sites)[1].downlinkMBps));
        QCOMPARE((*sites)[0].slotsPerNode, 2);
    }

    void matchesHeadersInAnyOrderAndCaseWithCrlf()
    {
        auto sites = io::readSitesCsv(data("sites_crlf_reordered.csv"));
        QVERIFY(sites);
        QCOMPARE((*sites)[0].latitude, 20.0);
        QCOMPARE((*sites)[0].longitude, 10.0);
        QCOMPARE((*sites)[0].nodes, 3);
    }

    void rejectsBrokenFiles()
    {
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_missing_column.csv")), "sites_missing_column.csv", 1, 1,
                              "'nodes'");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_bad_lat.csv")), "sites_bad_lat.csv", 3, 3, "latitude");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_duplicate.csv")), "sites_duplicate.csv", 3, 1,
                              "listed twice");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_ragged.csv")), "sites_ragged.csv", 3, 1, "expected 4 fields");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_unknown_column.csv")), "sites_unknown_column.csv", 1, 20,
                              "up_mbit");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_bad_nodes.csv")), "sites_bad_nodes.csv", 2, 7,
                              "whole number");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_zero_uplink.csv")), "sites_zero_uplink.csv", 2, 11,
                              "bandwidth > 0");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_nan.csv")), "sites_nan.csv", 2, 3, "'nan'");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("sites_empty.csv")), "sites_empty.csv", 1, 1, "empty");
        auto missing = io::readSitesCsv(data("no_such_file.csv"));
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::Io);
    }

    void readsGeoJsonPointsAsLongitudeLatitude()
    {
        auto topo = io::loadTopology(data("sites.geojson"));
        QVERIFY2(topo, topo ? "" : topo.error().toString().c_str());
        QCOMPARE(topo->siteCount(), 2);
        QCOMPARE(topo->site(0).latitude, 38.9);
        QCOMPARE(topo->site(0).longitude, -77.4);
        QCOMPARE(topo->capacity(0), 8);
        QCOMPARE(topo->site(0).egressUsdPerGB, 0.09);
        QCOMPARE(topo->capacity(1), 2);
    }

    void rejectsBrokenGeoJsonWithTheFeatureLine()
    {
        MERIDIAN_VERIFY_ERROR(io::readSitesGeoJson(data("sites_bad_coordinates.geojson")),
                              "sites_bad_coordinates.geojson", 6, -1, "feature 2");
        MERIDIAN_VERIFY_ERROR(io::readSitesGeoJson(data("sites_syntax.geojson")), "sites_syntax.geojson", 4, -1,
                              "not valid JSON");
        MERIDIAN_VERIFY_ERROR(io::readSitesGeoJson(data("sites.csv")), "sites.csv", 1, -1, "not valid JSON");
    }

    // Regressions: inputs that crashed or threw before.
    void readsGeoJsonWithLongBlankRunsInConstantStack()
    {
        auto sites = io::readSitesGeoJson(data("regressions/geojson_long_whitespace.geojson"));
        QVERIFY2(sites, sites ? "" : sites.error().toString().c_str());
        QCOMPARE(sites->size(), std::size_t(2));
    }

    void refusesGeoJsonOfTheWrongTypesWithoutThrowing()
    {
        MERIDIAN_VERIFY_ERROR(io::readSitesGeoJson(data("regressions/geojson_type_not_string.geojson")),
                              "geojson_type_not_string.geojson", 0, -1,
                              "feature 1: expected an object with \"type\": \"Feature\"");
        MERIDIAN_VERIFY_ERROR(io::readSitesGeoJson(data("regressions/geojson_number_overflow.geojson")),
                              "geojson_number_overflow.geojson", 0, 0, "number is out of range");
        MERIDIAN_VERIFY_ERROR(io::readSitesGeoJson(data("regressions/geojson_collection_type_array.geojson")),
                              "geojson_collection_type_array.geojson", 1, 1, "expected a GeoJSON FeatureCollection");
    }

    // Regressions: slot counts were int sums (negative or wrapped totals), and node counts had no bound
    // below what allocating the hosts can bear.
    void refusesCapacitiesBeyondTheLimits()
    {
        MERIDIAN_VERIFY_ERROR(
            io::loadTopology(data("regressions/sites_capacity_overflow.csv")), "sites_capacity_overflow.csv", 0, -1,
            "site 'b': its 999999999 slots would make 1999999998 slots in the project; at most 1073741824");
        MERIDIAN_VERIFY_ERROR(io::loadTopology(data("regressions/sites_huge_site.csv")), "sites_huge_site.csv", 0, -1,
                              "its 10000000000 slots");
        MERIDIAN_VERIFY_ERROR(io::loadTopology(data("regressions/sites_nodes_beyond_limit.csv")),
                              "sites_nodes_beyond_limit.csv", 2, -1,
                              "expected a whole number of nodes from 1 to 1000000 for 'nodes', found '2000000000'");
    }

    // Regressions: /dev/zero as a sites file ate all memory; a 2 GB sparse file took 6 GB and 27 s to refuse.
    void refusesDevicesAndOversizedFilesBeforeReading()
    {
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv("/dev/zero"), "/dev/zero", 0, 0, "not a regular file");
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv("/tmp"), "/tmp", 0, 0, "this is a folder");
        QTemporaryDir dir;
        const QString sparse = dir.filePath("huge.csv");
        {
            QFile f(sparse);
            QVERIFY(f.open(QIODevice::WriteOnly));
            QVERIFY(f.resize(qint64(2) << 30)); // a sparse 2 GiB file: nothing is written to disk
        }
        // Refused from its size, before reading a byte of it.
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(sparse.toStdString()), "huge.csv", 0, 0,
                              "the file is 2.0 GiB; at most 1.0 GiB are read");
    }

    // Regression: binary garbage was echoed raw and at full length in "unknown column" errors.
    void quotesBinaryGarbageEscapedAndShort()
    {
        auto sites = io::readSitesCsv(data("regressions/sites_binary_column.csv"));
        QVERIFY(!sites);
        const std::string& m = sites.error().message;
        QVERIFY2(m.find("unknown column '\\x01\\x02\\xFF\\xFE\\x80") != std::string::npos, m.c_str());
        QVERIFY2(m.find("... (260 bytes)") != std::string::npos, m.c_str());
        QVERIFY(m.size() < 500);
        for (unsigned char c : m)
            QVERIFY(c >= 0x20 && c < 0x7F);
    }

    void roundTripsThroughCsv()
    {
        auto topo = io::loadTopology(data("sites.csv"));
        QVERIFY(topo);
        QTemporaryDir dir;
        const std::string out = dir.filePath("sites.csv").toStdString();
        QVERIFY(io::writeSitesCsv(out, *topo));
        auto again = io::loadTopology(out);
        QVERIFY(again);
        QCOMPARE(again->siteCount(), 3);
        for (int s = 0; s < 3; ++s) {
            QCOMPARE(again->site(s).name, topo->site(s).name);
            QCOMPARE(again->site(s).latitude, topo->site(s).latitude);
            QCOMPARE(again->capacity(s), topo->capacity(s));
            QCOMPARE(std::isnan(again->site(s).uplinkMBps), std::isnan(topo->site(s).uplinkMBps));
        }
        QCOMPARE(again->site(2).egressUsdPerGB, 0.09);
    }

    // Issue 33: a host name with a space, '=' or ',' went into rankfiles as it was ("rank 3=node02 slot=3 slot=0");
    // it is refused where it is read, naming the line and what a host name may hold.
    void refusesHostNamesALauncherCannotTake()
    {
        auto topo = io::loadTopology(data("sites.csv"));
        QVERIFY(topo);
        QTemporaryDir dir;
        const auto write = [&](const char* name, const QByteArray& text) {
            QFile f(dir.filePath(name));
            f.open(QIODevice::WriteOnly);
            f.write(text);
            return dir.filePath(name).toStdString();
        };
        MERIDIAN_VERIFY_ERROR(
            io::readHostsCsv(write("space.csv", "host,site\nnode01,alpha\nnode 02,alpha\n"), *topo), "space.csv", 3, 1,
            "host name 'node 02' cannot go into a rankfile or hostfile: it contains a space; expected "
            "letters, digits, '-', '_' and '.'");
        MERIDIAN_VERIFY_ERROR(io::readHostsCsv(write("equals.csv", "node02=3,alpha\n"), *topo), "equals.csv", 1, 1,
                              "it contains '='");
        MERIDIAN_VERIFY_ERROR(io::readHostsCsv(write("comma.csv", "\"a,b\",alpha,2\n"), *topo), "comma.csv", 1, 1,
                              "it contains ','");
        QVERIFY(io::readHostsCsv(write("good.csv", "gpu_01.cluster.example.org,alpha,4\n10.0.0.7,alpha\n"), *topo));
    }

    // Issue 31: a site name that is not UTF-8 was read as bytes and saved with U+FFFD, so it no longer matched the
    // user's other files. It is refused where it is read, pointing at the first bad byte.
    void refusesNamesThatAreNotUtf8()
    {
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("regressions/sites_name_not_utf8.csv")), "sites_name_not_utf8.csv",
                              3, 1, "expected a site name in UTF-8, found '\\xFF\\xFEeast' (byte 1 is not UTF-8");
        auto topo = io::loadTopology(data("sites.csv"));
        QVERIFY(topo);
        MERIDIAN_VERIFY_ERROR(io::readHostsCsv(data("regressions/hosts_name_not_utf8.csv"), *topo),
                              "hosts_name_not_utf8.csv", 3, 2, "expected a host name in UTF-8");
        // GeoJSON is JSON: its parser refuses a string that is not UTF-8, with the line and column.
        MERIDIAN_VERIFY_ERROR(io::readSitesGeoJson(data("regressions/sites_name_not_utf8.geojson")),
                              "sites_name_not_utf8.geojson", 2, 103, "expected UTF-8 text, found the byte '\\xFF'");
        // Well-formed UTF-8 is kept as it is.
        QTemporaryDir dir;
        const QString csv = dir.filePath("sites.csv");
        QFile f(csv);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("name,lat,lon,nodes\nS\xC3\xA3o Paulo,1,2,3\n\xF0\x9F\x8C\x8D,1,2,3\n");
        f.close();
        auto sites = io::readSitesCsv(csv.toStdString());
        QVERIFY2(sites, sites ? "" : sites.error().toString().c_str());
        QCOMPARE((*sites)[0].name, std::string("S\xC3\xA3o Paulo"));
        // Overlong forms and surrogates are not UTF-8 either.
        for (const char* bad : {"\xC0\xAF", "\xED\xA0\x80", "\xF4\x90\x80\x80", "a\xE2\x82"}) {
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QByteArray("name,lat,lon,nodes\n") + bad + ",1,2,3\n");
            f.close();
            QVERIFY2(!io::readSitesCsv(csv.toStdString()), bad);
        }
    }

    // Issue 31: a UTF-8 byte-order mark before the header made it an unknown column; it is skipped, and errors
    // name the right line and column.
    void skipsAByteOrderMark()
    {
        MERIDIAN_VERIFY_ERROR(io::readSitesCsv(data("regressions/sites_bom_bad_lat.csv")), "sites_bom_bad_lat.csv", 3,
                              6, "found '95'");
        auto sites = io::loadTopology(data("regressions/sites_bom.geojson"));
        QVERIFY2(sites, sites ? "" : sites.error().toString().c_str());
        QCOMPARE(sites->site(0).name, std::string("alpha"));
    }

    void roundTripsThroughGeoJson()
    {
        auto topo = io::loadTopology(data("sites.csv"));
        QTemporaryDir dir;
        const std::string out = dir.filePath("sites.geojson").toStdString();
        QVERIFY(io::writeSitesGeoJson(out, *topo));
        auto again = io::loadTopology(out);
        QVERIFY2(again, again ? "" : again.error().toString().c_str());
        QCOMPARE(again->siteCount(), 3);
        for (int s = 0; s < 3; ++s) {
            QCOMPARE(again->site(s).name, topo->site(s).name);
            QCOMPARE(again->site(s).longitude, topo->site(s).longitude);
            QCOMPARE(again->capacity(s), topo->capacity(s));
            QCOMPARE(std::isnan(again->site(s).downlinkMBps), std::isnan(topo->site(s).downlinkMBps));
        }
        QCOMPARE(again->site(0).downlinkMBps, 400.0);
    }
};

QTEST_GUILESS_MAIN(TestSitesIo)
#include "test_sites_io.moc"
