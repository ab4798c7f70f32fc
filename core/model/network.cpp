#include "core/model/network.h"

#include <algorithm>
#include <cassert>
#include <cstdio>

namespace meridian::model {

namespace {

std::string formatValue(double v)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

} // namespace

std::string_view provenanceId(Provenance p)
{
    switch (p) {
    case Provenance::Missing:
        return "missing";
    case Provenance::Measured:
        return "measured";
    case Provenance::Estimated:
        return "estimated";
    case Provenance::Edited:
        return "edited";
    }
    return "missing";
}

std::optional<Provenance> provenanceFromId(std::string_view id)
{
    for (auto p : {Provenance::Missing, Provenance::Measured, Provenance::Estimated, Provenance::Edited})
        if (provenanceId(p) == id)
            return p;
    return std::nullopt;
}

bool isValidNetworkValue(NetworkQuantity q, double value)
{
    // Written so that NaN fails every comparison.
    return q == NetworkQuantity::Latency ? value >= 0.0 && value <= kMaxLatencyMs
                                         : value >= kMinBandwidthMBps && value <= kMaxBandwidthMBps;
}

std::string networkValueRange(NetworkQuantity q)
{
    return q == NetworkQuantity::Latency ? "a latency from 0 to 600000 ms (10 minutes)"
                                         : "a bandwidth from 1.25e-07 MB/s (1 bit/s) to 1.25e+06 MB/s (10 Tbit/s)";
}

Network::Network(int siteCount)
    : m_latencyMs(Eigen::MatrixXd::Constant(siteCount, siteCount, std::nan("")))
    , m_bandwidthMBps(Eigen::MatrixXd::Constant(siteCount, siteCount, std::nan("")))
    , m_latencyProvenance(ProvenanceMatrix::Zero(siteCount, siteCount))
    , m_bandwidthProvenance(ProvenanceMatrix::Zero(siteCount, siteCount))
    , m_latencyMeasuredAt(DateMatrix::Zero(siteCount, siteCount))
    , m_bandwidthMeasuredAt(DateMatrix::Zero(siteCount, siteCount))
{}

double Network::value(NetworkQuantity q, int from, int to) const
{
    return q == NetworkQuantity::Latency ? m_latencyMs(from, to) : m_bandwidthMBps(from, to);
}

Provenance Network::provenance(NetworkQuantity q, int from, int to) const
{
    const auto& m = q == NetworkQuantity::Latency ? m_latencyProvenance : m_bandwidthProvenance;
    return static_cast<Provenance>(m(from, to));
}

bool Network::isMissing(int from, int to) const
{
    return provenance(NetworkQuantity::Latency, from, to) == Provenance::Missing
        || provenance(NetworkQuantity::Bandwidth, from, to) == Provenance::Missing;
}

MeasuredAt Network::measuredAt(NetworkQuantity q, int from, int to) const
{
    return q == NetworkQuantity::Latency ? m_latencyMeasuredAt(from, to) : m_bandwidthMeasuredAt(from, to);
}

void Network::set(NetworkQuantity q, int from, int to, double value, Provenance provenance, MeasuredAt measuredAt)
{
    assert(isValidNetworkValue(q, value));
    assert(provenance != Provenance::Missing);
    const MeasuredAt date = provenance == Provenance::Measured ? measuredAt : 0;
    if (q == NetworkQuantity::Latency) {
        m_latencyMs(from, to) = value;
        m_latencyProvenance(from, to) = static_cast<std::uint8_t>(provenance);
        m_latencyMeasuredAt(from, to) = date;
    } else {
        m_bandwidthMBps(from, to) = value;
        m_bandwidthProvenance(from, to) = static_cast<std::uint8_t>(provenance);
        m_bandwidthMeasuredAt(from, to) = date;
    }
}

void Network::clear(NetworkQuantity q, int from, int to)
{
    if (q == NetworkQuantity::Latency) {
        m_latencyMs(from, to) = std::nan("");
        m_latencyProvenance(from, to) = 0;
        m_latencyMeasuredAt(from, to) = 0;
    } else {
        m_bandwidthMBps(from, to) = std::nan("");
        m_bandwidthProvenance(from, to) = 0;
        m_bandwidthMeasuredAt(from, to) = 0;
    }
}

bool Network::isComplete() const
{
    return (m_latencyProvenance.array() != 0).all() && (m_bandwidthProvenance.array() != 0).all();
}

int Network::count(NetworkQuantity q, Provenance p) const
{
    const auto& m = q == NetworkQuantity::Latency ? m_latencyProvenance : m_bandwidthProvenance;
    return static_cast<int>((m.array() == static_cast<std::uint8_t>(p)).count());
}

Network::MeasurementDates Network::measurementDates() const
{
    MeasurementDates out;
    const auto note = [&out](MeasuredAt date) {
        if (date == 0)
            return;
        out.oldest = out.dated == 0 ? date : std::min(out.oldest, date);
        out.newest = out.dated == 0 ? date : std::max(out.newest, date);
        ++out.dated;
    };
    for (const auto* dates : {&m_latencyMeasuredAt, &m_bandwidthMeasuredAt})
        for (Eigen::Index k = 0; k < dates->size(); ++k)
            note(dates->data()[k]);
    for (const auto& [pair, link] : m_hostLinks)
        note(link.provenance == Provenance::Measured ? link.measuredAt : 0);
    return out;
}

void Network::setHostLink(int fromHost, int toHost, const HostLink& link) { m_hostLinks[{fromHost, toHost}] = link; }

const HostLink* Network::hostLink(int fromHost, int toHost) const
{
    auto it = m_hostLinks.find({fromHost, toHost});
    return it == m_hostLinks.end() ? nullptr : &it->second;
}

Status Network::validate(int hostCount) const
{
    for (auto q : {NetworkQuantity::Latency, NetworkQuantity::Bandwidth}) {
        const char* what = q == NetworkQuantity::Latency ? "latency" : "bandwidth";
        for (int i = 0; i < siteCount(); ++i)
            for (int j = 0; j < siteCount(); ++j)
                if (provenance(q, i, j) != Provenance::Missing && !isValidNetworkValue(q, value(q, i, j)))
                    return makeError(ErrorCode::InvalidInput,
                                     std::string(what) + " between sites " + std::to_string(i) + " and "
                                         + std::to_string(j) + " is " + formatValue(value(q, i, j)) + "; expected "
                                         + networkValueRange(q));
    }
    for (const auto& [key, link] : m_hostLinks) {
        if (key.first < 0 || key.second < 0 || key.first >= hostCount || key.second >= hostCount)
            return makeError(ErrorCode::InvalidInput, "a host link names a host that does not exist");
        if (!isValidNetworkValue(NetworkQuantity::Latency, link.latencyMs)
            || !isValidNetworkValue(NetworkQuantity::Bandwidth, link.bandwidthMBps))
            return makeError(ErrorCode::InvalidInput,
                             "host link " + std::to_string(key.first) + " -> " + std::to_string(key.second) + " needs "
                                 + networkValueRange(NetworkQuantity::Latency) + " and "
                                 + networkValueRange(NetworkQuantity::Bandwidth));
    }
    return {};
}

} // namespace meridian::model
