#pragma once

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace meridian::test {

/// A Slurm cluster of this machine alone, for the tests that submit batch jobs and start srun (Debian's slurmctld
/// and slurmd, which scripts/dev installs): a controller and a node daemon with a configuration of their own in a
/// temporary folder (free ports, no authentication daemon, the machine's cores as one node named as the machine,
/// PMIx as the MPI plugin as most sites configure it), started for the test and stopped with it. SLURM_CONF points
/// the test and what it starts at it. The daemons run as this user: as root, as CI runs the tests.
class SlurmCluster {
public:
    SlurmCluster() = default;
    SlurmCluster(const SlurmCluster&) = delete;
    SlurmCluster& operator=(const SlurmCluster&) = delete;
    ~SlurmCluster() { stop(); }

    /// Starts the daemons and waits until the node takes jobs; an empty string, or what went wrong.
    std::string start()
    {
        if (!m_folder.isValid())
            return "cannot create a temporary folder for the cluster";
        const QDir folder(m_folder.path());
        for (const char* sub : {"state", "spool"})
            folder.mkpath(sub);
        const QString host = nodeName();
        const QString user = qEnvironmentVariable("USER", ::geteuid() == 0 ? "root" : "");
        QString conf;
        conf += "ClusterName=meridian-test\n";
        conf += QString("SlurmctldHost=%1(127.0.0.1)\n").arg(host);
        const auto [controllerPort, nodePort] = twoFreePorts();
        conf += QString("SlurmctldPort=%1\nSlurmdPort=%2\n").arg(controllerPort).arg(nodePort);
        conf += "AuthType=auth/none\nCredType=cred/none\n";
        conf += QString("SlurmUser=%1\nSlurmdUser=%1\n").arg(::geteuid() == 0 ? QString("root") : user);
        conf += QString("StateSaveLocation=%1\nSlurmdSpoolDir=%2\n")
                    .arg(folder.filePath("state"), folder.filePath("spool"));
        conf += QString("SlurmctldPidFile=%1\nSlurmdPidFile=%2\n")
                    .arg(folder.filePath("ctld.pid"), folder.filePath("d.pid"));
        conf += QString("SlurmctldLogFile=%1\nSlurmdLogFile=%2\n")
                    .arg(folder.filePath("ctld.log"), folder.filePath("d.log"));
        conf += "ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nMpiDefault=pmix\n";
        // At least 2 CPUs, so that a job of 2 tasks runs on a machine of 1 core too (config_overrides: the node
        // takes what the configuration says it has).
        conf += "SelectType=select/cons_tres\nSelectTypeParameters=CR_Core\nReturnToService=2\n";
        conf += "SlurmdParameters=config_overrides\n";
        conf += QString("NodeName=%1 NodeAddr=127.0.0.1 CPUs=%2 State=UNKNOWN\n")
                    .arg(host)
                    .arg(std::max(2, QThread::idealThreadCount()));
        conf += QString("PartitionName=main Nodes=%1 Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4\n")
                    .arg(host);
        // slurmd starts its cgroup plugin even when nothing uses it (proctrack/linuxproc, task/none), and fails
        // where no cgroup file system is mounted (a chroot): the v1 plugin over an empty folder of its own starts.
        folder.mkpath("cgroup");
        QFile cgroups(folder.filePath("cgroup.conf"));
        if (!cgroups.open(QIODevice::WriteOnly)
            || cgroups.write(QString("CgroupPlugin=cgroup/v1\nCgroupMountpoint=%1\nCgroupAutomount=no\n")
                                 .arg(folder.filePath("cgroup"))
                                 .toUtf8())
                < 0)
            return "cannot write " + cgroups.fileName().toStdString();
        cgroups.close();
        QFile file(folder.filePath("slurm.conf"));
        if (!file.open(QIODevice::WriteOnly) || file.write(conf.toUtf8()) < 0)
            return "cannot write " + file.fileName().toStdString();
        file.close();
        qputenv("SLURM_CONF", file.fileName().toLocal8Bit());
        m_controller.start("slurmctld", {"-D", "-f", file.fileName()});
        m_node.start("slurmd", {"-D", "-f", file.fileName(), "-N", host});
        if (!m_controller.waitForStarted(10000) || !m_node.waitForStarted(10000))
            return "cannot start slurmctld and slurmd (Debian's slurmctld and slurmd packages; scripts/dev test "
                   "installs them)";
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 60000) {
            QProcess sinfo;
            sinfo.start("sinfo", {"-h", "-o", "%T"});
            sinfo.waitForFinished(10000);
            if (sinfo.readAllStandardOutput().trimmed() == "idle")
                return {};
            if (m_controller.state() == QProcess::NotRunning || m_node.state() == QProcess::NotRunning)
                break;
            QThread::msleep(200);
        }
        return "the test cluster's node did not become idle; slurmd said: " + log("d.log")
            + "\nslurmctld said: " + log("ctld.log");
    }

    /// The node's name: this machine's short host name.
    static QString nodeName()
    {
        char name[256] = {};
        ::gethostname(name, sizeof name - 1);
        return QString::fromLocal8Bit(name).section('.', 0, 0);
    }

    /// Whether no job is left in the queue (pending, running or ending), within `seconds`.
    bool drained(int seconds) const
    {
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < seconds * 1000) {
            QProcess squeue;
            squeue.start("squeue", {"-h", "-o", "%i"});
            squeue.waitForFinished(10000);
            if (squeue.exitCode() == 0 && squeue.readAllStandardOutput().trimmed().isEmpty())
                return true;
            QThread::msleep(200);
        }
        return false;
    }

    /// The state of a job as scontrol says it (COMPLETED, CANCELLED, ...).
    static QString jobState(const QString& id)
    {
        QProcess scontrol;
        scontrol.start("scontrol", {"show", "job", "-o", id});
        scontrol.waitForFinished(10000);
        const QString line = QString::fromUtf8(scontrol.readAllStandardOutput());
        return line.section("JobState=", 1).section(' ', 0, 0);
    }

private:
    /// Two ports no one listens on: both bound at once, so they differ, and released for the daemons.
    static std::pair<int, int> twoFreePorts()
    {
        int fds[2] = {::socket(AF_INET, SOCK_STREAM, 0), ::socket(AF_INET, SOCK_STREAM, 0)};
        int ports[2] = {0, 0};
        for (int k = 0; k < 2; ++k) {
            sockaddr_in address{};
            address.sin_family = AF_INET;
            address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            socklen_t size = sizeof address;
            if (::bind(fds[k], reinterpret_cast<sockaddr*>(&address), size) == 0
                && ::getsockname(fds[k], reinterpret_cast<sockaddr*>(&address), &size) == 0)
                ports[k] = ntohs(address.sin_port);
        }
        ::close(fds[0]);
        ::close(fds[1]);
        return {ports[0], ports[1]};
    }
    std::string log(const char* name) const
    {
        QFile file(QDir(m_folder.path()).filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            return "(no log)";
        return file.readAll().right(600).toStdString();
    }
    void stop()
    {
        for (QProcess* daemon : {&m_node, &m_controller}) {
            if (daemon->state() == QProcess::NotRunning)
                continue;
            daemon->terminate();
            if (!daemon->waitForFinished(10000)) {
                daemon->kill();
                daemon->waitForFinished(5000);
            }
        }
        qunsetenv("SLURM_CONF");
    }

    QTemporaryDir m_folder;
    QProcess m_controller, m_node;
};

} // namespace meridian::test
