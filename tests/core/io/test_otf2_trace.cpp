#include "core/io/otf2_trace.h"
#include "test_support.h"

#include <otf2/otf2.h>

#include <QTemporaryDir>
#include <QTest>

#include <utility>
#include <vector>

using namespace meridian;

namespace {

OTF2_FlushType preFlush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp postFlush(void*, OTF2_FileType, OTF2_LocationRef) { return 0; }

/// One send of a two-rank MPI world: from the rank of `location` to `receiver` of MPI_COMM_WORLD, or, when
/// `allreduce`, the end of an MPI_Allreduce on MPI_COMM_WORLD that sent `bytes`.
struct Send {
    OTF2_LocationRef location;
    uint32_t receiver;
    uint64_t bytes;
    bool allreduce = false;
};

/// Writes a trace of a two-process MPI run (locations 0 and 1, communicator 0 their world) with `sends`, as
/// Score-P or EZTrace would; returns its anchor file.
std::string writeTrace(const QTemporaryDir& dir, const std::vector<Send>& sends)
{
    OTF2_Archive* archive = OTF2_Archive_Open(dir.path().toUtf8().constData(), "trace", OTF2_FILEMODE_WRITE,
                                              1024 * 1024, 4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX,
                                              OTF2_COMPRESSION_NONE);
    OTF2_FlushCallbacks flush{preFlush, postFlush};
    OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr);
    OTF2_Archive_SetSerialCollectiveCallbacks(archive);
    OTF2_Archive_OpenEvtFiles(archive);
    uint64_t events[2] = {0, 0};
    for (OTF2_LocationRef location : {0, 1}) {
        OTF2_EvtWriter* writer = OTF2_Archive_GetEvtWriter(archive, location);
        OTF2_TimeStamp time = 1;
        for (const Send& s : sends)
            if (s.location == location) {
                if (s.allreduce)
                    OTF2_EvtWriter_MpiCollectiveEnd(writer, nullptr, time++, OTF2_COLLECTIVE_OP_ALLREDUCE, 0,
                                                    OTF2_UNDEFINED_UINT32, s.bytes, s.bytes);
                else
                    OTF2_EvtWriter_MpiSend(writer, nullptr, time++, s.receiver, 0, 0, s.bytes);
                ++events[location];
            }
        OTF2_Archive_CloseEvtWriter(archive, writer);
    }
    OTF2_Archive_CloseEvtFiles(archive);
    OTF2_Archive_OpenDefFiles(archive);
    for (OTF2_LocationRef location : {0, 1})
        OTF2_Archive_CloseDefWriter(archive, OTF2_Archive_GetDefWriter(archive, location));
    OTF2_Archive_CloseDefFiles(archive);
    OTF2_GlobalDefWriter* defs = OTF2_Archive_GetGlobalDefWriter(archive);
    OTF2_GlobalDefWriter_WriteClockProperties(defs, 1, 0, 100, OTF2_UNDEFINED_TIMESTAMP);
    OTF2_GlobalDefWriter_WriteString(defs, 0, "");
    OTF2_GlobalDefWriter_WriteString(defs, 1, "node");
    OTF2_GlobalDefWriter_WriteString(defs, 2, "MPI_COMM_WORLD");
    OTF2_GlobalDefWriter_WriteSystemTreeNode(defs, 0, 1, 1, OTF2_UNDEFINED_SYSTEM_TREE_NODE);
    for (OTF2_LocationRef location : {0, 1}) {
        OTF2_GlobalDefWriter_WriteLocationGroup(defs, location, 0, OTF2_LOCATION_GROUP_TYPE_PROCESS, 0,
                                                OTF2_UNDEFINED_LOCATION_GROUP);
        OTF2_GlobalDefWriter_WriteLocation(defs, location, 0, OTF2_LOCATION_TYPE_CPU_THREAD, events[location], location);
    }
    const uint64_t locations[] = {0, 1}, ranks[] = {0, 1};
    OTF2_GlobalDefWriter_WriteGroup(defs, 0, 0, OTF2_GROUP_TYPE_COMM_LOCATIONS, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                    2, locations);
    OTF2_GlobalDefWriter_WriteGroup(defs, 1, 0, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE, 2,
                                    ranks);
    OTF2_GlobalDefWriter_WriteComm(defs, 0, 2, 1, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE);
    OTF2_Archive_CloseGlobalDefWriter(archive, defs);
    OTF2_Archive_Close(archive);
    return dir.filePath("trace.otf2").toStdString();
}

} // namespace

class TestOtf2Trace : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readsTheSendsOfATrace()
    {
        QTemporaryDir dir;
        // 0xFFFFFFFE is MPI_PROC_NULL (-2) as Open MPI passes it: a send that moves nothing, left out.
        auto capture = io::readOtf2Trace(writeTrace(dir, {{0, 1, 100}, {1, 0, 7}, {1, 0, 3}, {0, 0xFFFFFFFE, 5}}));
        QVERIFY2(capture, capture ? "" : capture.error().toString().c_str());
        QCOMPARE(capture->pointToPoint.processCount(), 2);
        QCOMPARE(capture->pointToPoint.volume().coeff(0, 1), 100.0);
        QCOMPARE(capture->pointToPoint.volume().coeff(1, 0), 10.0);
        QCOMPARE(capture->pointToPoint.messages().coeff(1, 0), 2.0);
    }

    // Issue 31: a send to a receiver outside its communicator was dropped without a word.
    void aSendToAReceiverOutsideItsCommunicatorIsRefused()
    {
        QTemporaryDir dir;
        const std::string archive = writeTrace(dir, {{0, 1, 100}, {1, 0, 7}, {1, 5, 3}});
        auto capture = io::readOtf2Trace(archive);
        QVERIFY(!capture);
        const std::string error = capture.error().toString();
        QVERIFY2(error.find(archive
                            + ": location 1 (rank 1), its send 2 (time 2), names receiver 5 of communicator 0, "
                              "which is not one of its ranks")
                     != std::string::npos,
                 error.c_str());
    }

    // Issue 31.7: a rank's collective bytes adding up past 2^64 - 1 are refused, not wrapped.
    void collectiveBytesThatWouldWrapAreRefused()
    {
        QTemporaryDir dir;
        const uint64_t half = uint64_t{1} << 63;
        auto fits = io::readOtf2Trace(writeTrace(dir, {{0, 0, half - 1, true}, {0, 0, half, true}}));
        QVERIFY2(fits, fits ? "" : fits.error().toString().c_str());
        QTemporaryDir other;
        auto wraps = io::readOtf2Trace(writeTrace(other, {{0, 0, half, true}, {0, 0, half, true}}));
        QVERIFY(!wraps);
        QVERIFY2(wraps.error().toString().find("location 0 (rank 0): the bytes its allreduce calls sent add up past "
                                               "2^64 - 1")
                     != std::string::npos,
                 wraps.error().toString().c_str());
    }
};

QTEST_GUILESS_MAIN(TestOtf2Trace)
#include "test_otf2_trace.moc"
